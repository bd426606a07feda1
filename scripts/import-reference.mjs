// Regenerates engine/data/gpus.json and engine/data/offers.json from the project's checked reference
// sheet (../shared/reference/hardware.json), so every number keeps the source and confidence it has
// there. Run it when the reference changes:  node scripts/import-reference.mjs [REFERENCE_JSON]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const referencePath = process.argv[2] ?? join(root, '..', 'shared', 'reference', 'hardware.json');
const reference = JSON.parse(readFileSync(referencePath, 'utf8'));

// Cluster layouts the reference's network table gives per system.
const DGX_A100 = [200, 'DGX A100 / Azure ND A100 v4: 8 x HDR 200 Gb/s compute NICs, one per GPU'];
const DGX_H100 = [400, 'DGX H100/H200: 8 x NDR 400 Gb/s (ConnectX-7), one per GPU (ml-engineering network table, commit 744d01e)'];
const DGX_B200 = [400, 'DGX B200 / GB200 NVL72: 8 x ConnectX-7 400 Gb/s per 8 GPUs (DGX B200 datasheet)'];
const HGX = 'HGX/DGX baseboard of 8 GPUs';
const OAM = 'OAM platform of 8 accelerators';
const PCIE8 = 'a typical 8-card PCIe server (fewer in many cloud instances; set hardware.gpus_per_node)';

// Our ID, the reference's ID, GPUs per node (with why), inter-node Gb/s per GPU (with source).
const GPUS = [
  ['v100-sxm2-16gb', 'v100-sxm2-16gb', 8, 'DGX-1 (8 GPUs)'],
  ['v100-sxm2-32gb', 'v100-sxm2-32gb', 8, 'DGX-1 (8 GPUs)'],
  ['v100-pcie', 'v100-pcie', 8, PCIE8],
  ['t4', 't4', 8, 'AWS g4dn.metal has 8 T4; most instances have 1-4'],
  ['a10', 'a10', 8, PCIE8],
  ['a10g', 'a10g', 8, 'AWS g5.48xlarge (8 A10G)'],
  ['a30', 'a30', 8, PCIE8],
  ['a40', 'a40', 8, PCIE8],
  ['a100-40gb-sxm', 'a100-sxm4-40gb', 8, HGX, DGX_A100],
  ['a100-80gb-sxm', 'a100-sxm4-80gb', 8, HGX, DGX_A100],
  ['a100-40gb-pcie', 'a100-pcie-40gb', 8, PCIE8],
  ['a100-80gb-pcie', 'a100-pcie-80gb', 8, PCIE8],
  ['a800-80gb-sxm', 'a800-sxm4-80gb', 8, HGX, DGX_A100],
  ['a800-80gb-pcie', 'a800-pcie-80gb', 8, PCIE8],
  ['l4', 'l4', 8, 'AWS g6.48xlarge (8 L4)'],
  ['l20', 'l20', 8, PCIE8],
  ['l40', 'l40', 8, PCIE8],
  ['l40s', 'l40s', 8, PCIE8],
  ['h100-sxm', 'h100-sxm5-80gb', 8, HGX, DGX_H100],
  ['h100-pcie', 'h100-pcie-80gb', 8, PCIE8],
  ['h100-nvl', 'h100-nvl', 8, `${PCIE8}; NVLink bridges pairs only`],
  ['h800-sxm', 'h800-sxm5', 8, HGX, DGX_H100],
  ['h20', 'h20', 8, HGX],
  ['h200-sxm', 'h200-sxm', 8, HGX, DGX_H100],
  ['h200-nvl', 'h200-nvl', 8, `${PCIE8}; NVLink bridges 2 or 4 cards`],
  ['gh200', 'gh200', 4, 'GH200 NVL32 / quad-superchip nodes; a single superchip is 1'],
  ['b100', 'b100-hgx', 8, HGX, DGX_B200],
  ['b200', 'b200-hgx', 8, HGX, DGX_B200],
  ['gb200', 'gb200-gpu', 72, 'NVL72: 72 GPUs in one NVLink domain (4 per compute tray)', DGX_B200],
  ['rtx-3090', 'rtx-3090', 8, PCIE8],
  ['rtx-4090', 'rtx-4090', 8, PCIE8],
  ['rtx-5090', 'rtx-5090', 8, PCIE8],
  ['rtx-6000-ada', 'rtx-6000-ada', 8, PCIE8],
  ['mi250x', 'mi250x', 4, 'HPE Cray EX / Frontier node: 4 MI250X modules (8 GCDs)'],
  ['mi300x', 'mi300x', 8, OAM],
  ['mi325x', 'mi325x', 8, OAM],
  ['mi355x', 'mi355x', 8, OAM],
  ['gaudi2', 'gaudi2', 8, 'HLS-Gaudi2 (8 cards)', [300, 'HLS-Gaudi2: 3 of 24 x 100 GbE ports per card for scale-out (ml-engineering network table)']],
  ['gaudi3', 'gaudi3', 8, 'HLS-Gaudi3 (8 cards)', [600, 'HLS-Gaudi3: 3 of 24 x 200 GbE ports per card for scale-out (ml-engineering network table)']],
  ['tpu-v4', 'tpu-v4', 4, 'a TPU v4 host has 4 chips; chips in a slice talk over ICI'],
  ['tpu-v5e', 'tpu-v5e', 8, 'a TPU v5e host has 8 chips; chips in a slice talk over ICI', [25, 'TPU v5e: 2 x 100 Gb/s NICs per 8-chip host, between slices (docs.cloud.google.com/tpu/docs/v5e)']],
  ['tpu-v5p', 'tpu-v5p', 4, 'a TPU v5p host has 4 chips; chips in a slice talk over ICI'],
  ['tpu-v6e', 'tpu-v6e', 8, 'a TPU v6e host has up to 8 chips; chips in a slice talk over ICI'],
  ['ascend-910b', 'ascend-910b', 8, 'Atlas 800T A2 (8 NPUs)'],
];

