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

// Fine-tuning's own defaults, shown in the inputs rather than left to a placeholder: a dataset in
// samples, Alpaca's 52,002 instructions for 3 epochs (github.com/tatsu-lab/stanford_alpaca, README:
// "52K" data, "Epochs 3"), at a typical 2,048-token sequence (FastChat's Vicuna recipe,
// --model_max_length 2048), not pre-training's 2 trillion tokens at the model's whole context
// (8,192 for Llama 3, which alone turns LoRA of an 8B model on a 24 GB card from fits to no).
export const FINETUNE_DEFAULTS = { 'training.samples': '52002', 'training.epochs': '3', 'training.seq_len': '2048' };
const PRETRAIN_TOKENS = '2e12';  // the tokens field's default (fields.js)

// The data a training type starts from, where the user has not given their own: fine-tuning's
// defaults on the way in, pre-training's inputs restored on the way back (nothing typed is touched).
export function applyTrainingDefaults(state, type) {
  const untouchedTokens = state.modes.data === 'chinchilla' ||
    (state.modes.data === 'tokens' && (state.values.get('training.tokens') ?? PRETRAIN_TOKENS) === PRETRAIN_TOKENS);
  if (type === 'finetune' && untouchedTokens) {
    state.modes.data = 'samples';
    state.values.set('training.samples', FINETUNE_DEFAULTS['training.samples']);
    if (!state.values.get('training.epochs')) state.values.set('training.epochs', FINETUNE_DEFAULTS['training.epochs']);
    if (!state.values.get('training.seq_len')) state.values.set('training.seq_len', FINETUNE_DEFAULTS['training.seq_len']);
  } else if (type === 'pretrain' && state.modes.data === 'samples' &&
      Object.entries(FINETUNE_DEFAULTS).every(([path, value]) => state.values.get(path) === value)) {
    state.modes.data = 'tokens';
    state.values.set('training.epochs', '');
    state.values.set('training.seq_len', '');
  }
}

// The state changes a way makes (in place).
export function enterWay(state, way) {
  state.view = way === 'compare' ? 'compare' : null;
  // Comparing needs a GPU count: a budget or deadline not filled in gives way to one.
  const decider = { per_month: 'budget.per_month', deadline: 'budget.deadline_days' }[state.modes.gpus];
  if (way === 'compare' && decider && !state.values.get(decider)) state.modes.gpus = 'count';
  if (way === 'pretrain' || way === 'finetune') {
    if (state.values.get('training.type') !== way) applyTrainingDefaults(state, way);
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
