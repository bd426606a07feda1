// "Paste a Hugging Face config.json": the engine reads it into the architecture form; what it
// assumed is listed under the box.
import { el } from '../dom.js';
import { issueText, t, warningText } from '../i18n.js';
import { pasteBox } from './paste-box.js';

export class HfImport {
  constructor(container, { onImport }) {
    Object.assign(this, pasteBox(container, {
      textareaId: 'hf-config', buttonId: 'hf-import', rows: 6, className: 'hf-import', onSubmit: onImport, lang: () => this.lang,
    }));
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
  render(result, paramsText) {
    const lines = result.errors.length
      ? result.errors.map((e) => el('p', { class: 'error', 'data-error-for': e.field, text: issueText(this.lang, e) }))
      : [
        el('p', { class: 'ok', text: t(this.lang, 'hf_imported', { name: result.model.name ?? '', params: paramsText }) }),
        ...result.warnings.map((w) => el('p', { class: 'hint', text: warningText(this.lang, w) })),
      ];
    this.message.replaceChildren(...lines);
  }
}
