#pragma once
// Internal: two read-only views of a decoded dump that fr/model_build.h builds the typed model
// from with one set of rules — JsonView over nlohmann::json (the dump_json form, and pickles
// already converted to JSON) and PickleView over a PickleDoc (the fast path: no JSON in between).
//
// A view is a value (a pointer or a document and an index); a default one means "absent".
// Objects yield (key text, key identity, value): the identity is the memoised key string's value
// index in a pickle, so the builder can map a key to its field once per dump instead of once per
// entry; JSON keys have none (npos). Sets are read as the list of their items.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "analyze/fr/pickle.h"
#include "analyze/fr/pickle_doc.h"

namespace ncdx::analyze::frview {

constexpr std::uint32_t kNoId = PickleDoc::npos;

class JsonView {
 public:
  JsonView() = default;
  explicit JsonView(const nlohmann::json* j) : j_(j) {}
  bool null() const { return !j_ || j_->is_null(); }
  bool is_object() const { return j_ && j_->is_object(); }
  bool is_array() const { return j_ && j_->is_array(); }
  bool is_string() const { return j_ && j_->is_string(); }
  bool is_int() const { return j_ && j_->is_number_integer(); }
  bool is_big_uint() const { return is_int() && j_->is_number_unsigned() && j_->get<unsigned long long>() > INT64_MAX; }
  bool is_float() const { return j_ && j_->is_number_float(); }
  bool is_number() const { return j_ && j_->is_number(); }
  bool is_bool() const { return j_ && j_->is_boolean(); }
  long long as_int() const { return j_->get<long long>(); }
  double as_double() const { return j_->get<double>(); }
  bool as_bool() const { return j_->get<bool>(); }
  std::string_view str() const { return j_->get_ref<const std::string&>(); }
  std::string int_text() const { return j_->dump(); }
  const char* type_name() const { return j_ ? j_->type_name() : "null"; }
  std::uint32_t id() const { return kNoId; }
  std::size_t size() const { return j_->size(); }
  template <class F>
  bool items(F&& f) const {
    for (const auto& x : *j_)
      if (!f(JsonView(&x))) return false;
    return true;
  }
  template <class F>
  bool pairs(F&& f) const {
    for (auto it = j_->begin(); it != j_->end(); ++it)
      if (!f(std::string_view(it.key()), kNoId, JsonView(&it.value()))) return false;
    return true;
  }

 private:
  const nlohmann::json* j_ = nullptr;
};

class PickleView {
 public:
  using Kind = PickleDoc::Kind;
  PickleView() = default;
  PickleView(const PickleDoc* d, std::uint32_t id) : d_(d), id_(id) {}
  bool null() const { return !d_ || kind() == Kind::none; }
  bool is_object() const { return d_ && kind() == Kind::dict; }
  bool is_array() const { return d_ && (kind() == Kind::list || kind() == Kind::tuple || kind() == Kind::set); }
  bool is_string() const { return d_ && kind() == Kind::str; }
  bool is_int() const { return d_ && (kind() == Kind::sint || kind() == Kind::uint); }
  bool is_big_uint() const { return d_ && kind() == Kind::uint; }  // uint holds only values above INT64_MAX
  bool is_float() const { return d_ && kind() == Kind::real; }
  bool is_number() const { return is_int() || is_float(); }
  bool is_bool() const { return d_ && kind() == Kind::boolean; }
  long long as_int() const {
    return kind() == Kind::uint ? static_cast<long long>(d_->at(id_).u) : d_->at(id_).i;
  }
  double as_double() const {
    const auto& v = d_->at(id_);
    return kind() == Kind::real ? v.d : kind() == Kind::uint ? static_cast<double>(v.u) : static_cast<double>(v.i);
  }
  bool as_bool() const { return d_->at(id_).i != 0; }
  std::string_view str() const { return d_->text(id_); }
  std::string int_text() const {
    return kind() == Kind::uint ? std::to_string(d_->at(id_).u) : std::to_string(d_->at(id_).i);
  }
  const char* type_name() const {
    if (!d_) return "null";
    switch (kind()) {
      case Kind::none: return "null";
      case Kind::boolean: return "boolean";
      case Kind::sint: case Kind::uint: case Kind::real: return "number";
      case Kind::str: return "string";
      case Kind::bytes: return "bytes";
      case Kind::dict: return "object";
      default: return "array";
    }
  }
  // kNoId while the document is read in pieces (its indices are reused, PickleDoc::ids_stable).
  std::uint32_t id() const { return d_->ids_stable() ? id_ : kNoId; }
  std::size_t size() const { return d_->is_container(id_) ? d_->size(id_) : 0; }
  template <class F>
  bool items(F&& f) const {
    return d_->for_each(id_, [&](std::uint32_t item) { return f(PickleView(d_, item)); });
  }
  // Keys that are not str (ints, floats, bools, None, bytes) are given as JSON writes them.
  template <class F>
  bool pairs(F&& f) const {
    std::uint32_t key = PickleDoc::npos;
    std::string scratch;
    return d_->for_each(id_, [&](std::uint32_t item) {
      if (key == PickleDoc::npos) {
        key = item;
        return true;
      }
      std::uint32_t k = key;
      key = PickleDoc::npos;
      if (d_->kind(k) == Kind::str) return f(d_->text(k), d_->ids_stable() ? k : kNoId, PickleView(d_, item));
      pickle_key_text(*d_, k, scratch);
      return f(std::string_view(scratch), kNoId, PickleView(d_, item));
    });
  }

 private:
  Kind kind() const { return d_->kind(id_); }
  const PickleDoc* d_ = nullptr;
  std::uint32_t id_ = kNoId;
};

}  // namespace ncdx::analyze::frview
