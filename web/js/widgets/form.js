// The input form: built once from the field table, then updated in place so typing is never
// interrupted. Errors show next to the input they belong to, in data-error-for elements.
import { el, idFor } from '../dom.js';
import { CUSTOM_GPU, MODES, SECTIONS } from '../fields.js';
import { count } from '../format.js';
import { confidenceWord, errorText, issueText, t } from '../i18n.js';
import { displayValue } from '../state.js';

export class Form {
  constructor(container, { onInput, onMode, onCommit }) {
    this.container = container;
    this.onInput = onInput;
    this.onCommit = onCommit;
    this.onMode = onMode;
    this.inputs = new Map();
    this.wrappers = new Map();
    this.labels = [];
    this.errorSlots = new Map();
    this.modeSelects = new Map();
    this.searchBoxes = [];
    this.factLines = new Map();
    this.advice = new Map();
    this.notes = new Map();
    this.build();
  }

  build() {
    for (const section of SECTIONS) {
      const heading = el('h2', { 'data-i18n': section.key });
      const fieldset = el('fieldset', { class: 'section', 'data-section': section.key }, [el('legend', {}, heading)]);
      this.labels.push([heading, section.key]);
      const grid = el('div', { class: 'grid' });
      for (const field of section.fields.filter((f) => f.first)) grid.append(this.buildField(field));
      if (section.mode) grid.append(this.buildMode(section.mode));
      for (const field of section.fields.filter((f) => !f.first)) grid.append(this.buildField(field));
      fieldset.append(grid);
      this.container.append(fieldset);
    }
    this.live = el('span', { class: 'visually-hidden', 'aria-live': 'polite' });
    this.container.append(this.live);
    this.generalErrors = el('div', { class: 'general-errors', role: 'alert', hidden: true });
    this.notice = el('p', { class: 'notice', role: 'status', hidden: true });
    this.container.prepend(this.notice);
    this.container.append(this.generalErrors);
  }

  buildMode(name) {
    const mode = MODES[name];
    const id = `mode-${name}`;
    const select = el('select', { id, 'data-mode': name, onchange: () => this.onMode(name, select.value) });
    for (const option of mode.options) select.append(el('option', { value: option, 'data-i18n': mode.prefix + option }));
    const label = el('label', { for: id });
    this.labels.push([label, mode.label]);
    for (const option of select.options) this.labels.push([option, option.getAttribute('data-i18n')]);
    this.modeSelects.set(name, select);
    return el('div', { class: 'field mode' }, [label, select]);
  }

