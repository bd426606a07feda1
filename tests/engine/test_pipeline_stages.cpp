// Pipeline stages with uneven layer counts: how the layers are split when they do not divide the
// stages (or when the first and last stages are given), what each stage then holds in memory, which
// stage sets the step's pace, and what the planner may choose.
#include "../../engine/src/estimate/estimators.hpp"
#include "helpers.hpp"

using namespace test;
using traincalc::detail::pipeline_stage_layers;

namespace {

// Llama 3.1 405B (126 layers) pre-training on 16,384 H100s as Meta ran it: tp 8, pp 16, cp 1,
// 8,192-token sequences (Llama Team 2024, "The Llama 3 Herd of Models", table 4), here without
// interleaving; the first and last stage layers as given (or "auto").
json llama405b(const json& first = "auto", const json& last = "auto") {
  return {{"model", {{"preset", "llama-3.1-405b"}}},
          {"training", {{"type", "pretrain"}, {"tokens", 1.5e13}, {"seq_len", 8192}, {"global_batch_sequences", 2048}}},
          {"hardware", {{"gpu", "h100-sxm"}, {"count", 16384}}},
          {"strategy",
           {{"tp", 8},
            {"pp", 16},
            {"cp", 1},
            {"ep", 1},
            {"micro_batch", 1},
            {"zero", 1},
            {"recompute", "full"},
            {"pp_virtual_stages", 1},
            {"pp_first_stage_layers", first},
            {"pp_last_stage_layers", last}}}};
}

}  // namespace

TEST_CASE("Pipeline stages: the layers split evenly where they divide, else the ends one lighter") {
  // Even: 80 layers on 8 stages, 10 each.
  auto even = pipeline_stage_layers(80, 8);
  CHECK(even.valid);
  CHECK((even.first == 10 && even.middle == 10 && even.last == 10));
  // Llama 3's 126 layers on 16 stages: 7 on the first and the last, 8 on the 14 between (Llama Team
  // 2024, sec. 3.3.2, "reducing one Transformer layer each from the first and the last stages").
  auto llama = pipeline_stage_layers(126, 16);
  CHECK(llama.valid);
  CHECK((llama.first == 7 && llama.middle == 8 && llama.last == 7));
  // 12 layers on 8 stages: 1 on each end, at most 2 between (4 stages hold 2, 2 hold 1).
  auto twelve = pipeline_stage_layers(12, 8);
  CHECK((twelve.valid && twelve.first == 1 && twelve.middle == 2 && twelve.last == 1));
  // Where all but one stage must hold the extra layer (15 on 8), the first takes it, the last (with
  // the output head) stays lighter.
  auto fifteen = pipeline_stage_layers(15, 8);
  CHECK((fifteen.valid && fifteen.first == 2 && fifteen.middle == 2 && fifteen.last == 1));
  // Two stages: the extra layer on the first.
  auto two = pipeline_stage_layers(5, 2);
  CHECK((two.valid && two.first == 3 && two.last == 2));
  // More stages than layers: no split.
  CHECK_FALSE(pipeline_stage_layers(6, 8).valid);
}

TEST_CASE("Pipeline stages: given first and last stages leave the rest to the stages between") {
  // Megatron-Core's decoder_first/last_pipeline_num_layers: 126 = 6 + 14 x 8 + 8.
  auto given = pipeline_stage_layers(126, 16, 6, 8);
  CHECK((given.valid && given.first == 6 && given.middle == 8 && given.last == 8));
  // Only the first given: the other 15 stages share 120 layers, 8 each.
  auto first_only = pipeline_stage_layers(126, 16, 6, 0);
  CHECK((first_only.valid && first_only.middle == 8 && first_only.last == 8));
  // 126 - 10 - 10 = 106 layers do not split over 14 stages.
  CHECK_FALSE(pipeline_stage_layers(126, 16, 10, 10).valid);
  // With two stages the two counts must add up to the layers.
  CHECK(pipeline_stage_layers(10, 2, 4, 6).valid);
  CHECK_FALSE(pipeline_stage_layers(10, 2, 4, 5).valid);
}

