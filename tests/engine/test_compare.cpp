// The comparison (traincalc::compare_json): the user's workload put on each cloud offer or GPU of
// the catalog, ranked. Seed 004's table through it is in test_seed_004.cpp.
#include "helpers.hpp"

using namespace test;

namespace {

json compare(const json& scenario, const json& request) {
  const json out = json::parse(traincalc::compare_json(scenario.dump(), traincalc::builtin_catalog(), request.dump()));
  INFO(out.dump());
  REQUIRE(out["errors"].empty());
  return out;
}

const json& row(const json& out, const std::string& id) {
  for (const auto& r : out["rows"])
    if (r["id"] == id) return r;
  FAIL("no row " << id);
  throw;
}

}  // namespace

TEST_CASE("Comparison by GPU: the user's count on each GPU, no price, the GPU's own precision", "[compare]") {
  const json s = {{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
                  {"hardware", {{"gpu", "h100-sxm"}, {"count", 16}}},
                  {"strategy", {{"precision", "bf16"}, {"mfu", 0.4}}},
                  {"pricing", {{"per_gpu_hour", 2.5}, {"currency", "USD"}}}};
  const json out = compare(s, {{"kind", "gpus"}, {"ids", {"a100-80gb-sxm", "v100-sxm2-32gb"}}});
  REQUIRE(out["rows"].size() == 2);
  const json& a100 = row(out, "a100-80gb-sxm")["report"];
  CHECK(a100["plan"]["gpus"] == 16);
  CHECK(a100["hardware"]["precision"] == "bf16");
  CHECK_FALSE(a100.contains("cost"));  // a price is for one GPU, not for every GPU
  // Same FLOPs at 312 instead of 989.4 TFLOPS (NVIDIA datasheets), at the same utilisation.
  const json own = report_json(s);
  CHECK_THAT(a100["time"]["wall_clock_days"].get<double>(),
             WithinRel(own["time"]["wall_clock_days"].get<double>() * 989.4 / 312, 1e-9));
  // The V100 has no bf16: it runs the workload at its FP16 peak (125 TFLOPS) instead of failing.
  const json& v100 = row(out, "v100-sxm2-32gb")["report"];
  CHECK(v100["errors"].empty());
  CHECK(v100["hardware"]["precision"] == "fp16");
  CHECK(v100["hardware"]["peak_tflops"] == 125.0);
}

TEST_CASE("Comparison by GPU: a money budget gives way to a count, a deadline plans each GPU", "[compare]") {
  json s = {{"model", {{"preset", "llama-2-7b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
            {"hardware", {{"gpu", "h100-sxm"}}},
            {"strategy", {{"mfu", 0.4}}},
            {"pricing", {{"per_gpu_month", 2000}, {"currency", "USD"}}},
            {"budget", {{"per_month", 32000}, {"months", 3}}}};
  const json by_budget = compare(s, {{"kind", "gpus"}, {"ids", {"a100-80gb-sxm"}}, {"gpus_when_unset", 16}});
  const json& a100 = by_budget["rows"][0]["report"];
  CHECK(a100["errors"].empty());
  CHECK(a100["plan"]["gpus"] == 16);
  CHECK_FALSE(a100.contains("cost"));

  s.erase("pricing");
  s["budget"] = {{"deadline_days", 30}};
  const json by_deadline = compare(s, {{"kind", "gpus"}, {"ids", {"a100-80gb-sxm", "h100-sxm"}}});
  for (const auto& r : by_deadline["rows"]) {
    INFO(r["id"]);
    CHECK(r["report"]["errors"].empty());
    CHECK(r["report"]["plan"]["gpus_from"] == "budget.deadline_days");
    CHECK(r["report"]["time"]["wall_clock_days"].get<double>() <= 30);
  }
  // The slower A100 needs more GPUs for the same deadline.
  CHECK(row(by_deadline, "a100-80gb-sxm")["report"]["plan"]["gpus"].get<double>() >
        row(by_deadline, "h100-sxm")["report"]["plan"]["gpus"].get<double>());
}

TEST_CASE("The ranking puts what fits before what is faster but does not fit", "[compare]") {
  // 3B parameters in mixed precision with Adam: 16 bytes each, 48 GB before activations. The L40S
  // (48 GB, 362 TFLOPS) is faster than the A100 (80 GB, 312) but cannot hold it.
  const json s = {{"model", {{"params", 3e9}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e10}}},
                  {"hardware", {{"count", 1}}},
                  {"strategy", {{"mfu", 0.4}}}};
  const json out = compare(s, {{"kind", "gpus"}, {"ids", {"l40s", "a100-80gb-sxm"}}});
  CHECK(out["rows"][0]["id"] == "a100-80gb-sxm");
  CHECK(out["rows"][0]["report"]["memory"]["fits"] == true);
  CHECK(out["rows"][1]["id"] == "l40s");
  CHECK(out["rows"][1]["report"]["memory"]["fits"] == false);
  CHECK(out["rows"][1]["report"]["time"]["wall_clock_days"].get<double>() <
        out["rows"][0]["report"]["time"]["wall_clock_days"].get<double>());
}

TEST_CASE("A budget stays in the user's currency on every offer, and every offer is costed in it", "[compare]") {
  // The budget's currency is that of the offer the scenario names (CNY): 300,000 stays 300,000 CNY on
  // a USD offer, whose price is converted at the reference rates (CNY 7.9827, USD 1.1684 per euro on
  // 2026-04-13: 6.8322 CNY per US dollar), so both offers are ranked in yuan.
  const json s = {{"model", {{"params", 1e9}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e10}}},
                  {"strategy", {{"mfu", 0.4}}},
                  {"pricing", {{"offer", "generic-cn-cloud-202-a100-40gb-monthly-monthly-a100-40gb-sxm"}}},
                  {"budget", {{"per_month", 300000}}}};
  const std::string aws = "aws-p5.48xlarge-on-demand-h100-sxm";
  const std::string cn = "generic-cn-cloud-202-a100-40gb-monthly-monthly-a100-40gb-sxm";
  const json out = compare(s, {{"ids", {aws, cn}}});
  const json& local = row(out, cn)["report"];
  const json& abroad = row(out, aws)["report"];
  CHECK(local["errors"].empty());
  CHECK(abroad["errors"].empty());
  CHECK(local["cost"]["currency"] == "CNY");
  CHECK_FALSE(local["cost"].contains("exchange"));
  CHECK(abroad["cost"]["currency"] == "CNY");
  const json& x = abroad["cost"]["exchange"];
  CHECK(x["from"] == "USD");
  CHECK(x["to"] == "CNY");
  CHECK_THAT(x["rate"].get<double>(), WithinRel(7.9827 / 1.1684, 1e-12));
  CHECK_THAT(abroad["cost"]["per_gpu_hour"].get<double>(), WithinRel(x["per_gpu_hour"].get<double>() * 7.9827 / 1.1684, 1e-12));
  // The budget itself is never converted: 300,000 CNY rents what it rents at the yuan price (8 H100s
  // at 34,314 CNY a GPU-month; as 300,000 USD it would rent 64).
  CHECK_FALSE(abroad["cost"].contains("budget_exchange"));
  CHECK(abroad["plan"]["gpus"] == 8);
  CHECK(abroad["plan"]["gpus"].get<double>() * abroad["cost"]["per_gpu_month"].get<double>() <= 300000);
}

TEST_CASE("Without a budget the comparison costs every offer in the scenario's currency", "[compare]") {
  const json s = {{"model", {{"params", 1e9}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e10}}},
                  {"hardware", {{"count", 8}}},
                  {"strategy", {{"mfu", 0.4}}},
                  {"currency", "EUR"}};
  const json out = compare(s, {{"ids", {"aws-p5.48xlarge-on-demand-h100-sxm",
                                        "generic-cn-cloud-202-a100-40gb-monthly-monthly-a100-40gb-sxm"}}});
  for (const json& r : out["rows"]) {
    CHECK(r["report"]["cost"]["currency"] == "EUR");
    CHECK(r["report"]["cost"]["exchange"]["to"] == "EUR");
  }
  // 1 CNY = 1 / 7.9827 EUR.
  CHECK_THAT(row(out, "generic-cn-cloud-202-a100-40gb-monthly-monthly-a100-40gb-sxm")["report"]["cost"]["exchange"]["rate"]
                 .get<double>(),
             WithinRel(1 / 7.9827, 1e-12));
}

TEST_CASE("Without any currency in the scenario, offers are costed in the one most of them are priced in",
          "[compare]") {
  // A vendor's catalog in yuan (inline), nothing in the scenario says a currency: the vendor's offers
  // stay in yuan, and the one dollar offer is converted into yuan.
  const json vendor = {{"offers",
                        {{{"id", "vendor-a"}, {"gpu", "h100-sxm"}, {"per_gpu_hour", 15}, {"currency", "CNY"}, {"source", "test"}},
                         {{"id", "vendor-b"}, {"gpu", "a100-80gb-sxm"}, {"per_gpu_hour", 8}, {"currency", "cny"},
                          {"source", "test"}}}}};
  const json s = {{"model", {{"params", 1e9}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e10}}},
                  {"hardware", {{"count", 8}}},
                  {"strategy", {{"mfu", 0.4}}},
                  {"catalog", vendor}};
  const json out = compare(s, {{"ids", {"vendor-a", "vendor-b", "aws-p5.48xlarge-on-demand-h100-sxm"}}});
  for (const json& r : out["rows"]) CHECK(r["report"]["cost"]["currency"] == "CNY");
  CHECK_FALSE(row(out, "vendor-b")["report"]["cost"].contains("exchange"));  // "cny" is CNY
  CHECK(row(out, "aws-p5.48xlarge-on-demand-h100-sxm")["report"]["cost"]["exchange"]["from"] == "USD");
}

