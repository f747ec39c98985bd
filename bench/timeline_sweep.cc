// Accuracy sweep of `ncdx timeline` (issue #16): generated lock-step runs of 8–1024 ranks with a
// known straggler / compute or communication slowdown (and healthy runs), analysed in memory.
// Prints straggler top-1, fail-slow recall (right rank, ≤ 5 steps from the start), precision of
// reported slowdowns, false alarms on healthy runs. Usage: timeline_sweep [RUNS] (default 144).
#include <cstdio>
#include <cstdlib>

#include "analyze/timeline/result.h"
#include "support/timeline_synth.h"

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 144;
  int strag_n = 0, strag_ok = 0, slow_n = 0, slow_ok = 0, reported = 0, correct = 0, healthy = 0, healthy_alarm = 0;
  for (int i = 0; i < runs; ++i) {
    auto spec = ncdx::testing::sweep_spec(i);
    auto set = ncdx::testing::synth_timeline(spec);
    auto r = ncdx::analyze::timeline::analyze_timeline(set, {});
    auto o = ncdx::testing::evaluate(spec, r);
    bool is_healthy = spec.slow_from < 0;
    if (o.straggler_expected) strag_n++, strag_ok += o.straggler_top1;
    if (o.slowdown_expected) slow_n++, slow_ok += o.slowdown_found;
    reported += o.slowdowns_reported;
    correct += o.slowdowns_correct;
    if (is_healthy) healthy++, healthy_alarm += (o.slowdowns_reported > 0 || o.straggler_false);
    bool bad = (o.straggler_expected && !o.straggler_top1) || (o.slowdown_expected && !o.slowdown_found) ||
               o.slowdowns_reported != o.slowdowns_correct || o.straggler_false;
    if (bad)
      std::printf("miss run %d: %d ranks, %d steps, %s rank %d x%.3f from %d skew %.0f us -> straggler %d%s, %zu slowdown(s)%s\n", i,
                  spec.ranks, spec.steps, spec.slow_comm ? "comm" : "compute", spec.slow_rank, spec.factor, spec.slow_from,
                  spec.clock_skew_us, r.stragglers.empty() ? -1 : r.stragglers[0].rank,
                  !r.stragglers.empty() && r.stragglers[0].significant ? " (significant)" : "", r.slowdowns.size(),
                  r.slowdowns.empty() ? "" : (" first: rank " + std::to_string(r.slowdowns[0].rank) + " from " + std::to_string(r.slowdowns[0].from_step)).c_str());
  }
  std::printf("runs %d (healthy %d)\n", runs, healthy);
  std::printf("straggler top-1: %d/%d = %.1f %%\n", strag_ok, strag_n, strag_n ? 100.0 * strag_ok / strag_n : 0);
  std::printf("fail-slow recall (right rank, <= 5 steps): %d/%d = %.1f %%\n", slow_ok, slow_n, slow_n ? 100.0 * slow_ok / slow_n : 0);
  std::printf("fail-slow precision: %d/%d = %.1f %%\n", correct, reported, reported ? 100.0 * correct / reported : 100);
  std::printf("healthy runs with any alarm: %d/%d\n", healthy_alarm, healthy);
  return 0;
}
