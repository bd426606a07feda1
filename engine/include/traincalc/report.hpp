// What an estimate says. Serialised by report_to_json into the report-v1 contract.
#pragma once

#include <optional>
#include <string>

#include "traincalc/issue.hpp"
#include "traincalc/model.hpp"

namespace traincalc {

struct ModelReport {
  std::string name;
  std::string preset;
  double params = 0;
  double active_params = 0;
  bool architecture_known = false;
  std::optional<ParameterCount> breakdown;
};

struct ComputeReport {
  double tokens = 0;
  double flops_per_token = 0;
  double total_flops = 0;
  std::string method;  // "detailed", "6n" or "given"
  double flops_per_token_6n = 0;
  double total_flops_6n = 0;
  std::optional<double> flops_per_token_detailed;
  std::optional<double> total_flops_detailed;
  // Per-token training FLOPs per parameter: 6 for full training (2 forward + 4 backward), 4 when
  // the base weights are frozen (LoRA/QLoRA: no weight gradients except the adapters').
  double flops_per_param_per_token = 6;
  double trainable_params = 0;
  double seq_len = 0;
  double epochs = 1;
};

struct HardwareReport {
  std::string gpu_id;
  std::string gpu_name;
  std::string precision;
  double peak_tflops = 0;  // dense, per GPU, for the precision used
  double memory_gb = 0;
  double gpus_per_node = 8;
};

struct TimeReport {
  double mfu = 0;
  std::string mfu_source;               // "given" or "assumed"
  double cluster_flops_per_second = 0;  // achieved model FLOP/s of the whole cluster
  double tokens_per_second = 0;
  double gpu_hours = 0;
  double wall_clock_hours = 0;
  double wall_clock_days = 0;
};

struct MemoryParts {
  double weights = 0;
  double gradients = 0;
  double optimizer = 0;
  double activations = 0;
  double total = 0;
};

struct MemoryReport {
  MemoryParts per_gpu_bytes;
  double capacity_bytes = 0;
  bool fits = false;
  bool activations_known = false;
};

struct ParallelismReport {
  double tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, zero = 0, micro_batch = 1;
  bool sequence_parallel = false;
  std::string recompute;
};

struct CostReport {
  std::string currency;
  double total = 0;
  double per_gpu_hour = 0;
  double per_gpu_month = 0;
  double per_month = 0;  // the whole cluster for one billing month
  double months = 0;     // wall-clock time in billing months
  std::string offer;
};

struct PlanReport {
  double gpus = 0;
  double nodes = 0;
  std::string gpus_from;  // "count", "budget.per_month" or "budget.deadline_days"
  std::optional<double> budget_per_month;
  std::optional<double> budget_total;
  std::optional<bool> within_budget;
  std::optional<double> deadline_days;
  std::optional<bool> meets_deadline;
};

struct Report {
  ModelReport model;
  ComputeReport compute;
  HardwareReport hardware;
  TimeReport time;
  MemoryReport memory;
  ParallelismReport parallelism;
  std::optional<CostReport> cost;
  PlanReport plan;
  Issues warnings;
  Issues errors;

  bool valid() const { return errors.empty(); }
};

}  // namespace traincalc
