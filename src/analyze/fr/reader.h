#pragma once
// Reads PyTorch Flight Recorder dumps into a typed model (pytorch/pytorch torch/csrc/distributed/c10d/FlightRecorder.hpp).
//
// A path may be one dump file, a directory holding `<prefix><rank>` files, or a prefix
// (`/tmp/nccl_trace_rank_`). Files are recognised by content (pickle or JSON), never by name, and
// the rank is the number at the end of the name (`nccl_trace_rank_3`,
// `nccl_trace_rank_container-node02_5`). In a directory, TORCH_FR_DUMP_TEMP_FILE or the older
// TORCH_NCCL_DEBUG_INFO_TEMP_FILE, when set, picks the prefix; otherwise every dump file whose
// name ends in a number is taken, and if two share a rank the largest group with a common prefix
// wins (the rest are named in warnings). Missing keys are std::nullopt; unknown versions are read
// best-effort with a warning; a file that is not a dump, or a pickle with code in it, is bad input.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.h"
#include "core/shared_opt.h"

namespace ncdx::analyze {

struct FrFrame {
  std::string name, filename;
  std::optional<long long> line;
};

// Texts, shapes and dtype lists repeat across entries: each distinct one is kept once per dump
// and shared (core/shared_opt.h; an FrEntry is 368 bytes, was 576 plus ~190 on the heap).
using FrText = core::SharedOpt<std::string>;
using FrShapes = core::SharedOpt<std::vector<std::vector<long long>>>;
using FrNames = core::SharedOpt<std::vector<std::string>>;

struct FrEntry {
  std::size_t index = 0;  // position in the dump's entries list
  std::optional<long long> record_id, pg_id, collective_seq_id, p2p_seq_id, op_id;
  FrText pg_name, pg_desc;  // process_group tuple
  FrText profiling_name;    // "nccl:all_reduce", "nccl:send 1->2"
  std::optional<long long> time_created_ns, time_discovered_started_ns, time_discovered_completed_ns;
  std::optional<double> duration_ms;
  FrShapes input_sizes, output_sizes;
  FrNames input_dtypes, output_dtypes;
  FrText state;  // scheduled | started | completed
  std::optional<long long> timeout_ms;
  std::optional<bool> is_p2p, retired;
  FrText thread_name, thread_id;
  std::optional<std::vector<FrFrame>> frames;  // absent when stack traces were not dumped

  // "all_reduce" from "nccl:all_reduce", "send" from "nccl:send 1->2"; empty when unknown.
  std::string op() const;
  bool completed() const { return state && *state == "completed"; }
};

struct FrPgConfig {
  std::string key;  // the dict key (group name)
  std::optional<std::string> name, desc;
  std::optional<std::vector<int>> ranks;  // parsed from "[0, 1]"
};

struct FrPgStatus {
  std::string pg_id;  // the dict key
  std::optional<long long> last_enqueued, last_started, last_completed;
};

struct FrRankDump {
  std::string file;          // as found (for evidence)
  std::optional<int> rank;   // from the file name
  std::string format;        // "pickle" or "json"
  std::optional<std::string> version, comm_lib_version;
  std::vector<FrPgConfig> pg_config;
  std::vector<FrPgStatus> pg_status;
  bool has_entries = false;  // the dump included collectives
  std::vector<FrEntry> entries;
  std::vector<std::string> warnings;
};

struct FrDump {
  std::string source;               // the path given
  std::vector<FrRankDump> ranks;    // sorted by rank
  std::vector<std::string> warnings;
};

struct FrReadLimits {
  std::size_t max_file_bytes = 256u << 20;
  std::size_t max_files = 100000;
  // A directory or prefix with one unreadable or refused dump: false fails the whole read with
  // that file's bad_input (exit 65); true skips it with a warning and keeps the other ranks.
  bool skip_bad_files = false;
  // Stacks of completed entries are dropped (except the newest entry of each group), which keeps
  // thousands of ranks × 2000 entries × ~30 frames in memory; the checks only quote the stacks of
  // pending entries and of a culprit's newest entry. true keeps every stack.
  bool keep_all_frames = false;
};

// File, directory or prefix → every rank's dump. not_found when nothing matches.
core::Result<FrDump> read_fr_path(const std::string& path, const FrReadLimits& limits = {});
// One dump file's raw content as JSON (pickle or JSON, by content).
core::Result<nlohmann::json> read_fr_raw(const std::string& file, const FrReadLimits& limits = {});
// Raw JSON (pickle-decoded or parsed) → the typed model of one rank; bad_input when it is not a
// dump (not a dict, none of the FR keys, entries not a list). keep_all_frames: false drops the
// stacks of completed entries as FrReadLimits::keep_all_frames describes.
core::Result<FrRankDump> parse_fr_dump(const nlohmann::json& raw, const std::string& file, std::optional<int> rank,
                                       std::string format, bool keep_all_frames = true);
// A decoded pickle (fr/pickle_doc.h: decode_pickle; JSON is streamed, fr/json_stream.h) → model, the
// same rules without a JSON tree in between; `format` is "pickle" or "json". Reading visits at
// most max_output values (PickleLimits) however a pickle shares references.
class PickleDoc;
core::Result<FrRankDump> parse_fr_doc(const PickleDoc& doc, const std::string& file, std::optional<int> rank,
                                      std::string format, bool keep_all_frames = true,
                                      std::size_t max_output = 16'000'000);
// Bytes → model; detects pickle vs JSON by content.
core::Result<FrRankDump> parse_fr_bytes(std::string_view bytes, const std::string& file,
                                        std::optional<int> rank, bool keep_all_frames = true);
// The trailing number of a file name, the FR rank convention; nullopt when there is none.
std::optional<int> rank_from_name(std::string_view file_name);

nlohmann::json to_json(const FrEntry& e);
nlohmann::json to_json(const FrRankDump& d);
nlohmann::json to_json(const FrDump& d);

}  // namespace ncdx::analyze
