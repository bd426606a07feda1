// Compute-optimal training (Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models"):
// the 20-tokens-per-parameter rule and the fitted loss L(N, D) = E + A/N^alpha + B/D^beta with the
// paper's constants (its eq. 10 and appendix D), minimised under C = 6ND (its sec. 3.3). The paper's
// three approaches disagree: the fitted law puts the optimum at about half the rule's model size.
// A replication (Besiroglu et al. 2024, "Chinchilla Scaling: A replication attempt") found the
// published constants inconsistent with the paper's first two approaches; both are reported.
#include <cmath>

#include "estimate/estimators.hpp"
#include "traincalc/units.hpp"

namespace traincalc::detail {

namespace {

constexpr double E = 1.69, A = 406.4, B = 410.7, alpha = 0.34, beta = 0.28;
static_assert(E == ScalingLawReport{}.fit_e && A == ScalingLawReport{}.fit_a && B == ScalingLawReport{}.fit_b &&
              alpha == ScalingLawReport{}.fit_alpha && beta == ScalingLawReport{}.fit_beta);

double loss(double n, double d) {
  return E + A / std::pow(n, alpha) + B / std::pow(d, beta);
}

struct Split {
  double params = 0, tokens = 0;
};

// argmin L(N, D) subject to 6ND = C: N = G (C/6)^a, D = (C/6)^b / G (Hoffmann et al. 2022, eq. 4).
Split fitted_optimum(double c) {
  const double a = beta / (alpha + beta), b = alpha / (alpha + beta);
  const double g = std::pow(alpha * A / (beta * B), 1 / (alpha + beta));
  return {g * std::pow(c / 6, a), std::pow(c / 6, b) / g};
}

Split rule_optimum(double c) {
  const double n = std::sqrt(c / (6 * chinchilla_tokens_per_param));
  return {n, chinchilla_tokens_per_param * n};
}

}  // namespace

std::optional<ScalingLawReport> estimate_scaling_law(const Scenario& s, const ComputeReport& compute,
                                                     const HardwareReport& hardware, const TimeReport& time) {
  // The law was fitted on dense language models trained from scratch.
  if (s.training.type != TrainingType::pretrain || s.training.objective != Objective::language_model)
    return std::nullopt;
  if (s.model.active_params < s.model.params || s.model.forward_macs_per_image) return std::nullopt;
  ScalingLawReport r;
  r.params = s.model.params;
  r.tokens = compute.tokens;
  // Chinchilla's compute is C = 6ND (its sec. 3), not the detailed count with attention and logits.
  r.compute_flops = 6 * r.params * r.tokens;
  r.tokens_per_param = r.tokens / r.params;
  r.loss = loss(r.params, r.tokens);
  const Split rule = rule_optimum(r.compute_flops), fitted = fitted_optimum(r.compute_flops);
  r.rule = {rule.params, rule.tokens, loss(rule.params, rule.tokens)};
  r.fitted = {fitted.params, fitted.tokens, loss(fitted.params, fitted.tokens)};
  // A money budget buys compute: budget / price per GPU-hour x the FLOPs one GPU-hour delivers here.
  if (s.budget && s.budget->total && s.pricing) {
    const double gpu_hours = *s.budget->total / hourly_price(*s.pricing);
    // Model FLOPs those GPU-hours deliver, in Chinchilla's 6N per token.
    const double flops = gpu_hours * units::seconds_per_hour * units::tflops_to_flops(hardware.peak_tflops) *
                         time.mfu * (6 * s.model.params / compute.flops_per_token);
    const Split br = rule_optimum(flops), bf = fitted_optimum(flops);
    r.budget = BudgetSplit{flops, {br.params, br.tokens, {}}, {bf.params, bf.tokens, {}}};
  }
  return r;
}

}  // namespace traincalc::detail
