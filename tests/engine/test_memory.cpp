// Memory per GPU: model states against the ZeRO paper, activations against Korthikanti et al.,
// device memory against measured BERT-large runs, and the seeds' fine-tuning claims.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <regex>

#include "helpers.hpp"

using namespace test;

namespace {

json calibration() {
  std::ifstream in(std::string(TRAINCALC_SOURCE_DIR) + "/tests/data/calibration-memory.json");
  REQUIRE(in);
  return json::parse(in);
}

json run_json(const json& scenario) {
  const json report = report_json(scenario);
  INFO(scenario.dump() << " -> " << report["errors"].dump());
  REQUIRE(report["errors"].empty());
  return report;
}

}  // namespace

TEST_CASE("Model states match the ZeRO paper's table 1 for every stage and data-parallel degree", "[memory][zero]") {
  // Rajbhandari et al. 2020, table 1: 7.5B, 128B and 1T parameters, mixed-precision Adam
  // (2 + 2 + 12 bytes per parameter), ZeRO stages 1-3 over N_d = 1 ... 1024 GPUs.
  int rows = 0;
  const json data = calibration();
  for (const auto& row : data["memory"]) {
    if (row["record_type"] != "analytic_model_state_memory") continue;
    const std::string setup = row["setup"];
    std::smatch m;
    REQUIRE(std::regex_search(setup, m, std::regex("ZeRO-(\\d).*DP degree (\\d+)")));
    const int stage = std::stoi(m[1]);
    const double dp = std::stod(m[2]);
    const auto r = run({{"model", {{"params", row["total_params"]}}},
                        {"training", {{"type", "pretrain"}, {"tokens", 1e9}}},
                        {"hardware", {{"gpu", "h100-sxm"}, {"count", dp}}},
                        {"strategy",
                         {{"precision", "fp16"},
                          {"framework", "deepspeed"},  // ZeRO's own: 16-bit gradients
                          {"optimizer", "adam"},
                          {"zero", stage},
                          {"tp", 1},
                          {"pp", 1},
                          {"micro_batch", 1},
                          {"mfu", 0.4}}}});
    const auto& parts = r.memory.per_gpu_bytes;
    INFO(setup << " " << row["model"]);
    // Within 2%, or half of the table's last printed digit (0.12 GB is 0.117 GB rounded).
    const double published = row["memory_per_gpu_GB"].get<double>() * 1e9;
    CHECK(std::abs(parts.weights + parts.gradients + parts.optimizer - published) <=
          std::max(0.02 * published, 0.005e9));
    ++rows;
  }
  CHECK(rows == 54);
}

TEST_CASE("Activations follow Korthikanti et al. 2022 for a GPT layer", "[memory][activations]") {
  // A GPT-3-shaped layer with dropout, no FlashAttention: sbh(34 + 5as/h) bytes per layer (sec. 4.1);
  // with tensor parallelism t and sequence parallelism, divided by t; without sequence parallelism
  // sbh(10 + 24/t + 5as/(ht)); selective recomputation drops the 5as/h term; full keeps 2sbh.
  const double L = 4, h = 1024, a = 16, s = 2048, b = 2, V = 1000;
  const json model = {{"layers", L}, {"hidden", h},  {"heads", a},          {"ffn_hidden", 4 * h},
                      {"vocab", V},  {"bias", true}, {"norm", "layernorm"}, {"dropout", true}};
  auto activations = [&](double tp, bool sp, const char* recompute) {
    const json report = run_json({{"model", model},
                                  {"training", {{"type", "pretrain"}, {"tokens", 1e9}, {"seq_len", s}}},
                                  {"hardware", {{"gpu", "h100-sxm"}, {"count", tp}}},
                                  {"strategy",
                                   {{"tp", tp},
                                    {"pp", 1},
                                    {"micro_batch", b},
                                    {"flash_attention", false},
                                    {"fused_softmax", true},  // Megatron's kernel, as Korthikanti et al.
                                    {"sequence_parallel", sp},
                                    {"recompute", recompute},
                                    {"mfu", 0.4}}}});
    // Less the embedding output kept for its backward (2sbh, split by t with sequence parallelism).
    return report["memory"]["per_gpu_bytes"]["activations"].get<double>() - 2 * s * b * h / (sp ? tp : 1);
  };
  const double sbh = s * b * h;
  CHECK_THAT(activations(1, false, "none"), WithinRel(L * sbh * (34 + 5 * a * s / h), 1e-12));
  CHECK_THAT(activations(8, true, "none"), WithinRel(L * sbh * (34 + 5 * a * s / h) / 8, 1e-12));
  CHECK_THAT(activations(8, false, "none"), WithinRel(L * sbh * (10 + 24.0 / 8 + 5 * a * s / (h * 8)), 1e-12));
  CHECK_THAT(activations(8, true, "selective"), WithinRel(L * sbh * 34 / 8, 1e-12));
  // Full recomputation: each layer's input, plus the one layer rebuilt during backward.
  CHECK_THAT(activations(1, false, "full"), WithinRel(L * 2 * sbh + sbh * (34 + 5 * a * s / h), 1e-12));
}

