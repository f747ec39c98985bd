#include "core/json.h"

#include <algorithm>

namespace ncdx::core {

namespace {

// Deepest nesting parse_json accepts (real dumps, snapshots and traces stay under 20).
constexpr int kMaxJsonDepth = 512;

// "line L, byte B" of an offset in untrusted text (nlohmann counts bytes from 1).
std::string where(std::string_view text, std::size_t byte) {
  byte = std::min(byte, text.size());
  auto line = 1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(byte), '\n');
  return "line " + std::to_string(line) + ", byte " + std::to_string(byte);
}

// Nesting depth before the DOM is built: nlohmann parses without recursion but every consumer
// of the DOM (ours, dump, destruction on old versions) walks it recursively, so the bound is
// explicit. Returns the offset of the first bracket past the limit, or npos.
std::size_t too_deep(std::string_view t, int limit) {
  int depth = 0;
  bool in_str = false;
  for (std::size_t i = 0; i < t.size(); ++i) {
    char c = t[i];
    if (in_str) {
      if (c == '\\') ++i;
      else if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') in_str = true;
    else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if (c == ']' || c == '}') --depth;
  }
  return std::string_view::npos;
}

}  // namespace

std::string dump_json(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void write_json_streaming(std::ostream& out, const nlohmann::json& top, const std::string& key,
                          const std::function<bool(nlohmann::json&)>& next) {
  const std::string text = dump_json(top);
  // A top-level member sits alone on a line indented by two spaces; a string holds no raw newline,
  // so this can only be the member itself.
  const std::string marker = "\n  " + nlohmann::json(key).dump() + ": []";
  const std::size_t at = text.find(marker);
  if (at == std::string::npos) {
    out << text;
    return;
  }
  const std::size_t open = at + marker.size() - 1;  // the ']' of "[]"
  out.write(text.data(), static_cast<std::streamsize>(open));
  nlohmann::json e;
  bool any = false;
  while (next(e)) {
    // An element is indented four spaces deeper than dump_json(e) indents it.
    std::string s = e.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    std::string line = any ? ",\n    " : "\n    ";
    line.reserve(s.size() * 2);
    for (char c : s) {
      if (c == '\n') line += "\n    ";
      else line += c;
    }
    out << line;
    any = true;
  }
  if (any) out << "\n  ";
  out.write(text.data() + open, static_cast<std::streamsize>(text.size() - open));
}

Result<nlohmann::json> parse_json(std::string_view text, std::string_view source_name) {
  if (auto at = too_deep(text, kMaxJsonDepth); at != std::string_view::npos)
    return Status::bad_input(std::string(source_name) + ": " + where(text, at + 1) + ": JSON nested deeper than " +
                             std::to_string(kMaxJsonDepth) + " levels");
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    return Status::bad_input(std::string(source_name) + ": byte " + std::to_string(e.byte) + ": invalid JSON (" + e.what() + ")");
  } catch (const nlohmann::json::exception& e) {
    // out_of_range 406: a number such as 1e999 that no double holds. Bad input, not ours.
    return Status::bad_input(std::string(source_name) + ": invalid JSON (" + e.what() + ")");
  }
}

}  // namespace ncdx::core
