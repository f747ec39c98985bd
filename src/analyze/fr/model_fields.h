#pragma once
// Internal: reading one typed field out of a view (fr/model_view.h) the way FlightRecorder.hpp types it,
// with a warning (capped per dump) when a field has the wrong type, and the key → field lookup the
// builder uses to read a dict in one pass. Used by fr/model_build.h.
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/fr/reader.h"
#include "core/strings.h"

namespace ncdx::analyze::frmodel {

// Where a field sits, for warnings: "entries[3].frames." + key. Built only when a warning is due.
struct Ctx {
  std::string_view head;
  std::size_t index = SIZE_MAX;
  std::string_view tail;
  std::string str(std::string_view key) const {
    std::string s(head);
    if (index != SIZE_MAX) {
      s += '[';
      s += std::to_string(index);
      s += ']';
    }
    s += tail;
    s += key;
    return s;
  }
};

// The fields of one kind of dict, by name; lookup is by key text, cached by key identity.
template <std::size_t N>
class FieldTable {
 public:
  explicit FieldTable(std::array<std::string_view, N> names) : names_(names) {}
  static constexpr int kUnknown = -1;
  int find(std::string_view key, std::uint32_t id) {
    Slot& s = cache_[id % kSlots];
    if (id != UINT32_MAX && s.id == id) return s.field;
    int f = kUnknown;
    for (std::size_t i = 0; i < N; ++i)
      if (names_[i] == key) f = static_cast<int>(i);
    if (id != UINT32_MAX) s = {id, f};
    return f;
  }

 private:
  static constexpr std::uint32_t kSlots = 256;
  struct Slot {
    std::uint32_t id = UINT32_MAX;
    int field = kUnknown;
  };
  std::array<std::string_view, N> names_;
  std::array<Slot, kSlots> cache_{};
};

class Fields {
 public:
  static constexpr std::size_t kMaxWarnings = 20;
  explicit Fields(FrRankDump& d) : d_(d) {}
  void warn(const std::string& w) {
    if (quiet_) return;
    if (defer_) {  // as many as the cap can show, and one more to know it was passed
      if (deferred_.size() <= kMaxWarnings) deferred_.push_back(w);
      return;
    }
    if (++count_ <= kMaxWarnings) d_.warnings.push_back(d_.file + ": " + w);
    else if (count_ == kMaxWarnings + 1) d_.warnings.push_back(d_.file + ": more field warnings omitted");
  }
  // Second reads of a value already checked (stack frames kept after the first pass) stay silent.
  void set_quiet(bool q) { quiet_ = q; }
  // A streamed dump's entries are read before the keys that come first in the order warnings
  // are given in (fr/model_build.h); their warnings wait until replay_deferred().
  void set_deferred(bool d) { defer_ = d; }
  void drop_deferred() { deferred_.clear(); }
  void replay_deferred() {
    defer_ = false;
    std::vector<std::string> w = std::move(deferred_);
    deferred_.clear();
    for (const auto& x : w) warn(x);
  }
  // A pickle can reference one big container from every entry; every item read is paid from a
  // budget (PickleLimits::max_output), so shared references cannot make the model unbounded.
  void set_budget(std::size_t b) { budget_ = b; }
  bool spend(std::size_t n) {
    if (n > budget_) {
      budget_ = 0;
      exhausted_ = true;
      return false;
    }
    budget_ -= n;
    return true;
  }
  bool exhausted() const { return exhausted_; }

  template <class V>
  std::optional<long long> integer(const V& v, const Ctx& c, std::string_view key) {
    if (v.null()) return std::nullopt;
    if (v.is_int()) {
      if (v.is_big_uint()) {
        warn(c.str(key) + " is out of range");
        return std::nullopt;
      }
      return v.as_int();
    }
    if (v.is_float()) {
      double x = v.as_double();
      if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9e18) return static_cast<long long>(x);
    }
    if (v.is_string())  // the JSON variant writes pg_status numbers as strings
      if (auto x = core::parse_int(v.str())) return x;
    warn(c.str(key) + " is not an integer");
    return std::nullopt;
  }
  // Longest string kept from a dump (names, descriptions, states are a few dozen bytes; a
  // 200 MB profiling_name is an attack on every output, so it is cut here, once, with a warning).
  static constexpr std::size_t kMaxText = 64 * 1024;
  std::string keep_text(std::string_view s, const Ctx& c, std::string_view key) {
    if (s.size() <= kMaxText) return std::string(s);
    warn(c.str(key) + " is " + std::to_string(s.size()) + " bytes long; kept the first " + std::to_string(kMaxText));
    return std::string(s.substr(0, kMaxText)) + "…(" + std::to_string(s.size()) + " bytes)";
  }
  template <class V>
  std::optional<std::string> text(const V& v, const Ctx& c, std::string_view key) {
    if (v.null()) return std::nullopt;
    if (v.is_string()) return keep_text(v.str(), c, key);
    if (v.is_int()) return v.int_text();  // thread_id has been seen as a number too
    warn(c.str(key) + " is not a string");
    return std::nullopt;
  }
  template <class V>
  std::optional<bool> boolean(const V& v, const Ctx& c, std::string_view key) {
    if (v.null()) return std::nullopt;
    if (v.is_bool()) return v.as_bool();
    warn(c.str(key) + " is not a bool");
    return std::nullopt;
  }
  template <class V>
  std::optional<double> real(const V& v, const Ctx& c, std::string_view key) {
    if (v.null()) return std::nullopt;
    if (v.is_number()) return v.as_double();
    warn(c.str(key) + " is not a number");
    return std::nullopt;
  }
  template <class V>
  std::optional<std::vector<std::vector<long long>>> shapes(const V& v, const Ctx& c, std::string_view key) {
    if (v.null()) return std::nullopt;
    std::vector<std::vector<long long>> out;
    bool ok = v.is_array() && spend(v.size());
    if (ok) {
      out.reserve(v.size());
      ok = v.items([&](const V& s) {
        if (!s.is_array() || !spend(s.size())) return false;
        auto& dims = out.emplace_back();
        dims.reserve(s.size());
        return s.items([&](const V& x) {
          if (!x.is_int()) return false;
          dims.push_back(x.as_int());
          return true;
        });
      });
    }
    if (!ok) {
      warn(c.str(key) + " is not a list of shapes");
      return std::nullopt;
    }
    return out;
  }
  template <class V>
  std::optional<std::vector<std::string>> strings(const V& v, const Ctx& c, std::string_view key) {
    if (v.null()) return std::nullopt;
    std::vector<std::string> out;
    bool ok = v.is_array() && spend(v.size());
    if (ok) {
      out.reserve(v.size());
      ok = v.items([&](const V& x) {
        if (!x.is_string()) return false;
        out.emplace_back(x.str());
        return true;
      });
    }
    if (!ok) {
      warn(c.str(key) + " is not a list of strings");
      return std::nullopt;
    }
    return out;
  }

 private:
  FrRankDump& d_;
  std::size_t count_ = 0;
  bool quiet_ = false;
  bool defer_ = false;
  std::vector<std::string> deferred_;
  std::size_t budget_ = SIZE_MAX;
  bool exhausted_ = false;
};

}  // namespace ncdx::analyze::frmodel
