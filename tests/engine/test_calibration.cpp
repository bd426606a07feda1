// Calibration to the user's own measured runs (scenario.calibration, calibration.cpp): what a
// measurement pins down is fitted, the estimate uses it, and what cannot be is refused at its field.
#include <cmath>

#include "helpers.hpp"

using test::json;

namespace {

// Llama 3 8B pre-training on 64 H100s with Megatron-LM: a compute-bound step (no exposed
// communication, a little host work between micro-batches).
json llama8b() {
  return json::parse(R"({"model":{"preset":"llama-3-8b"},"training":{"type":"pretrain","tokens":1e12},
      "hardware":{"gpu":"h100-sxm","count":64},"strategy":{"framework":"megatron"}})");
}

}  // namespace

TEST_CASE("A measured step of this very run sets the predicted step to within the host's share", "[calibration]") {
  json s = llama8b();
  const json plain = test::report_json(s);
  const double predicted = plain.at("time").at("step_seconds");
  // Measured 20% slower than predicted.
  s["calibration"] = json::array({{{"measured", {{"time.step_seconds", predicted * 1.2}}}}});
  const json r = test::report_json(s);
  REQUIRE(r.at("errors").empty());
  const json& c = r.at("calibration");
  // One measurement moves each part by its share of the step: the compute, nearly all of it, takes
  // nearly all the correction, and the calibrated step is the measured one within 0.2%.
  CHECK(c.at("speed").at("compute").get<double>() == Approx(1.2).margin(0.01));
  CHECK(c.at("speed").at("runs") == 1);
  CHECK(r.at("time").at("step_seconds").get<double>() == Approx(predicted * 1.2).epsilon(0.002));
  CHECK(c.at("step_seconds_uncalibrated").get<double>() == Approx(predicted));
  // The same FLOPs in more time: the utilisation falls by the same factor.
  CHECK(r.at("time").at("mfu").get<double>() == Approx(plain.at("time").at("mfu").get<double>() / 1.2).epsilon(0.002));
  const json& point = c.at("points").at(0);
  CHECK(point.at("key") == "time.step_seconds");
  CHECK(point.at("predicted").get<double>() == Approx(predicted));
  CHECK(point.at("calibrated").get<double>() == Approx(predicted * 1.2).epsilon(0.002));
}

TEST_CASE("Throughput, MFU and TFLOP/s per GPU are read as the step time they imply", "[calibration]") {
  json s = llama8b();
  const json plain = test::report_json(s);
  const double step = plain.at("time").at("step_seconds");
  const double mfu = plain.at("time").at("mfu");
  const double tokens = plain.at("time").at("global_batch_sequences").get<double>() * 8192;  // Llama 3's 8,192 tokens
  const double peak = plain.at("hardware").at("peak_tflops");
  for (const auto& [key, value] : std::vector<std::pair<std::string, double>>{
           {"time.tokens_per_second", tokens / (step * 1.1)},
           {"time.mfu", mfu / 1.1},
           {"time.tflops_per_gpu", mfu / 1.1 * peak}}) {
    INFO(key);
    s["calibration"] = json::array({{{"measured", {{key, value}}}}});
    const json r = test::report_json(s);
    REQUIRE(r.at("errors").empty());
    CHECK(r.at("calibration").at("points").at(0).at("measured").get<double>() == Approx(step * 1.1).epsilon(1e-6));
    CHECK(r.at("time").at("step_seconds").get<double>() == Approx(step * 1.1).epsilon(0.002));
  }
}

