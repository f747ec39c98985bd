#include "core/redact.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "core/strings.h"

extern char** environ;

namespace ncdx::core {

namespace {

constexpr std::string_view kRedacted = "<redacted>";

bool word(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return word(c) || c == '-' || c == '.'; }

std::size_t run(std::string_view s, std::size_t i, bool (*ok)(char)) {
  std::size_t e = i;
  while (e < s.size() && ok(s[e])) ++e;
  return e - i;
}

bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool token_char(char c) { return word(c) || c == '-'; }
bool upper_digit(char c) { return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)); }
bool cred_char(char c) { return !std::isspace(static_cast<unsigned char>(c)) && c != '@' && c != '/' && c != '"' && c != '\''; }
bool b64_char(char c) { return word(c) || c == '-' || c == '.' || c == '~' || c == '+' || c == '/' || c == '='; }

// Length of a secret-shaped token starting at s[i] (after a non-word character), 0 if none.
// Shapes from the issuers' documentation:
//  GitHub  ghp_/gho_/ghu_/ghs_/ghr_ + 36 alnum, github_pat_ + 82 [A-Za-z0-9_]
//          (https://github.blog/2021-04-05-behind-githubs-new-authentication-token-formats/)
//  Hugging Face  hf_ + 34 alnum (https://huggingface.co/docs/hub/security-tokens)
//  OpenAI/Anthropic  sk-… (sk-proj-, sk-ant-), Slack xoxb-/xoxp-/xoxa-/xoxr-/xoxs-/xoxo-
//  AWS access key ids AKIA/ASIA + 16 [A-Z0-9]
//  (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_identifiers.html)
// Minimum lengths are below the real ones so truncated pastes are still caught.
std::size_t token_at(std::string_view s, std::size_t i) {
  auto rest = s.substr(i);
  for (std::string_view p : {"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "hf_"})
    if (rest.starts_with(p)) {
      auto n = run(s, i + p.size(), alnum);
      return n >= 20 ? p.size() + n : 0;
    }
  if (rest.starts_with("github_pat_")) {
    auto n = run(s, i + 11, word);
    return n >= 20 ? 11 + n : 0;
  }
  if (rest.starts_with("sk-")) {
    auto n = run(s, i + 3, token_char);
    return n >= 20 ? 3 + n : 0;
  }
  if (rest.starts_with("xox") && rest.size() > 4 && std::strchr("abposr", rest[3]) && rest[4] == '-') {
    auto n = run(s, i + 5, token_char);
    return n >= 10 ? 5 + n : 0;
  }
  if ((rest.starts_with("AKIA") || rest.starts_with("ASIA")) && run(s, i + 4, upper_digit) == 16) return 20;
  return 0;
}

bool ieq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// Pass 1, by shape: tokens, "Bearer X"/"Basic X" and URL credentials (scheme://user:pass@host).
std::string redact_shapes(std::string_view t) {
  std::string out;
  out.reserve(t.size());
  std::size_t i = 0;
  while (i < t.size()) {
    bool boundary = i == 0 || !word(t[i - 1]);
    if (boundary) {
      if (auto n = token_at(t, i)) {
        out += kRedacted;
        i += n;
        continue;
      }
      for (std::string_view scheme : {"Bearer", "Basic", "token"}) {
        if (i + scheme.size() + 1 < t.size() && ieq(t.substr(i, scheme.size()), scheme) && t[i + scheme.size()] == ' ') {
          auto v = i + scheme.size() + 1;
          auto n = run(t, v, b64_char);
          // "token 1234" is prose; a credential is long. Bearer/Basic are always credentials.
          if (n >= (scheme == "token" ? 20u : 8u) && t.substr(v, n) != kRedacted) {
            out.append(t.substr(i, scheme.size() + 1));
            out += kRedacted;
            i = v + n;
            goto next;
          }
        }
      }
    }
    if (t.substr(i, 3) == "://") {
      // scheme://user:pass@host → scheme://user:<redacted>@host
      auto u = i + 3;
      auto un = run(t, u, cred_char);
      auto colon = t.substr(u, un).find(':');
      if (colon != std::string_view::npos && u + un < t.size() && t[u + un] == '@' && colon + 1 < un) {
        out += "://";
        out.append(t.substr(u, colon + 1));
        out += kRedacted;
        out += '@';
        i = u + un + 1;
        continue;
      }
    }
    out.push_back(t[i]);
    ++i;
  next:;
  }
  return out;
}

// Pass 2, by name: NAME=value, NAME="v a l", NAME='v', NAME: value, "NAME": "value",
// 'NAME': 'value' (Python reprs), --name=value. The colon form needs a quoted key or a name with
// an underscore (env variables, YAML keys), so prose ("monkey: 3", "Key: 5") is kept.
std::string redact_names(std::string_view t) {
  std::string out;
  out.reserve(t.size());
  std::size_t i = 0;  // copied up to here
  std::size_t k = 0;  // scanning here
  while (k < t.size()) {
    char sep = t[k];
    if (sep != '=' && sep != ':') {
      ++k;
      continue;
    }
    // Name before the separator: optional spaces, optional closing quote, then the name.
    std::size_t e = k;
    while (e > i && t[e - 1] == ' ') --e;
    char nq = 0;
    if (e > i && (t[e - 1] == '"' || t[e - 1] == '\'')) nq = t[--e];
    std::size_t s = e;
    while (s > i && name_char(t[s - 1])) --s;
    std::string_view name = t.substr(s, e - s);
    bool quoted_name = nq && s > i && t[s - 1] == nq;
    // "WANDB_API_KEY: x", "hf_token: x" (YAML) count; "monkey: 3" does not.
    bool env_like = name.find('_') != std::string_view::npos;
    bool ok = !name.empty() && is_secret_name(name) && (sep == '=' ? !nq || quoted_name : quoted_name || env_like);
    if (sep == ':' && k + 2 < t.size() && t.substr(k, 3) == "://") ok = false;  // URL, not a key
    if (!ok) {
      ++k;
      continue;
    }
    // Value after the separator: optional spaces, then quoted (to the matching quote) or bare.
    std::size_t v = k + 1;
    while (v < t.size() && t[v] == ' ') ++v;
    std::size_t vs = v, ve;
    if (v < t.size() && (t[v] == '"' || t[v] == '\'')) {
      char q = t[v];
      vs = v + 1;
      ve = vs;
      while (ve < t.size() && t[ve] != q) ve += (t[ve] == '\\' && ve + 1 < t.size()) ? 2 : 1;
      ve = std::min(ve, t.size());
    } else {
      ve = v;
      while (ve < t.size() && !std::isspace(static_cast<unsigned char>(t[ve])) && t[ve] != ',' && t[ve] != ';' &&
             t[ve] != '"' && t[ve] != '\'' && t[ve] != '}' && t[ve] != ')')
        ++ve;
      // "Authorization: Bearer X": the scheme word and its credential.
      auto word1 = t.substr(vs, ve - vs);
      if ((ieq(word1, "Bearer") || ieq(word1, "Basic")) && ve < t.size() && t[ve] == ' ') {
        ve = ve + 1;
        while (ve < t.size() && !std::isspace(static_cast<unsigned char>(t[ve])) && t[ve] != '"' && t[ve] != '\'') ++ve;
      }
    }
    if (ve > vs && t.substr(vs, ve - vs) != kRedacted) {
      out.append(t.substr(i, vs - i));
      out += kRedacted;
      i = ve;
    }
    k = std::max(ve, k + 1);
  }
  out.append(t.substr(std::min(i, t.size())));
  return out;
}

}  // namespace

bool is_secret_name(std::string_view name) {
  std::string up;
  for (char c : name) up.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  // Words that hold a needle but name no secret (vLLM/HF `tokenizer=`, `max_tokens=`, `pad_token_id=`): removed
  // first so configs and serving logs keep their values.
  for (std::string_view w : {"TOKENIZER", "TOKENS", "TOKEN_ID"})
    for (auto at = up.find(w); at != std::string::npos; at = up.find(w)) up.replace(at, w.size(), "_");
  static const char* needles[] = {"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL",
                                  "AUTH", "PRIVATE", "COOKIE", "SESSION_ID"};
  for (auto* n : needles)
    if (up.find(n) != std::string::npos) return true;
  return false;
}

bool looks_secret_value(std::string_view value) { return redact_shapes(value) != value; }

std::string redact_value(std::string_view name, std::string_view value) {
  if (is_secret_name(name)) return std::string(kRedacted);
  // An innocently named variable can still hold a token or a URL with a password.
  return redact_shapes(value);
}

std::string redact_text(std::string_view text) { return redact_names(redact_shapes(text)); }

std::map<std::string, std::string> relevant_env() {
  static const char* prefixes[] = {"NCCL_", "TORCH_", "CUDA_", "NVIDIA_", "PYTORCH_", "VERL_",
                                   "RAY_", "VLLM_", "SGLANG_", "OMPI_", "SLURM_", "PMIX_",
                                   "MASTER_", "WORLD_SIZE", "RANK", "LOCAL_RANK", "GLOO_", "UCX_",
                                   "FI_", "LD_LIBRARY_PATH", "HF_TOKEN", "WANDB_"};
  std::map<std::string, std::string> out;
  for (char** e = environ; e && *e; ++e) {
    std::string_view kv(*e);
    auto eq = kv.find('=');
    if (eq == std::string_view::npos) continue;
    auto name = kv.substr(0, eq);
    bool keep = false;
    for (auto* p : prefixes)
      if (name.substr(0, std::strlen(p)) == p) keep = true;
    if (keep) out[std::string(name)] = redact_value(name, kv.substr(eq + 1));
  }
  return out;
}

}  // namespace ncdx::core
