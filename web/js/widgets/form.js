// The input form: built once from the field table, then updated in place so typing is never
// interrupted. Errors show next to the input they belong to, in data-error-for elements.
import { el, idFor } from '../dom.js';
import { CUSTOM_GPU, MODES, SECTIONS } from '../fields.js';
import { count } from '../format.js';
import { errorText, t } from '../i18n.js';
import { displayValue } from '../state.js';

export class Form {
  constructor(container, { onInput, onMode }) {
    this.container = container;
    this.onInput = onInput;
    this.onMode = onMode;
    this.inputs = new Map();
    this.wrappers = new Map();
    this.labels = [];
    this.errorSlots = new Map();
    this.modeSelects = new Map();
    this.build();
  }

  build() {
    for (const section of SECTIONS) {
      const heading = el('h2', { 'data-i18n': section.key });
      const fieldset = el('fieldset', { class: 'section' }, [el('legend', {}, heading)]);
      this.labels.push([heading, section.key]);
      const grid = el('div', { class: 'grid' });
      for (const field of section.fields.filter((f) => f.first)) grid.append(this.buildField(field));
      if (section.mode) grid.append(this.buildMode(section.mode));
      for (const field of section.fields.filter((f) => !f.first)) grid.append(this.buildField(field));
      fieldset.append(grid);
      this.container.append(fieldset);
    }
    this.generalErrors = el('div', { class: 'general-errors', role: 'alert', hidden: true });
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
    if (field.kind === 'select') {
      input = el('select', { id, name: field.path, 'aria-describedby': errorId });
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
      input.addEventListener('input', () => this.onInput(field.path, input.value));
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
    const wrapper = el('div', { class: `field ${field.kind}` }, [label, input, hint, error]);
    this.inputs.set(field.path, { field, input });
    this.wrappers.set(field.path, wrapper);
    return wrapper;
  }

  // Fills catalog-backed selects (models, GPUs) once the engine has loaded the catalog.
  setCatalog(catalog, lang) {
    this.catalog = catalog;
    for (const { field, input } of this.inputs.values()) {
      if (field.options === 'models') {
        replaceOptions(input, catalog.models.map((m) => [m.id, `${m.name} · ${count(m.params ?? m.computed_params, lang)}`]));
      } else if (field.options === 'gpus') {
        const options = catalog.gpus.map((g) => {
          const peak = g.bf16_tflops ?? g.fp16_tflops ?? g.fp32_tflops;
          return [g.id, `${g.name} · ${peak} TFLOPS · ${g.memory_gb} GB`];
        });
        options.push([CUSTOM_GPU, t(lang, 'gpu_custom')]);
        replaceOptions(input, options);
      }
    }
  }

  update(state) {
    const lang = state.lang;
    for (const [node, key] of this.labels) node.textContent = t(lang, key);
    if (this.catalog) this.setCatalog(this.catalog, lang);
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
  }

  // What an empty input stands for, as the engine resolved it (e.g. the preset's sequence length).
  setPlaceholders(values) {
    for (const [path, value] of Object.entries(values)) {
      const entry = this.inputs.get(path);
      if (entry && entry.field.kind !== 'select') entry.input.placeholder = value === undefined ? '' : String(value);
    }
  }

  // The engine names one field where the page may show another: "no price" is reported on
  // per_gpu_hour, but the user may be looking at the monthly price input.
  visiblePathFor(field) {
    const alternatives = { 'pricing.per_gpu_hour': ['pricing.per_gpu_month'] }[field] ?? [];
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
        // The short message in the user's language; the engine's precise English one beside it.
        if (lang === 'en') slot.textContent = issue.message;
        else slot.replaceChildren(errorText(lang, issue), el('span', { class: 'detail', text: issue.message }));
        this.inputs.get(path).input.setAttribute('aria-invalid', 'true');
      } else {
        general.push(issue);
      }
    }
    this.generalErrors.replaceChildren(
      ...(general.length ? [el('strong', { text: t(lang, 'errors_general') })] : []),
      ...general.map((issue) =>
        el('p', { 'data-error-for': issue.field || 'scenario', text: `${issue.field ? `${issue.field}: ` : ''}${issue.message}` })),
    );
    this.generalErrors.hidden = general.length === 0;
  }
}

function replaceOptions(select, options) {
  const value = select.value;
  const same = select.options.length === options.length && options.every(([v, text], i) => select.options[i].value === v && select.options[i].textContent === text);
  if (same) return;
  select.replaceChildren(...options.map(([v, text]) => el('option', { value: v, text })));
  if (options.some(([v]) => v === value)) select.value = value;
}
