#pragma once
// Two-rank jobs whose lines read the same whichever of the two ranks is at fault. With three or
// more ranks a majority tells the odd one (the odd fingerprint, the clients that agree on the
// store); with two there is none: each rank's report is the other's mirror image. The verdict then
// names both ranks and says so in words, instead of the one that happened to print the louder line
// (a victim half the time). Used by cascade.cc for the collective mismatch (two fingerprints), the
// store endpoint (server and its only client) and the collective timeout one rank lost its
// connection after.
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "analyze/triage/model.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

// The input shows a job of exactly two ranks: ranks 0 and 1 and no other (a job numbers its ranks
// 0..N-1, so ranks 0 and 5 are a job of six at least).
bool two_rank_job(const std::set<int>& world);

// The line says its peer closed the connection in order (gloo pair.cc "Connection closed by peer" /
// "Socket closed", NCCL socket.cc "Connection closed by remote peer": read() returned 0, the peer's
// socket was closed, i.e. its process exited or closed it). Not a reset or an I/O error.
bool orderly_close(std::string_view text);

// "Ranks A and B disagree about {about}; with two ranks the lines are the same whichever one
// {odd}, so both are named: either may be it."
std::string either_of_two(int a, int b, std::string_view about, std::string_view odd);

// A collective timeout and the lost connection it caused, in a two-rank job: rank `timed_out`
// reported a collective timeout, the other rank (`lost`) only that its peer closed the connection
// in order (gloo pair.cc "Connection closed by peer" / "Socket closed", NCCL socket.cc "Connection
// closed by remote peer": read() returned 0, the peer's socket was closed, i.e. its process
// exited), and neither shows an error of its own or died of a signal. The peer that closed the
// connection is the only other rank, and it had timed out: its exit after the timeout closed the
// connection, so the loss is the timeout's cascade and the failure is the hang (the two ranks
// waited for each other: one in another collective, or one stalled and woke when the other gave
// up). A reset or an I/O error is not an orderly close (a middlebox, a cut link) and does not
// count; nor does a lost rank the launcher saw exit before the one that timed out (its connection
// was not closed by that one's exit); nor does a job with a crash or an own error (that is the
// cause), or more than two ranks (the peer that closed could be any of them).
struct PairTimeout {
  int timed_out = 0;
  int lost = 0;
};
std::optional<PairTimeout> lost_after_timeout(const ScanResult& scan, const knowledge::SignatureSet& sigs,
                                              const std::set<int>& world, const std::set<int>& waiting,
                                              const std::set<int>& timeout_ranks, const std::set<int>& own_cause,
                                              const std::set<int>& crashed);

}  // namespace ncdx::analyze
