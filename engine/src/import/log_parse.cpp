// Reading a training log: the step time, throughput, TFLOP/s, utilisation and peak memory as the
// common frameworks print them, each as a measured report key (scenario.calibration). Every pattern
// follows the framework's own format string, cited at the line; units are what the code divides by,
// not what the label says (Megatron's "MB" and DeepSpeed's "GB" are binary, LitGPT's "GB" decimal).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "contract/json_fields.hpp"
#include "estimate/stats.hpp"
#include "traincalc/json_api.hpp"

namespace traincalc {

namespace {

using detail::json;

constexpr double mib = 1024.0 * 1024.0, gib = 1024.0 * 1024.0 * 1024.0;

// A number printed at `at` in `line` (after spaces): digits with a decimal point, thousands commas
// where `commas`, an exponent; its end in `end`. NaN when none.
double number_at(const std::string& line, std::size_t at, bool commas, std::size_t& end) {
  while (at < line.size() && line[at] == ' ') ++at;
  std::string digits;
  std::size_t k = at;
  bool point = false, any = false;
  while (k < line.size()) {
    const char c = line[k];
    if (c >= '0' && c <= '9') {
      digits += c;
      any = true;
    } else if (c == '.' && !point) {
      digits += c;
      point = true;
    } else if (c == ',' && commas && any && k + 1 < line.size() && line[k + 1] >= '0' && line[k + 1] <= '9') {
      // a thousands separator: skipped
    } else if ((c == 'e' || c == 'E') && any && k + 1 < line.size() &&
               ((line[k + 1] >= '0' && line[k + 1] <= '9') || line[k + 1] == '+' || line[k + 1] == '-')) {
      digits += c;
      digits += line[++k];
      ++k;
      while (k < line.size() && line[k] >= '0' && line[k] <= '9') digits += line[k++];
      break;
    } else {
      break;
    }
    ++k;
  }
  end = k;
  if (!any) return std::nan("");
  char* stop = nullptr;
  const double x = std::strtod(digits.c_str(), &stop);
  return stop && *stop == '\0' ? x : std::nan("");
}

// The number right after `marker` in `line` (from `from`), and, where `unit` is given, followed by it.
struct Found {
  double value = std::nan("");
  std::size_t begin = 0, end = 0;
};
Found after(const std::string& line, std::string_view marker, bool commas = false, std::string_view unit = {},
            std::size_t from = 0) {
  const std::size_t at = line.find(marker, from);
  if (at == std::string::npos) return {};
  std::size_t end = 0;
  const double x = number_at(line, at + marker.size(), commas, end);
  if (!unit.empty() && line.compare(end, unit.size(), unit) != 0) return {};
  return {x, at, end + unit.size()};
}

struct Pattern {
  const char* framework;
  const char* key;  // the measured report key
  Found (*find)(const std::string& line);
  double scale;     // the number found times this is the key's unit (-1: its reciprocal)
  const char* note;
};

const std::vector<Pattern>& patterns() {
  static const std::vector<Pattern> all = {
      // Megatron-LM, megatron/training/training.py training_log (@d98e8a64, lines 3567-3653):
      // " elapsed time per iteration (ms): {:.1f} |" and, with --log-throughput, " throughput per GPU
      // (TFLOP/s/GPU): {:.1f} |"; the time is averaged over the log interval.
      {"megatron", "time.step_seconds", [](const std::string& l) { return after(l, "elapsed time per iteration (ms):"); },
       1e-3, "averaged over Megatron's log interval"},
      {"megatron", "time.tflops_per_gpu",
       [](const std::string& l) { return after(l, "throughput per GPU (TFLOP/s/GPU):"); }, 1,
       "Megatron's own FLOP count (num_floating_point_operations), recomputation not counted"},
      // megatron/training/utils/common_utils.py report_memory (@d98e8a64, lines 313-334): "memory (MB)"
      // divides by 1024 * 1024.
      {"megatron", "memory.allocated_bytes",
       [](const std::string& l) {
         const std::size_t at = l.find("memory (MB)");
         return at == std::string::npos ? Found{} : after(l, "| max allocated:", false, {}, at);
       },
       mib, "MiB, though labelled MB (divided by 1024 x 1024)"},
      {"megatron", "memory.reserved_bytes",
       [](const std::string& l) {
         const std::size_t at = l.find("memory (MB)");
         return at == std::string::npos ? Found{} : after(l, "| max reserved:", false, {}, at);
       },
       mib, "MiB, though labelled MB (divided by 1024 x 1024)"},
      // NeMo, nemo/utils/exp_manager.py TimingCallback (@8cfedd72, lines 331-347): "train_step_timing in s",
      // in the progress bar ("=11.20", three significant digits) or NeMo 2's printer (": 10.31").
      {"nemo", "time.step_seconds",
       [](const std::string& l) {
         const std::size_t at = l.find("train_step_timing in s");
         if (at == std::string::npos) return Found{};
         std::size_t k = at + std::string_view("train_step_timing in s").size();
         while (k < l.size() && l[k] == ' ') ++k;
         if (k >= l.size() || (l[k] != '=' && l[k] != ':')) return Found{};
         std::size_t end = 0;
         return Found{number_at(l, k + 1, false, end), at, end};
       },
       1, "NeMo's progress bar keeps three significant digits"},
      // torchtitan, torchtitan/components/metrics.py MetricsProcessor.log (@b5bcd76c, lines 525-536):
      // "memory: {:5.2f}GiB({:.2f}%)  tps: {:,}  tflops: {:,.2f}  mfu: {:.2f}%"; memory is the peak
      // reserved (divided by 1024^3), tps and tflops per GPU.
      {"torchtitan", "memory.reserved_bytes", [](const std::string& l) { return after(l, "memory:", false, "GiB("); },
       gib, "torchtitan's peak reserved over the log window"},
      {"torchtitan", "time.tokens_per_second_per_gpu",
       [](const std::string& l) { return l.find("GiB(") == std::string::npos ? Found{} : after(l, "tps:", true); }, 1,
       "per GPU"},
      {"torchtitan", "time.tflops_per_gpu",
       [](const std::string& l) { return l.find("GiB(") == std::string::npos ? Found{} : after(l, "tflops:", true); }, 1,
       "torchtitan's FLOPs per token (6N plus attention), recomputation not counted"},
      // DeepSpeed, deepspeed/utils/timer.py ThroughputTimer.stop (@38327e07, lines 246-285):
      // "RunningAvgSamplesPerSec={}, ... MaxMemAllocated={}GB", samples of the global batch a second;
      // memory divided by 1024**3.
      {"deepspeed", "time.samples_per_second", [](const std::string& l) { return after(l, "RunningAvgSamplesPerSec="); },
       1, "the whole job's sequences a second, DeepSpeed's running average"},
      {"deepspeed", "memory.allocated_bytes", [](const std::string& l) { return after(l, "MaxMemAllocated=", false, "GB"); },
       gib, "GiB, though labelled GB (divided by 1024**3), rank 0"},
      // Hugging Face Trainer, trainer_utils.py speed_metrics (@c599e989): the closing metrics
      // {'train_runtime': ..., 'train_samples_per_second': ..., 'train_steps_per_second': ...}, as numbers
      // or (newer) as quoted strings; over the whole loop, evaluation and checkpoints included.
      {"hf", "time.step_seconds",
       [](const std::string& l) {
         const std::string_view marker = "'train_steps_per_second':";
         const std::size_t at = l.find(marker);
         if (at == std::string::npos) return Found{};
         std::size_t k = at + marker.size();
         while (k < l.size() && l[k] == ' ') ++k;
         if (k < l.size() && l[k] == '\'') ++k;
         std::size_t end = 0;
         return Found{number_at(l, k, false, end), at, end};
       },
       -1, "Trainer's steps a second over the whole loop, evaluation and checkpoints included"},
      // LitGPT, litgpt/finetune/lora.py (@78227011, line 240) and utils.py (@26857050, lines 845-866):
      // "Memory used: {:.02f} GB" / "| - Memory Used : ... GB", max_memory_allocated() / 1e9.
      {"litgpt", "memory.allocated_bytes",
       [](const std::string& l) {
         std::size_t at = l.find("Memory used");
         if (at == std::string::npos) at = l.find("Memory Used");
         if (at == std::string::npos) return Found{};
         std::size_t k = at + std::string_view("Memory used").size();
         while (k < l.size() && (l[k] == ' ' || l[k] == ':')) ++k;
         std::size_t end = 0;
         const double x = number_at(l, k, false, end);
         while (end < l.size() && l[end] == ' ') ++end;
         return l.compare(end, 2, "GB") == 0 ? Found{x, at, end + 2} : Found{};
       },
       1e9, "decimal GB (divided by 1e9)"},
      // nanoGPT, train.py (@3adf61e1, lines 317-327): "iter {}: loss {:.4f}, time {:.2f}ms, mfu {:.2f}%";
      // the time is one iteration with its gradient accumulation (its MFU assumes an A100's peak).
      {"nanogpt", "time.step_seconds",
       [](const std::string& l) {
         const std::size_t at = l.find("iter ");
         const std::size_t loss = l.find(": loss ", at == std::string::npos ? 0 : at);
         if (at == std::string::npos || loss == std::string::npos) return Found{};
         for (std::size_t k = at + 5; k < loss; ++k)
           if (l[k] < '0' || l[k] > '9') return Found{};
         const Found time = after(l, ", time ", false, "ms", loss);
         return std::isnan(time.value) ? Found{} : Found{time.value, at, time.end};
       },
       1e-3, "one iteration with its gradient accumulation"},
  };
  return all;
}

double number_in(std::string text) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  char* end = nullptr;
  const double x = std::strtod(text.c_str(), &end);
  return end && *end == '\0' ? x : std::nan("");
}

// ANSI colour codes (torchtitan colours each field): removed before reading.
std::string without_colours(const std::string& line) {
  std::string out;
  out.reserve(line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      std::size_t k = i + 2;
      while (k < line.size() && ((line[k] >= '0' && line[k] <= '9') || line[k] == ';')) ++k;
      if (k < line.size() && line[k] == 'm') {
        i = k;
        continue;
      }
    }
    out += line[i];
  }
  return out;
}

}  // namespace