TEST_CASE("A comparison request that cannot be read is refused, naming the field", "[compare]") {
  const auto refused = [](const std::string& request) {
    return json::parse(traincalc::compare_json(R"({"model": {"params": 1e9}})", traincalc::builtin_catalog(),
                                               std::string_view(request)));
  };
  CHECK(has_error(refused("[]"), "compare", "wrong_type"));
  CHECK(has_error(refused("{\"kind\": \"cheapest\"}"), "compare.kind", "unknown_choice"));
  CHECK(has_error(refused("{\"ids\": [1]}"), "compare.ids", "wrong_type"));
  CHECK(has_error(refused("{\"gpus_when_unset\": -3}"), "compare.gpus_when_unset", "not_positive"));
  CHECK(has_error(refused("{\"id\": []}"), "compare.id", "unknown_key"));
  CHECK(has_error(refused("{"), "", "parse_error"));
  CHECK(has_error(refused("{\"kind\": \"counts\"}"), "compare.counts", "required"));
  CHECK(has_error(refused("{\"kind\": \"counts\", \"counts\": [8, 0.5]}"), "compare.counts", "wrong_type"));
  CHECK(has_error(refused("{\"kind\": \"counts\", \"counts\": []}"), "compare.counts", "wrong_type"));
  CHECK(has_error(refused("{\"kind\": \"counts\", \"counts\": \"8\"}"), "compare.counts", "wrong_type"));
  CHECK(has_error(refused("{\"kind\": \"gpus\", \"counts\": [8]}"), "compare.counts", "conflict"));
}