TEST_CASE("BERT-large on a V100: measured device memory within 20%", "[memory][calibration]") {
  // Hugging Face Transformers docs ("Efficient training on a single GPU"), nvidia-smi memory including
  // the CUDA context: bert-large-uncased, sequence 512, AdamW, HF Trainer (tests/data).
  int rows = 0;
  const json data = calibration();
  for (const auto& row : data["memory"]) {
    if (row["record_type"] != "measured_peak_memory") continue;
    const bool fp16 = row["precision"] == "fp16 mixed";
    const double micro = row["micro_batch_size"];
    const std::string accumulation = row["parallelism_or_sharding"];
    const double steps = accumulation.find("grad-accum 4") != std::string::npos ? 4 : 1;
    const json report = run_json({{"model", {{"preset", "bert-large"}}},
                                  // Sequence classification: a 2-class head, no vocabulary logits.
                                  {"training",
                                   {{"type", "finetune"},
                                    {"objective", "classification"},
                                    {"samples", 512},
                                    {"seq_len", 512},
                                    {"global_batch_sequences", micro * steps}}},
                                  {"hardware", {{"gpu", "v100-sxm2-16gb"}, {"count", 1}}},
                                  {"strategy",
                                   {{"precision", fp16 ? "fp16" : "fp32"},
                                    {"optimizer", "adamw"},
                                    {"micro_batch", micro},
                                    {"recompute", row["activation_checkpointing"].get<bool>() ? "full" : "none"},
                                    {"flash_attention", false},
                                    {"tp", 1},
                                    {"pp", 1},
                                    {"mfu", 0.3}}}});
    const double measured = row["memory_per_gpu_GB"].get<double>() * 1e9;
    INFO(row["setup"] << ": engine " << report["memory"]["per_gpu_bytes"]["total"] << " vs measured " << measured);
    std::printf("calibration: %-70s engine %6.2f GB, measured %6.2f GB (%+.1f%%)\n",
                row["setup"].get<std::string>().c_str(), report["memory"]["per_gpu_bytes"]["total"].get<double>() / 1e9,
                measured / 1e9, (report["memory"]["per_gpu_bytes"]["total"].get<double>() / measured - 1) * 100);
    CHECK_THAT(report["memory"]["per_gpu_bytes"]["total"].get<double>(), WithinRel(measured, 0.20));
    ++rows;
  }
  CHECK(rows == 5);
}

TEST_CASE("Seed 003: GPT-3 175B cannot be fine-tuned in full on 8 A100-80GB, with QLoRA it fits", "[memory][seed]") {
  // docs/seeds.md, article 003: bf16 weights alone are 350 GB, more than 8 x 80 GB can hold with gradients
  // and Adam's states (16 bytes per parameter: 2.8 TB, 350 GB per GPU even fully sharded).
  json s = {{"model", {{"preset", "gpt-3-175b"}}},
            {"training", {{"type", "finetune"}, {"method", "full"}, {"samples", 10000}, {"seq_len", 2048}}},
            {"hardware", {{"gpu", "a100-80gb-sxm"}, {"count", 8}}},
            {"strategy",
             {{"precision", "bf16"},
              {"tp", 8},
              {"pp", 1},
              {"zero", 3},
              {"micro_batch", 1},
              {"recompute", "full"},
              {"mfu", 0.3}}}};
  const json full = run_json(s);
  CHECK_FALSE(full["memory"]["fits"].get<bool>());
  CHECK(full["memory"]["per_gpu_bytes"]["weights"].get<double>() +
            full["memory"]["per_gpu_bytes"]["gradients"].get<double>() +
            full["memory"]["per_gpu_bytes"]["optimizer"].get<double>() >
        16 * 174.6e9 / 8 * 0.99);
  // It suggests what would fit, each computed: QLoRA among them.
  bool qlora_fits = false;
  for (const auto& sug : full["memory"]["suggestions"])
    qlora_fits = qlora_fits || (sug["changes"].value("training.method", "") == "qlora" && sug["fits"].get<bool>());
  CHECK(qlora_fits);

  s["training"]["method"] = "qlora";
  const json qlora = run_json(s);
  CHECK(qlora["memory"]["fits"].get<bool>());
  // 4-bit NormalFloat without double quantisation (Hugging Face's BitsAndBytesConfig default,
  // bnb_4bit_use_double_quant=False): 4 + 32/64 = 4.5 bits per linear-layer parameter (Dettmers et al.
  // 2023, sec. 3), 12.3 GB per GPU over 8-way tensor parallelism, plus the 16-bit embeddings and the
  // adapters (0.3 GB).
  CHECK_THAT(qlora["memory"]["per_gpu_bytes"]["weights"].get<double>(), WithinRel(174.6e9 * 4.5 / 8 / 8 + 0.3e9, 0.01));
  // With double quantisation (the QLoRA paper's setting): 4.127 bits, 11.3 GB.
  s["training"]["quantization"] = "nf4_double";
  CHECK_THAT(run_json(s)["memory"]["per_gpu_bytes"]["weights"].get<double>(),
             WithinRel(174.6e9 * 4.127 / 8 / 8 + 0.3e9, 0.01));
}

