// A validated scenario: every catalog reference resolved, every number checked. Estimators are
// pure functions of this.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "traincalc/currencies.hpp"
#include "traincalc/hardware.hpp"
#include "traincalc/model.hpp"
#include "traincalc/strategy.hpp"
#include "traincalc/units.hpp"

namespace traincalc {

enum class TrainingType { pretrain, finetune };
enum class FinetuneMethod { full, lora, qlora };
// The matrices LoRA adapts: Q and V only (the LoRA paper's choice, LitGPT's default), every attention
// projection, or every linear layer but the output head.
enum class LoraTargets { attention, all_linear, query_value };
// How adapters are stored: in the compute precision, or in fp32 (PEFT's autocast_adapter_dtype).
enum class AdapterPrecision { compute, fp32 };
// QLoRA's frozen base: 4-bit NormalFloat with fp32 block constants, or with the constants themselves
// quantised (double quantisation; Dettmers et al. 2023, sec. 3).
enum class Quantization { nf4, nf4_double };

// What the model is trained to predict: tokens over the vocabulary (the logits are large), or a few
// classes (a classification head, as in fine-tuning BERT).
enum class Objective { language_model, classification };

// Exactly one way of stating how much data the run sees.
enum class DataKind { tokens, chinchilla, dataset_gb, samples, steps, total_flops, images };

// What a dataset in GB is made of, for its bytes per token (see text_density in flops.cpp).
enum class TextKind { english, chinese, chinese_english_tokenizer, code };

struct Training {
  TrainingType type = TrainingType::pretrain;
  FinetuneMethod method = FinetuneMethod::full;
  double lora_rank = 16;
  LoraTargets lora_targets = LoraTargets::all_linear;
  std::optional<double> lora_dropout;                 // adapter input dropout; nullopt: the framework's
  std::optional<AdapterPrecision> adapter_precision;  // nullopt: the framework's
  std::optional<Quantization> quantization;           // QLoRA; nullopt: the framework's
  DataKind data_kind = DataKind::tokens;
  double data_amount = 0;                 // tokens, GB, samples, steps or FLOPs; unused for chinchilla
  std::optional<double> bytes_per_token;  // given; else from text, else English's
  std::optional<TextKind> text;
  std::optional<double> resolution;  // images: pixels a side (default: the network's published one)
  Objective objective = Objective::language_model;
  double epochs = 1;
  std::optional<double> seq_len;
  std::optional<double> global_batch_tokens;
  std::optional<double> global_batch_sequences;
};

struct HardwareChoice {
  GpuSpec gpu;
  std::optional<double> count;  // nullopt: a budget or deadline decides
  std::optional<double> gpus_per_node;
  std::optional<double> intra_node_gbs;
  std::optional<double> inter_node_gbps;
};

// An amount converted from the currency it was given in into the report's (the budget's, or the
// scenario's currency): at the reference rates (currencies.hpp) or the scenario's exchange_rates.
struct Exchange {
  std::string from, to;
  double rate = 1;     // units of `to` for one unit of `from`
  double from_per_usd = 1, to_per_usd = 1;  // the two rates it is the ratio of (units for one US dollar)
  bool given = false;  // a rate of exchange_rates took part (else the reference rates alone)
  // The amounts as given, in `from`.
  std::optional<double> per_gpu_hour, per_gpu_month, per_month, total;
};

// Where a conversion's rates come from: the reference rates' date and source, or "given" where the
// scenario's exchange_rates took part (with the reference rates for any currency they do not give).
inline std::string rates_date(const Exchange& x) {
  return x.given ? std::string("given") : std::string(reference_rates_date);
}
inline std::string rates_source(const Exchange& x) {
  return x.given ? "exchange_rates (with the reference rates for any currency it does not give: " +
                       std::string(reference_rates_source) + ")"
                 : std::string(reference_rates_source);
}

struct Pricing {
  std::optional<double> per_gpu_hour;
  std::optional<double> per_gpu_month;
  std::string currency;  // resolved during validation: given, the offer's, the budget's, or USD
  double hours_per_month = units::default_hours_per_month;
  std::string offer;  // catalog offer ID when the price came from one
  std::string offer_source;
  std::optional<Exchange> exchange;  // the price converted into the report's currency
  // The offer's instances (catalog.hpp, Offer): the GPUs of one, how they join, the network between
  // them per GPU, and the most GPUs one job can use (one_instance: instances cannot be joined).
  std::string offer_name;
  bool own_price = false;  // the price is the user's own, for the offer's instances
  std::optional<double> instance_gpus;
  std::optional<OfferCluster> cluster;
  std::optional<double> inter_node_gbps;
  std::optional<double> max_gpus;
  bool one_instance = false;
};

struct Budget {
  std::optional<double> per_month;
  std::optional<double> total;
  std::optional<double> deadline_days;
  std::optional<double> months;  // with per_month: for how long (a deadline, and per_month x months in all)
  std::string currency;
  std::optional<Exchange> exchange;  // the budget converted into the report's currency
};

struct Energy {
  std::optional<double> pue;
  std::optional<double> grid_kg_co2_per_kwh;
  std::string region;                         // a grid in the built-in table ("us", "china", ...), or empty
  std::optional<double> gpu_power_fraction;   // average draw as a fraction of TDP; nullopt: from utilisation
  std::optional<double> host_power_fraction;  // CPUs, memory, network, per GPU watt
};

// Overrides of the memory model's runtime allowances (defaults documented in memory.cpp).
struct MemoryOptions {
  std::optional<double> cuda_context_gb;
  std::optional<double> communication_gb;  // per communicator (TP, PP, DP, CP, EP group) in use
  std::optional<double> fragmentation;     // fraction of the dynamic allocations
  // PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True: the allocator grows one segment and maps pages
  // into it, so freed blocks leave no unusable holes; nullopt: the framework's launcher decides.
  std::optional<bool> expandable_segments;
  // The training loop still holds the previous micro-batch's outputs (and through them its autograd
  // graph) while the next forward pass runs; nullopt: the framework preset decides (LitGPT: yes).
  std::optional<bool> previous_micro_batch_held;
  // A 4-bit layer's matmul keeps its 16-bit input for the backward pass (bitsandbytes before 0.43.2);
  // nullopt: the framework preset decides.
  std::optional<bool> nf4_keeps_input;
};

// How a long run is operated, for the expected run beside the steady state (goodput.cpp): how an
// interruption is recovered from, and the terms of the goodput model, each defaulting to the
// recovery's sourced value.
enum class Recovery {
  manual,     // a person notices, fixes and relaunches; checkpoints written synchronously to storage
  automated,  // the scheduler detects the failure and relaunches from the last checkpoint
  in_memory,  // checkpoints snapshot to host memory and persist in the background; hot spares
};

struct Operations {
  std::optional<Recovery> recovery;                     // nullopt: automated
  std::optional<double> interruptions_per_1000_gpu_days;  // unexpected job interruptions
  std::optional<double> restart_minutes;                // detection to training again (lost work apart)
  std::optional<double> checkpoint_interval_hours;      // nullopt: Daly's optimum
  std::optional<double> checkpoint_write_gb_per_s;      // per GPU, while training waits
  std::optional<double> storage_write_gb_per_s;         // the cluster storage's aggregate write speed
  std::optional<bool> async_checkpoint;                 // nullopt: the framework's and recovery's
  std::optional<double> overhead_fraction;              // evaluation, data stalls, scheduling: of the wall-clock
  std::optional<double> run_efficiency;                 // a real run's steady speed / the step model's
  bool given = false;                                   // the scenario has an operations object
};

struct Scenario;

// A run the user measured: its scenario (this one, or this one with changes) and what was measured,
// by report key (calibration.cpp reads each: time.step_seconds, time.tokens_per_second, time.mfu,
// time.tflops_per_gpu, memory.allocated_bytes, memory.reserved_bytes, memory.device_bytes).
struct MeasuredRun {
  std::shared_ptr<const Scenario> scenario;  // the run as measured, its own calibration empty
  bool same_as_estimated = true;              // no changes: the scenario being estimated
  // How far the measured run is from the one estimated: "same_run", "layout" (the same model on as
  // many GPUs), "gpus" (another GPU count) or "model" (another model or another GPU type).
  std::string distance = "same_run";
  std::map<std::string, double, std::less<>> measured;
};

struct Scenario {
  ModelSpec model;
  Training training;
  HardwareChoice hardware;
  Strategy strategy;
  std::optional<Pricing> pricing;
  std::optional<Budget> budget;
  Energy energy;
  MemoryOptions memory;
  Operations operations;
  // The currency the report's money is in: given, else the budget's, else the price's.
  std::string currency;
  // Units of a currency for one US dollar, replacing the reference rates (currencies.hpp).
  std::map<std::string, double, std::less<>> exchange_rates;
  // Runs the user measured: the step and memory constants they pin down are fitted on them, and the
  // estimate uses those (calibration.cpp).
  std::vector<MeasuredRun> calibration;
};

// The precision the run computes in: the one given, else the GPU's default (bf16 where it has it).
inline Precision resolved_precision(const Scenario& s) {
  return s.strategy.precision.value_or(default_precision(s.hardware.gpu).value_or(Precision::bf16));
}

}  // namespace traincalc
