// Training frameworks' configs read into a scenario. The configs are real ones, quoted at a commit in
// tests/data/configs/ (its README names each one's source): each gives the scenario stated here, read
// by the engine (JSON and launch scripts) and by the command line (YAML and TOML through yaml-cpp and
// toml++), or is refused where the framework would refuse to launch it.
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "helpers.hpp"

using namespace test;

namespace {

std::string config_path(const std::string& name) {
  return std::string(TRAINCALC_SOURCE_DIR) + "/tests/data/configs/" + name;
}

std::string config_text(const std::string& name) { return source_file("tests/data/configs/" + name); }

json import(const std::vector<traincalc::ConfigText>& configs) {
  return json::parse(traincalc::import_configs_json(configs, traincalc::builtin_catalog()));
}

// The command line's import of the files named (relative to tests/data/configs/).
json import_files(const std::string& names) {
  std::string args;
  std::istringstream words(names);
  for (std::string name; words >> name;) args += " " + config_path(name);
  const Run run = cli("import-config" + args);
  INFO(run.out);
  return json::parse(run.out);
}

// The keys of the configs that the import neither took nor knows to leave aside.
std::vector<std::string> not_read(const json& imported) {
  std::vector<std::string> keys;
  for (const json& row : imported["ignored"])
    if (row["why"] == "not_read") keys.push_back(row["key"]);
  return keys;
}

// The key a field was taken from.
std::string key_of(const json& imported, const std::string& field) {
  for (const json& row : imported["taken"])
    if (row["field"] == field) return row["key"];
  return "";
}

}  // namespace

TEST_CASE("Megatron-LM's Llama 3 8B fp8 script gives its model, batch, layout and GPUs", "[config]") {
  const json out = import({{config_text("megatron/train_llama3_8b_h100_fp8.sh"), ""}});
  INFO(out.dump(1));
  REQUIRE(out["errors"].empty());
  CHECK(out["formats"] == json::array({"megatron"}));
  const json& s = out["scenario"];
  // MODEL_ARGS: the shape of Llama 3 8B, its vocabulary from "--vocab-size 128256".
  CHECK(s["model"] == json::parse(R"({"layers": 32, "hidden": 4096, "ffn_hidden": 14336, "heads": 32, "head_dim": 128,
      "vocab": 128256, "gated_mlp": true, "norm": "rmsnorm", "kv_heads": 8, "tied_embeddings": false, "bias": false})"));
  CHECK(s["training"] == json::parse(R"({"seq_len": 8192, "global_batch_sequences": 128, "samples": 1953125000,
                                           "type": "pretrain"})"));
  // --fp8-format hybrid over --bf16; the distributed optimizer is ZeRO-1; TP and CP 1 as given, PP
  // Megatron's default; no recomputation flag, so none.
  CHECK(s["strategy"]["precision"] == "fp8");
  CHECK(s["strategy"]["zero"] == 1);
  CHECK(s["strategy"]["tp"] == 1);
  CHECK(s["strategy"]["cp"] == 1);
  CHECK(s["strategy"]["pp"] == 1);
  CHECK(s["strategy"]["micro_batch"] == 1);
  CHECK(s["strategy"]["recompute"] == "none");
  CHECK(s["strategy"]["overlap_grad_reduce"] == true);
  CHECK(s["strategy"]["grad_reduce_precision"] == "bf16");
  CHECK(s["strategy"]["cross_entropy"] == "fused");
  CHECK(s["strategy"]["framework"] == "megatron");
  // GPUS_PER_NODE=8 and NUM_NODES=1, through torchrun's --nproc_per_node and --nnodes.
  CHECK(s["hardware"] == json::parse(R"({"gpus_per_node": 8, "count": 8})"));
  CHECK(key_of(out, "hardware.count") == "--nproc_per_node x --nnodes");
  CHECK(key_of(out, "strategy.precision") == "--fp8-format");
  // What the estimate still needs: the GPU.
  CHECK(out["missing"] == json::array({"hardware.gpu"}));
}