TEST_CASE("Pipeline stages: the report says how the layers were split") {
  const json r = report_json(llama405b());
  REQUIRE(r["errors"].empty());
  CHECK(r["parallelism"]["first_stage_layers"] == 7);
  CHECK(r["parallelism"]["middle_stage_layers"] == 8);
  CHECK(r["parallelism"]["last_stage_layers"] == 7);
  // The heavier stages between are weighed in memory too: rank 1 holds 15 micro-batches of 8 layers'
  // activations against the first stage's 16 of 7.
  CHECK(r["memory"]["stage_bytes"].contains("middle"));
  CHECK(r["memory"]["stage_bytes"]["middle"].get<double>() > r["memory"]["stage_bytes"]["first"].get<double>());
}

TEST_CASE("Pipeline stages: lighter ends take the logits off the critical stage") {
  // 7 layers on the last stage with the output head and the loss (a 128,256-word vocabulary, about two
  // layers' matmuls at this width) against 6 on the first and 8 on the last: moving the extra layer
  // onto the last stage slows every micro-batch, as the Llama 3 team balanced it.
  const traincalc::Report balanced = run(llama405b());
  const traincalc::Report heavy_last = run(llama405b(6, 8));
  REQUIRE(balanced.time.step);
  REQUIRE(heavy_last.time.step);
  CHECK(heavy_last.time.step->step_seconds > balanced.time.step->step_seconds);
  // The same GPUs with 8 layers on every stage of a 128-layer model set the bound: the balanced split
  // of 126 is no slower than that.
  json even = llama405b(8, 8);
  even["model"]["layers"] = 128;
  const traincalc::Report even_128 = run(even);
  CHECK(balanced.time.step->step_seconds <= even_128.time.step->step_seconds);
}

TEST_CASE("Pipeline stages: the fill and drain run on the heavier stages between") {
  // Llama 3.1 8B (32 layers, a 128,256-word vocabulary: its logits weigh about two layers) on 5
  // stages: 6 layers on each end, 7, 7 and 6 between. The last stage with 6 layers and the logits sets
  // the pace, but a bubble slot is a 7-layer stage's passes, as in a
  // 35-layer model of five 7-layer stages (the pipeline sends, not per layer, aside).
  auto scenario = [](double layers) {
    return json{{"model", {{"preset", "llama-3.1-8b"}, {"layers", layers}}},
                {"training", {{"type", "pretrain"}, {"tokens", 1e10}, {"seq_len", 8192}, {"global_batch_sequences", 16}}},
                {"hardware", {{"gpu", "h100-sxm"}, {"count", 40}}},
                {"strategy",
                 {{"tp", 8}, {"pp", 5}, {"cp", 1}, {"ep", 1}, {"micro_batch", 1}, {"zero", 1}, {"recompute", "full"},
                  {"pp_virtual_stages", 1}}}};
  };
  const json uneven = report_json(scenario(32));
  REQUIRE(uneven["errors"].empty());
  CHECK(uneven["parallelism"]["first_stage_layers"] == 6);
  CHECK(uneven["parallelism"]["middle_stage_layers"] == 7);
  CHECK(uneven["parallelism"]["last_stage_layers"] == 6);
  const json even = report_json(scenario(35));
  REQUIRE(even["errors"].empty());
  CHECK_THAT(uneven["time"]["breakdown_seconds"]["bubble"].get<double>(),
             WithinRel(even["time"]["breakdown_seconds"]["bubble"].get<double>(), 0.02));
}

