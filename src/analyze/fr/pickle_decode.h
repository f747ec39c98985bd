#pragma once
// Internal: the opcode interpreter behind decode_pickle (fr/pickle_doc.h). Split from the public
// header so the model and JSON code see only the document.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyze/fr/pickle_doc.h"

namespace ncdx::analyze {

class PickleDecoder {
 public:
  // Fills `doc`, reusing its buffers (a reader of many dumps keeps one document).
  PickleDecoder(PickleDoc& doc, std::string_view in, std::string_view source, const PickleLimits& lim)
      : in_(in), source_(source), lim_(lim), doc_(doc) {}
  core::Status run();

 private:
  using Kind = PickleDoc::Kind;
  bool loop();
  bool step_text(unsigned char op);  // protocol 0/1 opcodes with a text-line argument

  bool fail(std::size_t at, const std::string& msg);
  bool truncated(std::size_t need);
  bool underflow();
  const char* op_name() const;
  bool have(std::size_t n) const { return n <= in_.size() - pos_; }
  static std::uint32_t le32(const unsigned char* p) {
    return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
           (std::uint32_t(p[3]) << 24);
  }
  std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }

  // The per-opcode helpers are inline; their failures are out of line.
  bool new_value(Kind k, std::uint32_t& id) {
    if (doc_.values_.size() >= lim_.max_values) [[unlikely]]
      return too_many_values();
    id = static_cast<std::uint32_t>(doc_.values_.size());
    doc_.values_.emplace_back().kind = k;
    return true;
  }
  bool push(std::uint32_t id) {
    if (stack_.size() + marks_.size() >= lim_.max_stack) [[unlikely]]
      return too_deep();
    stack_.push_back(id);
    return true;
  }
  bool memo_get(std::uint64_t idx) {
    if (idx < dense_.size() && dense_[idx] != PickleDoc::npos) [[likely]]
      return push(dense_[idx]);
    return memo_get_slow(idx);
  }
  bool too_many_values();
  bool too_deep();
  bool memo_get_slow(std::uint64_t idx);
  bool push_scalar(Kind k, std::int64_t v);
  bool push_int(__int128 v);
  bool push_real(double d);
  bool push_text(Kind k, std::string_view s);
  bool push_container(Kind k);
  bool read_sized(std::size_t width, bool is_signed, std::string_view& payload);
  bool memo_put(std::uint64_t idx);
  bool pop_mark(std::size_t& m);
  bool container_at(std::size_t idx, Kind want, const char* what, std::uint32_t& id);
  bool check_keys(std::size_t from, std::size_t to);
  bool check_hashable(std::size_t from, std::size_t to);
  bool append_items(std::uint32_t id, std::size_t from);
  bool make_from(Kind k, std::size_t from);

  std::string_view in_;
  std::string_view source_;
  const PickleLimits& lim_;
  std::size_t pos_ = 0, op_at_ = 0;
  PickleDoc& doc_;
  std::vector<std::uint32_t> stack_;
  std::vector<std::size_t> marks_;
  // The memo: dense below max_memo (pickle indices count up from 0), a map for any index above.
  std::vector<std::uint32_t> dense_;
  std::unordered_map<std::uint64_t, std::uint32_t> sparse_;
  std::size_t memo_count_ = 0;
  core::Status err_;
};

}  // namespace ncdx::analyze
