// Audit rules about the keys themselves: invented, renamed, absent in this version, Hydra
// override errors, keys accepted but ignored; the run-script findings; the backend; the Ray
// timeline key; the mandatory rollout engine.
#include <algorithm>
#include <cctype>
#include <set>

#include "analyze/audit/audit.h"
#include "analyze/config/config_tree.h"
#include "core/strings.h"

namespace ncdx::analyze {
namespace {

// Keys whose verdict another rule gives (with more context than "exists / not read").
bool owned_elsewhere(const std::string& key) {
  auto ends = [&](std::string_view suf) {
    return key.size() >= suf.size() && key.compare(key.size() - suf.size(), suf.size(), suf) == 0;
  };
  return ends("nccl_timeout") || ends("timeline_json_file") || key == "trainer.dist_backend";
}

// Under a mapping that verl's released config at this version leaves empty ({}: engine_kwargs.sglang,
// model.override_config, ...): a free-form dict verl hands on whole, so a '+' child is read, not
// ignored, even when an older release listed that child as a key (verl_config.tsv).
bool under_free_form(const AuditContext& ctx, const std::string& key) {
  const auto& facts = ctx.schema.facts();
  for (auto dot = key.rfind('.'); dot != std::string::npos && dot > 0; dot = key.rfind('.', dot - 1)) {
    auto v = facts.value(ctx.cfg.config, ctx.verl, key.substr(0, dot));
    if (v) return v->is_object() && v->empty();
  }
  return false;
}

std::string value_after_eq(const std::string& input) {
  auto eq = input.find('=');
  return eq == std::string::npos ? std::string() : input.substr(eq + 1);
}

const Override* override_for(const AuditContext& ctx, const std::string& key) {
  const Override* last = nullptr;
  for (const auto& o : ctx.overrides)
    if (o.key == key) last = &o;
  return last;
}

std::string suggest(const AuditContext& ctx, const std::string& key) {
  auto keys = ctx.schema.keys_in(ctx.verl, ctx.strategy);
  auto best = core::closest(key, keys, 4);
  if (!best.empty()) return best;
  // Same last component under another parent ("model.tensor_model_parallel_size").
  auto last = key.substr(key.rfind('.') + 1);
  for (const auto& k : keys)
    if (k.size() > last.size() && k.compare(k.size() - last.size() - 1, std::string::npos, "." + last) == 0) return k;
  return {};
}

}  // namespace

void rule_keys(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  const std::string version = "verl " + ctx.verl.str() + " (" + knowledge::to_string(ctx.strategy) + ")";
  std::set<std::string> reported;
  // 1. Hydra override failures: the job would not start.
  for (const auto& is : ctx.cfg.applied.issues) {
    if (owned_elsewhere(is.key)) continue;  // verl.timeout, verl.ray.timeline, verl.backend report these
    AuditRow r = make_row("verl.keys", is.key, value_after_eq(is.input), is.certain ? core::Outcome::fail : core::Outcome::warn);
    r.origin = is.origin;
    r.risk = "Hydra refuses to start";
    const auto* inv = ctx.schema.invented(is.key);
    const auto* k = ctx.schema.find(is.key);
    if (is.kind == "append-existing") {
      r.recommended = is.input.substr(1);
      r.why = "Hydra: " + is.message + ". The key already exists in " + version + ", so '+' (append) is an error; " +
              "use the plain form (or '++' to add-or-override).";
      if (!is.certain) r.why += " (ncdx knows the key exists but not its default; if it is null Hydra accepts '+'.)";
    } else if (inv) {
      r.recommended = inv->did_you_mean.empty() ? "remove it" : inv->did_you_mean + "=" + value_after_eq(is.input);
      r.why = "Hydra: " + is.message + ". " + inv->why;
      r.source = inv->source;
    } else if (k && !k->renamed_to.empty()) {
      r.recommended = k->renamed_to + "=" + value_after_eq(is.input);
      r.why = "Hydra: " + is.message + ". '" + is.key + "' exists only in " + ctx.schema.span(*k) +
              "; in " + version + " it is '" + k->renamed_to + "'.";
      r.source = k->source;
    } else if (k) {
      r.recommended = "+" + is.input + " is accepted but not read; remove it";
      r.why = "Hydra: " + is.message + ". '" + is.key + "' exists in verl " + ctx.schema.span(*k) + ", not in " + version + ".";
      r.source = k->source;
    } else {
      auto s = suggest(ctx, is.key);
      r.recommended = s.empty() ? "check the key" : s;
      r.why = "Hydra: " + is.message + "." + (s.empty() ? "" : " Did you mean '" + s + "'?");
    }
    rows.push_back(std::move(r));
    reported.insert(is.key);
  }
  // 2. Keys accepted by Hydra (with + or ++) that verl never reads: invented, renamed, or absent here.
  for (const auto& o : ctx.overrides) {
    if (reported.count(o.key) || owned_elsewhere(o.key) || o.kind == OverrideKind::remove) continue;
    const auto* inv = ctx.schema.invented(o.key);
    const auto* k = ctx.schema.find(o.key);
    if (inv && o.kind != OverrideKind::change) {
      AuditRow r = make_row("verl.keys", o.key, o.value_text(), core::Outcome::fail);
      r.origin = o.origin;
      r.recommended = inv->did_you_mean.empty() ? "remove it" : inv->did_you_mean + "=" + o.value_text();
      r.risk = "silently ignored";
      r.why = "Accepted by Hydra because of '" + std::string(prefix_of(o.kind)) + "', but no verl version reads it. " + inv->why;
      r.source = inv->source;
      rows.push_back(std::move(r));
      reported.insert(o.key);
    } else if (k && !k->open && !ctx.schema.exists(*k, ctx.verl, ctx.strategy) && !under_free_form(ctx, o.key)) {
      AuditRow r = make_row("verl.keys", o.key, o.value_text(), core::Outcome::warn);
      r.origin = o.origin;
      r.risk = "silently ignored";
      r.recommended = k->renamed_to.empty() ? "remove it" : k->renamed_to + "=" + o.value_text();
      r.why = "'" + o.key + "' exists in verl " + ctx.schema.span(*k) + ", not in " + version +
              "; added with '+', Hydra accepts it and verl ignores it." +
              (k->renamed_to.empty() ? "" : " In this version the key is '" + k->renamed_to + "'.");
      r.source = k->source;
      rows.push_back(std::move(r));
      reported.insert(o.key);
    } else if (k && !k->open && !ctx.schema.is_read(*k, ctx.verl, ctx.strategy) && !under_free_form(ctx, o.key)) {
      AuditRow r = make_row("verl.keys", o.key, o.value_text(), core::Outcome::warn);
      r.origin = o.origin;
      r.risk = "silently ignored";
      r.recommended = "remove it (no effect in this version)";
      r.why = "'" + o.key + "' is accepted in " + version + " but nothing reads it. " + k->note;
      r.source = k->source;
      rows.push_back(std::move(r));
      reported.insert(o.key);
    }
  }
  // 3. Keys ncdx does not know: a did-you-mean when one is close, else listed in the JSON context.
  for (const auto& key : ctx.cfg.applied.unverified) {
    if (reported.count(key)) continue;
    auto s = suggest(ctx, key);
    if (s.empty() || s == key) continue;
    const auto* o = override_for(ctx, key);
    AuditRow r = make_row("verl.keys", key, o ? o->value_text() : "", core::Outcome::warn);
    r.origin = o ? o->origin : "";
    r.recommended = s;
    r.risk = "Hydra refuses to start if the key does not exist";
    r.why = "'" + key + "' is not a key ncdx knows for " + version + "; did you mean '" + s + "'? (ncdx's schema covers the "
            "distributed, parallelism, batch and rollout keys, not every verl key.)";
    rows.push_back(std::move(r));
  }
}

namespace {
// An override's key as written (maybe with +/~ or a Hydra group's @), not one the shell computes.
bool is_plain_key(const std::string& k) {
  if (k.empty() || k == "source") return false;
  for (char c : k)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '+' || c == '~' || c == '@' ||
          c == '/' || c == '-'))
      return false;
  return true;
}
}  // namespace