TEST_CASE("The peak is taken over the phases of a step, not as a plain sum", "[memory]") {
  // One GPU and one micro-batch per step: gradients appear only as activations are freed, so the
  // peak is lower than weights + gradients + optimizer + activations + logits + overhead.
  json s = {{"model", {{"preset", "llama-2-7b"}}},
            {"training", {{"type", "finetune"}, {"tokens", 1e8}, {"global_batch_sequences", 1}}},
            {"hardware", {{"gpu", "h200-sxm"}, {"count", 1}}},
            // DeepSpeed's regime: 16-bit gradients, fp32 master weights and states.
            {"strategy", {{"framework", "deepspeed"}, {"tp", 1}, {"pp", 1}, {"micro_batch", 1}, {"mfu", 0.4}}}};
  const json r = run_json(s);
  const auto& p = r["memory"]["per_gpu_bytes"];
  const double plain_sum = p["weights"].get<double>() + p["gradients"].get<double>() + p["optimizer"].get<double>() +
                           p["activations"].get<double>() + p["logits"].get<double>() + p["overhead"].get<double>();
  CHECK(p["total"].get<double>() == Approx(plain_sum - p["gradients"].get<double>()));
  CHECK(r["memory"]["peak_phase"] == "forward");
  CHECK(r["memory"]["phases_bytes"]["forward"] == p["total"]);
  // With data parallelism the gradient buffers stay allocated (DDP buckets, ZeRO partitions).
  s["hardware"]["count"] = 8;
  s["training"]["global_batch_sequences"] = 8;
  const json dp = run_json(s);
  const auto& q = dp["memory"]["per_gpu_bytes"];
  CHECK(q["total"].get<double>() ==
        Approx(q["weights"].get<double>() + q["gradients"].get<double>() + q["optimizer"].get<double>() +
               q["activations"].get<double>() + q["logits"].get<double>() + q["overhead"].get<double>()));
}

