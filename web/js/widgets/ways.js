// Four ways in, one state: pre-training, fine-tuning, the budget planner ("what can I train with X a
// month, or by a date") and comparing GPUs. Each sets a few inputs; nothing typed is lost, so
// switching back restores the same estimate.
import { el } from '../dom.js';
import { t } from '../i18n.js';
import { WAYS, wayOf } from '../modes.js';

// The rules of each way are in modes.js (enterWay); this is the row of buttons.
export class Ways {
  constructor(container, { onChoose }) {
    this.buttons = WAYS.map((way) => {
      const button = el('button', { type: 'button', class: 'way', 'data-way': way, 'aria-pressed': 'false' });
      button.addEventListener('click', () => onChoose(way));
      return button;
    });
    this.nav = el('div', { class: 'ways', role: 'group' }, this.buttons);
    container.prepend(this.nav);
  }

  label(lang) {
    this.nav.setAttribute('aria-label', t(lang, 'ways_label'));
    for (const button of this.buttons) button.textContent = t(lang, `way_${button.dataset.way}`);
  }

  update(state) {
    const current = wayOf(state);
    for (const button of this.buttons) button.setAttribute('aria-pressed', String(button.dataset.way === current));
  }
}