TEST_CASE("A run measured at another size carries the share of its departure that its code explains", "[calibration]") {
  // Measured on 8 GPUs (a merge patch over this scenario), estimated on 64: the fitted compute factor
  // is the measured run's 1.15, and 64 GPUs take 1.15^0.195 of it, 2.8%: on the held-out rows one
  // measured step is 19.5% its code's and the rest its own (calibration_weight; test_speed_validation.cpp).
  json s = llama8b();
  json eight = s;
  eight["hardware"]["count"] = 8;
  const double step8 = test::report_json(eight).at("time").at("step_seconds");
  const double step64 = test::report_json(s).at("time").at("step_seconds");
  s["calibration"] = json::array({{{"scenario", {{"hardware", {{"count", 8}}}}}, {"measured", {{"time.step_seconds", step8 * 1.15}}}}});
  const json r = test::report_json(s);
  REQUIRE(r.at("errors").empty());
  const json& speed = r.at("calibration").at("speed");
  CHECK(speed.at("distance") == "gpus");
  CHECK(speed.at("carried").get<double>() == Approx(0.1946).margin(0.001));
  CHECK(speed.at("compute").get<double>() == Approx(1.15).margin(0.01));
  CHECK(r.at("time").at("step_seconds").get<double>() == Approx(step64 * std::pow(1.15, 0.1946)).epsilon(0.005));
  CHECK(r.at("calibration").at("points").at(0).at("predicted").get<double>() == Approx(step8));
  // Its range is the calibrated rows' at that distance: measured / calibrated 0.919-1.201 over 361
  // pairs of 8 sources (calibration_range).
  const json& range = r.at("time").at("range");
  CHECK(range.at("basis") == "calibrated_gpus");
  CHECK(range.at("low").get<double>() == Approx(0.9193));
  CHECK(range.at("high").get<double>() == Approx(1.2005));
  // Another layout of the same model on as many GPUs is nearer; another model, farther.
  s["calibration"][0]["scenario"] = {{"strategy", {{"micro_batch", 2}}}};
  CHECK(test::report_json(s).at("calibration").at("speed").at("distance") == "layout");
  s["calibration"][0]["scenario"] = {{"model", {{"preset", "llama-2-7b"}}}};
  CHECK(test::report_json(s).at("time").at("range").at("basis") == "calibrated_model");
  // A patch that changes nothing, or only what leaves the step as it is (the tokens, the price), is
  // the run itself.
  s["calibration"][0]["scenario"] = {{"hardware", {{"count", 64}}}};
  CHECK(test::report_json(s).at("calibration").at("speed").at("distance") == "same_run");
  s["calibration"][0]["scenario"] = {{"training", {{"tokens", 5e9}}}, {"pricing", {{"per_gpu_hour", 2}}}};
  CHECK(test::report_json(s).at("calibration").at("speed").at("distance") == "same_run");
  // Two figures of one run (its step time and its throughput) are one measured run: carried 19.5%.
  json two = s;
  two["calibration"] = json::array({{{"scenario", {{"hardware", {{"count", 8}}}}},
                                     {"measured", {{"time.step_seconds", step8 * 1.15}, {"time.samples_per_second", 1.0}}}}});
  const json both = test::report_json(two);
  REQUIRE(both.at("errors").empty());
  CHECK(both.at("calibration").at("speed").at("carried").get<double>() == Approx(0.1946).margin(0.001));
}

TEST_CASE("A measured peak calibrates the memory: allocated, then the allocator's gap", "[calibration][memory]") {
  json s = llama8b();
  const json plain = test::report_json(s);
  const double allocated = plain.at("memory").at("allocated_bytes");
  const double reserved = plain.at("memory").at("reserved_bytes");
  s["calibration"] = json::array({{{"measured", {{"memory.allocated_bytes", allocated * 1.02}, {"memory.reserved_bytes", reserved * 1.05}}}}});
  const json r = test::report_json(s);
  REQUIRE(r.at("errors").empty());
  // Both measured figures come out as measured: the allocated by its factor, the reserved by the gap's.
  CHECK(r.at("calibration").at("memory").at("allocated_factor").get<double>() == Approx(1.02));
  CHECK(r.at("memory").at("allocated_bytes").get<double>() == Approx(allocated * 1.02));
  CHECK(r.at("memory").at("reserved_bytes").get<double>() == Approx(reserved * 1.05));
  CHECK(r.at("memory").at("per_gpu_bytes").at("total").get<double>() ==
        Approx(plain.at("memory").at("per_gpu_bytes").at("total").get<double>() + reserved * 0.05));
  CHECK(r.at("calibration").at("per_gpu_bytes_uncalibrated").get<double>() ==
        Approx(plain.at("memory").at("per_gpu_bytes").at("total").get<double>()));
  CHECK(r.at("calibration").at("memory").at("distance") == "same_run");
  CHECK(r.at("calibration").at("memory").at("carried") == 1.0);
  // A peak measured on 8 GPUs carries 19.6% of its factor to 64 (memory_calibration_weight:
  // test_validation.cpp): allocated x 1.10 there is x 1.10^0.196 here.
  json eight = llama8b();
  eight["hardware"]["count"] = 8;
  const double allocated8 = test::report_json(eight).at("memory").at("allocated_bytes");
  s["calibration"] = json::array({{{"scenario", {{"hardware", {{"count", 8}}}}},
                                   {"measured", {{"memory.allocated_bytes", allocated8 * 1.10}}}}});
  const json other = test::report_json(s);
  REQUIRE(other.at("errors").empty());
  CHECK(other.at("calibration").at("memory").at("distance") == "gpus");
  CHECK(other.at("calibration").at("memory").at("carried").get<double>() == Approx(0.1956).margin(0.001));
  CHECK(other.at("memory").at("allocated_bytes").get<double>() == Approx(allocated * std::pow(1.10, 0.1956)).epsilon(1e-3));
}

