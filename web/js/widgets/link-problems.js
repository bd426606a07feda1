// Problems with the link the page was opened with, at the top of the form where they are seen: a
// parameter that is not a field (hardware.cuont=8) or a catalog ID that does not exist
// (hardware.gpu=h1000), each with the engine's suggestion one click away, or removed.
import { el } from '../dom.js';
import { t } from '../i18n.js';

// The issues that are the link's: unknown keys and unused parameters of the link's extras, and IDs the
// catalog does not have.
export function linkProblems(errors, extra) {
  return errors.filter((issue) => extra.has(issue.field) || issue.code === 'unknown_id');
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
  // onFix(issue, path, value): use the suggestion; onRemove(issue): drop the parameter.
  constructor(container, { onFix, onRemove }) {
    this.node = el('div', { class: 'link-problems', role: 'alert', hidden: true });
    container.prepend(this.node);
    this.onFix = onFix;
    this.onRemove = onRemove;
  }

  show(problems, state) {
    const lang = state.lang;
    this.node.hidden = problems.length === 0;
    if (!problems.length) {
      this.node.replaceChildren();
      return;
    }
    this.node.replaceChildren(
      el('strong', { text: t(lang, 'link_problems_title') }),
      ...problems.map((issue) => {
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
