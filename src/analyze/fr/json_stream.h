#pragma once
// The dump_json form (torch's _dump_nccl_trace_json) read into the typed model as it is parsed,
// from memory or straight from the file: nlohmann's SAX events build a PickleDoc (fr/pickle_doc.h)
// as for a pickle, but each item of the top-level "entries" list is handed to the model builder
// (fr/model_build.h) as soon as it is complete and then dropped from the document. Memory is the
// model plus one entry, not the file, a value arena of the whole dump and the model (a 100 MB
// dump took 519 MB, issue #12). The rules, warnings and errors are those of a whole document;
// fuzz/fr_json_fuzz.cc checks the result against the model read from nlohmann's tree.
#include <optional>
#include <string>
#include <string_view>

#include "analyze/fr/pickle_doc.h"
#include "analyze/fr/reader.h"
#include "core/result.h"

namespace ncdx::analyze {

// Deeper than this is bad input (no dump nests more than a handful of levels).
inline constexpr std::size_t kMaxFrJsonDepth = 256;

// `scratch`'s buffers are reused from dump to dump.
core::Result<FrRankDump> read_json_dump(std::string_view text, const std::string& file, std::optional<int> rank,
                                        bool keep_all_frames, PickleDoc& scratch);
// The file at `path` (a regular file, checked by the caller) read in 1 MiB pieces; more than
// max_bytes is bad input.
core::Result<FrRankDump> read_json_dump_file(const std::string& path, std::size_t max_bytes, std::optional<int> rank,
                                             bool keep_all_frames, PickleDoc& scratch);

}  // namespace ncdx::analyze
