// A measured run's settings (as tests/data/memory-measured/ normalises them) as a traincalc scenario:
// shared by make-memory-validation.mjs and make-speed-validation.mjs, so that a run's memory and its
// step time are predicted on the same scenario.
// The architecture fields a scenario's model takes (docs/reference.md, "architecture").
const ARCHITECTURE = ['layers', 'hidden', 'heads', 'kv_heads', 'head_dim', 'ffn_hidden', 'vocab', 'gated_mlp',
  'tied_embeddings', 'experts', 'experts_per_token', 'encoder_only', 'bias', 'norm', 'position_embeddings', 'qkv_bias',
  'qk_norm', 'norms_per_layer', 'embedding_norm', 'lm_head_bias', 'moe_ffn_hidden', 'shared_experts', 'dense_layers',
  'q_lora_rank', 'kv_lora_rank', 'qk_nope_head_dim', 'qk_rope_head_dim', 'v_head_dim', 'decoder_layers', 'dropout'];
const OPTIMIZERS = { adamw: 'adamw', adam: 'adam', adamw_8bit: 'adamw-8bit', adam8bit: 'adamw-8bit',
  paged_adamw: 'paged-adamw', paged_adamw_8bit: 'paged-adamw-8bit', sgd: 'sgd', adafactor: 'adafactor' };
// SimuMax's case names start with the model it cut down ("llama3_70b_l12_tp1_..."): the model's name,
// its layers counted apart (the validation view shows them), e.g. "Llama 3 70B".
const SIMUMAX_MODELS = { llama3_70b: 'Llama 3 70B', llama3_405b: 'Llama 3 405B', deepseekv2: 'DeepSeek-V2', deepseekv3: 'DeepSeek-V3' };
export function simumaxModelName(simumaxCase) {
  const parts = simumaxCase.split('_');
  const name = SIMUMAX_MODELS[parts.slice(0, 2).join('_')] ?? SIMUMAX_MODELS[parts[0]];
  if (!name) throw new Error(`SimuMax case ${simumaxCase}: no model name`);
  return name;
}

export function scenario(r, gpus) {
  // A model without a preset is named as its run names it (the base model a fine-tune started from),
  // else by its depth: the validation view describes each row by this name.
  const unnamed = r.architecture?.layers ? `${r.architecture.layers}-layer model` : 'measured model';
  const model = r.model ? { preset: r.model } : { name: r.model_name ?? r.base_model ?? unnamed };
  if (r.architecture)
    for (const key of ARCHITECTURE) if (r.architecture[key] !== undefined && r.architecture[key] !== null) model[key] = r.architecture[key];
  const dp = r.dp ?? 1;
  const training = {
    type: r.training === 'pretrain' ? 'pretrain' : 'finetune',
    steps: 1,
    seq_len: r.seq_len,
    global_batch_sequences: r.micro_batch * (r.gradient_accumulation ?? 1) * dp,
  };
  if (r.objective) training.objective = r.objective;
  if (r.method && r.method !== 'full') {
    training.method = r.method;
    if (r.lora_rank) training.lora_rank = r.lora_rank;
    if (r.lora_targets) training.lora_targets = r.lora_targets;
    if (r.adapter_precision) training.adapter_precision = r.adapter_precision;
    if (r.lora_dropout !== null && r.lora_dropout !== undefined) training.lora_dropout = r.lora_dropout;
    if (r.method === 'qlora' && r.quantization) training.quantization = r.quantization;
  }
  const framework = r.framework === 'torchtitan' ? 'fsdp2' : r.framework;
  const strategy = {
    framework,
    precision: r.regime === 'fp32' ? 'fp32' : r.precision,
    optimizer: OPTIMIZERS[r.optimizer] ?? r.optimizer,
    tp: r.tp ?? 1, pp: r.pp ?? 1, cp: r.cp ?? 1, ep: r.ep ?? 1, dp,
    zero: r.zero ?? 0,
    micro_batch: r.micro_batch,
    recompute: r.recompute ?? 'none',
    attention: r.attention,
    cross_entropy: r.cross_entropy,
  };
  if (r.regime && r.regime !== 'fp32') strategy.regime = r.regime;
  if ((r.virtual_stages ?? 1) > 1) strategy.pp_virtual_stages = r.virtual_stages;
  if (r.sequence_parallel !== undefined && r.sequence_parallel !== null) strategy.sequence_parallel = r.sequence_parallel;
  if (r.optimizer_in_backward) strategy.optimizer_in_backward = true;
  if (r.activation_offload) strategy.activation_offload = true;
  if (r.compiled) strategy.compile = true;
  if (r.offload && r.offload !== 'none') strategy.offload = r.offload === 'optimizer_and_params' ? 'optimizer+params' : r.offload;
  let gpu = r.gpu;
  if (r.capacity_gib) {
    // A card the catalog lists with another capacity (H100 96 GB, say): the catalog's row, resized.
    const { id, source, notes, confidence, ...spec } = gpus.get(r.gpu);
    gpu = { ...spec, name: `${spec.name} (${r.capacity_gib} GiB)`, memory_gb: r.capacity_gib, usable_memory_gib: r.capacity_gib };
  }
  const s = { model, training, hardware: { gpu, count: r.gpus ?? 1 }, strategy };
  if (r.cuda_context_gb) s.memory = { cuda_context_gb: r.cuda_context_gb };
  return s;
}