TEST_CASE("What a measurement cannot be is refused at its field, with what to check", "[calibration][validation]") {
  json s = llama8b();
  const json plain = test::report_json(s);
  // A step faster than the GPU's peak allows.
  s["calibration"] = json::array({{{"measured", {{"time.step_seconds", 0.01}}}}});
  json r = test::report_json(s);
  REQUIRE_FALSE(r.at("errors").empty());
  CHECK(r.at("errors").at(0).at("field") == "calibration[0].measured.time.step_seconds");
  CHECK(r.at("errors").at(0).at("params").at("reason") == "calibration_above_peak");
  // A peak below the weights alone, and one above the GPU's memory.
  s["calibration"] = json::array({{{"measured", {{"memory.allocated_bytes", 1e6}}}}});
  r = test::report_json(s);
  REQUIRE_FALSE(r.at("errors").empty());
  CHECK(r.at("errors").at(0).at("params").at("reason") == "calibration_below_weights");
  s["calibration"] = json::array({{{"measured", {{"memory.device_bytes", 200e9}}}}});
  r = test::report_json(s);
  REQUIRE_FALSE(r.at("errors").empty());
  CHECK(r.at("errors").at(0).at("params").at("reason") == "calibration_above_capacity");
  // An unknown key names the nearest known one.
  s["calibration"] = json::array({{{"measured", {{"time.step_second", 8}}}}});
  r = test::report_json(s);
  REQUIRE_FALSE(r.at("errors").empty());
  CHECK(r.at("errors").at(0).at("code") == "unknown_key");
  CHECK(r.at("errors").at(0).at("field") == "calibration[0].measured.time.step_second");
  // A calibration inside a measured run.
  s["calibration"] = json::array({{{"scenario", {{"calibration", json::array()}}}, {"measured", {{"time.step_seconds", 8}}}}});
  r = test::report_json(s);
  REQUIRE_FALSE(r.at("errors").empty());
  CHECK(r.at("errors").at(0).at("params").at("reason") == "calibration_nested");
  // A measured run that is itself wrong says so at its own path.
  s["calibration"] = json::array({{{"scenario", {{"hardware", {{"count", -1}}}}}, {"measured", {{"time.step_seconds", 8}}}}});
  r = test::report_json(s);
  REQUIRE_FALSE(r.at("errors").empty());
  CHECK(r.at("errors").at(0).at("field") == "calibration[0].scenario.hardware.count");
  // Nothing measured, and not a list.
  s["calibration"] = json::array({{{"measured", json::object()}}});
  CHECK_FALSE(test::report_json(s).at("errors").empty());
  s["calibration"] = {{"measured", {{"time.step_seconds", 8}}}};
  CHECK(test::report_json(s).at("errors").at(0).at("code") == "wrong_type");
}

TEST_CASE("A given utilisation stays the user's: a measured speed is then not used, and said so", "[calibration]") {
  json s = llama8b();
  s["strategy"]["mfu"] = 0.4;
  const double step = test::report_json(s).at("time").at("step_seconds");
  s["calibration"] = json::array({{{"measured", {{"time.step_seconds", step * 2}}}}});
  const json r = test::report_json(s);
  REQUIRE(r.at("errors").empty());
  CHECK(r.at("time").at("step_seconds").get<double>() == Approx(step));
  CHECK(test::warning_of(r, "calibration_speed_unused") != nullptr);
}

