#pragma once
// Open MPI coll_tuned: the algorithms `ncdx tune --backend mpi` chooses among
// (knowledge/data/ompi_coll_tuned.tsv) and the dynamic-rules file that carries the choice.
// File format: ompi/mca/coll/tuned/coll_tuned_dynamic_file.c @ v4.1.4 (read the same by v5.0.x,
// which only adds an optional "rule-file-version-N" first line we do not need):
//   <number of collectives>
//   per collective: <COLLTYPE id> <number of communicator sizes>
//     per size: <comm size> <number of message rules>
//       per rule: <message size> <algorithm> <fan in/out> <segment size>
// Numbers are read with fscanf("%li") and any other character is skipped ('#' to the end of the
// line), the first message rule must be for size 0, and a rule holds from its size up to the
// next rule's; algorithm 0 falls back to Open MPI's fixed decision (coll_tuned_decision_dynamic.c:
// `if (alg)`). The message size is datatype size x count, which for every collective we tune is
// nccl-tests' size column (coll_tuned_decision_dynamic.c @ v4.1.4).
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "measure/collective/collective.h"
#include "model/tune/search_space.h"

namespace ncdx::model::tune {

struct OmpiAlgorithm {
  measure::Collective coll;
  std::string ompi_coll;  // "allreduce", "reduce_scatter_block", "bcast"
  int colltype = 0, id = 0;
  std::string name;
  bool segmented = false;
  int min_ranks = 1, max_ranks = 0;  // 0 = no upper bound
};

// The data rows of a compiled-in Open MPI table (knowledge/data/NAME, static storage): '#' comments,
// blank lines and the header line skipped; each row's 1-based line and its tab-separated fields.
// An internal error when the file is not compiled in.
struct TableRow {
  int line = 0;
  std::vector<std::string_view> fields;
};
core::Result<std::vector<TableRow>> ompi_table_rows(std::string_view name);

// The table, or an internal error if the embedded data is broken.
core::Result<std::vector<OmpiAlgorithm>> ompi_algorithms();
// The algorithms of one collective that exist at `nranks`.
std::vector<OmpiAlgorithm> ompi_algorithms_for(const std::vector<OmpiAlgorithm>& all, measure::Collective c, int nranks);

// A choice for one collective: algorithm 0 = Open MPI's own decision; the knob is the segment
// size in bytes, 0 = the default.
using OmpiConfig = Config;
std::string label(const OmpiConfig& c, const std::vector<OmpiAlgorithm>& algs, measure::Collective coll);

struct OmpiRule {
  std::size_t from_bytes = 0;  // the rule holds from this size up to the next rule's
  OmpiConfig cfg;
};
struct OmpiCollRules {
  int colltype = 0;
  int comm_size = 0;
  std::vector<OmpiRule> rules;  // sorted by from_bytes; a size-0 rule is added when missing
  std::string comment;          // one '#' line above the collective
};

std::string render_dynamic_rules(const std::vector<OmpiCollRules>& colls, const std::string& header_comment);

// MCA parameters that force a configuration (empty for the default) for one collective.
std::vector<std::pair<std::string, std::string>> forced_mca(const OmpiAlgorithm& a, const OmpiConfig& c);

}  // namespace ncdx::model::tune
