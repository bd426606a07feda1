#!/usr/bin/env python3
"""Calibration measurements on one lent NVIDIA H200 (run through the device tool; see docs/validation.md).

What it measures, each section guarded so that one failure leaves the others' numbers:
  gemm       cuBLAS bf16 and fp8 (torch._scaled_mm) matmul rates by shape: the matmul efficiency and its
             dependence on each dimension (the engine's d / (d + half-rate) factor);
  thin       LoRA-shaped matmuls (rank 8-64) in fp32 without TF32 and in bf16, the adapter's forward
             (x @ A, then @ B) and its backward (the weight gradient over all tokens, the input
             gradient): how fast PEFT's fp32 adapters run outside autocast (the step model prices them
             as the fp32 roofline times the thin-dimension factor, unmeasured until this section);
  attention  PyTorch SDPA's FlashAttention-2, cuDNN and memory-efficient kernels, causal, forward and
             forward+backward: FlashAttention's efficiency and cuDNN's speed-up over it;
  copy       device-to-device copy bandwidth;
  train      Hugging Face transformers decoder models (random weights from a config: nothing is
             downloaded) trained for a few steps under several regimes (pure bf16, AMP with fp32 master
             weights, LoRA through peft, activation checkpointing, gradient accumulation, fused and
             foreach AdamW): step time, peak allocated and reserved memory, and memory by phase.

Writes $OUT/h200.json (rewritten after every section) and prints a short table per section.
"""
import gc
import json
import math
import os
import platform
import subprocess
import sys
import time
import traceback

import torch

OUT = os.environ.get("OUT", "/tmp/out")
os.makedirs(OUT, exist_ok=True)
DEADLINE = time.time() + float(os.environ.get("BUDGET_S", "330"))
RESULT = {"date": time.strftime("%Y-%m-%d"), "sections": {}, "errors": []}
GiB = 1024**3


def save():
    with open(os.path.join(OUT, "h200.json"), "w") as f:
        json.dump(RESULT, f, indent=1)


def left():
    return DEADLINE - time.time()