void rule_script(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  if (!ctx.script) return;
  for (const auto& is : ctx.script->issues) {
    core::Outcome status = core::Outcome::warn;
    if (is.rule == "script.missing-dollar") status = core::Outcome::fail;
    if (is.rule == "script.branch") status = core::Outcome::info;  // which branch was audited: said, not judged
    if (is.rule == "script.undefined-var" && is.message.find("assignment of") == std::string::npos) status = core::Outcome::fail;
    std::string rule = is.rule == "script.entry" ? "script.unresolved" : is.rule;
    AuditRow r = make_row(rule, is.subject.empty() ? ctx.script->file : is.subject, "", status);
    r.origin = ctx.script->file + (is.line ? ":" + std::to_string(is.line) : "");
    r.why = is.message;
    if (is.rule == "script.undefined-var") {
      r.value = "$" + is.var + " (unset)";
      r.recommended = "define " + is.var + " before use, or use ${" + is.var + ":-default}";
      r.risk = "empty value";
    } else if (is.rule == "script.missing-dollar") {
      r.recommended = "use $ before the variable name";
      r.risk = "literal text passed";
    } else if (is.rule == "script.unresolved") {
      r.value = "(unknown until run time)";
      r.risk = "not checked";
      // A key no rule reads (experiment_name, default_local_dir …): its value changes no verdict of
      // this audit. verl 0.7.0's examples had 65 such WARNs, 40 of them on four naming/path keys.
      if (is_plain_key(is.subject) && !ctx.is_judged(is.subject)) {
        r.status = core::Outcome::info;
        r.risk = "";
        r.why += "; no ncdx rule judges " + is.subject + ", so no verdict depends on it";
      }
    }
    rows.push_back(std::move(r));
  }
}