TEST_CASE("Pipeline stages: counts that do not split, or that interleaving cannot take, are refused") {
  const json bad = report_json(llama405b(10, 10));
  CHECK(has_error(bad, "strategy.pp_first_stage_layers", "inconsistent"));
  // Interleaved, a full stage is v equal chunks: 8 layers do not make 3 chunks.
  json interleaved = llama405b(7, 7);
  interleaved["strategy"]["pp_virtual_stages"] = 3;
  CHECK(has_error(report_json(interleaved), "strategy.pp_first_stage_layers", "inconsistent"));
  // Nor may an end be more than a chunk lighter: ends of 6 and 8 leave 8 between; at 8 chunks of one
  // layer the first stage is two short (refused), at 4 chunks of 2 it is one chunk short (taken).
  json too_light = llama405b(6, 8);
  too_light["strategy"]["pp_virtual_stages"] = 8;
  CHECK(has_error(report_json(too_light), "strategy.pp_first_stage_layers", "inconsistent"));
  too_light["strategy"]["pp_virtual_stages"] = 4;
  CHECK(report_json(too_light)["errors"].empty());
  // One stage: the counts have nothing to split, and the report says they were ignored.
  json one = llama405b(7, 7);
  one["strategy"]["pp"] = 1;
  one["strategy"]["tp"] = 8;
  one["hardware"]["count"] = 8;
  one["training"]["global_batch_sequences"] = 8;
  const json r = report_json(one);
  CHECK(r["errors"].empty());
  CHECK(r["warnings"].dump().find("pp_first_stage_layers") != std::string::npos);
  // Without an architecture there are no layers to place: ignored, and said so.
  const json bare = report_json({{"model", {{"params", 7e9}}},
                                 {"training", {{"type", "pretrain"}, {"tokens", 1e9}}},
                                 {"hardware", {{"gpu", "h100-sxm"}, {"count", 16}}},
                                 {"strategy", {{"tp", 1}, {"pp", 2}, {"pp_first_stage_layers", 3}}}});
  CHECK(bare["errors"].empty());
  CHECK(bare["warnings"].dump().find("pp_first_stage_layers") != std::string::npos);
  // Interleaved chunks that split the layers neither evenly nor with ends a chunk lighter (126 on 16
  // stages of 5 chunks: 80 chunks of 2 layers would need 34 fewer): timed with chunks rounded up to
  // whole layers, and the report says it is an approximation (no uneven split reported).
  json chunks = llama405b();
  chunks["strategy"].erase("pp_first_stage_layers");
  chunks["strategy"].erase("pp_last_stage_layers");
  chunks["strategy"]["pp_virtual_stages"] = 5;
  const json approximated = report_json(chunks);
  CHECK(approximated["errors"].empty());
  CHECK(approximated["warnings"].dump().find("approximated") != std::string::npos);
  CHECK_FALSE(approximated["parallelism"].contains("first_stage_layers"));
}

TEST_CASE("Pipeline stages: the planner may split layers that do not divide the stages") {
  // 126 layers on 128 GPUs with tp 8 and a batch of one sequence (so no data parallelism): only 16
  // stages use them all, and 16 does not divide 126. The planner finds that layout (the ends one layer lighter) and says so.
  json s = llama405b();
  for (const char* field : {"pp", "micro_batch", "zero", "recompute", "pp_virtual_stages", "pp_first_stage_layers",
                            "pp_last_stage_layers"})
    s["strategy"].erase(field);
  s["hardware"]["count"] = 128;
  s["training"]["global_batch_sequences"] = 1;
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  CHECK(r["parallelism"]["pp"] == 16);
  CHECK(r["parallelism"]["chosen_by"] == "planner");
  CHECK(r["parallelism"]["first_stage_layers"] == 7);
  CHECK(r["parallelism"]["middle_stage_layers"] == 8);
}