  buildField(field) {
    const id = idFor(field.path);
    const errorId = `err-${id}`;
    let input;
    let search = null;
    let facts = null;
    if (field.kind === 'select') {
      input = el('select', { id, name: field.path, 'aria-describedby': `${errorId} ${id}-facts` });
      if (typeof field.options === 'string') {
        // Catalog pickers: a search box that narrows the list, and the chosen entry's key numbers.
        search = el('input', { type: 'search', id: `${id}-search`, class: 'picker-search', autocomplete: 'off' });
        search.addEventListener('input', () => filterOptions(input, search.value));
        // Arrows move through the matches (shown in the list), Enter picks the one shown, Escape
        // goes back to the chosen one: the list is never left for the keyboard to reach.
        search.setAttribute('aria-controls', id);
        // Leaving the box without Enter takes back what the arrows showed: the list shows what the
        // estimate is for.
        search.addEventListener('blur', () => {
          if (!this.chosen?.has(field.path)) return;
          input.value = this.chosen.get(field.path);
          this.chosen.delete(field.path);
          filterOptions(input, search.value);
        });
        search.addEventListener('keydown', (event) => {
          const path = field.path;
          const chosen = this.chosen?.get(path) ?? input.value;
          if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            const matches = matchingOptions(input, search.value);
            if (!matches.length) return;
            const at = matches.findIndex((o) => o.value === input.value);
            const next = event.key === 'ArrowDown'
              ? matches[at < 0 ? 0 : Math.min(matches.length - 1, at + 1)]
              : matches[at < 0 ? matches.length - 1 : Math.max(0, at - 1)];
            (this.chosen ??= new Map()).set(path, chosen);
            input.value = next.value;
            filterOptions(input, search.value);
            this.live.textContent = next.textContent;  // said by a screen reader: the list does not take focus
          } else if (event.key === 'Enter') {
            event.preventDefault();
            // The one shown where it matches (reached by the arrows, or the chosen one), else the
            // first match; an empty box picks nothing.
            const matches = search.value.trim() ? matchingOptions(input, search.value) : [];
            const pick = matches.some((o) => o.value === input.value) ? input.value : matches[0]?.value;
            this.chosen?.delete(path);
            if (pick !== undefined && pick !== chosen) {
              input.value = pick;
              this.onInput(path, pick);
            } else if (pick !== undefined) input.value = pick;
          } else if (event.key === 'Escape' && this.chosen?.has(path)) {
            event.preventDefault();
            input.value = this.chosen.get(path);
            this.chosen.delete(path);
            filterOptions(input, search.value);
          }
        });
        facts = el('span', { class: 'facts', id: `${id}-facts` });
        this.searchBoxes.push(search);
        this.factLines.set(field.path, facts);
      }
      if (Array.isArray(field.options)) {
        for (const option of field.options) {
          const key = field.optionLabels?.[option] ?? (field.optionPrefix ? field.optionPrefix + option : null);
          const node = el('option', { value: option, text: option.toUpperCase() });
          if (key) this.labels.push([node, key]);
          input.append(node);
        }
      }
      input.addEventListener('change', () => this.onInput(field.path, input.value));
    } else if (field.kind === 'check') {
      input = el('input', { id, name: field.path, type: 'checkbox', 'aria-describedby': errorId });
      input.addEventListener('change', () => this.onInput(field.path, input.checked ? 'true' : 'false'));
    } else {
      const listId = field.list ? `${id}-list` : null;
      input = el('input', {
        id, name: field.path, type: 'text', autocomplete: 'off', spellcheck: 'false',
        inputmode: field.kind === 'number' ? 'decimal' : null, list: listId, 'aria-describedby': errorId,
      });
      input.addEventListener('input', () => this.onInput(field.path, input.value, { typing: true }));
      // The value is complete when the user leaves the input or presses Enter.
      input.addEventListener('change', () => this.onCommit?.(field.path));
      if (field.list) {
        this.container.append(el('datalist', { id: listId }, field.list.map((v) => el('option', { value: v }))));
      }
    }
    const label = el('label', { for: id });
    this.labels.push([label, field.path]);
    const hint = field.hint ? el('span', { class: 'hint' }) : null;
    if (hint) this.labels.push([hint, field.hint]);
    const error = el('span', { class: 'error', id: errorId, 'data-error-for': field.path, 'aria-live': 'polite' });
    this.errorSlots.set(field.path, error);
    // A percentage typed as a fraction ("0.4" for 40%): asked about, with the fix one click away.
    let advice = null;
    if (field.scale === 100) {
      advice = el('span', { class: 'advice', 'data-advice-for': field.path, 'aria-live': 'polite', hidden: true });
      this.advice.set(field.path, advice);
    }
    // What an edit did that the user may not expect (a price's currency re-read), with its undo.
    const note = el('span', { class: 'field-note', 'data-note-for': field.path, role: 'status', hidden: true });
    this.notes.set(field.path, note);
    const wrapper = el('div', { class: `field ${field.kind}` }, [label, search, input, facts, hint, advice, note, error]);
    this.inputs.set(field.path, { field, input });
    this.wrappers.set(field.path, wrapper);
    return wrapper;
  }

  // Fills catalog-backed selects (models, GPUs) once the engine has loaded the catalog, grouped by
  // family and vendor, each entry with its key numbers.
  setCatalog(catalog, lang) {
    this.catalog = catalog;
    for (const { field, input } of this.inputs.values()) {
      if (field.options === 'models') {
        replaceOptions(input, catalog.models.map((m) => ({
          value: m.id, group: m.name.split(' ')[0], text: `${m.name} · ${count(m.params ?? m.computed_params, lang)}`,
        })));
      } else if (field.options === 'gpus') {
        const options = catalog.gpus.map((g) => ({
          value: g.id, group: g.vendor ?? '', text: `${g.name} · ${peakOf(g)} TFLOPS · ${g.memory_gb} GB`,
        }));
        options.push({ value: CUSTOM_GPU, group: '', text: t(lang, 'gpu_custom') });
        replaceOptions(input, options);
      }
    }
  }

  // The key numbers (and source) of the chosen model and GPU.
  updateFacts(state) {
    const lang = state.lang;
    for (const [path, line] of this.factLines) {
      const id = state.values.get(path);
      let text = '';
      let source = '';
      if (path === 'model.preset') {
        const m = this.catalog?.models.find((x) => x.id === id);
        if (m) {
          text = m.layers
            ? t(lang, 'facts_model', {
              params: count(m.computed_params, lang), layers: m.layers, hidden: m.hidden, heads: m.heads,
              kv: m.kv_heads, vocab: count(m.vocab, lang), experts: m.experts > 1 ? t(lang, 'facts_experts', { active: m.experts_per_token, experts: m.experts }) : '',
            })
            : t(lang, 'facts_params', { params: count(m.params, lang) });
          source = m.source;
        }
      } else {
        const g = this.catalog?.gpus.find((x) => x.id === id);
        if (g) {
          const peaks = ['bf16', 'fp16', 'fp8', 'tf32', 'fp32'].filter((p) => g[`${p}_tflops`] !== undefined)
            .map((p) => `${p.toUpperCase()} ${g[`${p}_tflops`]}`).join(' · ');
          text = `${peaks} TFLOPS (${t(lang, 'dense')}) · ${g.memory_gb} GB${g.memory_bandwidth_tbs ? ` · ${g.memory_bandwidth_tbs} TB/s` : ''}${g.tdp_w ? ` · ${g.tdp_w} W` : ''}${g.confidence ? ` · ${t(lang, 'confidence')} ${confidenceWord(lang, g.confidence)}` : ''}`;
          source = g.source;
        }
      }
      line.textContent = text;
      line.title = source ? `${t(lang, 'source')}: ${source}` : '';
    }
    for (const box of this.searchBoxes) {
      box.placeholder = t(lang, 'search');
      box.setAttribute('aria-label', t(lang, 'search'));
    }
  }

  update(state) {
    const lang = state.lang;
    for (const [node, key] of this.labels) node.textContent = t(lang, key);
    if (this.catalog) this.setCatalog(this.catalog, lang);
    this.updateFacts(state);
    for (const [name, select] of this.modeSelects) select.value = state.modes[name];
    for (const [path, { field, input }] of this.inputs) {
      this.wrappers.get(path).hidden = !field.active(state);
      const stored = state.values.get(path) ?? '';
      if (field.kind === 'check') {
        input.checked = stored === 'true';
      } else if (field.kind === 'select') {
        if (![...input.options].some((o) => o.value === stored)) input.append(el('option', { value: stored, text: stored }));
        input.value = stored;
      } else if (document.activeElement !== input) {
        input.value = displayValue(field, stored);
      }
    }
    for (const [path, node] of this.advice) this.updateAdvice(path, node, state);
  }

  // "0.4% — did you mean 40%?" for a percentage between 0 and 1, and a button that makes it 40.
  updateAdvice(path, node, state) {
    const { field } = this.inputs.get(path);
    const shown = Number(displayValue(field, state.values.get(path) ?? ''));
    const suspicious = field.active(state) && Number.isFinite(shown) && shown > 0 && shown <= 1;
    node.hidden = !suspicious;
    if (!suspicious) {
      node.replaceChildren();
      return;
    }
    const fixed = String(Number((shown * 100).toPrecision(12)));
    const button = el('button', { type: 'button', class: 'link-button', text: t(state.lang, 'percent_advice_fix', { fixed }) });
    button.addEventListener('click', () => this.onInput(path, fixed));
    node.replaceChildren(t(state.lang, 'percent_advice', { typed: String(shown), fixed }), ' ', button);
  }

  // What an empty input stands for, as the engine resolved it (e.g. the preset's sequence length).
  setPlaceholders(values) {
    for (const [path, value] of Object.entries(values)) {
      const entry = this.inputs.get(path);
      if (entry && entry.field.kind !== 'select') entry.input.placeholder = value === undefined ? '' : String(value);
    }
  }

  // A note under one input: text, and an optional button [label, action]; null hides it.
  showFieldNote(path, text, button = null) {
    const note = this.notes.get(path);
    if (!note) return;
    const action = button && el('button', { type: 'button', class: 'link-button', text: button[0], onclick: button[1] });
    note.replaceChildren(...(text ? [text, ...(action ? [' ', action] : [])] : []));
    note.hidden = !text;
  }

  showNotice(text) {
    this.notice.textContent = text ?? '';
    this.notice.hidden = !text;
  }

  // The engine names one field where the page may show another: "no price" is reported on
  // per_gpu_hour, but the user may be looking at the monthly price input.
  visiblePathFor(field) {
    // The measured run's fields: the engine names them inside scenario.calibration's first run.
    const measured = /^calibration\[0\]\.(?:measured|scenario)\.(.+)$/.exec(field ?? '');
    if (measured && this.wrappers.has(`calibration.${measured[1]}`)) field = `calibration.${measured[1]}`;
    // "A count is required" means, when a budget or deadline decides the count, that it is missing.
    const alternatives = {
      'pricing.per_gpu_hour': ['pricing.per_gpu_month'],
      'hardware.count': ['budget.per_month', 'budget.deadline_days'],
    }[field] ?? [];
    for (const path of [field, ...alternatives]) {
      const wrapper = this.wrappers.get(path);
      if (wrapper && !wrapper.hidden) return path;
    }
    return field;
  }

  // Errors next to their inputs; those without a visible input (e.g. a layout conflict) in a list.
  showErrors(errors, lang) {
    for (const slot of this.errorSlots.values()) slot.textContent = '';
    for (const { input } of this.inputs.values()) input.removeAttribute('aria-invalid');
    const general = [];
    for (const issue of errors) {
      const path = this.visiblePathFor(issue.field);
      const slot = this.errorSlots.get(path);
      const wrapper = this.wrappers.get(path);
      if (slot && wrapper && !wrapper.hidden) {
        const { field } = this.inputs.get(path);
        // The message in the user's language, with the engine's values in it; a field shown in percent
        // gets the engine's limits and value in the units the user typed. A second problem with the
        // same field is added after the first (tp that divides neither the heads nor the GPUs).
        const text = field.scale ? errorText(lang, scaledIssue(issue, field.scale))
          : issueText(lang, issue);
        slot.textContent = slot.textContent ? `${slot.textContent}${lang === 'zh' ? '' : ' '}${text}` : text;
        this.inputs.get(path).input.setAttribute('aria-invalid', 'true');
      } else {
        general.push(issue);
      }
    }
    this.generalErrors.replaceChildren(
      ...(general.length ? [el('strong', { text: t(lang, 'errors_general') })] : []),
      // In the user's language, with the engine's values in it.
      ...general.map((issue) => el('p', { 'data-error-for': issue.field || 'scenario' }, [
        issue.field ? `${issue.field}: ` : '',
        issueText(lang, issue),
      ])),
    );
    this.generalErrors.hidden = general.length === 0;
  }
}

