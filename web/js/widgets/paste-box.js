// A box to paste text into and a button that hands it on (a Hugging Face config.json, training log
// lines): the summary, the visually hidden label, the textarea, the button and a status line, in a
// <details> appended to the container. The widget using it sets the words.
import { el } from '../dom.js';

export function pasteBox(container, { textareaId, buttonId, rows, className, onSubmit }) {
  const box = {
    summary: el('summary'),
    textarea: el('textarea', { id: textareaId, rows, spellcheck: 'false', autocomplete: 'off' }),
    labelElement: el('label', { for: textareaId, class: 'visually-hidden' }),
    button: el('button', { type: 'button', id: buttonId, class: 'button' }),
    message: el('div', { class: 'hf-message', role: 'status', 'aria-live': 'polite' }),
  };
  box.button.addEventListener('click', () => onSubmit(box.textarea.value));
  box.root = el('details', { class: className }, [box.summary, box.labelElement, box.textarea, box.button, box.message]);
  container.append(box.root);
  return box;
}
