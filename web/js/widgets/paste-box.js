// A box to paste text into and a button that hands it on (a Hugging Face config.json, training log
// lines): the summary, the visually hidden label, the textarea, the button and a status line, in a
// <details> appended to the container. The widget using it sets the words; lang() says the page's
// language, for the one message the box says itself: that the reader (the engine's import module,
// fetched on the first paste) did not load or failed. The pasted text stays in the box.
import { el } from '../dom.js';
import { t } from '../i18n.js';

export function pasteBox(container, { textareaId, buttonId, rows, className, onSubmit, lang }) {
  const box = {
    summary: el('summary'),
    textarea: el('textarea', { id: textareaId, rows, spellcheck: 'false', autocomplete: 'off' }),
    labelElement: el('label', { for: textareaId, class: 'visually-hidden' }),
    button: el('button', { type: 'button', id: buttonId, class: 'button' }),
    message: el('div', { class: 'hf-message', role: 'status', 'aria-live': 'polite' }),
  };
  box.button.addEventListener('click', () => {
    Promise.resolve(onSubmit(box.textarea.value)).catch((error) => {
      console.error(error);
      box.message.replaceChildren(el('p', { class: 'error', 'data-paste-failed': '', text: t(lang(), 'paste_failed') }));
    });
  });
  box.root = el('details', { class: className }, [box.summary, box.labelElement, box.textarea, box.button, box.message]);
  container.append(box.root);
  return box;
}
