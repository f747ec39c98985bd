#pragma once
// What Open MPI runs when `ncdx tune` forces nothing (alg 0): coll_tuned's fixed decision
// (knowledge/data/ompi_fixed_decision.tsv, from coll_tuned_decision_fixed.c @ v4.1.4, the same
// v4.1.0-v5.0.9). A forced configuration that runs the same messages as that decision is the
// default itself, not a configuration of its own (mpi_search.h).
#include <cstddef>
#include <optional>
#include <string>

#include "measure/collective/collective.h"

namespace ncdx::model::tune {

// The algorithm id (ompi_coll_tuned.tsv; segment size 0) Open MPI's fixed decision picks for
// collective `c` on `nranks` ranks at `bytes` (count x type size) of a commutative operation;
// nullopt where the table has no rows for the collective.
std::optional<int> ompi_fixed_decision(measure::Collective c, int nranks, std::size_t bytes);

// True when `version` ("4.1.4", "5.0.9") is an Open MPI release whose fixed decision the table
// holds (4.1.x and 5.0.x).
bool ompi_fixed_decision_applies(const std::string& version);

}  // namespace ncdx::model::tune