// An issue about a field the page shows scaled (a percent, or bytes as GB): its limits and value as the
// input shows them.
export function scaledIssue(issue, scale) {
  const params = { ...(issue.params ?? {}) };
  for (const name of ['max', 'min', 'got']) {
    const value = Number(params[name]);
    if (params[name] !== undefined && params[name] !== '' && Number.isFinite(value)) {
      params[name] = `${Number((value * scale).toPrecision(12))}${scale === 100 ? '%' : ''}`;
    }
  }
  return { ...issue, params };
}

function peakOf(gpu) {
  return gpu.bf16_tflops ?? gpu.fp16_tflops ?? gpu.fp32_tflops ?? gpu.fp8_tflops;
}

// Options grouped in <optgroup>s, rebuilt only when they change so an open list is not disturbed.
function replaceOptions(select, options) {
  const signature = JSON.stringify(options);
  if (select.dataset.signature === signature) return;
  select.dataset.signature = signature;
  const value = select.value;
  const groups = new Map();
  for (const option of options) {
    if (!groups.has(option.group)) groups.set(option.group, []);
    groups.get(option.group).push(el('option', { value: option.value, text: option.text }));
  }
  select.replaceChildren(...[...groups].map(([label, nodes]) => (label ? el('optgroup', { label }, nodes) : nodes)).flat());
  if (options.some((o) => o.value === value)) select.value = value;
}

// The options whose text or ID holds every word typed, best first: a typed word that is a whole word
// of the option ("3" in "Llama 3 8B") counts more than one inside a word ("3" in "3.1"), then the
// list order. Enter picks the first, so "llama 3 8b" is Llama 3 8B, not Llama 3.1 8B.
export function matchingOptions(select, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const scored = [];
  [...select.querySelectorAll('option')].forEach((option, index) => {
    const haystack = `${option.value} ${option.textContent}`.toLowerCase();
    if (!words.every((w) => haystack.includes(w))) return;
    const tokens = new Set(haystack.split(/[^\p{L}\p{N}.]+/u).filter(Boolean));
    const whole = words.filter((w) => tokens.has(w)).length;
    scored.push({ option, whole, index });
  });
  return scored.sort((a, b) => b.whole - a.whole || a.index - b.index).map((entry) => entry.option);
}

function filterOptions(select, query) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  for (const option of select.querySelectorAll('option')) {
    const haystack = `${option.value} ${option.textContent}`.toLowerCase();
    option.hidden = option.value !== select.value && !words.every((w) => haystack.includes(w));
  }
  for (const group of select.querySelectorAll('optgroup')) {
    group.hidden = [...group.children].every((o) => o.hidden);
  }
}