TEST_CASE("Megatron-LM's GPT-3 175B script asks for TP 8 x PP 16 on 8 GPUs: refused, naming the keys", "[config]") {
  const json out = import({{config_text("megatron/train_gpt3_175b_distributed.sh"), ""}});
  REQUIRE(out["errors"].size() == 1);
  const json& e = out["errors"][0];
  CHECK(e["code"] == "inconsistent");
  CHECK(e["params"]["reason"] == "config_layout");
  CHECK(e["params"]["model_parallel"] == "128");
  CHECK(e["params"]["count"] == "8");
  CHECK(e["field"] == "config.--tensor-model-parallel-size");
  CHECK(e["message"].get<std::string>().find("--nproc_per_node x --nnodes") != std::string::npos);
  // The rest was still read: what the user pasted is all accounted for.
  CHECK(out["scenario"]["model"]["layers"] == 96);
  CHECK(out["scenario"]["strategy"]["precision"] == "fp16");
}

TEST_CASE("torchtitan's Llama 3 8B TOML: the catalog's Llama 3.1 8B under FSDP, through toml++", "[config][cli]") {
  const json out = import_files("torchtitan/llama3_8b.toml");
  REQUIRE(out["errors"].empty());
  CHECK(out["formats"] == json::array({"torchtitan"}));
  const json& s = out["scenario"];
  CHECK(s["model"] == json::parse(R"({"preset": "llama-3.1-8b"})"));
  CHECK(s["training"] == json::parse(R"({"seq_len": 8192, "steps": 1000, "type": "pretrain"})"));
  CHECK(s["strategy"]["micro_batch"] == 1);
  CHECK(s["strategy"]["framework"] == "fsdp2");
  CHECK(s["strategy"]["zero"] == 3);  // data_parallel_shard_degree -1: FSDP over every GPU
  CHECK(s["strategy"]["recompute"] == "selective");
  CHECK(s["strategy"]["precision"] == "bf16");
  CHECK(s["strategy"]["optimizer"] == "adamw");
  CHECK(s["strategy"]["compile"] == false);
  // The TOML says "a preset for 64 A100 GPUs" only in a comment: the count and the batch it sets
  // (-1: local batch x data-parallel GPUs) wait for the GPUs.
  CHECK(out["missing"] == json::array({"hardware.gpu", "hardware.count", "training.global_batch_sequences"}));
  CHECK(not_read(out).empty());
}

TEST_CASE("torchtitan's Llama 3 70B TOML: tensor-parallel 8 and full checkpointing", "[config][cli]") {
  const json out = import_files("torchtitan/llama3_70b.toml");
  REQUIRE(out["errors"].empty());
  CHECK(out["scenario"]["model"]["preset"] == "llama-3.1-70b");
  CHECK(out["scenario"]["strategy"]["tp"] == 8);
  CHECK(out["scenario"]["strategy"]["micro_batch"] == 8);
  CHECK(out["scenario"]["strategy"]["recompute"] == "full");
}

TEST_CASE("DeepSpeed's ZeRO-3 JSON: stage, precision, batch parts and the optimizer", "[config]") {
  const json out = import({{config_text("deepspeed/deepspeed_sdma_allgather_ds_config_zero3.json"), ""}});
  REQUIRE(out["errors"].empty());
  CHECK(out["formats"] == json::array({"deepspeed"}));
  const json& st = out["scenario"]["strategy"];
  CHECK(st["zero"] == 3);
  CHECK(st["precision"] == "bf16");
  CHECK(st["micro_batch"] == 1);
  CHECK(st["framework"] == "deepspeed");
  CHECK(st["optimizer"] == "adamw");
  CHECK(not_read(out).empty());
}

TEST_CASE("DeepSpeed's offload config under Hugging Face: \"auto\" left to the Trainer, both offloads read",
          "[config]") {
  const json out = import({{config_text("deepspeed/transformers_ds_config_zero3.json"), ""}});
  REQUIRE(out["errors"].empty());
  CHECK(out["scenario"]["strategy"]["offload"] == "optimizer+params");
  CHECK(out["scenario"]["strategy"]["zero"] == 3);
  std::vector<std::string> autos;
  for (const json& row : out["ignored"])
    if (row["why"] == "auto") autos.push_back(row["key"]);
  CHECK(autos == std::vector<std::string>{"fp16.enabled", "gradient_accumulation_steps", "train_batch_size",
                                          "train_micro_batch_size_per_gpu"});
}

