// Reading training logs (log_parse.cpp): each framework's line, quoted verbatim from a real run at
// the place cited, read as a measured report key in its true unit.
#include <cmath>

#include "helpers.hpp"

namespace {
double measured(const traincalc::LogReading& r, const std::string& key) {
  const auto it = r.measured.find(key);
  REQUIRE(it != r.measured.end());
  return it->second;
}
}  // namespace

TEST_CASE("Megatron-LM: the iteration time and TFLOP/s, and the memory line's MiB", "[parse-log]") {
  // github.com/NVIDIA/Megatron-LM/issues/756 (Mixtral 8x7B on 16 H100s, 2024-04), as pasted.
  const auto r = traincalc::parse_log(
      "[Rank 1] (after 1 iterations) memory (MB) | allocated: 54250.97802734375 | max allocated: 54250.98583984375 | "
      "reserved: 61480.0 | max reserved: 61480.0\n"
      " [2024-04-06 03:02:12] iteration       71/     100 | consumed samples:         9088 | elapsed time per "
      "iteration (ms): 5361.6 | throughput per GPU (TFLOP/s/GPU): 243.6 | learning rate: 1.420000E-05 | global batch "
      "size:   128 | lm loss: 1.818812E+00 | load_balancing_loss: 1.013377E+00 | loss scale: 1.0 | grad norm: 1.300 | "
      "num zeros: 0.0 | number of skipped iterations:   0 | number of nan iterations:   0 |\n");
  CHECK(r.frameworks == std::vector<std::string>{"megatron"});
  CHECK(measured(r, "time.step_seconds") == Approx(5.3616));
  CHECK(measured(r, "time.tflops_per_gpu") == Approx(243.6));
  // "MB" is 1024 x 1024 bytes (megatron/training/utils/common_utils.py @d98e8a64, lines 313-334).
  CHECK(measured(r, "memory.allocated_bytes") == Approx(54250.98583984375 * 1048576));
  CHECK(measured(r, "memory.reserved_bytes") == Approx(61480.0 * 1048576));
  // Each reading names its line and the text read.
  CHECK(r.readings.front().line == 1);
  CHECK(r.readings.back().text.find("TFLOP/s/GPU") != std::string::npos);
}

TEST_CASE("NeMo: train_step_timing in seconds, from the progress bar and from NeMo 2's printer", "[parse-log]") {
  // NVIDIA/dgxc-benchmarking @35a9aecc, llama3.1/README_70b.md line 17.
  const auto bar = traincalc::parse_log(
      "Epoch 0: : 100%|██████████| 100/100 [20:15<00:00, reduced_train_loss=6.370, global_step=99.00, "
      "consumed_samples=12800.0, train_step_timing in s=11.20]");
  CHECK(measured(bar, "time.step_seconds") == Approx(11.2));
  // NVIDIA/NeMo @8cfedd72, examples/llm/resiliency/resiliency-in-pretraining-demo.ipynb lines 669-670:
  // two lines, the median of the two (with fewer than three none is left out).
  const auto printer = traincalc::parse_log(
      "ining-demo/0 [default0]:Training epoch 0, iteration 0/19 | lr: 1.499e-07 | global_batch_size: 512 | "
      "global_step: 0 | reduced_train_loss: 11.03 | train_step_timing in s: 10.31\n"
      "ining-demo/0 [default0]:Training epoch 0, iteration 1/19 | lr: 2.999e-07 | global_batch_size: 512 | "
      "global_step: 1 | reduced_train_loss: 11.03 | train_step_timing in s: 7.549 | consumed_samples: 1024\n");
  CHECK(printer.frameworks == std::vector<std::string>{"nemo"});
  CHECK(measured(printer, "time.step_seconds") == Approx((10.31 + 7.549) / 2));
}

TEST_CASE("torchtitan: colours removed, reserved GiB, tokens and TFLOP/s per GPU with thousands commas", "[parse-log]") {
  // github.com/pytorch/torchtitan/pull/2389 (2026-02), with the colour codes torchtitan prints
  // (torchtitan/tools/utils.py @b5bcd76c, lines 263-275).
  const auto r = traincalc::parse_log(
      "[titan] 2026-02-24 19:46:17,508 - root - INFO - \x1b[31mstep:  4  \x1b[32mloss:  7.62585  \x1b[38;2;180;60;0m"
      "grad_norm: 26.6250  \x1b[38;2;54;234;195mmemory: 66.91GiB(37.51%)  \x1b[34mtps: 10,050  \x1b[36mtflops: "
      "314.71  \x1b[35mmfu: 13.99%\x1b[39m");
  CHECK(r.frameworks == std::vector<std::string>{"torchtitan"});
  CHECK(measured(r, "memory.reserved_bytes") == Approx(66.91 * 1073741824.0));
  CHECK(measured(r, "time.tokens_per_second_per_gpu") == Approx(10050));
  CHECK(measured(r, "time.tflops_per_gpu") == Approx(314.71));
}