TEST_CASE("Pipeline stages: a mixture of experts' routed experts are counted once per stage") {
  // Mixtral 8x7B (46.7B parameters, 32 layers) on two stages: each holds half the layers, with their
  // routed experts once, plus the embedding or the output head (131M each): about 23.4B per GPU.
  const traincalc::Report r =
      run({{"model", {{"preset", "mixtral-8x7b"}}},
           {"training", {{"type", "pretrain"}, {"tokens", 1e9}, {"seq_len", 4096}, {"global_batch_sequences", 64}}},
           {"hardware", {{"gpu", "h100-sxm"}, {"count", 16}}},
           {"strategy", {{"tp", 1}, {"pp", 2}, {"ep", 1}, {"cp", 1}, {"micro_batch", 1}, {"zero", 1}, {"recompute", "full"}}}});
  CHECK_THAT(r.memory.explain.params_per_gpu, WithinRel(r.model.params / 2, 0.01));
}

TEST_CASE("Pipeline stages: interleaved chunks with lighter first and last stages") {
  // Llama 3 interleaves its 126 layers on 16 stages with one layer fewer on the first and the last
  // stage (Llama Team 2024, sec. 3.3.2): a full stage is v chunks of 8/v layers, the first stage's
  // first chunk and the last stage's last chunk one layer short.
  for (double v : {2.0, 4.0, 8.0}) {
    const auto on = pipeline_stage_layers(126, 16, 0, 0, v);
    CHECK(on.valid);
    CHECK((on.first == 7 && on.middle == 8 && on.last == 7));
    CHECK(pipeline_stage_layers(126, 16, 7, 7, v).valid);
  }
  // 32 layers on 4 stages of 3 chunks: chunks of 3 layers would hold 36, the 4 missing taken two from
  // each end (7, 9, 9, 7).
  const auto three = pipeline_stage_layers(32, 4, 0, 0, 3);
  CHECK(three.valid);
  CHECK((three.first == 7 && three.middle == 9 && three.last == 7));
  // No split: 8 layers are not 3 equal chunks; 126 on 16 x 5 chunks of 2 would miss 34 layers.
  CHECK_FALSE(pipeline_stage_layers(126, 16, 7, 7, 3).valid);
  CHECK_FALSE(pipeline_stage_layers(126, 16, 0, 0, 5).valid);
  // An end at most one chunk lighter: 6 is one chunk of 2 short of 8, but two chunks of 1.
  CHECK(pipeline_stage_layers(126, 16, 6, 8, 4).valid);
  CHECK_FALSE(pipeline_stage_layers(126, 16, 6, 8, 8).valid);
  // Two stages: the heavier end in whole chunks. 30 layers on 2 stages of 4 chunks: chunks of 4, one
  // layer off each end (15, 15); given 15 and 15 the same; 126 on 2 stages of 2 chunks: 63 and 63 in
  // chunks of 32.
  const auto two = pipeline_stage_layers(30, 2, 0, 0, 4);
  CHECK(two.valid);
  CHECK((two.first == 15 && two.last == 15 && two.chunk == 4));
  CHECK(pipeline_stage_layers(30, 2, 15, 15, 4).valid);
  CHECK(pipeline_stage_layers(126, 2, 63, 63, 2).valid);
  CHECK_FALSE(pipeline_stage_layers(30, 2, 10, 20, 4).valid);  // 10 is two chunks of 5 short of 20

  // The step: the bubble is (pp - 1)/v slots of a full stage's micro-batch (Narayanan et al. 2021,
  // sec. 2.2), so v chunks cut it v-fold against plain 1F1B on the same split.
  const auto bubble = [](double v) {
    json s = llama405b(7, 7);
    s["strategy"]["pp_virtual_stages"] = v;
    const json r = report_json(s);
    REQUIRE(r["errors"].empty());
    CHECK(r["parallelism"]["first_stage_layers"] == 7);
    CHECK(r["parallelism"]["middle_stage_layers"] == 8);
    return r["time"]["breakdown_seconds"]["bubble"].get<double>();
  };
  // (Within 3%: a chunk's sends between stages, v times as many, lengthen each slot a little.)
  const double plain = bubble(1);
  CHECK_THAT(bubble(2), WithinRel(plain / 2, 0.03));
  CHECK_THAT(bubble(8), WithinRel(plain / 8, 0.03));
  CHECK(bubble(8) > plain / 8);

  // Memory: with 32 micro-batches of one sequence per pipeline (4,096 sequences on 128 pipelines)
  // the peak is on rank 1, the first stage of 8 layers: under 1F1B it holds 15 micro-batches of them
  // (the first stage 16 of 7); interleaved with v = 2 it warms up with 2 x 14 + 16 + 1 = 45
  // chunk-forwards of 4 layers, 1.5 times as much (Megatron-LM's interleaved warm-up; for rank 0
  // Korthikanti et al. 2022, sec. 4.2.3: 1 + (p-1)/(p v)).
  const auto worst_activations = [](double v) {
    json s = llama405b(7, 7);
    s["strategy"]["recompute"] = "none";
    s["strategy"]["pp_virtual_stages"] = v;
    s["training"]["global_batch_sequences"] = 4096;
    const json r = report_json(s);
    REQUIRE(r["errors"].empty());
    REQUIRE(r["memory"]["worst_stage"] == "middle");
    return r["memory"]["per_gpu_bytes"]["activations"].get<double>();
  };
  CHECK_THAT(worst_activations(2), WithinRel(worst_activations(1) * 1.5, 1e-9));
  // The last stage's forwards go to chunk (k / pp) mod v: (v - 1) pp + 1 = 17 of them at v = 2, the
  // first 16 to its full chunk of 4 layers and one to its last chunk, a layer short (3): 67 layer-
  // micro-batches against one micro-batch's 7 under 1F1B, 60 more, as rank 1's 180 against 120 (an
  // average chunk of 3.5 layers would give 59.5, 52.5 more).
  const auto allocated = [](double v, const char* stage) {
    json s = llama405b(7, 7);
    s["strategy"]["recompute"] = "none";
    s["strategy"]["pp_virtual_stages"] = v;
    s["training"]["global_batch_sequences"] = 4096;
    return report_json(s)["memory"]["stage_allocated_bytes"][stage].get<double>();
  };
  CHECK_THAT(allocated(2, "last") - allocated(1, "last"),
             WithinRel(allocated(2, "middle") - allocated(1, "middle"), 1e-9));
}

