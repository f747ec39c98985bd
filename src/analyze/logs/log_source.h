#pragma once
// Streaming input for triage: files, directories (recursive), globs and "-" (stdin); plain, .gz and
// .zst. Memory stays bounded whatever the input: lines are cut at max_line bytes, files are never
// slurped whole.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace ncdx::analyze {

struct InputFile {
  std::string path;     // as given or found ("-" for stdin)
  std::string display;  // what evidence shows (relative to the argument)
};

struct ExpandResult {
  std::vector<InputFile> files;          // sorted, de-duplicated
  std::vector<core::Status> problems;    // missing paths, unreadable dirs, limits hit
};
// Expands arguments: a directory is walked recursively (symlink loops and >max_files stop with a
// problem, not a hang); a glob is expanded; "-" is stdin.
ExpandResult expand_inputs(const std::vector<std::string>& args, std::size_t max_files = 100000);

class LineReader {
 public:
  static constexpr std::size_t kDefaultMaxLine = 64 * 1024;
  // Detects gzip/zstd by magic bytes, not by name.
  static core::Result<std::unique_ptr<LineReader>> open(const std::string& path,
                                                       std::size_t max_line = kDefaultMaxLine);
  virtual ~LineReader() = default;
  // Next line without its newline; the view is valid until the next call. False at end or error.
  virtual bool next(std::string_view& line) = 0;
  virtual long long line_number() const = 0;   // 1-based number of the line last returned
  virtual bool last_truncated() const = 0;     // the last line was longer than max_line
  virtual std::uint64_t bytes_in() const = 0;  // compressed bytes consumed so far
  // Decoded bytes read so far, every byte (also the parts of lines cut at max_line): what a
  // summary reports as read.
  virtual std::uint64_t bytes_read() const { return 0; }
  virtual core::Status status() const = 0;     // a decompression/read error seen (bad_input)
};

}  // namespace ncdx::analyze
