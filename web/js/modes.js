// The form's modes (how the model, the data, the GPU count and the price are given; fields.js MODES)
// and every rule that moves them, as pure functions of the state: inferred from a link, chosen in a
// selector, implied by a value (a GPU count, an offer's price), or set by choosing a way in
// (pre-training, fine-tuning, a budget, comparing GPUs). Nothing typed is lost: a mode change only
// decides which inputs are shown and sent.

export const WAYS = ['pretrain', 'finetune', 'budget', 'compare'];

// Which modes a link means, from the paths it carries.
export function inferModes(params) {
  const has = (path) => params.has(path);
  const modes = {};
  if (['model.layers', 'model.hidden', 'model.heads', 'model.ffn_hidden', 'model.vocab'].some(has)) modes.model = 'architecture';
  else if (has('model.params')) modes.model = 'params';
  else modes.model = 'preset';
  if (params.get('training.tokens') === 'chinchilla') modes.data = 'chinchilla';
  else modes.data = ['dataset_gb', 'samples', 'steps', 'total_flops', 'images'].find((k) => has(`training.${k}`)) ?? 'tokens';
  modes.gpus = has('budget.per_month') ? 'per_month' : has('budget.deadline_days') ? 'deadline' : 'count';
  modes.price = has('pricing.per_gpu_hour') ? 'per_gpu_hour' : has('pricing.per_gpu_month') ? 'per_gpu_month' : 'none';
  return modes;
}

// A monthly budget needs a monthly price: with the one, the other's input opens.
export function requireMonthlyPrice(state) {
  if (state.modes.gpus === 'per_month' && state.modes.price === 'none') state.modes.price = 'per_gpu_month';
}

// The architecture's keys an imported config set that the form has no input for (qkv_bias, MLA
// ranks, ...) travel as link parameters; they belong to that architecture and go when the model
// changes.
export function dropImportedModelKeys(state) {
  for (const key of [...state.extra.keys()]) if (key.startsWith('model.')) state.extra.delete(key);
}

// A mode chosen in its selector. An architecture's imported keys belong to the model mode they came
// with; no price, no picked offer; a monthly budget opens a monthly price (which the user may then
// close).
export function chooseMode(state, name, value) {
  state.modes[name] = value;
  if (name === 'model') dropImportedModelKeys(state);
  if (name === 'price' && value === 'none') state.extra.delete('pricing.offer');
  if (name === 'gpus') requireMonthlyPrice(state);
}

// A value that implies its mode: a GPU count given (a memory fix, a link's fix) plans on that count.
export function impliedMode(state, path) {
  if (path === 'hardware.count') state.modes.gpus = 'count';
}

// The price input the price mode shows: a month's price, else an hour's.
export function priceKey(state) {
  return state.modes.price === 'per_gpu_month' ? 'pricing.per_gpu_month' : 'pricing.per_gpu_hour';
}

// An offer's price taken into the price inputs: hourly, or monthly where the offer has no hourly one.
export function choosePriceOf(state, offer) {
  const monthly = offer.per_gpu_hour === undefined;
  state.modes.price = monthly ? 'per_gpu_month' : 'per_gpu_hour';
  state.values.set(priceKey(state), String(monthly ? offer.per_gpu_month : offer.per_gpu_hour));
}

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
    requireMonthlyPrice(state);
  }
}