TEST_CASE("Every suggestion, applied, is a valid scenario with the memory it states", "[memory]") {
  const json scenarios[] = {
      {{"model", {{"preset", "gpt-3-175b"}}},
       {"training", {{"type", "finetune"}, {"samples", 1000}, {"seq_len", 2048}}},
       {"hardware", {{"gpu", "a100-80gb-sxm"}, {"count", 8}}},
       {"strategy",
        {{"tp", 8}, {"pp", 1}, {"cp", 1}, {"micro_batch", 1}, {"zero", 0}, {"recompute", "none"}, {"mfu", 0.3}}}},
      {{"model", {{"preset", "mixtral-8x7b"}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
       {"hardware", {{"gpu", "h100-sxm"}, {"count", 16}}},
       {"strategy",
        {{"tp", 1},
         {"pp", 1},
         {"cp", 1},
         {"ep", 8},
         {"micro_batch", 4},
         {"zero", 1},
         {"recompute", "none"},
         {"mfu", 0.3}}}},
  };
  for (const json& scenario : scenarios) {
    const json report = run_json(scenario);
    REQUIRE_FALSE(report["memory"]["fits"].get<bool>());
    REQUIRE_FALSE(report["memory"]["suggestions"].empty());
    for (const auto& suggestion : report["memory"]["suggestions"]) {
      INFO(suggestion.dump());
      const json again = run_json(with_changes(scenario, suggestion["changes"]));
      CHECK_THAT(again["memory"]["per_gpu_bytes"]["total"].get<double>(),
                 WithinRel(suggestion["total_bytes"].get<double>(), 1e-9));
      CHECK(again["memory"]["fits"] == suggestion["fits"]);
    }
  }
}

TEST_CASE("Expert and context parallelism, LoRA and offload move the parts they should", "[memory]") {
  const json mixtral = {{"model", {{"preset", "mixtral-8x7b"}}},
                        {"training", {{"type", "pretrain"}, {"tokens", 1e12}, {"seq_len", 4096}}},
                        {"hardware", {{"gpu", "h100-sxm"}, {"count", 8}}},
                        {"strategy",
                         {{"tp", 1},
                          {"pp", 1},
                          {"cp", 1},
                          {"ep", 1},
                          {"zero", 0},
                          {"micro_batch", 1},
                          {"recompute", "none"},
                          {"mfu", 0.3}}}};
  SECTION("expert parallelism splits the routed experts' weights") {
    json s = mixtral;
    const double whole = run_json(s)["memory"]["per_gpu_bytes"]["weights"];
    s["strategy"]["ep"] = 8;
    const double split = run_json(s)["memory"]["per_gpu_bytes"]["weights"];
    // 32 layers x 8 experts x 3 x 4096 x 14336 routed parameters, 2 bytes each, 7/8 of them elsewhere.
    CHECK_THAT(whole - split, WithinRel(32.0 * 8 * 3 * 4096 * 14336 * 2 * 7 / 8, 1e-9));
  }
  SECTION("context parallelism splits each sequence's activations") {
    json s = mixtral;
    const double one = run_json(s)["memory"]["per_gpu_bytes"]["activations"];
    s["strategy"]["cp"] = 2;
    CHECK_THAT(run_json(s)["memory"]["per_gpu_bytes"]["activations"].get<double>(), WithinRel(one / 2, 1e-9));
  }
  SECTION("LoRA: frozen 16-bit weights, 16 bytes per adapter parameter for its training state") {
    const json r =
        run_json({{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "finetune"}, {"method", "lora"}, {"tokens", 1e8}, {"lora_rank", 16}}},
                  {"hardware", {{"gpu", "h100-sxm"}, {"count", 1}}},
                  {"strategy", {{"framework", "deepspeed"}, {"mfu", 0.3}}}});
    const double adapters = 39976960;  // rank 16 on every linear layer (test_flops.cpp)
    CHECK_THAT(r["memory"]["per_gpu_bytes"]["weights"].get<double>(), WithinRel((6738415616.0 + adapters) * 2, 1e-9));
    CHECK_THAT(r["memory"]["per_gpu_bytes"]["gradients"].get<double>(), WithinRel(adapters * 2, 1e-9));
    CHECK_THAT(r["memory"]["per_gpu_bytes"]["optimizer"].get<double>(), WithinRel(adapters * 12, 1e-9));
  }
  SECTION("ZeRO-Offload trains a 13B model on one 32 GB V100 (Ren et al. 2021)") {
    json s = {{"model", {{"preset", "llama-2-13b"}}},
              {"training", {{"type", "finetune"}, {"tokens", 1e8}, {"seq_len", 512}}},
              {"hardware", {{"gpu", "v100-sxm2-32gb"}, {"count", 1}}},
              {"strategy",
               {{"framework", "deepspeed"}, {"precision", "fp16"}, {"micro_batch", 1}, {"recompute", "full"}, {"mfu", 0.3}}}};
    CHECK_FALSE(run_json(s)["memory"]["fits"].get<bool>());
    s["strategy"]["offload"] = "optimizer";
    const json r = run_json(s);
    CHECK(r["memory"]["fits"].get<bool>());
    CHECK(r["memory"]["per_gpu_bytes"]["optimizer"] == 0);
  }
  SECTION("ZeRO-3 shards frozen base weights too (FSDP + QLoRA on two 24 GB GPUs)") {
    json s = {
        {"model", {{"preset", "llama-2-70b"}}},
        {"training",
         {{"type", "finetune"}, {"method", "qlora"}, {"quantization", "nf4_double"}, {"tokens", 1e8}, {"seq_len", 512}}},
        {"hardware", {{"gpu", "rtx-4090"}, {"count", 2}}},
        {"strategy", {{"precision", "bf16"}, {"zero", 3}, {"micro_batch", 1}, {"recompute", "full"}, {"mfu", 0.3}}}};
    const json r = run_json(s);
    // 69B parameters, their linear layers at 4.127 bits and the rest (embeddings) at 16, halved.
    CHECK(r["memory"]["per_gpu_bytes"]["weights"].get<double>() < 20e9);
  }
}

