// Four ways in, one state: pre-training, fine-tuning, the budget planner ("what can I train with X a
// month, or by a date") and comparing GPUs. Each sets a few inputs; nothing typed is lost, so
// switching back restores the same estimate.
import { el } from '../dom.js';
import { t } from '../i18n.js';

export const WAYS = ['pretrain', 'finetune', 'budget', 'compare'];

// Which way the current state is in.
export function wayOf(state) {
  if (state.view === 'compare') return 'compare';
  if (state.modes.gpus === 'per_month' || state.modes.gpus === 'deadline') return 'budget';
  return state.values.get('training.type') === 'finetune' ? 'finetune' : 'pretrain';
}

// The state changes a way makes (in place).
export function enterWay(state, way) {
  state.view = way === 'compare' ? 'compare' : null;
  // Comparing needs a GPU count: a budget or deadline not filled in gives way to one.
  const decider = { per_month: 'budget.per_month', deadline: 'budget.deadline_days' }[state.modes.gpus];
  if (way === 'compare' && decider && !state.values.get(decider)) state.modes.gpus = 'count';
  if (way === 'pretrain' || way === 'finetune') {
    state.values.set('training.type', way);
    if (state.modes.gpus !== 'count') state.modes.gpus = 'count';
  }
  // A monthly price the budget opened and nobody filled in closes when leaving it.
  const monthlyPriceEmpty = state.modes.price === 'per_gpu_month' && !state.values.get('pricing.per_gpu_month');
  if (way !== 'budget' && state.modes.gpus === 'count' && monthlyPriceEmpty) state.modes.price = 'none';
  if (way === 'budget') {
    if (state.modes.gpus === 'count') state.modes.gpus = 'per_month';
    if (state.modes.gpus === 'per_month' && state.modes.price === 'none') state.modes.price = 'per_gpu_month';
  }
}

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