LogReading parse_log(std::string_view text) {
  LogReading out;
  if (text.size() > (1u << 20)) {
    out.notes.push_back("Only the first 1 MB of the log is read.");
    text = text.substr(0, 1u << 20);
  }
  std::size_t line_number = 0, start = 0;
  // A log that is a single whole number: what torch.cuda.max_memory_allocated() printed (bytes).
  {
    std::string trimmed(text);
    trimmed.erase(0, trimmed.find_first_not_of(" \t\r\n"));
    trimmed.erase(trimmed.find_last_not_of(" \t\r\n") + 1);
    if (!trimmed.empty() && trimmed.size() <= 16 && std::all_of(trimmed.begin(), trimmed.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      const double bytes = number_in(trimmed);
      if (bytes >= 1e6) {
        out.readings.push_back({"pytorch", "memory.allocated_bytes", bytes, bytes, 1, trimmed,
                                "bytes, as torch.cuda.max_memory_allocated() returns them"});
        out.measured["memory.allocated_bytes"] = bytes;
        out.frameworks.push_back("pytorch");
        return out;
      }
    }
  }
  while (start <= text.size()) {
    const std::size_t end = text.find('\n', start);
    const std::string line = without_colours(std::string(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start)));
    ++line_number;
    for (const Pattern& p : patterns()) {
      const Found found = p.find(line);
      const double raw = found.value;
      if (!(raw > 0) || !std::isfinite(raw)) continue;
      const double value = p.scale < 0 ? 1 / raw : raw * p.scale;
      out.readings.push_back(
          {p.framework, p.key, raw, value, double(line_number), line.substr(found.begin, found.end - found.begin), p.note});
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  // Each key: the median of its readings, the first left out when there are three or more (the first
  // logged steps carry warm-up and compilation).
  std::map<std::string, std::vector<double>> by_key;
  for (const LogReading::Reading& r : out.readings) {
    by_key[r.key].push_back(r.value);
    if (std::find(out.frameworks.begin(), out.frameworks.end(), r.framework) == out.frameworks.end())
      out.frameworks.push_back(r.framework);
  }
  for (auto& [key, values] : by_key) {
    if (values.size() >= 3) values.erase(values.begin());
    out.measured[key] = detail::median(values);
  }
  if (out.readings.empty())
    out.notes.push_back(
        "No step time, throughput or peak memory was found. Lines read: Megatron-LM's iteration and memory lines, "
        "NeMo's train_step_timing, torchtitan's step lines, DeepSpeed's ThroughputTimer, Hugging Face Trainer's "
        "closing metrics, LitGPT's memory used, nanoGPT's iteration lines, or a number of bytes from "
        "torch.cuda.max_memory_allocated().");
  return out;
}

std::string log_reading_to_json(const LogReading& reading, int indent) {
  json readings = json::array();
  for (const LogReading::Reading& r : reading.readings)
    readings.push_back({{"framework", r.framework},
                        {"key", r.key},
                        {"printed", r.printed},
                        {"value", r.value},
                        {"line", r.line},
                        {"text", r.text},
                        {"note", r.note}});
  json measured = json::object();
  for (const auto& [key, value] : reading.measured) measured[key] = value;
  return json{{"frameworks", reading.frameworks}, {"readings", readings}, {"measured", measured}, {"notes", reading.notes}}
      .dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace traincalc
