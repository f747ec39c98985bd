#pragma once
// Status / Result<T>: errors travel up with context instead of exit() deep inside (style.md).
#include <string>
#include <utility>
#include <variant>

#include "core/exit_codes.h"

namespace ncdx::core {

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Exit code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return {}; }
  static Status usage(std::string m) { return {Exit::usage, std::move(m)}; }
  static Status bad_input(std::string m) { return {Exit::bad_input, std::move(m)}; }
  static Status not_found(std::string m) { return {Exit::not_found, std::move(m)}; }
  static Status internal(std::string m) { return {Exit::internal, std::move(m)}; }

  bool is_ok() const { return code_ == Exit::ok; }
  explicit operator bool() const { return is_ok(); }
  Exit code() const { return code_; }
  const std::string& message() const { return message_; }
  // Prefixes context ("reading rank3.log: ...") without losing the code.
  Status with_context(const std::string& ctx) const {
    return is_ok() ? *this : Status(code_, ctx + ": " + message_);
  }

 private:
  Exit code_ = Exit::ok;
  std::string message_;
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}            // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}     // NOLINT
  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  Status status() const { return ok() ? Status::ok() : std::get<Status>(v_); }

 private:
  std::variant<T, Status> v_;
};

inline const Status& status_of(const Status& s) { return s; }
template <class T>
Status status_of(const Result<T>& r) { return r.status(); }

}  // namespace ncdx::core

// NCDX_TRY(expr, context): evaluates `expr` (a Status or a Result<T>); on error, returns its status
// from the enclosing function with `context` prefixed, so every level leaves a breadcrumb
// ("reading run.sh:12: ..."), as NCCLCHECK does in NCCL (src/include/checks.h:107 at v2.21.5-1).
// NCDX_TRY_ASSIGN(lhs, expr, context): the same for a Result<T>; on success moves its value into lhs.
#define NCDX_TRY(expr, context)                                                              \
  do {                                                                                       \
    auto&& ncdx_try_result_ = (expr);                                                        \
    if (!ncdx_try_result_) return ::ncdx::core::status_of(ncdx_try_result_).with_context(context); \
  } while (0)
#define NCDX_TRY_ASSIGN(lhs, expr, context)                                                     \
  do {                                                                                          \
    auto ncdx_try_result_ = (expr);                                                             \
    if (!ncdx_try_result_) return ncdx_try_result_.status().with_context(context);              \
    lhs = std::move(*ncdx_try_result_);                                                         \
  } while (0)