TEST_CASE("DeepSpeed: the job's samples a second and MaxMemAllocated in GiB", "[parse-log]") {
  // argonne-lcf/Megatron-DeepSpeed @ffa3456d, ALCF/README.md lines 290-292.
  const auto r = traincalc::parse_log(
      "[2024-03-07 15:27:02,646] [INFO] [timer.py:260:stop] epoch=0/micro_step=199/global_step=199, "
      "RunningAvgSamplesPerSec=58.730622229657506, CurrSamplesPerSec=61.35304005128382, MemAllocated=6.01GB, "
      "MaxMemAllocated=19.52GB");
  CHECK(measured(r, "time.samples_per_second") == Approx(58.730622229657506));
  CHECK(measured(r, "memory.allocated_bytes") == Approx(19.52 * 1073741824.0));
}

TEST_CASE("Hugging Face Trainer: steps a second as numbers or as quoted strings", "[parse-log]") {
  // github.com/huggingface/trl/issues/475 (the user's log-line number 2371 in front).
  const auto floats = traincalc::parse_log(
      "2371 {'train_runtime': 2772.1724, 'train_samples_per_second': 55.105, 'train_steps_per_second': 1.722, "
      "'train_loss': 1.5517177024130093, 'epoch': 0.49}");
  CHECK(measured(floats, "time.step_seconds") == Approx(1 / 1.722));
  // github.com/hiyouga/LlamaFactory/pull/10488: newer Trainers print the values as strings.
  const auto strings = traincalc::parse_log(
      "{'train_runtime': '2219', 'train_samples_per_second': '1.474', 'train_steps_per_second': '0.185', "
      "'train_loss': '0.7228', 'epoch': '3'}");
  CHECK(measured(strings, "time.step_seconds") == Approx(1 / 0.185));
}

TEST_CASE("LitGPT's decimal GB, nanoGPT's iterations (warm-up left out) and PyTorch's bytes", "[parse-log]") {
  // Lightning-AI/litgpt @26857050, tutorials/0_to_litgpt.md lines 359-370: "GB" divides by 1e9.
  const auto lit = traincalc::parse_log(
      "Epoch 1 | iter 1 step 0 | loss train: 1.646, val: n/a | iter time: 820.31 ms\n"
      "Epoch 1 | iter 2 step 1 | loss train: 1.660, val: n/a | iter time: 548.72 ms (step)\n"
      "Training time: 11.20s\nMemory used: 13.90 GB\n");
  CHECK(measured(lit, "memory.allocated_bytes") == Approx(13.90e9));
  // LitGPT's iteration time is one micro-batch's, not a step's: not read.
  CHECK(lit.measured.count("time.step_seconds") == 0);
  // github.com/karpathy/nanoGPT/issues/178 (A100) and #466: three lines, the first (9.4 s of
  // compilation) left out, the median of the other two.
  const auto nano = traincalc::parse_log(
      "iter 0: loss 4.2648, time 9371.81ms, mfu -100.00%\n"
      "iter 10: loss 3.2202, time 893.76ms, mfu 16.68%\n"
      "iter 340: loss 5.4983, time 33785.52ms, mfu 0.96%\n");
  CHECK(nano.frameworks == std::vector<std::string>{"nanogpt"});
  CHECK(nano.readings.size() == 3);
  CHECK(measured(nano, "time.step_seconds") == Approx((0.89376 + 33.78552) / 2));
  // What torch.cuda.max_memory_allocated() returns, printed: bytes.
  const auto bytes = traincalc::parse_log("  45678901234\n");
  CHECK(measured(bytes, "memory.allocated_bytes") == 45678901234.0);
  // Nothing recognisable: no readings, and a note naming what is read.
  const auto none = traincalc::parse_log("loss went down, all good\n");
  CHECK(none.readings.empty());
  REQUIRE(none.notes.size() == 1);
  CHECK(none.notes.front().find("Megatron-LM") != std::string::npos);
}