TEST_CASE("The Zephyr QLoRA recipe: Mistral 7B in 4 bits, r 16 on every linear layer, through yaml-cpp",
          "[config][cli]") {
  const json out = import_files("huggingface/zephyr-7b-beta_sft_config_qlora.yaml");
  REQUIRE(out["errors"].empty());
  CHECK(out["formats"] == json::array({"hf"}));
  const json& s = out["scenario"];
  CHECK(s["model"] == json::parse(R"({"preset": "mistral-7b"})"));
  CHECK(s["training"]["type"] == "finetune");
  CHECK(s["training"]["method"] == "qlora");
  CHECK(s["training"]["lora_rank"] == 16);
  CHECK(s["training"]["lora_targets"] == "all_linear");
  CHECK(s["training"]["lora_dropout"] == 0.05);
  CHECK(s["training"]["seq_len"] == 2048);
  CHECK(s["training"]["epochs"] == 1);
  CHECK(s["strategy"]["micro_batch"] == 4);
  CHECK(s["strategy"]["precision"] == "bf16");
  CHECK(s["strategy"]["recompute"] == "full");
  CHECK(s["strategy"]["framework"] == "hf");
  // One GPU per the recipe's README, not the file: the batch is 4 x 2 x the GPUs.
  CHECK(out["missing"] == json::array({"hardware.gpu", "hardware.count", "training.tokens",
                                       "training.global_batch_sequences"}));
  // The dtype the base weights load in, which 4-bit loading replaces: the calculator does not read it.
  CHECK(not_read(out) == std::vector<std::string>{"torch_dtype"});
  CHECK(s["strategy"]["attention"] == "flash");  // attn_implementation: flash_attention_2
}

TEST_CASE("The Zephyr full recipe with its accelerate ZeRO-3 launcher: 8 GPUs, global batch 16 x 1 x 8 = 128",
          "[config][cli]") {
  const json out = import_files("huggingface/zephyr-7b-beta_sft_config_full.yaml huggingface/accelerate_zero3.yaml");
  INFO(out.dump(1));
  REQUIRE(out["errors"].empty());
  CHECK(out["formats"] == json::array({"hf", "accelerate"}));
  const json& s = out["scenario"];
  CHECK(s["hardware"] == json::parse(R"({"count": 8, "gpus_per_node": 8})"));
  CHECK(s["training"]["global_batch_sequences"] == 128);
  CHECK(!s["training"].contains("method"));  // full fine-tuning: no PEFT key
  CHECK(s["strategy"]["zero"] == 3);
  CHECK(s["strategy"]["framework"] == "deepspeed");
  CHECK(s["strategy"]["micro_batch"] == 16);
  CHECK(key_of(out, "training.global_batch_sequences") ==
        "per_device_train_batch_size x gradient_accumulation_steps x data-parallel GPUs");
}

TEST_CASE("accelerate's FSDP launcher: FULL_SHARD is ZeRO-3 on its 8 GPUs", "[config][cli]") {
  const json out = import_files("huggingface/accelerate_fsdp.yaml");
  REQUIRE(out["errors"].empty());
  CHECK(out["scenario"]["strategy"]["zero"] == 3);
  CHECK(out["scenario"]["strategy"]["precision"] == "bf16");
  CHECK(out["scenario"]["hardware"]["count"] == 8);
}

TEST_CASE("A batch that does not split into whole micro-batches is refused, naming the key and the multiple",
          "[config]") {
  const json out = import({{R"({"train_batch_size": 100, "train_micro_batch_size_per_gpu": 4})", ""},
                           {R"({"num_processes": 8, "num_machines": 1, "distributed_type": "DEEPSPEED"})", ""}});
  REQUIRE(out["errors"].size() == 1);
  CHECK(out["errors"][0]["field"] == "config.train_batch_size");
  CHECK(out["errors"][0]["params"]["reason"] == "config_batch");
  CHECK(out["errors"][0]["params"]["multiple"] == "32");
}

