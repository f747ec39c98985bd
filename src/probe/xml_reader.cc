#include "probe/xml_reader.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace ncdx::probe {

std::optional<std::string_view> XmlElement::attr(std::string_view key) const {
  for (const auto& [k, v] : attrs)
    if (k == key) return std::string_view(v);
  return std::nullopt;
}

namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}
bool is_name_char(char c) {
  return is_name_start(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == '.';
}

class Parser {
 public:
  Parser(std::string_view text, std::string_view src, const XmlLimits& lim)
      : s_(text), src_(src), lim_(lim) {}

  core::Result<XmlElement> document() {
    if (s_.size() > lim_.max_bytes) return fail("file larger than " + std::to_string(lim_.max_bytes) + " bytes");
    if (s_.substr(0, 3) == "\xEF\xBB\xBF") advance(3);  // UTF-8 BOM
    if (auto st = misc(); !st) return st;
    if (at_end() || peek() != '<') return fail("expected the root element");
    XmlElement root;
    if (auto st = element(root, 1); !st) return st;
    if (auto st = misc(); !st) return st;
    if (!at_end()) return fail("content after the root element </" + root.name + ">");
    return root;
  }

 private:
  std::string_view s_, src_;
  const XmlLimits& lim_;
  std::size_t pos_ = 0;
  int line_ = 1;
  std::size_t elements_ = 0;

  bool at_end() const { return pos_ >= s_.size(); }
  char peek(std::size_t k = 0) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  bool starts(std::string_view p) const { return s_.substr(pos_, p.size()) == p; }
  void advance(std::size_t n = 1) {
    for (std::size_t i = 0; i < n && pos_ < s_.size(); ++i)
      if (s_[pos_++] == '\n') ++line_;
  }
  core::Status fail(const std::string& what, int line = 0) const {
    return core::Status::bad_input(std::string(src_) + ":" + std::to_string(line ? line : line_) +
                                   ": XML: " + what);
  }
  void skip_ws() {
    while (!at_end() && std::isspace(static_cast<unsigned char>(peek()))) advance();
  }
  core::Status skip_until(std::string_view end, const char* what) {
    int start = line_;
    auto found = s_.find(end, pos_);
    if (found == std::string_view::npos) return fail(std::string("unterminated ") + what, start);
    advance(found + end.size() - pos_);
    return {};
  }
  // Whitespace, comments and processing instructions between elements.
  core::Status misc() {
    for (;;) {
      skip_ws();
      if (starts("<!--")) {
        if (auto st = skip_until("-->", "comment"); !st) return st;
      } else if (starts("<?")) {
        if (auto st = skip_until("?>", "processing instruction"); !st) return st;
      } else if (starts("<!")) {
        return fail("DOCTYPE/CDATA is not supported in NCCL topology files");
      } else {
        return {};
      }
    }
  }
  core::Result<std::string> name() {
    if (!is_name_start(peek())) return fail(std::string("expected a name, found '") + printable(peek()) + "'");
    std::size_t b = pos_;
    while (!at_end() && is_name_char(peek())) advance();
    if (pos_ - b > 256) return fail("name longer than 256 characters");
    return std::string(s_.substr(b, pos_ - b));
  }
  static std::string printable(char c) {
    if (c == '\0') return "end of file";
    if (std::isprint(static_cast<unsigned char>(c))) return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
    return buf;
  }
  core::Result<std::string> decode(std::string_view raw, int line) {
    std::string out;
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] != '&') {
        out += raw[i];
        continue;
      }
      auto semi = raw.find(';', i);
      if (semi == std::string_view::npos || semi - i > 8) return fail("bad entity reference", line);
      auto ent = raw.substr(i + 1, semi - i - 1);
      if (ent == "amp") out += '&';
      else if (ent == "lt") out += '<';
      else if (ent == "gt") out += '>';
      else if (ent == "quot") out += '"';
      else if (ent == "apos") out += '\'';
      else if (ent.size() > 1 && ent[0] == '#') {
        // Numeric references: keep ASCII only; NCCL files never need more.
        long v = ent[1] == 'x' ? std::strtol(std::string(ent.substr(2)).c_str(), nullptr, 16)
                               : std::strtol(std::string(ent.substr(1)).c_str(), nullptr, 10);
        if (v <= 0 || v > 127) return fail("character reference outside ASCII", line);
        out += static_cast<char>(v);
      } else {
        return fail("unknown entity '&" + std::string(ent) + ";'", line);
      }
      i = semi;
    }
    return out;
  }
  core::Status element(XmlElement& el, int depth) {
    if (depth > lim_.max_depth) return fail("nesting deeper than " + std::to_string(lim_.max_depth));
    if (++elements_ > lim_.max_elements) return fail("more than " + std::to_string(lim_.max_elements) + " elements");
    el.line = line_;
    advance();  // '<'
    auto n = name();
    if (!n) return n.status();
    el.name = std::move(*n);
    for (;;) {
      skip_ws();
      if (starts("/>")) {
        advance(2);
        return {};
      }
      if (peek() == '>') {
        advance();
        break;
      }
      auto key = name();
      if (!key) return key.status();
      skip_ws();
      if (peek() != '=') return fail("expected '=' after attribute '" + *key + "'");
      advance();
      skip_ws();
      char q = peek();
      if (q != '"' && q != '\'') return fail("expected a quoted value for attribute '" + *key + "'");
      advance();
      int vline = line_;
      auto end = s_.find(q, pos_);
      if (end == std::string_view::npos) return fail("unterminated value of attribute '" + *key + "'", vline);
      auto raw = s_.substr(pos_, end - pos_);
      if (raw.size() > 4096) return fail("attribute '" + *key + "' longer than 4096 bytes", vline);
      if (raw.find('<') != std::string_view::npos) return fail("'<' inside attribute '" + *key + "'", vline);
      advance(end - pos_ + 1);
      auto val = decode(raw, vline);
      if (!val) return val.status();
      for (const auto& a : el.attrs)
        if (a.first == *key) return fail("attribute '" + *key + "' repeated", vline);
      el.attrs.emplace_back(std::move(*key), std::move(*val));
    }
    // Content: children, comments and text (text is ignored: NCCL files carry none).
    for (;;) {
      while (!at_end() && peek() != '<') advance();
      if (at_end()) return fail("element <" + el.name + "> opened on line " + std::to_string(el.line) + " is never closed");
      if (starts("<!--")) {
        if (auto st = skip_until("-->", "comment"); !st) return st;
      } else if (starts("<?")) {
        if (auto st = skip_until("?>", "processing instruction"); !st) return st;
      } else if (starts("</")) {
        advance(2);
        auto close = name();
        if (!close) return close.status();
        if (*close != el.name)
          return fail("</" + *close + "> closes <" + el.name + "> opened on line " + std::to_string(el.line));
        skip_ws();
        if (peek() != '>') return fail("expected '>' after </" + *close);
        advance();
        return {};
      } else if (starts("<!")) {
        return fail("DOCTYPE/CDATA is not supported in NCCL topology files");
      } else {
        el.children.emplace_back();
        if (auto st = element(el.children.back(), depth + 1); !st) return st;
      }
    }
  }
};

}  // namespace

core::Result<XmlElement> parse_xml(std::string_view text, std::string_view source_name,
                                   const XmlLimits& limits) {
  return Parser(text, source_name, limits).document();
}

}  // namespace ncdx::probe
