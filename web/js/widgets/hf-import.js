// "Paste a Hugging Face config.json": the engine reads it into the architecture form; what it
// assumed is listed under the box.
import { el } from '../dom.js';
import { issueText, t, warningText } from '../i18n.js';

export class HfImport {
  constructor(container, { onImport }) {
    this.summary = el('summary');
    this.textarea = el('textarea', { id: 'hf-config', rows: 6, spellcheck: 'false', autocomplete: 'off' });
    this.labelElement = el('label', { for: 'hf-config', class: 'visually-hidden' });
    this.button = el('button', { type: 'button', id: 'hf-import', class: 'button' });
    this.message = el('div', { class: 'hf-message', role: 'status', 'aria-live': 'polite' });
    this.button.addEventListener('click', () => onImport(this.textarea.value));
    this.root = el('details', { class: 'hf-import' }, [this.summary, this.labelElement, this.textarea, this.button, this.message]);
    container.append(this.root);
  }

  label(lang) {
    this.lang = lang;
    this.summary.textContent = t(lang, 'hf_import_title');
    this.labelElement.textContent = t(lang, 'hf_import_title');
    this.textarea.placeholder = t(lang, 'hf_import_placeholder');
    this.button.textContent = t(lang, 'hf_import_button');
  }

  // Shown while the model is given as an architecture.
  update(state) {
    this.root.hidden = state.modes.model !== 'architecture';
  }

  // The engine's answer: errors (nothing imported), or the model with its notes.
  show(result, paramsText) {
    const lines = result.errors.length
      ? result.errors.map((e) => el('p', { class: 'error', 'data-error-for': e.field, text: issueText(this.lang, e) }))
      : [
        el('p', { class: 'ok', text: t(this.lang, 'hf_imported', { name: result.model.name ?? '', params: paramsText }) }),
        ...result.warnings.map((w) => el('p', { class: 'hint', text: warningText(this.lang, w) })),
      ];
    this.message.replaceChildren(...lines);
  }
}
