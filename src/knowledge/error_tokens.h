#pragma once
// Error-evidence words and their class families (data/error_tokens.yaml): what the triage fallback
// reads on a line no signature explains.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::knowledge {

struct ErrorToken {
  std::string token;  // lowercase
  int weight = 1;
};
struct TokenFamily {
  std::string klass;
  std::vector<std::string> tokens;  // lowercase
};
struct ErrorTokens {
  std::vector<ErrorToken> evidence;
  // Labels a program puts on a message it carries on after ("libibverbs: Warning:", Python's
  // "UserWarning:"): a line with one is no error evidence, whatever words follow.
  std::vector<std::string> quiet;  // lowercase
  // A logger's level label before the message ("2024-… - ERROR - ", vLLM's ") ERROR 06-05 …"): the
  // logger's verdict, not the message's words; removed before the words are scored.
  std::vector<std::string> labels;  // lowercase
  std::vector<TokenFamily> families;
  // Python exception types (by their last name: "DistStoreError" for
  // torch.distributed.DistStoreError): the generic ones whose message words decide the class, and
  // the ones whose type names it. Any other type is an application error (`other`).
  std::set<std::string> exception_by_words;
  std::map<std::string, std::string> exception_class;
};

// The embedded table; empty when it failed to load (error_tokens_status says why).
const ErrorTokens& error_tokens();
core::Status error_tokens_status();
// The class of the family with most of its tokens in `lower_text` (already lowercase; ties: the
// family listed first), or "" when no family token is there.
std::string_view family_class(std::string_view lower_text, const ErrorTokens& t = error_tokens());
// How the exception type `name` decides a Python exception's class: the class its type names,
// "" when its words decide (a generic type), "other" for an application error.
std::string exception_type_class(std::string_view name, const ErrorTokens& t = error_tokens());
core::Result<ErrorTokens> parse_error_tokens(std::string_view yaml_text, std::string_view source_name);

}  // namespace ncdx::knowledge
