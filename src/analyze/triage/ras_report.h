#pragma once
// NCCL's RAS report (the `ncclras` client, NCCL >= 2.24) as users paste it into a log or an issue.
// RAS asks every process of the job for the state of its communicators; the report lists the ranks
// that sent no data ("INCOMPLETE": the process is gone or stuck) and, per communicator, ranks whose
// count of launched collective operations differs from the rest ("MISMATCH ... Communicator ranks
// have different AllReduce operation counts"): in a hang, the rank behind the others is the one they
// wait for. Texts: NVIDIA/nccl src/ras/client_support.cc (rasClientRunConns / rasClientRunComms,
// v2.24.3-1 .. v2.30.7-1: the same rasOutAppend formats).
#include <map>
#include <string_view>
#include <vector>

#include "analyze/triage/model.h"
#include "analyze/triage/verdict.h"

namespace ncdx::analyze {

// What the previous lines of one input left open: the communicator block being read.
struct RasTextState {
  long long open = -1;       // index into the blocks, or -1
  long long last_line = 0;   // the block's last line read
  bool counts = false;       // inside an "operation counts" list (not the status list)
  bool coll_done = false;    // a second collective's list began: the first one is kept
};

// Reads one line (prefix already stripped) into `out`, at most `max_blocks` blocks.
void read_ras_line(std::string_view text, std::size_t file, long long line, RasTextState& st,
                   std::vector<RasBlock>& out, std::size_t max_blocks = 64);

// A line of the report's own layout: its section headings ("Errors", "Warnings") and the
// communicator table's column header ("... Status  Errors"). They name where failures would be
// listed, not a failure: a healthy report has them all (client_support.cc rasClientRunComms).
bool ras_layout_line(std::string_view text);

// The findings the pasted report supports: the ranks behind the others in a communicator's
// operation counts (nccl-ras.behind), the ranks that sent no data (nccl-ras.missing).
std::vector<ScoredFinding> ras_findings(const ScanResult& scan, const std::map<int, ProcessFacts>& ranks);

}  // namespace ncdx::analyze
