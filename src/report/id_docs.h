#pragma once
// `ncdx docs ID`: what one id that ncdx printed means — a triage signature, a finding, a doctor
// check, an audit rule, or an NCCL/PyTorch environment variable — from the same tables the
// analyses use. Plain text; nullopt when no table has the id.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ncdx::report {

std::optional<std::string> describe_id(std::string_view id);

// Every id describe_id knows (for "did you mean" and for the test that every printed id resolves).
std::vector<std::string> documented_ids();

}  // namespace ncdx::report