TEST_CASE("Pipeline stages: the planner interleaves stages whose ends are lighter") {
  // Llama 3.1 405B on Meta's layout with full recomputation, the chunks per stage left to the planner:
  // with 16 micro-batches per pipeline plain 1F1B idles 15 of 31 slots; 126 layers split into no
  // equal chunks on 16 stages, but with the ends one layer lighter they do, and interleaving is chosen.
  // (The micro-batch left to it too: a layout given whole is taken as given, chunks included.)
  json s = llama405b();
  s["strategy"]["pp_virtual_stages"] = "auto";
  s["strategy"].erase("micro_batch");
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  // Chunks of whole layers with ends a chunk lighter: 2, 4 or 8 chunks of 4, 2 or 1 layers (the
  // planner weighs 2 to 8; the others do not split 8 layers).
  const double v = r["parallelism"]["virtual_stages"].get<double>();
  CHECK((v == 2 || v == 4 || v == 8));
  CHECK(r["parallelism"]["first_stage_layers"] == 7);
  CHECK(r["parallelism"]["middle_stage_layers"] == 8);
  CHECK(r["parallelism"]["last_stage_layers"] == 7);
  CHECK(r["memory"]["fits"] == true);
  // Faster than the same layout without interleaving.
  json plain = s;
  plain["strategy"]["pp_virtual_stages"] = 1;
  CHECK(report_json(plain)["time"]["mfu"].get<double>() < r["time"]["mfu"].get<double>());
}
