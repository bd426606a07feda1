// Problems with the link the page was opened with, at the top of the form where they are seen: a
// parameter that is not a field (hardware.cuont=8) or a catalog ID that does not exist
// (hardware.gpu=h1000), each with the engine's suggestion one click away, or removed.
import { el } from '../dom.js';
import { FIELD_BY_PATH } from '../fields.js';
import { errorText, issueText, t } from '../i18n.js';
import { scaledIssue } from './form.js';
import { parseNumber } from '../numbers.js';

// The issues that are the link's: unknown keys and unused parameters of the link's extras, IDs the
// catalog does not have, and values the link gave a field that the user has not edited since
// (strategy.mfu=40), which would otherwise be flagged far down the form.
export function linkProblems(errors, extra, fromLink = new Set()) {
  return errors.filter((issue) => extra.has(issue.field) || issue.code === 'unknown_id' || fromLink.has(issue.field));
}

// A link's value out of range whose field the page shows in percent, given as a percentage
// (strategy.mfu=40 for 40%): the fraction it meant, else null.
export function percentFix(issue, value) {
  const field = FIELD_BY_PATH.get(issue.field);
  const number = parseNumber(String(value));
  if (field?.scale !== 100 || issue.code !== 'out_of_range' || number === null || !(number > 1 && number <= 100)) return null;
  return String(Number((number / 100).toPrecision(12)));
}

// Where a suggestion takes the value: an unknown key's sibling (hardware.cuont -> hardware.count), or
// the same field with the suggested ID.
export function suggestedPath(issue) {
  const suggestion = issue.params?.suggestion;
  if (!suggestion) return null;
  if (issue.code === 'unknown_id') return issue.field;
  const parent = issue.field.includes('.') ? issue.field.slice(0, issue.field.lastIndexOf('.')) : '';
  return parent ? `${parent}.${suggestion}` : suggestion;
}

export class LinkProblems {
  // onFix(issue, path, value): use the suggestion; onRemove(issue): drop the parameter (or, for a
  // field's value, go back to the field's default).
  constructor(container, { onFix, onRemove }) {
    this.node = el('div', { class: 'link-problems', role: 'alert', hidden: true });
    container.prepend(this.node);
    this.onFix = onFix;
    this.onRemove = onRemove;
  }

  // A field's value from the link that the engine refused: what is wrong, in the field's words, and the
  // fix (a percentage given as a fraction's number) or the default.
  valueProblem(issue, state) {
    const lang = state.lang;
    const value = state.values.get(issue.field) ?? '';
    const fix = percentFix(issue, value);
    const buttons = [];
    if (fix !== null) {
      const use = el('button', { type: 'button', class: 'link-button', 'data-fix': issue.field, text: t(lang, 'link_problem_use', { fix: `${issue.field}=${fix}` }) });
      use.addEventListener('click', () => this.onFix(issue, issue.field, fix));
      buttons.push(' ', use);
    }
    const reset = el('button', { type: 'button', class: 'link-button', 'data-remove': issue.field, text: t(lang, 'link_problem_default') });
    reset.addEventListener('click', () => this.onRemove(issue));
    buttons.push(' ', reset);
    const gap = lang === 'zh' ? '' : ' ';
    const what = t(lang, 'link_problem_value', { param: `${issue.field}=${value}` });
    const hint = fix !== null ? t(lang, 'link_problem_percent', { value, fix: `${issue.field}=${fix}` }) : '';
    // In the units the input shows (a percentage for the utilisation), as beside the input.
    const field = FIELD_BY_PATH.get(issue.field);
    const why = field.scale ? errorText(lang, scaledIssue(issue, field.scale)) : issueText(lang, issue);
    return el('p', { 'data-link-problem': issue.field }, [what, gap, why, hint ? `${gap}${hint}` : '', ...buttons]);
  }

  render(problems, state) {
    const lang = state.lang;
    this.node.hidden = problems.length === 0;
    if (!problems.length) {
      this.node.replaceChildren();
      return;
    }
    this.node.replaceChildren(
      el('strong', { text: t(lang, 'link_problems_title') }),
      ...problems.map((issue) => {
        if (!state.extra.has(issue.field) && FIELD_BY_PATH.has(issue.field) && issue.code !== 'unknown_id') return this.valueProblem(issue, state);
        const value = state.extra.get(issue.field) ?? state.values.get(issue.field) ?? '';
        const path = suggestedPath(issue);
        const fixValue = issue.code === 'unknown_id' ? issue.params?.suggestion : value;
        const buttons = [];
        if (path) {
          const use = el('button', { type: 'button', class: 'link-button', 'data-fix': issue.field, text: t(lang, 'link_problem_use', { fix: `${path}=${fixValue}` }) });
          use.addEventListener('click', () => this.onFix(issue, path, fixValue));
          buttons.push(' ', use);
        }
        if (state.extra.has(issue.field)) {
          const remove = el('button', { type: 'button', class: 'link-button', 'data-remove': issue.field, text: t(lang, 'link_problem_remove') });
          remove.addEventListener('click', () => this.onRemove(issue));
          buttons.push(' ', remove);
        }
        const what = issue.code === 'unknown_id'
          ? t(lang, 'link_problem_id', { param: `${issue.field}=${value}` })
          : t(lang, issue.code === 'unknown_key' ? 'link_problem_key' : 'link_problem_other', { param: `${issue.field}=${value}` });
        const hint = path ? t(lang, 'link_problem_suggest', { fix: `${path}=${fixValue}` }) : '';
        const gap = lang === 'zh' ? '' : ' ';  // Chinese sentences follow each other without a space
        return el('p', { 'data-link-problem': issue.field }, [what, hint ? `${gap}${hint}` : '', ...buttons]);
      }),
    );
  }
}
