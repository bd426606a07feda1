import { CHOICES, CURRENCIES } from './contract.js';

// The form, as data: every input is a dotted scenario path (the same path the engine names in its
// errors and the URL hash carries), shown when its mode is active.

// Mode selectors: which of several ways of giving something the user chose. Each is inferred from
// the URL on load, so a shared link reopens the same form.
export const MODES = {
  model: { options: ['preset', 'params', 'architecture'], default: 'preset', label: 'model_form', prefix: 'model_form_' },
  data: {
    options: ['tokens', 'chinchilla', 'dataset_gb', 'samples', 'steps', 'total_flops', 'images'],
    default: 'tokens',
    label: 'data_form',
    prefix: 'data_',
  },
  gpus: { options: ['count', 'per_month', 'deadline'], default: 'count', label: 'gpus_form', prefix: 'gpus_' },
  price: { options: ['none', 'per_gpu_hour', 'per_gpu_month'], default: 'none', label: 'price_form', prefix: 'price_' },
};

const when = (mode, ...values) => (state) => values.includes(state.modes[mode]);
const always = () => true;
const customGpu = (state) => state.values.get('hardware.gpu') === CUSTOM_GPU;
const finetuneWith = (...methods) => (state) =>
  state.values.get('training.type') === 'finetune' && methods.includes(state.values.get('training.method'));

export const CUSTOM_GPU = 'custom';

