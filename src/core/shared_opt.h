#pragma once
// An optional immutable value shared between the records that hold the same one, with the
// std::optional interface that reading code uses (has_value, *, ->, value_or, == against a value
// or std::nullopt). 16 bytes whatever T is, and nothing on the heap for a value seen before when
// it comes from an Interner: a Flight Recorder dump repeats a handful of group names, states,
// shapes and dtypes across ~160 000 entries a 100 MB file, where one std::string or nested
// vector per field took more memory than the file (issue #12).
#include <set>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace ncdx::core {

template <class T>
class SharedOpt {
 public:
  SharedOpt() = default;
  SharedOpt(std::nullopt_t) {}                                           // NOLINT
  SharedOpt(std::shared_ptr<const T> p) : p_(std::move(p)) {}            // NOLINT
  SharedOpt(T v) : p_(std::make_shared<const T>(std::move(v))) {}       // NOLINT
  SharedOpt(const char* s) requires std::is_constructible_v<T, const char*> : SharedOpt(T(s)) {}  // NOLINT
  SharedOpt(const std::optional<T>& v) : p_(v ? std::make_shared<const T>(*v) : nullptr) {}  // NOLINT

  bool has_value() const { return p_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  const T& operator*() const { return *p_; }
  const T* operator->() const { return p_.get(); }
  const T& value() const {
    if (!p_) throw std::bad_optional_access();
    return *p_;
  }
  template <class U>
  T value_or(U&& fallback) const {
    return p_ ? *p_ : T(std::forward<U>(fallback));
  }
  void reset() { p_.reset(); }
  operator std::optional<T>() const { return p_ ? std::optional<T>(*p_) : std::nullopt; }  // NOLINT: a copy

  friend bool operator==(const SharedOpt& a, const SharedOpt& b) {
    return a.p_ == b.p_ || (a.p_ && b.p_ ? *a.p_ == *b.p_ : false);
  }
  friend bool operator==(const SharedOpt& a, std::nullopt_t) { return !a.p_; }
  template <class U>
  friend bool operator==(const SharedOpt& a, const U& b) requires(!std::is_same_v<U, SharedOpt>) {
    return a.p_ && *a.p_ == b;
  }

 private:
  std::shared_ptr<const T> p_;
};

// One shared copy per distinct value (per dump: the interner lives as long as its reading); the
// set holds the shared copies themselves, so a value is stored once however often it is seen.
template <class T>
class Interner {
 public:
  SharedOpt<T> operator()(std::optional<T> v) {
    if (!v) return std::nullopt;
    auto it = seen_.find(*v);
    if (it == seen_.end()) it = seen_.insert(std::make_shared<const T>(std::move(*v))).first;
    return *it;
  }

 private:
  struct ByValue {
    using is_transparent = void;
    bool operator()(const std::shared_ptr<const T>& a, const std::shared_ptr<const T>& b) const { return *a < *b; }
    bool operator()(const std::shared_ptr<const T>& a, const T& b) const { return *a < b; }
    bool operator()(const T& a, const std::shared_ptr<const T>& b) const { return a < *b; }
  };
  std::set<std::shared_ptr<const T>, ByValue> seen_;
};

}  // namespace ncdx::core