TEST_CASE("A model the catalog does not hold is refused with the nearest one, and a wrong value names its key",
          "[config]") {
  const json unknown = import({{R"({"model_name_or_path": "acme/Llamma-2-7b", "per_device_train_batch_size": 2})", ""}});
  REQUIRE(unknown["errors"].size() == 1);
  CHECK(unknown["errors"][0]["code"] == "unknown_id");
  CHECK(unknown["errors"][0]["field"] == "config.model_name_or_path");
  const json wrong = import({{R"({"train_micro_batch_size_per_gpu": 2.5})", ""}});
  REQUIRE(wrong["errors"].size() == 1);
  CHECK(wrong["errors"][0]["code"] == "wrong_type");
  CHECK(wrong["errors"][0]["field"] == "config.train_micro_batch_size_per_gpu");
  const json neither = import({{"just some words", ""}});
  REQUIRE(neither["errors"].size() == 1);
  CHECK(neither["errors"][0]["params"]["reason"] == "config_format");
}

TEST_CASE("NeMo, LitGPT, axolotl and torchtune configs are told apart and refused, not misread", "[config][cli]") {
  for (const char* name : {"nemo/megatron_gpt_config.yaml", "nemo/megatron_llama_config.yaml",
                           "nemo/megatron_bridge_llama32_1b_pretrain.yaml", "litgpt/finetune_llama-2-7b_lora.yaml",
                           "litgpt/finetune_llama-2-7b_qlora.yaml", "litgpt/pretrain_tinyllama.yaml",
                           "axolotl/lora-8b.yml", "axolotl/qlora.yml", "axolotl/qlora-fsdp-70b.yaml",
                           "axolotl/gpt-oss-20b-fft-deepspeed-zero3.yaml", "torchtune/llama3_1_8B_full.yaml",
                           "torchtune/llama3_1_8B_lora.yaml", "torchtune/llama3_1_8B_qlora_single_device.yaml"}) {
    INFO(name);
    const json out = import_files(name);
    REQUIRE(out["errors"].size() == 1);
    CHECK(out["errors"][0]["params"]["reason"] == "config_format");
    const std::string framework = std::string(name).substr(0, std::string(name).find('/'));
    CHECK(out["errors"][0]["message"].get<std::string>().find("is " + framework + "'s") != std::string::npos);
    CHECK(out["scenario"].empty());
  }
  // axolotl's DeepSpeed file is DeepSpeed's own format, and reads as such.
  CHECK(import({{config_text("axolotl/zero3_bf16.json"), ""}})["formats"] == json::array({"deepspeed"}));
}

TEST_CASE("Each imported scenario, completed with a GPU, estimates", "[config]") {
  json s = import({{config_text("megatron/train_llama3_8b_h100_fp8.sh"), ""}})["scenario"];
  s["hardware"]["gpu"] = "h100-sxm";
  const traincalc::Report report = run(s);
  CHECK(report.plan.gpus == 8);
  CHECK(report.parallelism.dp == 8);
  CHECK(report.parallelism.zero == 1);
}

TEST_CASE("docs/configs.md is what the key tables generate", "[config]") {
  INFO("regenerate it: build/native/bin/traincalc import-config --keys > docs/configs.md");
  CHECK(source_file("docs/configs.md") == traincalc::config_keys_markdown());
}

namespace {

// A file in the system's temporary folder holding `text`, for the command line to read.
std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = std::string(P_tmpdir) + "/traincalc-" + std::to_string(::getpid()) + "-" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// The scenario a config gives, completed with what no config says (the GPU, the data), estimated.
traincalc::Report estimate_imported(json scenario, const json& original) {
  scenario["hardware"]["gpu"] = original["hardware"]["gpu"];
  scenario["training"]["tokens"] = original["training"]["tokens"];
  scenario["training"].erase("steps");
  return run(scenario);
}

}  // namespace