// kind: number | select | check | text. Defaults are what a first-time visitor sees; keep: the link
// always carries the field (it defines the estimate); omit(state): shown, but neither sent nor linked.
export const SECTIONS = [
  {
    key: 'section_model',
    mode: 'model',
    fields: [
      { path: 'model.preset', kind: 'select', options: 'models', default: 'llama-2-7b', keep: true, active: when('model', 'preset') },
      { path: 'model.params', kind: 'number', default: '7e9', hint: 'hint_number', active: when('model', 'params') },
      { path: 'model.active_params', kind: 'number', default: '', hint: 'hint_number', active: when('model', 'params') },
      { path: 'model.layers', kind: 'number', default: '32', active: when('model', 'architecture') },
      { path: 'model.hidden', kind: 'number', default: '4096', active: when('model', 'architecture') },
      { path: 'model.heads', kind: 'number', default: '32', active: when('model', 'architecture') },
      { path: 'model.kv_heads', kind: 'number', default: '8', active: when('model', 'architecture') },
      { path: 'model.ffn_hidden', kind: 'number', default: '14336', active: when('model', 'architecture') },
      { path: 'model.vocab', kind: 'number', default: '128256', active: when('model', 'architecture') },
      { path: 'model.gated_mlp', kind: 'check', default: 'true', active: when('model', 'architecture') },
      { path: 'model.tied_embeddings', kind: 'check', default: 'false', active: when('model', 'architecture') },
      { path: 'model.experts', kind: 'number', default: '', active: when('model', 'architecture') },
      { path: 'model.experts_per_token', kind: 'number', default: '', active: when('model', 'architecture') },
    ],
  },
  {
    key: 'section_data',
    mode: 'data',
    fields: [
      { path: 'training.type', kind: 'select', options: CHOICES['training.type'], optionPrefix: 'type_', default: 'pretrain', active: always, first: true },
      {
        path: 'training.method', kind: 'select', options: CHOICES['training.method'], optionPrefix: 'method_', default: 'full',
        active: (state) => state.values.get('training.type') === 'finetune', first: true,
      },
      { path: 'training.lora_rank', kind: 'number', default: '16', active: finetuneWith('lora', 'qlora'), first: true },
      { path: 'training.tokens', kind: 'number', default: '2e12', hint: 'hint_number', keep: true, active: when('data', 'tokens') },
      { path: 'training.dataset_gb', kind: 'number', default: '100', active: when('data', 'dataset_gb') },
      {
        path: 'training.text', kind: 'select', options: CHOICES['training.text'],
        optionPrefix: 'text_', default: 'english', active: when('data', 'dataset_gb'),
        // Bytes per token typed in say how dense the text is: the kind is then not sent (nor linked).
        omit: (state) => Boolean(state.values.get('training.bytes_per_token')),
      },
      { path: 'training.bytes_per_token', kind: 'number', default: '', hint: 'hint_bytes_per_token', active: when('data', 'dataset_gb') },
      { path: 'training.samples', kind: 'number', default: '1e6', active: when('data', 'samples') },
      { path: 'training.steps', kind: 'number', default: '1e5', active: when('data', 'steps') },
      { path: 'training.global_batch_tokens', kind: 'number', default: '4194304', active: when('data', 'steps') },
      { path: 'training.total_flops', kind: 'number', default: '1e22', active: when('data', 'total_flops') },
      { path: 'training.images', kind: 'number', default: '1281167', hint: 'hint_images', active: when('data', 'images') },
      { path: 'training.resolution', kind: 'number', default: '', hint: 'hint_resolution', active: when('data', 'images') },
      { path: 'training.seq_len', kind: 'number', default: '', hint: 'hint_seq_len_default', active: always },
      {
        path: 'training.epochs', kind: 'number', default: '',
        active: (state) => state.modes.data !== 'total_flops',
      },
    ],
  },
  {
    key: 'section_hardware',
    mode: 'gpus',
    fields: [
      { path: 'hardware.gpu', kind: 'select', options: 'gpus', default: 'h100-sxm', keep: true, active: always, first: true },
      { path: 'hardware.gpu.name', kind: 'text', default: '', active: customGpu, first: true },
      { path: 'hardware.gpu.memory_gb', kind: 'number', default: '80', active: customGpu, first: true },
      { path: 'hardware.gpu.bf16_tflops', kind: 'number', default: '', active: customGpu, first: true },
      { path: 'hardware.gpu.fp16_tflops', kind: 'number', default: '', active: customGpu, first: true },
      { path: 'hardware.count', kind: 'number', default: '8', keep: true, active: when('gpus', 'count') },
      { path: 'budget.per_month', kind: 'number', default: '', active: when('gpus', 'per_month') },
      {
        path: 'budget.currency', kind: 'select', options: ['', ...CURRENCIES], optionLabels: { '': 'budget_currency_price' },
        default: '', active: when('gpus', 'per_month'),
      },
      { path: 'budget.months', kind: 'number', default: '', hint: 'hint_months', active: when('gpus', 'per_month') },
      { path: 'budget.deadline_days', kind: 'number', default: '90', active: when('gpus', 'deadline') },
    ],
  },
  {
    key: 'section_strategy',
    fields: [
      {
        path: 'strategy.precision', kind: 'select', options: ['', ...CHOICES['strategy.precision']],
        optionLabels: { '': 'precision_default' }, default: '', active: always,
      },
      { path: 'strategy.mfu', kind: 'number', scale: 100, default: '', hint: 'hint_mfu', keep: true, active: always },
    ],
  },
  {
    key: 'section_price',
    mode: 'price',
    fields: [
      { path: 'pricing.per_gpu_hour', kind: 'number', default: '2', active: when('price', 'per_gpu_hour') },
      { path: 'pricing.per_gpu_month', kind: 'number', default: '', active: when('price', 'per_gpu_month') },
      // Sent only beside a price: an empty price input asks for no price (a deadline plans GPUs without
      // one), and only a monthly budget then says that it needs one.
      {
        path: 'pricing.currency', kind: 'text', list: CURRENCIES, default: 'USD',
        active: (state) => state.modes.price !== 'none', omit: (state) => !priceTyped(state) && state.modes.gpus !== 'per_month',
      },
      // The currency the costs are shown in: a price (or budget) in another is converted at the dated
      // reference rates, and the results say so. Empty: the budget's, else the price's.
      {
        path: 'currency', kind: 'select', options: ['', ...CURRENCIES], optionLabels: { '': 'currency_as_given' },
        default: '', active: (state) => state.modes.price !== 'none',
      },
    ],
  },
  {
    key: 'section_layout',
    fields: [
      { path: 'strategy.tp', kind: 'number', default: '', hint: 'hint_auto_one', active: always },
      { path: 'strategy.pp', kind: 'number', default: '', hint: 'hint_auto_one', active: always },
      { path: 'strategy.micro_batch', kind: 'number', default: '', hint: 'hint_auto_one', active: always },
      {
        path: 'training.global_batch_sequences', kind: 'number', default: '', hint: 'hint_batch_default',
        active: (state) => state.modes.data !== 'steps',
      },
      {
        path: 'strategy.zero', kind: 'select', options: ['', '0', '1', '2', '3'], numeric: true, optionPrefix: 'zero_',
        optionLabels: { '': 'zero_auto' }, default: '', active: always,
      },
      {
        path: 'strategy.recompute', kind: 'select', options: ['', ...CHOICES['strategy.recompute'].filter((c) => c !== 'auto')], optionPrefix: 'recompute_',
        optionLabels: { '': 'recompute_auto' }, default: '', active: always,
      },
      {
        path: 'strategy.optimizer', kind: 'select', options: CHOICES['strategy.optimizer'],
        optionPrefix: 'optimizer_', default: 'adamw', active: always,
      },
      {
        path: 'strategy.framework', kind: 'select', options: ['', ...CHOICES['strategy.framework']], optionPrefix: 'framework_',
        optionLabels: { '': 'framework_auto' }, default: '', active: always,
      },
      {
        path: 'strategy.attention', kind: 'select', options: ['', ...CHOICES['strategy.attention']], optionPrefix: 'attention_',
        optionLabels: { '': 'attention_auto' }, default: '', active: always,
      },
      // Sent only when chosen: the framework's default otherwise (LitGPT's Fabric accumulates under no_sync).
      {
        path: 'strategy.no_sync_accumulation', kind: 'select', options: ['', 'true', 'false'], boolean: true,
        optionPrefix: 'no_sync_', optionLabels: { '': 'no_sync_auto' }, default: '', active: always,
      },
      // Sent only when ticked: an unticked box is the engine's default, and a link or scenario stays as short.
      { path: 'strategy.compile', kind: 'check', default: 'false', active: always, omit: (state) => state.values.get('strategy.compile') !== 'true' },
    ],
  },
  {
    key: 'section_energy',
    fields: [
      {
        path: 'energy.region', kind: 'select', options: ['', ...CHOICES['energy.region']],
        optionPrefix: 'region_', optionLabels: { '': 'region_default' }, default: '', active: always,
      },
      { path: 'energy.pue', kind: 'number', default: '', hint: 'hint_pue', active: always },
    ],
  },
  // The expected run's terms (engine goodput.cpp); empty: the recovery's sourced defaults.
  {
    key: 'section_operations',
    fields: [
      {
        path: 'operations.recovery', kind: 'select', options: ['', ...CHOICES['operations.recovery']],
        optionPrefix: 'recovery_', optionLabels: { '': 'recovery_default' }, default: '', active: always,
      },
      { path: 'operations.interruptions_per_1000_gpu_days', kind: 'number', default: '', hint: 'hint_interruptions', active: always },
      { path: 'operations.restart_minutes', kind: 'number', default: '', hint: 'hint_restart', active: always },
      { path: 'operations.checkpoint_interval_hours', kind: 'number', default: '', hint: 'hint_checkpoint_interval', active: always },
      { path: 'operations.run_efficiency', kind: 'number', scale: 100, default: '', hint: 'hint_run_efficiency', active: always },
    ],
  },
  // A run the user measured (scenario.calibration's first): what was measured, and on how many GPUs
  // if not this run's. The engine fits what these pin down and calibrates the estimate to them.
  // Memory is typed in GB as the page shows it: 2^30 bytes (format.bytes, the memory units note), as
  // Megatron, DeepSpeed and torchtitan print it.
  {
    key: 'section_measured',
    fields: [
      { path: 'calibration.time.step_seconds', kind: 'number', default: '', hint: 'hint_measured', active: always },
      { path: 'calibration.time.tokens_per_second', kind: 'number', default: '', hint: 'hint_measured', active: always },
      { path: 'calibration.time.tflops_per_gpu', kind: 'number', default: '', hint: 'hint_measured', active: always },
      { path: 'calibration.memory.allocated_bytes', kind: 'number', scale: 2 ** -30, default: '', hint: 'hint_measured', active: always },
      { path: 'calibration.memory.reserved_bytes', kind: 'number', scale: 2 ** -30, default: '', hint: 'hint_measured', active: always },
      { path: 'calibration.hardware.count', kind: 'number', default: '', hint: 'hint_measured_gpus', active: always },
    ],
  },
];

export const FIELDS = SECTIONS.flatMap((section) => section.fields);
export const FIELD_BY_PATH = new Map(FIELDS.map((field) => [field.path, field]));

// Whether the active price input holds anything.
function priceTyped(state) {
  const path = { per_gpu_hour: 'pricing.per_gpu_hour', per_gpu_month: 'pricing.per_gpu_month' }[state.modes.price];
  return Boolean(path && (state.values.get(path) ?? '').trim());
}

// A budget needs a price: choosing a monthly budget shows the price inputs too.
export function priceNeeded(state) {
  return state.modes.gpus === 'per_month';
}
