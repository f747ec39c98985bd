#pragma once
// Internal to the FR analysis: point-to-point (send/recv) entries left pending. A send/recv pairs
// with the peer's opposite op; a pending one whose peer has no pending counterpart names the peer.
#include <vector>

#include "analyze/fr/align.h"
#include "core/finding.h"

namespace ncdx::analyze::fr_detail {

// Adds at most one finding for the group; returns true when it did.
bool check_p2p(const PgView& g, std::vector<core::Finding>& out);

}  // namespace ncdx::analyze::fr_detail