TEST_CASE("What parse-log reads is a calibration's measured figures as they stand", "[calibration][parse-log]") {
  // A torchtitan step line (github.com/pytorch/torchtitan/pull/1287, 2025-06): every key it gives is
  // one scenario.calibration takes, so the page and the CLI pass the medians on unchanged. Here on
  // Llama 3 8B at torchtitan's own 8-GPU FSDP layout.
  const traincalc::LogReading log = traincalc::parse_log(
      "[rank0]:[titan] 2025-06-16 22:30:50,322 - root - INFO - step: 200  loss:  6.1384  memory: 49.66GiB(52.28%)  "
      "tps: 5,856  tflops: 339.16  mfu: 34.29%");
  json s = json::parse(R"({"model":{"preset":"llama-3-8b"},"training":{"type":"pretrain","tokens":1e12},
      "hardware":{"gpu":"h100-sxm","count":8},"strategy":{"framework":"fsdp2","tp":1,"pp":1,"zero":3}})");
  json measured = json::object();
  for (const auto& [key, value] : log.measured) measured[key] = value;
  CHECK(measured.size() == 3);
  s["calibration"] = json::array({{{"measured", measured}}});
  const json r = test::report_json(s);
  INFO(r.at("errors").dump());
  REQUIRE(r.at("errors").empty());
  CHECK(r.at("calibration").at("points").size() == 3);
  CHECK(r.at("calibration").at("speed").at("runs") == 2);
  CHECK(r.at("calibration").at("memory").at("runs") == 1);
}

TEST_CASE("A calibrated step is a real run's speed: no run efficiency on top, and no framework widening", "[calibration][goodput]") {
  // Without a framework named, a measured step still says how fast the user's own framework runs: the
  // step's range is not widened by the others, and the expected run does not slow the measured speed
  // again by the published runs' efficiency.
  json s = json::parse(R"({"model":{"preset":"llama-3-8b"},"training":{"type":"pretrain","tokens":1e12},
      "hardware":{"gpu":"h100-sxm","count":64}})");
  const json plain = test::report_json(s);
  REQUIRE(plain.at("time").at("range").contains("assumed_high"));
  const double step = plain.at("time").at("step_seconds");
  s["calibration"] = json::array({{{"measured", {{"time.step_seconds", step * 1.1}}}}});
  const json r = test::report_json(s);
  REQUIRE(r.at("errors").empty());
  // The run measured itself is its measurement: no range around it.
  CHECK_FALSE(r.at("time").contains("range"));
  CHECK(r.at("calibration").at("speed").at("distance") == "same_run");
  CHECK(r.at("calibration").at("speed").at("carried") == 1.0);
  CHECK(r.at("time").at("expected").at("run_efficiency") == 1.0);
  CHECK(r.at("time").at("expected").at("lost_hours").at("slower_steps") == 0.0);
  // The memory, not measured, is still widened, and the warning names only what is still assumed.
  CHECK(r.at("memory").at("range").contains("assumed_high"));
  const json* w = test::warning_of(r, "framework_assumed_memory");
  REQUIRE(w != nullptr);
  CHECK_FALSE(w->at("params").contains("step_list"));
}

TEST_CASE("A run measured on its own GPU count leaves this scenario's deadline out of it", "[calibration]") {
  // The deadline chooses this run's GPUs; the measured run was measured on 8, with no deadline of its own.
  json s = llama8b();
  s["hardware"].erase("count");
  s["budget"] = {{"deadline_days", 30}};
  json eight = llama8b();
  eight["hardware"]["count"] = 8;
  const double step8 = test::report_json(eight).at("time").at("step_seconds");
  s["calibration"] = json::array({{{"scenario", {{"hardware", {{"count", 8}}}}}, {"measured", {{"time.step_seconds", step8}}}}});
  const json r = test::report_json(s);
  INFO(r.at("errors").dump());
  REQUIRE(r.at("errors").empty());
  CHECK(r.at("calibration").at("points").at(0).at("predicted").get<double>() == Approx(step8));
  // And an error in this scenario is said once, at its own path, not again inside the measured run.
  s["training"]["tokens"] = -1;
  const json bad = test::report_json(s);
  REQUIRE(bad.at("errors").size() == 1);
  CHECK(bad.at("errors").at(0).at("field") == "training.tokens");
}