def time_cuda(fn, min_seconds=0.03, max_iters=200):
    """Median of 5 event-timed batches after warm-up; each batch repeats fn until it lasts min_seconds."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    one = max(start.elapsed_time(end) / 1e3, 1e-6)
    iters = int(min(max_iters, max(1, math.ceil(min_seconds / one))))
    samples = []
    for _ in range(5):
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / 1e3 / iters)
    samples.sort()
    return samples[2]


def environment():
    env = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "device": torch.cuda.get_device_name(0),
        "sm_count": torch.cuda.get_device_properties(0).multi_processor_count,
        "total_memory_bytes": torch.cuda.get_device_properties(0).total_memory,
    }
    free, total = torch.cuda.mem_get_info()
    env["free_bytes_at_start"], env["total_bytes_cuda"] = free, total
    for module in ("transformers", "peft", "accelerate"):
        try:
            env[module] = __import__(module).__version__
        except Exception as e:  # noqa: BLE001
            env[module] = "missing: " + str(e)[:80]
    try:
        env["nvidia_smi"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,power.limit,clocks.max.sm,clocks.max.mem,temperature.gpu",
             "--format=csv,noheader"], capture_output=True, text=True, timeout=20).stdout.strip()
    except Exception as e:  # noqa: BLE001
        env["nvidia_smi"] = "failed: " + str(e)[:80]
    return env


def section_thin():
    rows = []
    torch.manual_seed(0)
    torch.backends.cuda.matmul.allow_tf32 = False  # PyTorch's default: fp32 matmuls in full precision
    for tokens in (2048, 8192, 32768):
        for k in (2048, 4096, 8192):
            for r in (8, 16, 64):
                if left() < 120:
                    RESULT["errors"].append("thin: stopped early for time")
                    return rows
                for dtype in (torch.float32, torch.bfloat16):
                    x = torch.randn(tokens, k, device="cuda", dtype=dtype)
                    a = torch.randn(k, r, device="cuda", dtype=dtype)
                    b = torch.randn(r, k, device="cuda", dtype=dtype)
                    xa = x @ a
                    g = torch.randn(tokens, k, device="cuda", dtype=dtype)
                    row = {"tokens": tokens, "k": k, "r": r, "dtype": str(dtype).replace("torch.", "")}
                    for name, fn in (("x_at_a", lambda: x @ a), ("xa_at_b", lambda: xa @ b),
                                     ("weight_grad", lambda: x.t() @ (g @ b.t())), ("input_grad", lambda: (g @ b.t()) @ a.t())):
                        t = time_cuda(fn)
                        row[name + "_s"] = t
                    # Bytes of the forward's two matmuls at one pass each over x and the output.
                    row["forward_bytes"] = 2 * tokens * k * x.element_size()
                    rows.append(row)
                    del x, a, b, xa, g
    torch.cuda.empty_cache()
    return rows


def section_gemm():
    rows = []
    torch.manual_seed(0)
    shapes = set()
    for m in (2048, 8192):
        for h in (1024, 2048, 4096, 8192):
            for k, n in ((h, h), (h, 3 * h), (h, 4 * h), (4 * h, h)):
                shapes.add((m, k, n))
    for d in (128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384):
        shapes.add((8192, d, 8192))  # inner dimension sweep
        shapes.add((8192, 8192, d))  # output dimension sweep
        shapes.add((d, 8192, 8192))  # rows (tokens) sweep
    fp8_ok = hasattr(torch, "float8_e4m3fn") and hasattr(torch, "_scaled_mm")
    for m, k, n in sorted(shapes):
        if left() < 200:
            RESULT["errors"].append("gemm: stopped early for time")
            break
        a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
        w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)  # nn.Linear layout: out x in
        t16 = time_cuda(lambda: torch.matmul(a, w.t()))
        row = {"m": m, "k": k, "n": n, "bf16_s": t16, "bf16_tflops": 2 * m * k * n / t16 / 1e12}
        if fp8_ok:
            try:
                a8 = a.to(torch.float8_e4m3fn)
                w8 = w.to(torch.float8_e4m3fn)
                one = torch.ones((), device="cuda", dtype=torch.float32)
                t8 = time_cuda(lambda: torch._scaled_mm(a8, w8.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
                row["fp8_s"], row["fp8_tflops"] = t8, 2 * m * k * n / t8 / 1e12
            except Exception as e:  # noqa: BLE001
                row["fp8_error"] = str(e)[:160]
                fp8_ok = False
        rows.append(row)
        del a, w
    torch.cuda.empty_cache()
    return rows


def section_attention():
    from torch.nn.attention import SDPBackend, sdpa_kernel
    import torch.nn.functional as F
    backends = {"flash2": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
                "efficient": SDPBackend.EFFICIENT_ATTENTION}
    rows = []
    for d in (128, 64):
        heads = 16 if d == 128 else 32
        for s in (1024, 2048, 4096, 8192):
            b = max(1, 16384 // s)
            for name, backend in backends.items():
                if left() < 170:
                    RESULT["errors"].append("attention: stopped early for time")
                    return rows
                q, k, v = (torch.randn(b, heads, s, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)
                           for _ in range(3))
                grad = torch.randn(b, heads, s, d, device="cuda", dtype=torch.bfloat16)
                row = {"backend": name, "batch": b, "heads": heads, "seq": s, "head_dim": d, "causal": True}
                try:
                    with sdpa_kernel([backend]):
                        fwd = time_cuda(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))

                        def both():
                            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                            torch.autograd.grad(o, (q, k, v), grad)
                        fb = time_cuda(both)
                    # causal: half of 4 b h s^2 d forward FLOPs; the backward does 2.5x the forward's
                    flops = 4 * b * heads * s * s * d * 0.5
                    row.update({"forward_s": fwd, "forward_backward_s": fb,
                                "forward_tflops": flops / fwd / 1e12,
                                "backward_tflops": 2.5 * flops / max(fb - fwd, 1e-9) / 1e12,
                                "forward_backward_tflops": 3.5 * flops / fb / 1e12})
                except Exception as e:  # noqa: BLE001
                    row["error"] = str(e).splitlines()[0][:160]
                rows.append(row)
                del q, k, v, grad
    torch.cuda.empty_cache()
    return rows


def section_copy():
    x = torch.empty(2 * GiB // 2, device="cuda", dtype=torch.bfloat16).normal_()
    y = torch.empty_like(x)
    t = time_cuda(lambda: y.copy_(x), min_seconds=0.05)
    out = {"bytes_moved": 2 * x.numel() * 2, "seconds": t, "tb_per_s": 2 * x.numel() * 2 / t / 1e12}
    del x, y
    torch.cuda.empty_cache()
    return out


# --- Training steps of Hugging Face models -------------------------------------------------------------
MODELS = {
    # Llama 3.2 1B and Llama 3.1 8B shapes (their config.json on the Hugging Face Hub), GPT-2 small.
    "llama-3.2-1b": dict(kind="llama", vocab_size=128256, hidden_size=2048, intermediate_size=8192,
                         num_hidden_layers=16, num_attention_heads=32, num_key_value_heads=8,
                         tie_word_embeddings=True),
    "llama-3.1-8b": dict(kind="llama", vocab_size=128256, hidden_size=4096, intermediate_size=14336,
                         num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
                         tie_word_embeddings=False),
    "gpt2-124m": dict(kind="gpt2", vocab_size=50257, n_embd=768, n_layer=12, n_head=12, n_positions=1024),
    "gpt2-355m": dict(kind="gpt2", vocab_size=50257, n_embd=1024, n_layer=24, n_head=16, n_positions=1024),
    "llama-3.2-3b": dict(kind="llama", vocab_size=128256, hidden_size=3072, intermediate_size=8192,
                         num_hidden_layers=28, num_attention_heads=24, num_key_value_heads=8,
                         tie_word_embeddings=True),
    "qwen2.5-0.5b": dict(kind="llama", vocab_size=151936, hidden_size=896, intermediate_size=4864,
                         num_hidden_layers=24, num_attention_heads=14, num_key_value_heads=2,
                         tie_word_embeddings=True),
    "mistral-7b": dict(kind="llama", vocab_size=32000, hidden_size=4096, intermediate_size=14336,
                       num_hidden_layers=32, num_attention_heads=32, num_key_value_heads=8,
                       tie_word_embeddings=False),
}

# name, model, method, regime, seq, micro_batch, accumulation, checkpointing, optimizer
RUNS = [
    ("1b-pure-s2048-mb4", "llama-3.2-1b", "full", "pure", 2048, 4, 1, False, "fused"),
    ("1b-pure-s2048-mb4-foreach", "llama-3.2-1b", "full", "pure", 2048, 4, 1, False, "foreach"),
    ("1b-pure-s2048-mb4-ckpt", "llama-3.2-1b", "full", "pure", 2048, 4, 1, True, "fused"),
    ("1b-amp-s2048-mb4", "llama-3.2-1b", "full", "amp", 2048, 4, 1, False, "fused"),
    ("1b-pure-s2048-mb2-acc2", "llama-3.2-1b", "full", "pure", 2048, 2, 2, False, "fused"),
    ("1b-pure-s8192-mb1", "llama-3.2-1b", "full", "pure", 8192, 1, 1, False, "fused"),
    ("1b-lora-s2048-mb4", "llama-3.2-1b", "lora", "pure", 2048, 4, 1, False, "fused"),
    ("1b-lora-s2048-mb4-ckpt", "llama-3.2-1b", "lora", "pure", 2048, 4, 1, True, "fused"),
    ("1b-pure-s512-mb1", "llama-3.2-1b", "full", "pure", 512, 1, 1, False, "fused"),
    ("gpt2-amp-s1024-mb8", "gpt2-124m", "full", "amp", 1024, 8, 1, False, "fused"),
    ("gpt2-amp-s1024-mb1", "gpt2-124m", "full", "amp", 1024, 1, 1, False, "fused"),
    ("gpt2-amp-s128-mb1", "gpt2-124m", "full", "amp", 128, 1, 1, False, "fused"),
    ("8b-lora-s2048-mb2", "llama-3.1-8b", "lora", "pure", 2048, 2, 1, False, "fused"),
    ("8b-lora-s2048-mb2-ckpt", "llama-3.1-8b", "lora", "pure", 2048, 2, 1, True, "fused"),
    ("8b-pure-s2048-mb2-ckpt", "llama-3.1-8b", "full", "pure", 2048, 2, 1, True, "fused"),
    ("8b-pure-s4096-mb1", "llama-3.1-8b", "full", "pure", 4096, 1, 1, False, "fused"),
]

# A second batch (run as `train2`): other shapes, sequence lengths, eager attention and LoRA without dropout.
RUNS2 = [
    ("3b-pure-s2048-mb2", "llama-3.2-3b", "full", "pure", 2048, 2, 1, False, "fused"),
    ("3b-pure-s4096-mb1-ckpt", "llama-3.2-3b", "full", "pure", 4096, 1, 1, True, "fused"),
    ("3b-lora-s4096-mb2", "llama-3.2-3b", "lora", "pure", 4096, 2, 1, False, "fused"),
    ("3b-lora-s4096-mb2-ckpt", "llama-3.2-3b", "lora", "pure", 4096, 2, 1, True, "fused"),
    ("3b-amp-s1024-mb4-ckpt", "llama-3.2-3b", "full", "amp", 1024, 4, 1, True, "fused"),
    ("3b-lora-s1024-mb8-nodrop", "llama-3.2-3b", "lora0", "pure", 1024, 8, 1, False, "fused"),
    ("q05b-pure-s4096-mb4", "qwen2.5-0.5b", "full", "pure", 4096, 4, 1, False, "fused"),
    ("q05b-amp-s1024-mb16", "qwen2.5-0.5b", "full", "amp", 1024, 16, 1, False, "fused"),
    ("q05b-lora-s2048-mb8-ckpt", "qwen2.5-0.5b", "lora", "pure", 2048, 8, 1, True, "fused"),
    ("q05b-pure-s256-mb1", "qwen2.5-0.5b", "full", "pure", 256, 1, 1, False, "fused"),
    ("m7b-lora-s1024-mb4", "mistral-7b", "lora", "pure", 1024, 4, 1, False, "fused"),
    ("m7b-lora-s4096-mb1-ckpt", "mistral-7b", "lora", "pure", 4096, 1, 1, True, "fused"),
    ("m7b-pure-s1024-mb4-ckpt", "mistral-7b", "full", "pure", 1024, 4, 1, True, "fused"),
    ("gpt2m-amp-s1024-mb8", "gpt2-355m", "full", "amp", 1024, 8, 1, False, "fused"),
    ("gpt2m-amp-s1024-mb16-ckpt", "gpt2-355m", "full", "amp", 1024, 16, 1, True, "fused"),
    ("gpt2m-pure-s1024-mb4", "gpt2-355m", "full", "pure", 1024, 4, 1, False, "fused"),
    ("gpt2-amp-s1024-mb4-eager", "gpt2-124m", "full", "amp", 1024, 4, 1, False, "fused", "eager"),
    ("1b-pure-s1024-mb4-eager", "llama-3.2-1b", "full", "pure", 1024, 4, 1, False, "fused", "eager"),
    ("1b-pure-s1024-mb4", "llama-3.2-1b", "full", "pure", 1024, 4, 1, False, "fused"),
    ("1b-amp-s4096-mb2-ckpt", "llama-3.2-1b", "full", "amp", 4096, 2, 1, True, "fused"),
    ("1b-pure-s2048-mb16-ckpt", "llama-3.2-1b", "full", "pure", 2048, 16, 1, True, "fused"),
    ("8b-lora-s4096-mb4-ckpt", "llama-3.1-8b", "lora", "pure", 4096, 4, 1, True, "fused"),
    ("8b-lora-s8192-mb1", "llama-3.1-8b", "lora", "pure", 8192, 1, 1, False, "fused"),
    ("8b-pure-s1024-mb8-ckpt", "llama-3.1-8b", "full", "pure", 1024, 8, 1, True, "fused"),
]

LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]


def build_model(name, dtype, attn="sdpa"):
    import transformers
    spec = dict(MODELS[name])
    kind = spec.pop("kind")
    if kind == "llama":
        config = transformers.LlamaConfig(max_position_embeddings=8192, **spec)
        cls = transformers.LlamaForCausalLM
    else:
        config = transformers.GPT2Config(**spec)
        cls = transformers.GPT2LMHeadModel
    config.use_cache = False
    try:
        config._attn_implementation = attn
    except Exception:  # noqa: BLE001
        pass
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)  # built in its training dtype: no fp32 transient in the allocator's cache
    try:
        with torch.device("cuda"):
            model = cls(config)
    finally:
        torch.set_default_dtype(previous)
    return model.to(dtype), config


def one_run(run):
    name, model_name, method, regime, seq, mb, acc, ckpt, opt_kind = run[:9]
    attn = run[9] if len(run) > 9 else "sdpa"
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    dtype = torch.float32 if regime == "amp" else torch.bfloat16
    model, config = build_model(model_name, dtype, attn)
    model.train()
    row = {"run": name, "model": model_name, "method": method, "regime": regime, "seq": seq, "micro_batch": mb,
           "accumulation": acc, "checkpointing": ckpt, "attention": attn, "optimizer": "adamw-" + opt_kind,
           "parameters": sum(p.numel() for p in model.parameters())}
    if ckpt:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if method in ("lora", "lora0"):
        import peft
        lcfg = peft.LoraConfig(r=16, lora_alpha=32, lora_dropout=0.05 if method == "lora" else 0.0, target_modules=LORA_TARGETS,
                               task_type="CAUSAL_LM")
        model = peft.get_peft_model(model, lcfg)
        adapter = next(p for n_, p in model.named_parameters() if "lora_A" in n_)
        row["adapter_dtype"] = str(adapter.dtype)
    params = [p for p in model.parameters() if p.requires_grad]
    row["trainable"] = sum(p.numel() for p in params)
    opt = torch.optim.AdamW(params, lr=1e-5, fused=(opt_kind == "fused"), foreach=(opt_kind == "foreach") or None)
    torch.cuda.synchronize()
    gc.collect()
    torch.cuda.empty_cache()
    row["weights_bytes"] = torch.cuda.memory_allocated() - base
    vocab = config.vocab_size
    data = [torch.randint(0, vocab, (mb, seq), device="cuda") for _ in range(acc)]

    phases = {}

    def step(record):
        if record:
            torch.cuda.reset_peak_memory_stats()
            before = torch.cuda.memory_allocated()
        for i, ids in enumerate(data):
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=(regime == "amp")):
                out = model(input_ids=ids, labels=ids)
            loss = out.loss / acc
            if record and i == 0:
                torch.cuda.synchronize()
                phases["forward_retained_delta_bytes"] = torch.cuda.memory_allocated() - before
                phases["forward_peak_delta_bytes"] = torch.cuda.max_memory_allocated() - before
            del out
            loss.backward()
            del loss
        if record:
            torch.cuda.synchronize()
            phases["forward_backward_peak_bytes"] = torch.cuda.max_memory_allocated()
            phases["after_backward_bytes"] = torch.cuda.memory_allocated()
            torch.cuda.reset_peak_memory_stats()
        opt.step()
        opt.zero_grad(set_to_none=True)
        if record:
            torch.cuda.synchronize()
            phases["optimizer_peak_bytes"] = torch.cuda.max_memory_allocated()
            phases["at_rest_bytes"] = torch.cuda.memory_allocated()

    torch.cuda.reset_peak_memory_stats()
    step(False)  # creates the optimizer states
    step(False)
    torch.cuda.synchronize()
    row["peak_allocated_bytes"] = torch.cuda.max_memory_allocated() - base
    row["peak_reserved_bytes"] = torch.cuda.max_memory_reserved()
    stats = torch.cuda.memory_stats()
    row["alloc_retries"] = stats.get("num_alloc_retries", 0)
    step(True)
    row["phases"] = {k: v - (0 if "delta" in k else base) for k, v in phases.items()}
    # step time: median of 5 timed steps (host clock after a synchronize: includes every launch gap)
    times = []
    for _ in range(5):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        step(False)
        torch.cuda.synchronize()
        times.append(time.perf_counter() - t0)
    times.sort()
    row["step_s"] = times[2]
    row["step_s_min"], row["step_s_max"] = times[0], times[-1]
    row["peak_allocated_bytes_all"] = torch.cuda.max_memory_allocated() - base
    row["peak_reserved_bytes_all"] = torch.cuda.max_memory_reserved()
    del model, opt, params, data
    gc.collect()
    torch.cuda.empty_cache()
    return row


def section_train(runs=None, key="train"):
    rows = []
    for run in runs or RUNS:
        if left() < 25:
            RESULT["errors"].append("train: stopped before " + run[0] + " for time")
            break
        t0 = time.time()
        try:
            row = one_run(run)
        except Exception as e:  # noqa: BLE001
            row = {"run": run[0], "error": "".join(traceback.format_exception_only(type(e), e)).strip()[:300]}
            gc.collect()
            torch.cuda.empty_cache()
        row["wall_s"] = round(time.time() - t0, 1)
        rows.append(row)
        RESULT["sections"][key] = rows
        save()
        if "error" in row:
            print(f"  {row['run']}: ERROR {row['error']}", flush=True)
        else:
            print(f"  {row['run']:28s} step {row['step_s']*1e3:9.1f} ms  alloc {row['peak_allocated_bytes']/GiB:7.2f} GiB"
                  f"  reserved {row['peak_reserved_bytes']/GiB:7.2f} GiB  ({row['wall_s']} s)", flush=True)
    return rows


def main():
    t0 = time.time()
    RESULT["environment"] = environment()
    print(json.dumps(RESULT["environment"]), flush=True)
    save()
    only = sys.argv[1:] or ["copy", "gemm", "attention", "train"]
    for name in only:
        fn = {"copy": section_copy, "gemm": section_gemm, "thin": section_thin, "attention": section_attention, "train": section_train,
              "train2": lambda: section_train(RUNS2, "train2")}[name]
        s0 = time.time()
        try:
            RESULT["sections"][name] = fn()
        except Exception:  # noqa: BLE001
            RESULT["errors"].append(name + ": " + traceback.format_exc()[-600:])
            print(name, "FAILED", traceback.format_exc()[-600:], flush=True)
        RESULT.setdefault("section_seconds", {})[name] = round(time.time() - s0, 1)
        save()
        data = RESULT["sections"].get(name)
        if name == "copy" and data:
            print(f"copy: {data['tb_per_s']:.2f} TB/s", flush=True)
        if name == "gemm" and data:
            for r in data:
                print(f"gemm {r['m']:6d} {r['k']:6d} {r['n']:6d} bf16 {r['bf16_tflops']:6.0f}"
                      f" fp8 {r.get('fp8_tflops', float('nan')):6.0f}", flush=True)
        if name == "attention" and data:
            for r in data:
                if "error" in r:
                    print(f"attn {r['backend']:9s} d{r['head_dim']} s{r['seq']}: {r['error']}", flush=True)
                else:
                    print(f"attn {r['backend']:9s} d{r['head_dim']:3d} s{r['seq']:5d} fwd {r['forward_tflops']:5.0f}"
                          f" bwd {r['backward_tflops']:5.0f} TFLOP/s", flush=True)
    RESULT["total_seconds"] = round(time.time() - t0, 1)
    save()
    print("errors:", RESULT["errors"], "total", RESULT["total_seconds"], "s", flush=True)


if __name__ == "__main__":
    main()