// Maximum achievable matmul FLOPS (bf16, best shape, measured), Stas Bekman's ml-engineering "MAMF"
// table (github.com/stas00/ml-engineering, compute/accelerator/README.md); a GPU on the same die takes its sibling's
// figure, so labelled. matmul_efficiency = MAMF / our dense bf16 peak.
const MAMF_SOURCE = 'ml-engineering (github.com/stas00/ml-engineering, compute/accelerator/README.md): maximum achievable matmul FLOPS (MAMF) table';
const MAMF = {
  'a100-40gb-sxm': [271, 'A100 SXM'],
  'a100-80gb-sxm': [271, 'A100 SXM'],
  'a800-80gb-sxm': [271, 'A100 SXM (same GA100 die)'],
  'h100-sxm': [795, 'H100 SXM'],
  'h800-sxm': [795, 'H100 SXM (same GH100 die)'],
  'h200-sxm': [795, 'H100 SXM (same GH100 die)'],
  'gh200': [795, 'H100 SXM (same GH100 die)'],
  'b200': [1745, 'B200'],
  'gb200': [1822, 'GB200'],
  'mi300x': [668, 'MI300X'],
  'mi325x': [785, 'MI325X'],
  'mi355x': [1565, 'MI355X'],
  'gaudi2': [419, 'Gaudi 2'],
  'gaudi3': [1243, 'Gaudi 3'],
};

// What the CUDA driver gives a process (torch.cuda.get_device_properties().total_memory, deviceQuery's
// "Total amount of global memory"): less than the card's GiB by the driver's reservation (and on GDDR
// cards with ECC on, by the ECC share). Read from pasted nvidia-smi / deviceQuery / torch output, each
// cited in tests/data/memory-measured/gpu-usable-memory.json.
const usable = JSON.parse(readFileSync(join(root, 'tests', 'data', 'memory-measured', 'gpu-usable-memory.json'), 'utf8'));
const USABLE_MIB = {
  // Found only as MiB-rounded or older-driver values (stated in that file's not_found list).
  t4: [15109, "torch total_memory=15109MB (older drivers; newer report 14930-15109 MiB), modal-client PR#2797", 'medium'],
  'v100-sxm2-32gb': [31.74 * 1024, "out-of-memory message '31.74 GiB total capacity', ChatGLM-Finetuning#73", 'medium'],
};
for (const g of usable.gpus)
  if (g.torch_total_mib && !USABLE_MIB[g.id]) USABLE_MIB[g.id] = [g.torch_total_mib, g.source, g.confidence];

