// PickleDoc → JSON, for `unpickle` (fr/pickle.h). Shared references are copied, so the copy is
// bounded by PickleLimits::max_output; a container that contains itself cannot be JSON.
#include "analyze/fr/pickle.h"

#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "analyze/fr/pickle_ops.h"

namespace ncdx::analyze {
namespace {

using core::Status;
using nlohmann::json;
using Kind = PickleDoc::Kind;

class ToJson {
 public:
  ToJson(const PickleDoc& doc, std::string_view source, const PickleLimits& lim)
      : doc_(doc), source_(source), lim_(lim), on_path_(doc.value_count(), false) {}

  Status convert(std::uint32_t id, json& out, std::size_t depth, std::size_t at) {
    const PickleDoc::Value& v = doc_.at(id);
    if (doc_.is_container(id)) at = doc_.offset(id);
    if (++produced_ > lim_.max_output)
      return fail(at, "more than " + std::to_string(lim_.max_output) + " values after expanding shared references");
    switch (v.kind) {
      case Kind::none: out = nullptr; return Status::ok();
      case Kind::boolean: out = v.i != 0; return Status::ok();
      case Kind::sint: out = v.i; return Status::ok();
      case Kind::uint: out = v.u; return Status::ok();
      case Kind::real: out = v.d; return Status::ok();
      case Kind::str: out = std::string(doc_.text(id)); return Status::ok();
      case Kind::bytes: out = json{{"__bytes__", pickle_ops::base64(doc_.text(id))}}; return Status::ok();
      default: break;
    }
    if (depth >= lim_.max_depth)
      return fail(at, "containers nested deeper than " + std::to_string(lim_.max_depth));
    if (on_path_[id]) return fail(at, "recursive structure: a container contains itself");
    on_path_[id] = true;
    Status st;
    if (v.kind == Kind::dict) {
      out = json::object();
      std::uint32_t key = PickleDoc::npos;
      doc_.for_each(id, [&](std::uint32_t item) {
        if (key == PickleDoc::npos) {
          key = item;
          return true;
        }
        std::string k;
        if (!pickle_key_text(doc_, key, k))
          st = fail(at, "dict key that is not a str, int, float, bool, None or bytes");
        else
          st = convert(item, out[k], depth + 1, at);
        key = PickleDoc::npos;
        return static_cast<bool>(st);
      });
    } else {
      out = json::array();
      // Sets hold each value once, as in Python; told apart by their JSON text, which keeps a
      // hostile million-item set O(n log n).
      std::set<std::string> seen;
      doc_.for_each(id, [&](std::uint32_t item) {
        json x;
        st = convert(item, x, depth + 1, at);
        if (st && (v.kind != Kind::set || seen.insert(x.dump()).second)) out.push_back(std::move(x));
        return static_cast<bool>(st);
      });
    }
    on_path_[id] = false;
    return st;
  }

 private:
  Status fail(std::size_t at, const std::string& msg) const {
    return Status::bad_input(std::string(source_) + ": byte " + std::to_string(at) + ": " + msg);
  }
  const PickleDoc& doc_;
  std::string_view source_;
  const PickleLimits& lim_;
  std::vector<bool> on_path_;
  std::size_t produced_ = 0;
};

}  // namespace

bool pickle_key_text(const PickleDoc& doc, std::uint32_t id, std::string& out) {
  const PickleDoc::Value& v = doc.at(id);
  switch (v.kind) {
    case Kind::str: out.assign(doc.text(id)); return true;
    case Kind::sint: out = std::to_string(v.i); return true;
    case Kind::uint: out = std::to_string(v.u); return true;
    case Kind::boolean: out = v.i ? "true" : "false"; return true;
    case Kind::none: out = "null"; return true;
    case Kind::bytes: out = pickle_ops::base64(doc.text(id)); return true;
    case Kind::real:
      if (std::isnan(v.d)) out = "NaN";
      else if (std::isinf(v.d)) out = v.d > 0 ? "Infinity" : "-Infinity";
      else out = json(v.d).dump();
      return true;
    default:
      return false;
  }
}

core::Result<json> unpickle(std::string_view data, std::string_view source, const PickleLimits& limits) {
  auto doc = decode_pickle(data, source, limits);
  if (!doc) return doc.status();
  json out;
  Status st = ToJson(*doc, source, limits).convert(doc->root(), out, 0, 0);
  if (!st) return st;
  return out;
}

}  // namespace ncdx::analyze
