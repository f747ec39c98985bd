// Finding and reading Flight Recorder dump files: one file, a directory, or a `<prefix>` whose
// files are `<prefix><rank>` (FlightRecorder.hpp DebugInfoWriter).
#include "analyze/fr/reader.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <system_error>

#include "analyze/fr/json_stream.h"
#include "analyze/fr/pickle.h"
#include "analyze/fr/pickle_ops.h"
#include "core/json.h"

namespace ncdx::analyze {
namespace {

namespace fs = std::filesystem;
using core::Status;

std::string hex_byte(unsigned char c) {
  static const char* d = "0123456789abcdef";
  return std::string("0x") + d[c >> 4] + d[c & 15];
}

std::string_view skip_space(std::string_view s) {
  if (s.substr(0, 3) == "\xEF\xBB\xBF") s.remove_prefix(3);
  while (!s.empty() && (s[0] == ' ' || s[0] == '\n' || s[0] == '\r' || s[0] == '\t')) s.remove_prefix(1);
  return s;
}

bool looks_like_json_dump(std::string_view s) { return !skip_space(s).empty() && skip_space(s)[0] == '{'; }

// A regular file within the size limit (a FIFO — TORCH_NCCL_DEBUG_INFO_PIPE_FILE makes
// <stem><rank>.pipe — would block a read forever); its size, when known.
core::Result<std::optional<std::size_t>> check_file(const std::string& path, std::size_t max_bytes) {
  std::error_code ec;
  auto st = fs::status(path, ec);
  if (ec || !fs::exists(st)) return Status::not_found(path + ": no such file");
  if (!fs::is_regular_file(st)) return Status::bad_input(path + ": not a regular file");
  auto size = fs::file_size(path, ec);
  if (ec) return std::optional<std::size_t>();
  if (size > max_bytes)
    return Status::bad_input(path + ": " + std::to_string(size) + " bytes exceeds the dump size limit of " +
                             std::to_string(max_bytes));
  return std::optional<std::size_t>(static_cast<std::size_t>(size));
}

// Into `data`, whose capacity is reused from file to file.
Status read_file_into(const std::string& path, std::size_t max_bytes, std::size_t prefix, std::string& data) {
  auto size = check_file(path, max_bytes);
  if (!size) return size.status();
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::not_found(path + ": cannot open");
  std::size_t want = prefix ? prefix : max_bytes + 1;
  data.resize(std::min<std::size_t>(want, size->value_or(want)));
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  data.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) return Status::bad_input(path + ": read error");
  if (!prefix && data.size() > max_bytes) return Status::bad_input(path + ": exceeds the dump size limit");
  return Status::ok();
}

core::Result<std::string> read_file(const std::string& path, std::size_t max_bytes, std::size_t prefix = 0) {
  std::string data;
  if (Status st = read_file_into(path, max_bytes, prefix, data); !st) return st;
  return data;
}

bool sniff_dump(const std::string& path) {
  auto head = read_file(path, 1u << 30, 64);
  return head && (looks_like_pickle(*head) || looks_like_json_dump(*head));
}

enum class Form { json, pickle };

// Pickle or JSON by content; any opcode goes to the unpickler, so a code-carrying pickle is
// refused by name and offset.
core::Result<Form> sniff(std::string_view bytes, const std::string& file) {
  if (looks_like_json_dump(bytes)) return Form::json;  // its depth is checked as it is parsed
  if (looks_like_pickle(bytes) || (!bytes.empty() && pickle_ops::op_info(static_cast<unsigned char>(bytes[0])).name))
    return Form::pickle;
  if (bytes.empty()) return Status::bad_input(file + ": empty file, expected a Flight Recorder dump");
  return Status::bad_input(file + ": byte 0: expected a Flight Recorder dump (a pickle starting with "
                                  "0x80 or a JSON object), found " + hex_byte(static_cast<unsigned char>(bytes[0])));
}

struct Candidate {
  std::string path, name;
  std::optional<int> rank;
};

std::string stem_of(const std::string& name) {
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  return name.substr(0, end);
}

// Which of a directory's dump files form one job: the env prefix if set and present, else all of
// them unless two claim the same rank, then the largest same-prefix group.
std::vector<Candidate> choose(std::vector<Candidate> all, std::vector<std::string>& warnings) {
  for (const char* var : {"TORCH_FR_DUMP_TEMP_FILE", "TORCH_NCCL_DEBUG_INFO_TEMP_FILE"}) {
    const char* v = std::getenv(var);
    if (!v || !*v) continue;
    std::string base = fs::path(v).filename().string();
    std::vector<Candidate> sel;
    for (const auto& c : all)
      if (!base.empty() && c.name.rfind(base, 0) == 0) sel.push_back(c);
    if (!sel.empty()) return sel;
  }
  std::map<int, int> seen;
  bool dup = false;
  for (const auto& c : all)
    if (c.rank && ++seen[*c.rank] > 1) dup = true;
  if (!dup) return all;
  std::map<std::string, std::vector<Candidate>> groups;
  for (const auto& c : all) groups[stem_of(c.name)].push_back(c);
  auto best = std::max_element(groups.begin(), groups.end(),
                               [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  for (const auto& [stem, g] : groups)
    if (stem != best->first)
      warnings.push_back("ignored " + std::to_string(g.size()) + " dump file(s) named " + stem +
                         "<rank>: they repeat ranks of the " + best->first + "<rank> files");
  return best->second;
}

}  // namespace

std::optional<int> rank_from_name(std::string_view name) {
  std::size_t end = name.size(), begin = end;
  while (begin > 0 && name[begin - 1] >= '0' && name[begin - 1] <= '9') --begin;
  if (begin == end || end - begin > 9) return std::nullopt;
  return std::stoi(std::string(name.substr(begin)));
}

namespace {

// `scratch` holds the decoded pickle; reusing it across files saves re-faulting its pages.
core::Result<FrRankDump> parse_bytes(std::string_view bytes, const std::string& file, std::optional<int> rank,
                                     bool keep_all_frames, PickleDoc& scratch) {
  auto form = sniff(bytes, file);
  if (!form) return form.status();
  // Either form straight into the model: no JSON tree in between.
  if (*form == Form::json) return read_json_dump(bytes, file, rank, keep_all_frames, scratch);
  PickleLimits limits;
  if (Status st = decode_pickle_into(scratch, bytes, file, limits); !st) return st;
  return parse_fr_doc(scratch, file, rank, "pickle", keep_all_frames, limits.max_output);
}

}  // namespace

core::Result<FrRankDump> parse_fr_bytes(std::string_view bytes, const std::string& file, std::optional<int> rank,
                                        bool keep_all_frames) {
  PickleDoc doc;
  return parse_bytes(bytes, file, rank, keep_all_frames, doc);
}

core::Result<nlohmann::json> read_fr_raw(const std::string& file, const FrReadLimits& limits) {
  auto bytes = read_file(file, limits.max_file_bytes);
  if (!bytes) return bytes.status();
  auto form = sniff(*bytes, file);
  if (!form) return form.status();
  return *form == Form::json ? core::parse_json(*bytes, file) : unpickle(*bytes, file);
}

core::Result<FrDump> read_fr_path(const std::string& path, const FrReadLimits& limits) {
  FrDump out;
  out.source = path;
  std::error_code ec;
  std::vector<Candidate> files;
  if (fs::is_regular_file(path, ec)) {
    files.push_back({path, fs::path(path).filename().string(), rank_from_name(fs::path(path).filename().string())});
  } else {
    bool is_dir = fs::is_directory(path, ec);
    fs::path dir = is_dir ? fs::path(path) : fs::path(path).parent_path();
    std::string prefix = is_dir ? "" : fs::path(path).filename().string();
    if (dir.empty()) dir = ".";
    if (!fs::is_directory(dir, ec))
      return Status::not_found(path + ": no such file, directory or dump prefix");
    std::vector<Candidate> all;
    std::size_t n = 0, not_dumps = 0;
    std::string first_not_dump;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      if (++n > limits.max_files) {
        out.warnings.push_back(dir.string() + ": more than " + std::to_string(limits.max_files) +
                               " entries; the rest were not examined");
        break;
      }
      std::string name = it->path().filename().string();
      if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
      auto rank = rank_from_name(name);
      if (!rank || !it->is_regular_file(ec)) continue;
      std::string p = is_dir ? (fs::path(path) / name).string() : (dir / name).string();
      if (!sniff_dump(p)) {
        ++not_dumps;
        if (first_not_dump.empty()) first_not_dump = p;
        continue;
      }
      all.push_back({p, name, rank});
    }
    if (ec) return Status::not_found(dir.string() + ": cannot list (" + ec.message() + ")");
    // Files named like dumps whose content is not a dump are bad input (65), not absent input.
    if (all.empty() && not_dumps > 0)
      return Status::bad_input(first_not_dump + ": byte 0: not a Flight Recorder dump (pickle or JSON); " +
                               std::to_string(not_dumps) + " file(s) named like dumps, none readable as one");
    if (all.empty())
      return Status::not_found(path + ": no Flight Recorder dumps (files named <prefix><rank>, e.g. "
                                      "nccl_trace_rank_0, holding a pickle or JSON dump)");
    files = choose(std::move(all), out.warnings);
  }
  std::string bytes;
  PickleDoc doc;
  for (const auto& c : files) {
    // The JSON form is parsed from the file as it is read (fr/json_stream.h); a pickle is read whole.
    Status read = read_file_into(c.path, limits.max_file_bytes, 64, bytes);
    const bool json = read && looks_like_json_dump(bytes);
    if (read && !json) read = read_file_into(c.path, limits.max_file_bytes, 0, bytes);
    core::Result<FrRankDump> d =
        !read  ? core::Result<FrRankDump>(read)
        : json ? read_json_dump_file(c.path, limits.max_file_bytes, c.rank, limits.keep_all_frames, doc)
               : parse_bytes(bytes, c.path, c.rank, limits.keep_all_frames, doc);
    if (!d) {
      if (!limits.skip_bad_files || files.size() == 1) return d.status();
      out.warnings.push_back("skipped " + d.status().message());
      continue;
    }
    out.ranks.push_back(std::move(*d));
  }
  if (out.ranks.empty()) return Status::bad_input(path + ": no readable Flight Recorder dump");
  std::stable_sort(out.ranks.begin(), out.ranks.end(), [](const FrRankDump& a, const FrRankDump& b) {
    if (a.rank.has_value() != b.rank.has_value()) return a.rank.has_value();
    return a.rank != b.rank ? *a.rank < *b.rank : a.file < b.file;
  });
  for (std::size_t i = 1; i < out.ranks.size(); ++i)
    if (out.ranks[i].rank && out.ranks[i].rank == out.ranks[i - 1].rank)
      out.warnings.push_back("two dumps claim rank " + std::to_string(*out.ranks[i].rank) + ": " +
                             out.ranks[i - 1].file + " and " + out.ranks[i].file);
  return out;
}

}  // namespace ncdx::analyze