// NVIDIA's CUDA compute capability per GPU (developer.nvidia.com/cuda-gpus, "CUDA GPU Compute
// Capability"; high): Volta 7.0, Turing 7.5, A100/A30/A800 8.0, other Ampere 8.6, Ada 8.9, Hopper 9.0,
// Blackwell data-centre 10.0, GeForce Blackwell 12.0.
const COMPUTE_CAPABILITY = {
  'v100-sxm2-16gb': 7.0, 'v100-sxm2-32gb': 7.0, 'v100-pcie': 7.0, t4: 7.5,
  a10: 8.6, a10g: 8.6, a30: 8.0, a40: 8.6,
  'a100-40gb-sxm': 8.0, 'a100-80gb-sxm': 8.0, 'a100-40gb-pcie': 8.0, 'a100-80gb-pcie': 8.0,
  'a800-80gb-sxm': 8.0, 'a800-80gb-pcie': 8.0,
  l4: 8.9, l20: 8.9, l40: 8.9, l40s: 8.9,
  'h100-sxm': 9.0, 'h100-pcie': 9.0, 'h100-nvl': 9.0, 'h800-sxm': 9.0, h20: 9.0, 'h200-sxm': 9.0, 'h200-nvl': 9.0,
  gh200: 9.0, b100: 10.0, b200: 10.0, gb200: 10.0,
  'rtx-3090': 8.6, 'rtx-4090': 8.9, 'rtx-5090': 12.0, 'rtx-6000-ada': 8.9,
};
const COMPUTE_CAPABILITY_SOURCE = 'NVIDIA, "CUDA GPU Compute Capability", developer.nvidia.com/cuda-gpus; high';

const accelerators = new Map(reference.filter((r) => r.record_type === 'accelerator').map((r) => [r.id, r]));
const ourId = new Map(GPUS.map(([id, ref]) => [ref, id]));

// Where the fast link reaches beyond a host: a TPU pod's inter-chip interconnect (ICI) joins every chip
// of the pod, so its collectives never cross the data-centre network. [chips, per-chip GB/s where the
// reference gives none, why] (Google Cloud TPU docs, docs.cloud.google.com/tpu/docs/v4, /v5e, /v5p, /v6e).
const LINK_DOMAIN = {
  'tpu-v4': [4096, 268.6, "'TPU Pod size 4096 chips', 'All-reduce bandwidth per Pod 1.1 PB/s': 1.1 PB/s / 4096 = 268.6 GB/s per chip (derived; medium confidence that the pod figure sums per-chip ring bandwidth)"],
  'tpu-v5e': [256, null, 'the v5e pod: 256 chips over ICI'],
  'tpu-v5p': [8960, null, 'the v5p pod: 8,960 chips over ICI'],
  'tpu-v6e': [256, null, 'the v6e pod: 256 chips over ICI'],
};

const clean = (object) => Object.fromEntries(Object.entries(object).filter(([, v]) => v !== null && v !== undefined && v !== ''));

const gpus = GPUS.map(([id, refId, perNode, perNodeWhy, inter]) => {
  const r = accelerators.get(refId);
  if (!r) throw new Error(`reference has no accelerator ${refId}`);
  const extras = [`gpus_per_node ${perNode}: ${perNodeWhy}`];
  if (r.intra_node_bw_gbs_unidir !== null) extras.push('intra_node_gbs = half the vendor bidirectional link figure (per direction)');
  if (inter) extras.push(`inter_node_gbps ${inter[0]}: ${inter[1]}`);
  const domain = LINK_DOMAIN[id];
  if (domain) extras.push(`link_domain_gpus ${domain[0]}${domain[1] ? ` and intra_node_gbs ${domain[1]}` : ''}: ${domain[2]}`);
  const usableMib = USABLE_MIB[id];
  if (usableMib)
    extras.push(`usable_memory_gib ${Math.round((usableMib[0] / 1024) * 100) / 100}: the CUDA driver's total, ${Math.round(usableMib[0])} MiB (${usableMib[1]}; ${usableMib[2]})`);
  const cc = COMPUTE_CAPABILITY[id];
  if (cc !== undefined) extras.push(`compute_capability ${cc.toFixed(1)}: ${COMPUTE_CAPABILITY_SOURCE}`);
  const mamf = MAMF[id];
  const matmulEfficiency = mamf ? Math.round((mamf[0] / r.bf16_dense_tflops) * 1000) / 1000 : undefined;
  if (mamf) extras.push(`matmul_efficiency ${matmulEfficiency} = ${mamf[0]} TFLOPS measured on ${mamf[1]} / ${r.bf16_dense_tflops} dense bf16 peak (${MAMF_SOURCE})`);
  return clean({
    id,
    name: r.name,
    vendor: r.vendor,
    form_factor: r.form_factor,
    memory_gb: r.memory_gb,
    usable_memory_gib: usableMib ? Math.round((usableMib[0] / 1024) * 100) / 100 : undefined,
    memory_type: r.memory_type,
    memory_bandwidth_tbs: r.memory_bandwidth_tbs,
    fp32_tflops: r.fp32_tflops,
    tf32_tflops: r.tf32_tensor_dense_tflops,
    bf16_tflops: r.bf16_dense_tflops,
    fp16_tflops: r.fp16_dense_tflops,
    fp8_tflops: r.fp8_dense_tflops,
    fp4_tflops: r.fp4_dense_tflops,
    int8_tops: r.int8_dense_tops,
    tdp_w: r.tdp_w,
    interconnect: r.intra_node_interconnect,
    intra_node_gbs: r.intra_node_bw_gbs_unidir ?? domain?.[1],
    gpus_per_node: perNode,
    link_domain_gpus: domain?.[0],
    inter_node_gbps: inter?.[0],
    matmul_efficiency: matmulEfficiency,
    release_year: r.release_year,
    compute_capability: cc,
    source: `${r.source}. ${extras.join('; ')}.`,
    confidence: r.confidence,
    notes: r.notes,
  });
});

