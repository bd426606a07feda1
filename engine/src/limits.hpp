// The range every input may take. Each bound is far outside any real run and keeps every product
// the estimate forms finite and meaningful (no zero, denormal or overflowing intermediate), so a
// report can only hold numbers the engine stands behind. Internal header.
#pragma once

#include "json_fields.hpp"

namespace traincalc::detail::limits {

//                                     min    min excl.  max    integer
inline constexpr NumberRule params{1, false, 1e16, false};
inline constexpr NumberRule tokens{1, false, 1e20, false};
inline constexpr NumberRule dataset_gb{1e-6, false, 1e9, false};
inline constexpr NumberRule bytes_per_token{0.1, false, 100, false};
inline constexpr NumberRule samples{1, false, 1e13, false};
inline constexpr NumberRule steps{1, false, 1e10, false};
inline constexpr NumberRule total_flops{1, false, 1e40, false};
inline constexpr NumberRule epochs{1e-3, false, 1e6, false};
inline constexpr NumberRule seq_len{1, false, 1e7, true};
inline constexpr NumberRule batch_tokens{1, false, 1e10, false};
inline constexpr NumberRule batch_sequences{1, false, 1e8, true};
inline constexpr NumberRule lora_rank{1, false, 65536, true};
inline constexpr NumberRule images{1, false, 1e13, false};
inline constexpr NumberRule resolution{8, false, 65536, true};
inline constexpr NumberRule macs_per_image{1, false, 1e16, false};

inline constexpr NumberRule mfu{1e-3, false, 1, false};  // 0.1% to 100% of dense peak
inline constexpr NumberRule gpu_count{1, false, 1e7, true};
inline constexpr NumberRule layout{1, false, 1e6, true};
inline constexpr NumberRule data_parallel{1, false, 1e7, true};
inline constexpr NumberRule zero_stage{0, false, 3, true};

inline constexpr NumberRule tflops{1e-3, false, 1e6, false};  // up to an EFLOP/s per GPU
inline constexpr NumberRule memory_gb{1e-3, false, 1e6, false};
inline constexpr NumberRule bandwidth{1e-3, false, 1e6, false};
inline constexpr NumberRule watts{1, false, 1e5, false};
inline constexpr NumberRule efficiency{0.01, false, 1, false};  // a fraction of the peak
inline constexpr NumberRule gpus_per_node{1, false, 1e6, true};

inline constexpr NumberRule money{1e-6, false, 1e15, false};
inline constexpr NumberRule hours_per_month{1, false, 744, false};
inline constexpr NumberRule deadline_days{1e-3, false, 1e6, false};
inline constexpr NumberRule max_gpus_planned{1, false, 1e7, true};

// Architecture dimensions.
inline constexpr NumberRule layers{1, false, 1e5, true};
inline constexpr NumberRule dimension{1, false, 1e8, true};
inline constexpr NumberRule heads{1, false, 1e6, true};
inline constexpr NumberRule experts{1, false, 1e5, true};
inline constexpr NumberRule positions{0, false, 1e8, true};

}  // namespace traincalc::detail::limits
