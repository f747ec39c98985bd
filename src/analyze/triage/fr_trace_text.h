#pragma once
// The report of PyTorch's Flight Recorder analyser (`torchfrtrace`, python -m
// torch.distributed.flight_recorder.fr_trace) as users paste it into a log or an issue. It is the
// analyser's conclusion from dumps triage may not have: which ranks never joined a collective,
// which rank passed other arguments, which ranks left no dump. Texts: pytorch/pytorch
// torch/distributed/flight_recorder/components/utils.py (error_analysis,
// check_no_missing_dump_files) and types.py (EntryState.log), checked against torchfrtrace 2.15.0
// run on tests/data/fr dumps (tests/data/triage/fr_trace_text/).
#include <map>
#include <string_view>
#include <vector>

#include "analyze/triage/model.h"
#include "analyze/triage/verdict.h"

namespace ncdx::analyze {

// What the previous lines of one input left open: the block whose field lines follow.
struct FrTraceTextState {
  long long open = -1;        // index into the blocks, or -1
  long long header_line = 0;  // the line of its header
};

// Reads one line (prefix already stripped) into `out`, at most `max_blocks` blocks.
void read_fr_trace_line(std::string_view text, std::size_t file, long long line, FrTraceTextState& st,
                        std::vector<FrTraceBlock>& out, std::size_t max_blocks = 256);

// The findings the pasted reports support, strongest first: a rank fr_trace names as passing other
// arguments (the majority rule where fr_trace's own pick is its first rank's view), ranks that never
// joined the earliest collective still in flight, ranks that left no dump.
std::vector<ScoredFinding> fr_trace_findings(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks);

}  // namespace ncdx::analyze