const slug = (text) => text.toLowerCase().replace(/[^a-z0-9.]+/g, '-').replace(/^-|-$/g, '');
const offers = [];
const seen = new Set();
for (const r of reference) {
  if (r.record_type !== 'cloud_price' && r.record_type !== 'cloud_price_cny') continue;
  const gpu = ourId.get(r.accelerator_id);
  if (!gpu) throw new Error(`price for unknown accelerator ${r.accelerator_id}`);
  const cny = r.record_type === 'cloud_price_cny';
  // Stable IDs (links carry them): provider, instance and pricing type, each shortened, and the GPU
  // always last. A collision is an error, never an order-dependent suffix.
  const id = [slug(r.provider).slice(0, 20), slug(r.instance.split(' (')[0]).slice(0, 18),
    slug(r.pricing_type.split(' (')[0]).slice(0, 12), gpu].map((part) => part.replace(/^-|-$/g, '')).join('-');
  if (seen.has(id)) throw new Error(`import-reference: two offers would share the ID ${id}`);
  seen.add(id);
  const price = cny
    ? (r.cny_per_gpu_hour !== undefined && r.cny_per_gpu_hour !== null
      ? { per_gpu_hour: r.cny_per_gpu_hour }
      : { per_gpu_month: r.cny_per_gpu_month_low })
    : { per_gpu_hour: r.usd_per_gpu_hour };
  const range = cny && r.cny_per_gpu_month_high ? `Range ${r.cny_per_gpu_month_low}-${r.cny_per_gpu_month_high} CNY per GPU-month; the low end is used.` : null;
  offers.push(clean({
    id,
    name: `${r.provider} ${r.instance}`,
    provider: r.provider,
    gpu,
    ...price,
    currency: cny ? 'CNY' : 'USD',
    pricing_type: r.pricing_type,
    region: r.region,
    date: r.source_date,
    source: r.source,
    confidence: r.confidence,
    notes: [range, r.notes].filter(Boolean).join(' '),
  }));
}

// Each offer's instance size and cluster network (researched separately, cited per row): merged by ID;
// an offer without a row, or a row without an offer, is an error.
const networks = JSON.parse(readFileSync(join(root, 'scripts', 'offer-networks.json'), 'utf8')).offers;
const networkOf = new Map(networks.map((n) => [n.id, n]));
for (const n of networks) if (!seen.has(n.id)) throw new Error(`offer-networks.json names an offer the reference lacks: ${n.id}`);
for (const o of offers) {
  const n = networkOf.get(o.id);
  if (!n) throw new Error(`offer-networks.json has no row for ${o.id}`);
  const { id, ...network } = n;
  Object.assign(o, network);
}

const header = (what) => `traincalc built-in catalog: ${what}, generated by scripts/import-reference.mjs from the project's accelerator reference sheet; every row cites its primary sources. GPU peaks are dense (no 2:4 sparsity), per GPU. Every row cites its source.`;
writeFileSync(join(root, 'engine', 'data', 'gpus.json'), `${JSON.stringify({ description: header('GPUs'), gpus }, null, 1)}\n`);
writeFileSync(join(root, 'engine', 'data', 'offers.json'), `${JSON.stringify({ description: header('cloud offers (price snapshots)'), offers }, null, 1)}\n`);
console.log(`import-reference: ${gpus.length} GPUs, ${offers.length} offers`);