// ---- The scaling curve ------------------------------------------------------------------------
// kind counts: the scenario at each GPU count, the planner choosing each count's layout. A count
// replaces what would choose the count (a monthly budget with its months, or a deadline) and a given
// data-parallel width; the rest of the scenario, the money budget's currency included, stays.

TEST_CASE("The scaling curve: each count in the order asked, each the scenario at that count", "[compare]") {
  const json s = {{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
                  {"hardware", {{"gpu", "h100-sxm"}, {"count", 16}}},
                  {"strategy", {{"dp", 16}}},
                  {"pricing", {{"per_gpu_hour", 2.5}, {"currency", "USD"}}}};
  const json out = compare(s, {{"kind", "counts"}, {"counts", {64, 8}}});
  CHECK(out["kind"] == "counts");
  REQUIRE(out["rows"].size() == 2);
  CHECK(out["rows"][0]["id"] == "64");
  CHECK(out["rows"][1]["id"] == "8");
  for (const json& r : out["rows"]) {
    const json& report = r["report"];
    INFO(report.dump());
    CHECK(report["errors"].empty());
    CHECK(r["gpu"] == "h100-sxm");
    CHECK(report["plan"]["gpus"].get<double>() == std::stod(r["id"].get<std::string>()));
    // strategy.dp (16) is the given count's; at another count the planner chooses it.
    CHECK(report["parallelism"]["chosen_by"] == "planner");
    json at_count = s;
    at_count["hardware"]["count"] = report["plan"]["gpus"];
    at_count["strategy"].erase("dp");
    CHECK(report["time"]["wall_clock_days"] == report_json(at_count)["time"]["wall_clock_days"]);
  }
}

TEST_CASE("The scaling curve: a budget stops choosing the count, its currency stays the report's", "[compare]") {
  const json s = {{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
                  {"hardware", {{"gpu", "h100-sxm"}}},
                  {"pricing", {{"per_gpu_month", 14000}, {"currency", "CNY"}}},
                  {"budget", {{"per_month", 448000}, {"currency", "CNY"}, {"months", 3}}}};
  const json out = compare(s, {{"kind", "counts"}, {"counts", {64}}});
  const json& report = out["rows"][0]["report"];
  INFO(report.dump());
  CHECK(report["errors"].empty());
  CHECK(report["plan"]["gpus"] == 64);
  CHECK(report["plan"]["gpus_from"] == "count");
  CHECK(report["cost"]["currency"] == "CNY");
  CHECK_FALSE(report["plan"].contains("budget_per_month"));
  // A deadline chooses a count too, and gives way to the one asked.
  json by_deadline = s;
  by_deadline.erase("budget");
  by_deadline["budget"] = {{"deadline_days", 30}};
  const json at_deadline = compare(by_deadline, {{"kind", "counts"}, {"counts", {8}}});
  const json& at_8 = at_deadline["rows"][0]["report"];
  CHECK(at_8["errors"].empty());
  CHECK(at_8["plan"]["gpus"] == 8);
  CHECK_FALSE(at_8["plan"].contains("deadline_days"));
}

// ---- Offers that cannot form a cluster ----------------------------------------------------------
// Each offer says how many GPUs one instance holds and whether instances join into one job
// (scripts/offer-networks.json, cited per row): a RunPod community pod holds at most 8 GPUs and pods
// cannot be joined; a RunPod secure pod joins others over "Global Networking" at 100 Mbit/s a pod;
// an AWS p5.48xlarge joins others over EFA at 3,200 Gbit/s an instance.

TEST_CASE("Offers and clusters: a monthly budget never rents more GPUs than the offer can join into one job",
          "[compare][offers]") {
  const json s = {{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
                  {"strategy", {{"mfu", 0.4}}},
                  {"budget", {{"per_month", 20000}, {"currency", "USD"}}}};
  const json out = compare(s, {{"kind", "offers"},
                               {"ids", {"runpod-community-1-gpu-pod-on-demand-rtx-4090",
                                        "aws-p5.48xlarge-on-demand-h100-sxm"}}});
  const json& pod = row(out, "runpod-community-1-gpu-pod-on-demand-rtx-4090")["report"];
  CHECK(pod["errors"].empty());
  // floor(20,000 / (0.34 USD x 730 h)) = 80 GPUs would be bought; one pod holds 8.
  CHECK(pod["plan"]["gpus"] == 8);
  CHECK(pod["plan"]["max_gpus"] == 8);
  CHECK(pod["plan"]["gpus_wanted"] == 80);
  CHECK(pod["plan"]["nodes"] == 1);
  const json* capped = warning_of(pod, "offer_single_instance_capped");
  REQUIRE(capped);
  CHECK((*capped)["field"] == "budget.per_month");
  CHECK((*capped)["params"]["wanted"] == "80");
  CHECK((*capped)["params"]["gpus"] == "8");
  // floor(20,000 / (6.88 x 730)) = 3 GPUs on the p5: no limit, no warning.
  const json& p5 = row(out, "aws-p5.48xlarge-on-demand-h100-sxm")["report"];
  CHECK(p5["plan"]["gpus"] == 3);
  CHECK_FALSE(p5["plan"].contains("max_gpus"));
  CHECK_FALSE(warning_of(p5, "offer_single_instance_capped"));
}

TEST_CASE("Offers and clusters: a count one offer cannot join is refused, Ethernet-only instances are slow and said",
          "[compare][offers]") {
  const json s = {{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
                  {"hardware", {{"count", 16}}}};
  const json out = compare(s, {{"kind", "offers"},
                               {"ids", {"runpod-community-1-gpu-pod-on-demand-h100-sxm",
                                        "runpod-secure-1-gpu-pod-on-demand-h100-sxm",
                                        "aws-p5.48xlarge-on-demand-h100-sxm"}}});
  const json& community = row(out, "runpod-community-1-gpu-pod-on-demand-h100-sxm")["report"];
  REQUIRE(has_error(community, "hardware.count", "offer_single_instance"));
  CHECK(community["errors"][0]["params"]["max"] == "8");
  CHECK(community["errors"][0]["params"]["count"] == "16");
  // Refused rows rank after every row that runs.
  CHECK(out["rows"].back()["id"] == "runpod-community-1-gpu-pod-on-demand-h100-sxm");

  const json& secure = row(out, "runpod-secure-1-gpu-pod-on-demand-h100-sxm")["report"];
  const json& p5 = row(out, "aws-p5.48xlarge-on-demand-h100-sxm")["report"];
  REQUIRE(secure["errors"].empty());
  const json* ethernet = warning_of(secure, "offer_ethernet_cluster");
  REQUIRE(ethernet);
  CHECK((*ethernet)["params"]["instances"] == "2");
  CHECK((*ethernet)["params"]["gbps"] == "0.0125");  // 100 Mbit/s a pod over 8 GPUs
  CHECK_FALSE(warning_of(p5, "offer_ethernet_cluster"));
  // The same GPUs and layout space: two pods over 100 Mbit/s take longer than two p5 over EFA.
  CHECK(secure["time"]["wall_clock_days"].get<double>() > 1.2 * p5["time"]["wall_clock_days"].get<double>());
  // Within one pod nothing changes: 8 GPUs of both run alike.
  json eight = s;
  eight["hardware"]["count"] = 8;
  const json one_pod = compare(eight, {{"kind", "offers"},
                                       {"ids", {"runpod-secure-1-gpu-pod-on-demand-h100-sxm",
                                                "aws-p5.48xlarge-on-demand-h100-sxm"}}});
  CHECK_THAT(one_pod["rows"][0]["report"]["time"]["wall_clock_days"].get<double>(),
             WithinRel(one_pod["rows"][1]["report"]["time"]["wall_clock_days"].get<double>(), 1e-9));
  CHECK_FALSE(warning_of(one_pod["rows"][0]["report"], "offer_ethernet_cluster"));
}

TEST_CASE("Offers and clusters: a deadline is planned within the offer's limit and missed out loud",
          "[compare][offers]") {
  const json s = {{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e12}}},
                  {"pricing", {{"offer", "runpod-community-1-gpu-pod-on-demand-h100-sxm"}}},
                  {"budget", {{"deadline_days", 10}}}};
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  // 1e12 tokens of a 7B model need about 4.2e22 FLOPs: far more than 8 H100s do in 10 days.
  CHECK(r["plan"]["gpus"].get<double>() <= 8);
  CHECK(r["plan"]["meets_deadline"] == false);
  CHECK(warning_of(r, "offer_single_instance_capped"));
  CHECK(warning_of(r, "deadline_missed"));
  // A provider's cluster cap (Modal: 256 GPUs in one cluster) bounds a deadline plan the same way.
  json modal = s;
  modal["pricing"]["offer"] = "modal-serverless-per-gpu-on-demand-h100-sxm";
  modal["budget"]["deadline_days"] = 1;
  const json m = report_json(modal);
  REQUIRE(m["errors"].empty());
  CHECK(m["plan"]["gpus"].get<double>() <= 256);
  CHECK(warning_of(m, "offer_cluster_max_capped"));
}

TEST_CASE("Offers and clusters: an instance's GPUs are the server the layout and the network see",
          "[compare][offers]") {
  // AWS g6e.12xlarge: 4 L40S per instance (AWS instance type table), so 8 GPUs are 2 servers.
  const json s = {{"model", {{"preset", "llama-2-7b"}}},
                  {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
                  {"hardware", {{"count", 8}}},
                  {"pricing", {{"offer", "aws-g6e.12xlarge-on-demand-l40s"}}}};
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  CHECK(r["hardware"]["gpus_per_node"] == 4);
  CHECK(r["plan"]["nodes"] == 2);
  // Given by the user, the server size wins.
  json given = s;
  given["hardware"]["gpus_per_node"] = 8;
  CHECK(report_json(given)["hardware"]["gpus_per_node"] == 8);
}

TEST_CASE("Offers and clusters: every built-in offer says its instance size and network, with a source",
          "[catalog][offers]") {
  const json catalog = json::parse(traincalc::catalog_to_json(traincalc::builtin_catalog()));
  REQUIRE(catalog["offers"].size() >= 80);
  for (const auto& o : catalog["offers"]) {
    INFO(o["id"]);
    CHECK(o["instance_gpus"].get<double>() >= 1);
    CHECK((o["cluster"] == "rdma" || o["cluster"] == "ethernet" || o["cluster"] == "none"));
    CHECK(o["network_source"].get<std::string>().size() > 40);
    CHECK(o.contains("inter_node_gbps") == (o["cluster"] != "none"));
  }
}

TEST_CASE("Offers and clusters: a vendor's offer that cannot be joined says its instance size", "[catalog][offers]") {
  const auto load = [](const json& offer) {
    json row = {{"id", "v-pod"}, {"gpu", "h100-sxm"}, {"per_gpu_hour", 2}, {"currency", "USD"}, {"source", "vendor"}};
    row.update(offer);
    return traincalc::merge_catalog_json(json{{"offers", {row}}}.dump(), traincalc::builtin_catalog()).errors;
  };
  REQUIRE(load({{"cluster", "none"}}).size() == 1);
  CHECK(load({{"cluster", "none"}})[0].field == "offers[0].instance_gpus");
  REQUIRE(load({{"instance_gpus", 8}, {"max_gpus", 4}}).size() == 1);
  CHECK(load({{"instance_gpus", 8}, {"max_gpus", 4}})[0].code == "out_of_range");
  REQUIRE_FALSE(load({{"cluster", "mesh"}}).empty());
  CHECK(load({{"cluster", "mesh"}})[0].field == "offers[0].cluster");
  CHECK(load({{"instance_gpus", 8}, {"cluster", "none"}}).empty());
}

TEST_CASE("Offers and clusters: the user's own price for an offer's instances keeps the offer's limits",
          "[offers]") {
  // A negotiated 1.50 USD for RunPod community H100 pods: the price is the user's, the pod still holds
  // at most 8 GPUs and cannot be joined to others.
  json s = {{"model", {{"preset", "llama-2-7b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
            {"hardware", {{"count", 8}}},
            {"pricing", {{"offer", "runpod-community-1-gpu-pod-on-demand-h100-sxm"}, {"per_gpu_hour", 1.5}}}};
  const json r = report_json(s);
  REQUIRE(r["errors"].empty());
  CHECK(r["cost"]["per_gpu_hour"] == 1.5);
  CHECK(r["cost"]["currency"] == "USD");
  CHECK_FALSE(r["cost"].contains("offer"));  // not the offer's price
  CHECK(r["plan"]["max_gpus"] == 8);
  s["hardware"]["count"] = 16;
  CHECK(has_error(report_json(s), "hardware.count", "offer_single_instance"));
  // In another currency: the user's price is in it, not the offer's.
  s["hardware"]["count"] = 8;
  s["pricing"]["currency"] = "CNY";
  s["pricing"]["per_gpu_hour"] = 11;
  const json yuan = report_json(s);
  REQUIRE(yuan["errors"].empty());
  CHECK(yuan["cost"]["currency"] == "CNY");
  CHECK(yuan["cost"]["per_gpu_hour"] == 11);
  // Two prices are still one too many.
  s["pricing"]["per_gpu_month"] = 800;
  CHECK(has_error(report_json(s), "pricing.per_gpu_month", "conflict"));
}

TEST_CASE("Offers and clusters: a model-parallel group larger than the offer's limit, and part-used instances",
          "[offers]") {
  json s = {{"model", {{"preset", "llama-2-7b"}}},
            {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
            {"strategy", {{"tp", 8}, {"pp", 2}}},
            {"budget", {{"per_month", 1e5}, {"currency", "USD"}}},
            {"pricing", {{"offer", "runpod-community-1-gpu-pod-on-demand-h100-sxm"}}}};
  // 16 GPUs per model replica on a pod of at most 8: refused, at the layout.
  json r = report_json(s);
  REQUIRE(has_error(r, "strategy.tp", "offer_group_too_large"));
  CHECK(r["errors"][0]["params"]["group"] == "16");
  // 12 GPUs on 8-GPU p5.48xlarge instances: 2 instances rented, said.
  s = {{"model", {{"preset", "llama-2-7b"}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
       {"hardware", {{"count", 12}}},
       {"pricing", {{"offer", "aws-p5.48xlarge-on-demand-h100-sxm"}}}};
  r = report_json(s);
  REQUIRE(r["errors"].empty());
  const json* partial = warning_of(r, "offer_partial_instance");
  REQUIRE(partial);
  CHECK((*partial)["params"]["instances"] == "2");
  CHECK((*partial)["params"]["rented"] == "16");
  // A monthly budget beyond one instance buys whole instances: 100,000 USD at 6.88 x 730 rents 19
  // GPUs, so 16 (two p5.48xlarge).
  s = {{"model", {{"preset", "llama-2-7b"}}},
       {"training", {{"type", "pretrain"}, {"tokens", 1e11}}},
       {"strategy", {{"mfu", 0.4}}},
       {"budget", {{"per_month", 1e5}, {"currency", "USD"}}},
       {"pricing", {{"offer", "aws-p5.48xlarge-on-demand-h100-sxm"}}}};
  CHECK(report_json(s)["plan"]["gpus"] == 16);
}
