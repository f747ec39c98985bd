#pragma once
// The versioned verl config schema. Which keys exist in which verl version and trainer config
// (FSDP ppo_trainer vs Megatron ppo_megatron_trainer) and their defaults come from verl's released
// config (VerlFacts, generated from the wheels); data/verl_schema.yaml adds what the config files
// cannot say: whether the version's code reads a key, renames, and keys invented by playbooks.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/semver.h"
#include "knowledge/verl_facts.h"

namespace ncdx::knowledge {

enum class Strategy { fsdp, megatron };
const char* to_string(Strategy s);

// A version bound that may differ per strategy.
struct Gate {
  std::optional<core::Version> fsdp, megatron;
  std::optional<core::Version> get(Strategy s) const { return s == Strategy::fsdp ? fsdp : megatron; }
};

// The trainer configs the strategies compose (verl/trainer/config/<name>.yaml in the wheel).
inline constexpr const char* kFsdpConfig = "trainer/config/ppo_trainer";
inline constexpr const char* kMegatronConfig = "trainer/config/ppo_megatron_trainer";

struct VerlKey {
  std::string key, type, note, source;
  VersionMask in_fsdp = 0, in_megatron = 0;  // versions whose released config has the key (VerlFacts)
  std::optional<nlohmann::json> default_value;            // not recorded = nullopt
  std::vector<std::pair<core::Version, nlohmann::json>> defaults;  // per version, ascending
  std::optional<nlohmann::json> megatron_default;
  std::optional<Strategy> only;  // exists only in that config
  Gate since, removed, read_since, read_until;
  std::string renamed_to;
  bool open = false;
};

struct InventedKey {
  std::string key;     // exact key, or a prefix when is_prefix
  bool is_prefix = false;
  std::string did_you_mean, why, source;
};

class VerlSchema {
 public:
  static core::Result<const VerlSchema*> get();  // parsed once from the embedded file

  // The entry for `key`, or for the open subtree that contains it.
  const VerlKey* find(std::string_view key) const;
  const InventedKey* invented(std::string_view key) const;
  bool exists(const VerlKey& k, const core::Version& v, Strategy s) const;
  bool is_read(const VerlKey& k, const core::Version& v, Strategy s) const;
  std::optional<nlohmann::json> default_for(const VerlKey& k, const core::Version& v, Strategy s) const;
  // Every key with a recorded default that exists in (v, s), as a nested tree.
  nlohmann::json defaults_tree(const core::Version& v, Strategy s) const;
  // Keys that exist in (v, s), for did-you-mean.
  std::vector<std::string> keys_in(const core::Version& v, Strategy s) const;
  // The key's version span in words: "fsdp >= 0.6.0, megatron >= 0.4.1".
  std::string span(const VerlKey& k) const;
  // A usage error unless ncdx has `v`'s released config ("… for 0.4.0-0.9.1 only"); `flag` names
  // what the user typed (`--verl-version 0.7.5`).
  core::Status require_release(const core::Version& v, const std::string& flag) const;

  const std::vector<VerlKey>& keys() const { return keys_; }
  const VerlFacts& facts() const { return *facts_; }
  static const char* config_for(Strategy s) { return s == Strategy::fsdp ? kFsdpConfig : kMegatronConfig; }
  const core::Version& latest() const { return latest_; }
  const std::vector<core::Version>& versions() const { return versions_; }

 private:
  std::vector<VerlKey> keys_;
  std::vector<InventedKey> invented_;
  std::vector<core::Version> versions_;
  core::Version latest_;
  const VerlFacts* facts_ = nullptr;
  void attach(const VerlFacts& f);
  friend core::Result<VerlSchema> parse_verl_schema(std::string_view text);
};

core::Result<VerlSchema> parse_verl_schema(std::string_view text);

}  // namespace ncdx::knowledge