TEST_CASE("Largest micro-batch that fits and fewest GPUs that fit", "[memory]") {
  json s = {
      {"model", {{"preset", "llama-2-70b"}}},
      {"training", {{"type", "pretrain"}, {"tokens", 2e12}, {"seq_len", 4096}}},
      {"hardware", {{"gpu", "a100-80gb-sxm"}, {"count", 64}}},
      {"strategy", {{"tp", 8}, {"pp", 1}, {"micro_batch", 1}, {"zero", 3}, {"recompute", "selective"}, {"mfu", 0.4}}}};
  const json r = run_json(s);
  const double max_micro = r["memory"]["max_micro_batch"];
  CHECK(max_micro >= 1);
  // The micro-batch it names fits, and one more does not.
  s["strategy"]["micro_batch"] = max_micro;
  CHECK(run_json(s)["memory"]["fits"].get<bool>());
  s["strategy"]["micro_batch"] = max_micro + 1;
  CHECK_FALSE(run_json(s)["memory"]["fits"].get<bool>());
  // The fewest GPUs: fits there, not at one tensor-parallel group fewer.
  s["strategy"]["micro_batch"] = 1;
  const double min_gpus = r["memory"]["min_gpus"];
  s["hardware"]["count"] = min_gpus;
  CHECK(run_json(s)["memory"]["fits"].get<bool>());
  if (min_gpus > 8) {
    s["hardware"]["count"] = min_gpus - 8;
    CHECK_FALSE(run_json(s)["memory"]["fits"].get<bool>());
  }
}

TEST_CASE("Memory never exceeds what a bigger layout needs: more sharding, less memory", "[memory]") {
  json s = {{"model", {{"preset", "llama-3.1-8b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", 8}}},
            {"strategy", {{"tp", 1}, {"pp", 1}, {"cp", 1}, {"micro_batch", 1}, {"recompute", "none"}, {"mfu", 0.4}}}};
  double previous = 1e300;
  for (int stage = 0; stage <= 3; ++stage) {
    s["strategy"]["zero"] = stage;
    const double total = run_json(s)["memory"]["per_gpu_bytes"]["total"];
    CHECK(total <= previous);
    previous = total;
  }
}

// ---- A parameter count only: verdicts the engine can back ---------------------------------------
// Without an architecture there are no activations to count and no layout to search, but the
// sharding still decides what fits. 70e9 parameters in bf16 with Adam (Megatron's mixed precision:
// 2-byte weights, 4-byte gradients, 12 bytes of states per parameter) need 18 bytes each.

TEST_CASE("A parameter count only: the sharding is the lowest ZeRO stage that fits, and every fix offered fits",
          "[memory]") {
  json s = {{"model", {{"params", 7e10}}},
            {"training", {{"type", "pretrain"}, {"tokens", 2e12}}},
            {"hardware", {{"gpu", "h100-sxm"}, {"count", 64}}}};
  // 64 GPUs: ZeRO-1 keeps 2 + 4 bytes of every parameter per GPU (420 GB); ZeRO-3 shards all 18.
  json r = report_json(s);
  REQUIRE(r["errors"].empty());
  CHECK(r["parallelism"]["zero"] == 3);
  CHECK(r["parallelism"]["chosen_by"] == "planner");
  CHECK(r["parallelism"]["layouts_evaluated"] == 3);
  CHECK(r["memory"]["fits"] == true);
  CHECK(r["memory"]["activations_known"] == false);
  CHECK_THAT(r["memory"]["per_gpu_bytes"]["weights"].get<double>() +
                 r["memory"]["per_gpu_bytes"]["gradients"].get<double>() +
                 r["memory"]["per_gpu_bytes"]["optimizer"].get<double>(),
             WithinRel(7e10 * 18 / 64, 1e-9));
  // Only 8 GPUs: ZeRO-3 alone (157.5 GB of states each) does not fit an 80 GB H100; the fixes offered all fit.
  s["hardware"]["count"] = 8;
  r = report_json(s);
  REQUIRE(r["errors"].empty());
  CHECK(r["memory"]["fits"] == false);
  const json& suggestions = r["memory"]["suggestions"];
  REQUIRE_FALSE(suggestions.empty());
  bool more_gpus = false;
  for (const auto& x : suggestions) {
    INFO(x.dump());
    CHECK(x["fits"] == true);
    CHECK(report_json(with_changes(s, x["changes"]))["memory"]["fits"] == true);
    if (x["changes"].contains("hardware.count")) {
      more_gpus = true;
      CHECK(x["changes"]["hardware.count"].get<double>() == 16);  // 70e9 x 18 / 16 = 78.75 GB of states
    }
  }
  CHECK(more_gpus);
  // The scaling chart's question: from 16 H100s on, some count fits.
  for (double gpus : {16.0, 32.0, 128.0, 512.0}) {
    s["hardware"]["count"] = gpus;
    CHECK(report_json(s)["memory"]["fits"] == true);
  }
  // A ZeRO stage the user fixed is kept (and raising it is offered).
  s["hardware"]["count"] = 64;
  s["strategy"]["zero"] = 1;
  r = report_json(s);
  CHECK(r["parallelism"]["zero"] == 1);
  CHECK(r["memory"]["fits"] == false);
  CHECK(r["memory"]["suggestions"][0]["changes"]["strategy.zero"] == 3);
}