void rule_backend(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  auto device = get_string(ctx.cfg.tree, "trainer.device").value_or("cuda");
  std::string actual = device == "npu" ? "cpu:gloo,npu:hccl" : "cpu:gloo," + device + ":nccl";
  bool invented_set = false;
  for (const auto& o : ctx.overrides) {
    if (o.key != "trainer.dist_backend") continue;
    KeyReads::note(o.key);
    invented_set = true;
    AuditRow r = make_row("verl.backend", o.key, o.value_text(), core::Outcome::fail);
    r.origin = o.origin;
    r.recommended = "remove it (the backend is not configurable)";
    r.risk = o.kind == OverrideKind::change ? "Hydra refuses to start" : "silently ignored";
    const auto* inv = ctx.schema.invented(o.key);
    r.why = std::string(o.kind == OverrideKind::change
                            ? "Hydra: Could not override 'trainer.dist_backend'. To append to your config use +" + o.input + ". "
                            : "Accepted because of '+', but nothing reads it. ") +
            (inv ? inv->why : "") + " verl uses " + actual + ": gloo for CPU tensors and " +
            (device == "npu" ? "hccl" : "nccl") + " for device tensors, both in one process group.";
    r.source = inv ? inv->source : r.source;
    rows.push_back(std::move(r));
  }
  if (!invented_set) {
    AuditRow r = make_row("verl.backend", "process-group backend", actual + " (hard-coded)", core::Outcome::pass);
    r.recommended = actual;
    r.why = "verl initialises init_process_group(backend=\"" + actual + "\"); there is no config key for it.";
    rows.push_back(std::move(r));
  }
}

void rule_timeline(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  const std::string want = ctx.verl < core::V("0.6.0") ? "ray_init.timeline_json_file" : "ray_kwargs.timeline_json_file";
  for (const auto& o : ctx.overrides) {
    if (o.key != "ray_init.timeline_json_file" && o.key != "ray_kwargs.timeline_json_file") continue;
    KeyReads::note(o.key);
    bool right = o.key == want;
    bool hydra_fails = !right && o.kind == OverrideKind::change;
    AuditRow r = make_row("verl.ray.timeline", o.key, o.value_text(), right ? core::Outcome::pass : (hydra_fails ? core::Outcome::fail : core::Outcome::warn));
    r.origin = o.origin;
    r.recommended = want + "=" + o.value_text();
    r.risk = right ? "" : (hydra_fails ? "Hydra refuses to start" : "no timeline written");
    r.why = right ? "The Ray timeline key for verl " + ctx.verl.str() + "; the file is written by ray.timeline() at the end of the job."
                  : "verl " + ctx.verl.str() + " reads " + want + " (ray_init.* moved to ray_kwargs.* in v0.6.0, PR #3049; the FAQ still shows the old key)." +
                        (hydra_fails ? " Hydra: Could not override '" + o.key + "'." : " Added with '+', it is accepted and ignored.");
    rows.push_back(std::move(r));
  }
}

void rule_rollout_name(const AuditContext& ctx, std::vector<AuditRow>& rows) {
  const auto* node = find_path(ctx.cfg.tree, "actor_rollout_ref.rollout.name");
  if (!node) return;
  std::string v = display(*node);
  AuditRow r = make_row("verl.rollout.name", "actor_rollout_ref.rollout.name", v, core::Outcome::pass);
  r.origin = ctx.cfg.origin.count("actor_rollout_ref.rollout.name") ? ctx.cfg.origin.at("actor_rollout_ref.rollout.name") : "";
  r.recommended = "vllm | sglang";
  static const std::set<std::string> known = {"vllm", "sglang", "hf", "trtllm"};
  if (v == "???") {
    r.status = core::Outcome::fail;
    r.risk = "fails at start";
    r.why = "Missing mandatory value: actor_rollout_ref.rollout.name. From v0.6.0 the rollout engine must be named.";
  } else if (!known.count(v)) {
    r.status = core::Outcome::warn;
    r.risk = "unknown engine";
    r.why = "verl's rollout engines are vllm, sglang, hf and trtllm.";
  } else {
    r.why = "Rollout engine named.";
  }
  rows.push_back(std::move(r));
}

}  // namespace ncdx::analyze