TEST_CASE("A planned run exported as Megatron-LM arguments imports back to the same run", "[config]") {
  const json scenario = json::parse(R"({"model": {"preset": "llama-3.1-8b"}, "training": {"type": "pretrain",
      "tokens": 1e12, "seq_len": 8192}, "hardware": {"gpu": "h100-sxm", "count": 64},
      "strategy": {"framework": "megatron", "precision": "bf16"}})");
  const traincalc::ConfigExport exported = traincalc::export_config(scenario.dump(), "megatron", traincalc::builtin_catalog());
  REQUIRE(exported.errors.empty());
  INFO(exported.text);
  CHECK(exported.text.find("--tensor-model-parallel-size") != std::string::npos);
  const json imported = import({{exported.text, ""}});
  REQUIRE(imported["errors"].empty());
  CHECK(not_read(imported).empty());
  const traincalc::Report before = run(scenario);
  const traincalc::Report after = estimate_imported(imported["scenario"], scenario);
  // The same model, layout and batch: the same step and the same memory, to rounding.
  CHECK(after.model.params == before.model.params);
  CHECK(static_cast<const traincalc::LayoutChoices&>(after.parallelism) ==
        static_cast<const traincalc::LayoutChoices&>(before.parallelism));
  CHECK(after.time.step->global_batch_sequences == before.time.step->global_batch_sequences);
  CHECK_THAT(after.time.step->step_seconds, WithinRel(before.time.step->step_seconds, 1e-9));
  CHECK_THAT(after.memory.per_gpu_bytes.total, WithinRel(before.memory.per_gpu_bytes.total, 1e-9));
}

TEST_CASE("A planned run exported as torchtitan's TOML imports back through toml++ to the same run", "[config][cli]") {
  const json scenario = json::parse(R"({"model": {"preset": "llama-3.1-70b"}, "training": {"type": "pretrain",
      "tokens": 2e12, "seq_len": 8192}, "hardware": {"gpu": "h100-sxm", "count": 256},
      "strategy": {"framework": "fsdp2"}})");
  const Run exported = cli("export-config --format torchtitan " + temp_file("scenario.json", scenario.dump()));
  REQUIRE(exported.status == 0);
  INFO(exported.out);
  const Run imported_run = cli("import-config " + temp_file("exported.toml", exported.out));
  const json imported = json::parse(imported_run.out);
  REQUIRE(imported["errors"].empty());
  CHECK(not_read(imported).empty());
  json back = imported["scenario"];
  back["hardware"]["count"] = 256;  // torchtitan's TOML leaves the GPUs to the launcher (NGPU)
  const traincalc::Report before = run(scenario);
  const traincalc::Report after = estimate_imported(back, scenario);
  CHECK(static_cast<const traincalc::LayoutChoices&>(after.parallelism) ==
        static_cast<const traincalc::LayoutChoices&>(before.parallelism));
  CHECK(after.time.step->global_batch_sequences == before.time.step->global_batch_sequences);
  CHECK_THAT(after.time.step->step_seconds, WithinRel(before.time.step->step_seconds, 1e-9));
}

TEST_CASE("A run a format cannot say is refused: torchtitan names only its Llama 3 flavors", "[config]") {
  const traincalc::ConfigExport out = traincalc::export_config(
      R"({"model": {"preset": "mistral-7b"}, "training": {"type": "pretrain", "tokens": 1e11},
          "hardware": {"gpu": "h100-sxm", "count": 8}})", "torchtitan", traincalc::builtin_catalog());
  REQUIRE(out.errors.size() == 1);
  CHECK(out.errors[0].params.at("reason") == "config_format");
  CHECK(out.text.empty());
}

TEST_CASE("A Trainer's max_steps replaces its epochs, and DeepSpeed's batch must be micro x accumulation x GPUs",
          "[config]") {
  const json steps = import({{R"({"per_device_train_batch_size": 2, "num_train_epochs": 3, "max_steps": 1000})", ""}});
  CHECK(steps["scenario"]["training"] == json::parse(R"({"steps": 1000, "type": "finetune"})"));
  CHECK(steps["ignored"].back() == json::parse(R"({"config": 0, "key": "num_train_epochs", "why": "replaced"})"));
  // 64 != 4 x 4 x 8: DeepSpeed refuses to start; 128 is the batch it would run.
  const json ds = import({{R"({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 4, "gradient_accumulation_steps": 4})", ""},
                          {R"({"num_processes": 8, "num_machines": 1})", ""}});
  REQUIRE(ds["errors"].size() == 1);
  CHECK(ds["errors"][0]["params"]["multiple"] == "128");
}

