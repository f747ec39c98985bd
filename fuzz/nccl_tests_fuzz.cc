// libFuzzer target: nccl-tests output reader (text tables as pasted in issues, and -J JSON) and
// the judge over what it returns; plus the NCCL log reader of `ncdx model --nccl-log`.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "analyze/judge/judge.h"
#include "analyze/judge/nccl_tests_parse.h"
#include "model/cost/nccl_log_inputs.h"
#include "model/cost/spec_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto r = ncdx::analyze::judge::parse_nccl_tests(text, "fuzz");
  if (r.ok()) {
    for (const auto& run : *r) {
      if (run.rows.size() > 100000) __builtin_trap();  // the row cap bounds memory
      for (const auto& row : run.rows)
        if (row.line < 0) __builtin_trap();
    }
    auto j = ncdx::analyze::judge::judge_runs(*r, {});
    if (j.size() != r->size()) __builtin_trap();
    // With a spec too: the model's expectation per size and the table's rank count against it.
    static const auto spec = ncdx::model::cost::parse_spec("nodes=2,gpus=8,gpu=H100,nic=8x400G-IB");
    ncdx::analyze::judge::JudgeOptions o;
    o.spec = *spec;
    for (const auto& x : ncdx::analyze::judge::judge_runs(*r, o))
      for (const auto& row : x.rows)
        if (row.ratio && std::isnan(*row.ratio)) __builtin_trap();  // never NaN
  }
  auto facts = ncdx::model::cost::read_nccl_log(text);
  if (facts.patterns.size() > 16) __builtin_trap();
  (void)ncdx::model::cost::parse_spec(text.substr(0, 512));
  return 0;
}