TEST_CASE("A parameter count only on a cloud offer: no fix beyond what the offer can join, no other GPU",
          "[memory][offers]") {
  // A RunPod community pod holds at most 8 H100s: 16 GPUs are not a fix there, and another GPU is
  // another offer.
  const json s = {{"model", {{"params", 7e10}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 2e12}}},
                  {"hardware", {{"count", 8}}},
                  {"pricing", {{"offer", "runpod-community-1-gpu-pod-on-demand-h100-sxm"}}}};
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  for (const auto& x : r["memory"]["suggestions"]) {
    INFO(x.dump());
    CHECK_FALSE(x["changes"].contains("hardware.count"));
    CHECK_FALSE(x["changes"].contains("hardware.gpu"));
  }
}

TEST_CASE("What would make it fit: the workload's shape and software before other hardware, never a GPU the method cannot run on",
          "[memory]") {
  // LoRA of Llama 3 8B on a 24 GB RTX 4090 at the model's whole context (8,192 tokens) does not fit;
  // the longest sequence that does comes first, in whole 256-token blocks.
  json s = {{"model", {{"preset", "llama-3-8b"}}},
            {"training", {{"type", "finetune"}, {"method", "lora"}, {"samples", 52002}, {"epochs", 3}, {"seq_len", 8192}}},
            {"hardware", {{"gpu", "rtx-4090"}, {"count", 1}}}};
  json r = report_json(s);
  REQUIRE(r["errors"].empty());
  REQUIRE(r["memory"]["fits"] == false);
  const json& first = r["memory"]["suggestions"][0];
  REQUIRE(first["changes"].contains("training.seq_len"));
  const double len = first["changes"]["training.seq_len"];
  CHECK(std::fmod(len, 256) == 0);
  CHECK(len <= r["memory"]["max_seq_len"].get<double>());
  CHECK(len > r["memory"]["max_seq_len"].get<double>() - 256);
  CHECK(first["fits"] == true);
  // Other hardware comes last.
  const json& suggestions = r["memory"]["suggestions"];
  bool hardware_seen = false;
  for (const auto& x : suggestions) {
    const bool hardware = x["changes"].contains("hardware.gpu") || x["changes"].contains("hardware.count");
    CHECK_FALSE((hardware_seen && !hardware));
    hardware_seen = hardware_seen || hardware;
  }
  // QLoRA (bitsandbytes' CUDA kernels) on a Huawei Ascend: said, and no other GPU but an NVIDIA one
  // is offered.
  s["training"]["method"] = "qlora";
  s["hardware"]["gpu"] = "ascend-910b";
  s["model"]["preset"] = "llama-2-70b";
  r = report_json(s);
  REQUIRE(r["errors"].empty());
  CHECK(warning_of(r, "bitsandbytes_gpu"));
  const json catalog = json::parse(traincalc::catalog_to_json(traincalc::builtin_catalog()));
  for (const auto& x : r["memory"]["suggestions"]) {
    INFO(x.dump());
    if (!x["changes"].contains("hardware.gpu")) continue;
    for (const auto& gpu : catalog["gpus"])
      if (gpu["id"] == x["changes"]["hardware.gpu"]) CHECK(gpu["vendor"] == "NVIDIA");
  }
}
