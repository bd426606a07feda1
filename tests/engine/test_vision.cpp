// Image networks: compute per image from the published multiply-adds (seed 000 asks about image
// models alongside BERT and GPT-3).
#include "helpers.hpp"

using Catch::Matchers::WithinRel;
using test::json;
using test::run;

namespace {

constexpr double imagenet_train_images = 1281167;  // ILSVRC-2012 training set (Russakovsky et al. 2015)

json imagenet(const char* preset, double epochs) {
  return {{"model", {{"preset", preset}}},
          {"training", {{"type", "pretrain"}, {"images", imagenet_train_images}, {"epochs", epochs}}},
          {"hardware", {{"gpu", "a100-80gb-sxm"}, {"count", 8}}},
          {"strategy", {{"mfu", 0.4}}}};
}

}  // namespace

TEST_CASE("ResNet-50 on ImageNet for 90 epochs: the FLOPs that follow from 4.1 GFLOPs per image", "[vision]") {
  const traincalc::Report r = run(imagenet("resnet-50", 90));
  // The published 4.1 "GFLOPs" are multiply-adds at 224x224: 2 FLOPs each, and training is 3x the
  // forward pass: 24.6 GFLOPs per image, 2.84e18 FLOPs for 90 epochs.
  CHECK(r.compute.method == "per_image");
  CHECK_THAT(r.compute.flops_per_token, WithinRel(3 * 2 * 4.1e9, 1e-12));
  CHECK_THAT(r.compute.tokens, WithinRel(90 * imagenet_train_images, 1e-12));
  CHECK_THAT(r.compute.total_flops, WithinRel(3 * 2 * 4.1e9 * imagenet_train_images * 90, 1e-12));
  CHECK_THAT(r.compute.total_flops, WithinRel(2.8365e18, 1e-4));
  CHECK(r.model.params == 25557032);
  CHECK_FALSE(r.scaling_law);  // Chinchilla is about language models
}

TEST_CASE("ViT-B/16: compute scales with the pixels of the training resolution", "[vision]") {
  json s = imagenet("vit-b-16", 300);
  const double at_224 = run(s).compute.flops_per_token;
  CHECK_THAT(at_224, WithinRel(6 * 17.56e9, 1e-12));
  s["training"]["resolution"] = 384;
  CHECK_THAT(run(s).compute.flops_per_token, WithinRel(at_224 * (384.0 / 224) * (384.0 / 224), 1e-12));
}

TEST_CASE("Images go through image networks and tokens through language models", "[vision]") {
  json llm = imagenet("llama-2-7b", 1);
  CHECK(test::has_error(test::report_json(llm), "training.images", "inconsistent"));
  json tokens = imagenet("resnet-50", 1);
  tokens["training"] = {{"type", "pretrain"}, {"tokens", 1e9}};
  CHECK(test::has_error(test::report_json(tokens), "training.images", "required"));
  json resolution = imagenet("llama-2-7b", 1);
  resolution["training"] = {{"type", "pretrain"}, {"tokens", 1e9}, {"resolution", 224}};
  CHECK(test::has_error(test::report_json(resolution), "training.resolution", "inconsistent"));
  // An inline image network: params with its published multiply-adds.
  json inline_net = imagenet("resnet-50", 1);
  inline_net["model"] = {{"params", 5e6}, {"forward_macs_per_image", 0.6e9}, {"image_resolution", 224}};
  CHECK_THAT(run(inline_net).compute.flops_per_token, WithinRel(3.6e9, 1e-12));
}
