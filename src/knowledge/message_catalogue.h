#pragma once
// NCCL's, PyTorch's, vLLM's and the CUDA runtime's own message texts (data/messages.tsv, see
// data/SOURCES.md), each compiled into a matcher: the format's literal pieces in order, its holes
// (printf `%d %s %lu %.2f %-8s`, fmt `{}`, `{expr}`) matching a bounded run of text. A log line
// that carries one of these texts is a known message of a known source file and version range,
// whatever signature knows of it: the row's class is the catalogue's proposal, corrected with a
// reason in data/messages_corrections.tsv.
#include <bitset>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ncdx::knowledge {

struct CatalogueRow {
  std::string project;  // nccl, pytorch, vllm, cuda
  std::string kind;     // WARN, INFO, raise ValueError, TORCH_CHECK, logger.warning, ...
  std::string klass;    // a failure class, or "info-only"
  std::string first_version, last_version;
  std::string file;
  std::string line;     // empty for binary-string rows
  std::string format;
  std::string correction;  // the reason, when messages_corrections.tsv changed the class
  // Literal pieces in order (holes between them); `open_*`: a hole before the first / after the last.
  std::vector<std::string> pieces;
  std::size_t literal = 0;  // total literal characters: how specific the text is
  std::size_t anchor = 0;   // index of the longest piece
};

struct CatalogueMatch {
  const CatalogueRow* row = nullptr;
};

class MessageCatalogue {
 public:
  // Rows parsed from `tsv` (the messages.tsv columns); `corrections`: project, format, class, reason.
  static MessageCatalogue parse(std::string_view tsv, std::string_view corrections);
  // The most specific row whose text is on `line` (most literal characters; ties: the newest
  // version), or none — except that a row with a class found outside a generic `other` wrapper's
  // own words is the message that wrapper wraps, and wins. Lines are single log lines: a format's
  // `\n` ends the part that is matched.
  std::optional<CatalogueMatch> match(std::string_view line) const;
  const std::vector<CatalogueRow>& rows() const { return rows_; }
  std::size_t indexed() const { return indexed_; }

  // Where the text comes from, for evidence: "NVIDIA/nccl src/transport/net_ib.cc:612, NCCL 2.19–2.30".
  static std::string citation(const CatalogueRow& r);
  // Whether the row is a warning or info print of its project (logger.warning, TORCH_WARN,
  // warnings.warn, NCCL INFO ...): the library carries on after it.
  static bool carries_on(const CatalogueRow& r);

 private:
  bool matches(const CatalogueRow& r, std::string_view line, std::size_t anchor_at) const;
  std::vector<CatalogueRow> rows_;
  std::size_t indexed_ = 0;
  // Anchors are indexed by their first 8 bytes; a line is read once with a rolling 8-byte window.
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_gram_;
  // A bitmap over the anchors' first 8 bytes: most windows of a line start no anchor and cost one
  // multiply and test instead of a hash lookup.
  std::bitset<1u << 16> gate_;
};

// The embedded catalogue (data/messages.tsv with data/messages_corrections.tsv), loaded once.
const MessageCatalogue& message_catalogue();

}  // namespace ncdx::knowledge