TEST_CASE("A launch script is read as the shell would split it: redirections, unset variables, open quotes",
          "[config]") {
  // --bf16 before a redirection takes no value; --nnodes from the environment is left aside, not an
  // error; a quoted argument list over two lines keeps both ends.
  const json out = import({{"ARGS=\"--num-layers 2\n  --hidden-size 64\"\n"
                            "torchrun --nproc_per_node 4 --nnodes $NNODES pretrain_gpt.py $ARGS --bf16 2>&1 | tee log\n", ""}});
  REQUIRE(out["errors"].empty());
  CHECK(out["scenario"]["model"]["layers"] == 2);
  CHECK(out["scenario"]["model"]["hidden"] == 64);
  CHECK(out["scenario"]["strategy"]["precision"] == "bf16");
  CHECK(out["scenario"]["hardware"]["count"] == 4);
  bool nodes_left = false;
  for (const json& row : out["ignored"]) nodes_left = nodes_left || (row["key"] == "--nnodes" && row["why"] == "no_value");
  CHECK(nodes_left);
  // Another program's --flags are not Megatron-LM's arguments.
  CHECK(import({{"accelerate launch train.py --per_device_train_batch_size 4", ""}})["errors"][0]["params"]["reason"] ==
        "config_format");
}

TEST_CASE("Hostile configs are refused without a crash: deep nesting, a script whose variables double", "[config]") {
  const std::string deep = std::string(100000, '{') + std::string(100000, '}');
  const json nested = import({{"{\"a\":" + std::string(20000, '[') + std::string(20000, ']') + "}", ""}});
  REQUIRE(nested["errors"].size() == 1);
  CHECK(nested["errors"][0]["code"] == "too_deep");
  CHECK_FALSE(import({{deep, ""}})["errors"].empty());
  std::string doubling = "A=xxxxxxxxxxxxxxxx\n";
  for (int i = 0; i < 200; ++i) doubling += "A=$A$A\n";
  doubling += "--num-layers $A\n";
  const json grown = import({{doubling, ""}});
  CHECK_FALSE(grown["errors"].empty());  // a number too long to be one, refused at its key
}

TEST_CASE("Exported configs carry what their frameworks require to launch", "[config]") {
  const auto megatron = [](const std::string& strategy) {
    return traincalc::export_config(R"({"model": {"preset": "llama-3.1-8b"}, "training": {"type": "pretrain", "tokens": 1e12,
        "seq_len": 8192}, "hardware": {"gpu": "h100-sxm", "count": 64}, "strategy": )" + strategy + "}",
                                    "megatron", traincalc::builtin_catalog());
  };
  // Rotary positions still need --max-position-embeddings (a required argument, at least the sequence).
  const traincalc::ConfigExport full = megatron(R"({"framework": "megatron", "recompute": "full", "zero": 3})");
  REQUIRE(full.errors.empty());
  CHECK(full.text.find("--max-position-embeddings 8192") != std::string::npos);
  // Full recomputation needs its method and group size; ZeRO-3 is Megatron-FSDP with its checkpoint format.
  CHECK(full.text.find("--recompute-method uniform") != std::string::npos);
  CHECK(full.text.find("--recompute-num-layers 1") != std::string::npos);
  CHECK(full.text.find("--data-parallel-sharding-strategy optim_grads_params") != std::string::npos);
  CHECK(full.text.find("--ckpt-format fsdp_dtensor") != std::string::npos);
  const json back = import({{full.text, ""}});
  CHECK(back["scenario"]["strategy"]["zero"] == 3);
  CHECK(back["scenario"]["strategy"]["recompute"] == "full");
  // What the script cannot say is refused rather than left out.
  const traincalc::ConfigExport offload = megatron(R"({"framework": "deepspeed", "zero": 3, "offload": "optimizer"})");
  REQUIRE(offload.errors.size() == 1);
  CHECK(offload.errors[0].message.find("CPU offload") != std::string::npos);
  // torchtitan without sharding replicates over the data-parallel GPUs, as its checks require.
  const traincalc::ConfigExport ddp = traincalc::export_config(
      R"({"model": {"preset": "llama-3.1-8b"}, "training": {"type": "pretrain", "tokens": 1e11, "seq_len": 4096},
          "hardware": {"gpu": "h100-sxm", "count": 16}, "strategy": {"framework": "fsdp2", "zero": 0, "tp": 2, "pp": 1, "cp": 1}})",
      "torchtitan", traincalc::builtin_catalog());
  REQUIRE(ddp.errors.empty());
  CHECK(ddp.text.find("data_parallel_replicate_degree = 8") != std::string::npos);
  CHECK(ddp.text.find("data_parallel_shard_degree = 1") != std::string::npos);
}
