#pragma once
// Distinct strings kept once each, named by a 4-byte id, for tables whose rows repeat a few texts
// many times (env lint rows and origins: ~300 000 rows at the execve limit, issue #12). A string's
// address never changes while the pool lives.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ncdx::core {

class StringPool {
 public:
  StringPool() = default;
  // A copy indexes its own strings (the index holds views into the deque). Moving keeps them:
  // a moved deque keeps its elements where they are.
  StringPool(const StringPool& o) {
    for (const auto& t : o.texts_) intern(t);
  }
  StringPool& operator=(const StringPool& o) {
    if (this != &o) *this = StringPool(o);
    return *this;
  }
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  std::uint32_t intern(std::string_view s) {
    if (auto it = index_.find(s); it != index_.end()) return it->second;
    texts_.emplace_back(s);
    auto id = static_cast<std::uint32_t>(texts_.size() - 1);
    index_.emplace(texts_.back(), id);
    return id;
  }
  const std::string& at(std::uint32_t id) const { return texts_[id]; }

 private:
  std::deque<std::string> texts_;  // a deque: growing it never moves a string
  std::unordered_map<std::string_view, std::uint32_t> index_;
};

}  // namespace ncdx::core
