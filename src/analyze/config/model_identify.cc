#include "analyze/config/model_identify.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/json.h"

namespace ncdx::analyze {

core::Result<knowledge::ModelInfo> model_from_config_json(const std::string& text, const std::string& file) {
  auto j = core::parse_json(text, file);
  if (!j) return j.status();
  if (!j->is_object()) return core::Status::bad_input(file + ": expected a JSON object (Hugging Face config.json)");
  const auto& c = j->contains("text_config") && (*j)["text_config"].is_object() ? (*j)["text_config"] : *j;
  auto num = [&](const char* k) -> std::optional<double> {
    if (c.contains(k) && c[k].is_number()) return c[k].get<double>();
    return std::nullopt;
  };
  knowledge::ModelInfo m;
  m.id = c.value("model_type", j->value("model_type", std::string("unknown")));
  m.family = m.id;
  m.source = file;
  auto h = num("hidden_size"), l = num("num_hidden_layers"), a = num("num_attention_heads"), kv = num("num_key_value_heads"),
       v = num("vocab_size"), inter = num("intermediate_size");
  if (h) m.hidden = static_cast<int>(*h);
  if (l) m.layers = static_cast<int>(*l);
  if (a) m.heads = static_cast<int>(*a);
  m.kv_heads = kv ? std::optional<int>(static_cast<int>(*kv)) : m.heads;
  if (v) m.vocab = static_cast<int>(*v);
  auto experts = num("n_routed_experts") ? num("n_routed_experts") : num("num_experts") ? num("num_experts") : num("num_local_experts");
  if (experts) m.experts = static_cast<int>(*experts);
  if (h && l && a && v) {
    double hd = *h / *a, kvh = m.kv_heads ? *m.kv_heads : *a;
    double attn = *h * (*a * hd) * 2 + *h * (kvh * hd) * 2;  // q, o, k, v
    double mlp = 0;
    if (experts) {
      double mi = num("moe_intermediate_size").value_or(inter.value_or(0));
      mlp = *experts * 3 * *h * mi;
    } else {
      mlp = 3 * *h * inter.value_or(4 * *h);
    }
    bool tied = c.value("tie_word_embeddings", false);
    m.params_b = (*l * (attn + mlp) + (tied ? 1 : 2) * *v * *h) / 1e9;
  }
  return m;
}

core::Result<ModelGuess> identify_model(const std::string& size_flag, const std::string& model_path) {
  ModelGuess g;
  std::error_code ec;
  if (!model_path.empty()) {
    std::filesystem::path cfg = std::filesystem::path(model_path) / "config.json";
    if (std::filesystem::is_regular_file(cfg, ec)) {
      std::ifstream f(cfg, std::ios::binary);
      std::ostringstream ss;
      ss << f.rdbuf();
      if (ss.str().size() > (4u << 20)) return core::Status::bad_input(cfg.string() + ": larger than 4 MiB, not a config.json");
      auto m = model_from_config_json(ss.str(), cfg.string());
      if (!m) return m.status();
      g.info = *m;
      g.from = "config.json at " + model_path;
    } else if (auto t = knowledge::match_model(model_path)) {
      g.info = *t;
      g.from = "model table (" + t->id + ") matched on the model path";
    }
  }
  if (!size_flag.empty()) {
    auto b = knowledge::parse_size_token(size_flag);
    if (!b) return core::Status::usage("--model-size '" + size_flag + "': expected a size like 7B, 1.5B or 235B");
    if (!g.info) {
      g.info = knowledge::ModelInfo{};
      g.info->id = size_flag;
      g.from = "--model-size " + size_flag;
    } else {
      g.from += "; size from --model-size " + size_flag;
    }
    g.info->params_b = *b;
  } else if (!g.info && !model_path.empty()) {
    if (auto b = knowledge::parse_size_token(model_path)) {
      g.info = knowledge::ModelInfo{};
      g.info->id = model_path.substr(model_path.find_last_of('/') == std::string::npos ? 0 : model_path.find_last_of('/') + 1);
      g.info->params_b = *b;
      g.from = "size token in the model path (architecture unknown)";
    }
  }
  return g;
}

}  // namespace ncdx::analyze
