// Time from work and speed. With a fixed utilisation the cluster delivers
// GPUs x dense peak x MFU model FLOP/s, and the run takes total FLOPs / that (perfect scaling).
#include <algorithm>
#include <cmath>

#include "estimate/estimators.hpp"
#include "contract/text.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

HardwareReport report_hardware(const Scenario& s) {
  const GpuSpec& gpu = s.hardware.gpu;
  HardwareReport h;
  h.gpu_id = gpu.id;
  h.gpu_name = gpu.name;
  // Validation guarantees a peak exists for the chosen (or default) precision.
  const Precision precision = resolved_precision(s);
  h.precision = precision;
  h.peak_tflops = dense_peak_tflops(gpu, precision).value_or(0);
  h.memory_gb = gpu.memory_gb;
  h.usable_memory_gib = usable_memory_gib(gpu);
  // A cloud offer's instance is the server: its GPUs share the GPU's own link (a 4-GPU instance of an
  // 8-GPU server's GPU has 4 on that link).
  const std::optional<double> instance = s.pricing ? s.pricing->instance_gpus : std::nullopt;
  h.gpus_per_node = s.hardware.gpus_per_node.value_or(instance.value_or(gpu.gpus_per_node.value_or(8)));
  return h;
}

double inter_node_gbps(const Scenario& s) {
  const std::optional<double> offer = s.pricing ? s.pricing->inter_node_gbps : std::nullopt;
  return s.hardware.inter_node_gbps.value_or(offer.value_or(s.hardware.gpu.inter_node_gbps.value_or(100)));
}

std::string offer_limit_words(const Pricing& p) {
  const std::string max = p.max_gpus ? format_number(*p.max_gpus) : "?";
  return p.one_instance ? "cannot join instances into one job, and one instance holds at most " + max + " GPUs"
                        : "joins at most " + max + " GPUs into one cluster";
}

double resolved_mfu(const Scenario& s, Issues& warnings) {
  if (s.strategy.mfu) return *s.strategy.mfu;
  // With an architecture the step is predicted; this is only the starting point of a deadline plan.
  if (s.model.architecture) return assumed_mfu;
  warnings.push_back({"strategy.mfu",
                      "mfu_assumed",
                      "Utilisation (MFU) is assumed to be " + format_number(assumed_mfu * 100) +
                          "% of the dense peak, typical of well-tuned LLM training (35-55%): predicting it needs the "
                          "model's architecture (layers, hidden size, heads), and only a parameter count was given. "
                          "Choose a preset, give the architecture, or set strategy.mfu.",
                      {{"mfu", format_number(assumed_mfu)}}});
  return assumed_mfu;
}

TimeReport estimate_time(const ComputeReport& compute, const HardwareReport& hardware, double gpus, double mfu) {
  TimeReport t;
  t.mfu = mfu;
  t.cluster_flops_per_second = gpus * units::tflops_to_flops(hardware.peak_tflops) * mfu;
  const double seconds = compute.total_flops / t.cluster_flops_per_second;
  t.tokens_per_second = compute.tokens / seconds;
  t.wall_clock_hours = units::seconds_to_hours(seconds);
  t.wall_clock_days = units::seconds_to_days(seconds);
  t.gpu_hours = gpus * t.wall_clock_hours;
  return t;
}

void attach_step(TimeReport& time, const std::optional<StepPrediction>& step, double seq_len) {
  time.step = step;
  if (step) time.step_seconds = step->global_batch_sequences * seq_len / time.tokens_per_second;
}

}  // namespace traincalc::detail
