#pragma once
// `ncdx audit` analysis: the effective verl config + script + environment + versions + cluster
// shape, judged by the rules of knowledge/data/audit_rules.yaml. Rows are the audit table.
#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyze/config/run_script.h"
#include "analyze/config/verl_compose.h"
#include "core/outcome.h"
#include "core/semver.h"
#include "knowledge/model_families.h"
#include "knowledge/verl_schema.h"

namespace ncdx::analyze {

struct AuditRow {
  std::string parameter, value, recommended, risk;
  core::Outcome status = core::Outcome::pass;  // PASS | WARN | FAIL | SKIP (SKIP: the rule could not run; says why)
  std::string why, source, rule, origin;
};

struct ClusterSpec {
  std::optional<int> nodes, gpus_per_node;
  std::optional<std::string> fabric;  // nvswitch|nvlink|pcie|ib|roce|efa|socket
  std::optional<double> gpu_mem_gib;
};

struct AuditContext {
  const ComposedConfig& cfg;
  const knowledge::VerlSchema& schema;
  core::Version verl;
  bool verl_assumed = false;
  knowledge::Strategy strategy;
  std::optional<core::Version> torch, nccl;
  ClusterSpec cluster;
  std::optional<knowledge::ModelInfo> model;   // params/heads/...: from config.json, the table or --model-size
  std::string model_from;                      // how the model was identified
  const RunScript* script = nullptr;
  std::vector<Override> overrides;             // everything applied, in order
  std::map<std::string, std::string> env;      // for rules that read env (CUDA_VISIBLE_DEVICES)
  std::map<std::string, double> thresholds;    // "rule.name" -> value (defaults + --threshold)
  double threshold(const std::string& rule, const std::string& name) const;
  // The config keys the judging rules read (set by run_audit before the script rule runs): a
  // run-time value of any other key changes no verdict, so it is said (INFO), not warned about.
  const std::set<std::string>* judged = nullptr;
  bool is_judged(const std::string& key) const;
};

using AuditRule = std::function<void(const AuditContext&, std::vector<AuditRow>&)>;
struct AuditRuleDef {
  const char* id;
  AuditRule run;
};

// The registry, in table order (one explicit list).
const std::vector<AuditRuleDef>& audit_rule_registry();

// Runs every rule — the script rule last, once the keys the others read are known. Returns rows in
// registry order.
std::vector<AuditRow> run_audit(const AuditContext& ctx);

nlohmann::json to_json(const AuditRow& r);

// The size-tier timeout (verl.timeout thresholds): tiers, linear in between rounded up to 300 s.
double tier_timeout_s(std::optional<double> params_b, double small_b, double small_t, double large_b, double large_t,
                      std::string* basis = nullptr);

// Helpers shared by the rule files.
AuditRow make_row(const std::string& rule, std::string parameter, std::string value, core::Outcome status);
std::string fmt_num(double v);
// n_gpus = trainer.nnodes * trainer.n_gpus_per_node (nullopt when either is unknown).
std::optional<long long> config_gpus(const AuditContext& ctx);

}  // namespace ncdx::analyze
