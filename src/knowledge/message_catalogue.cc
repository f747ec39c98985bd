#include "knowledge/message_catalogue.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <utility>

#include "knowledge/embedded.h"

namespace ncdx::knowledge {
namespace {

// A hole matches at most this much text: a path, a hostname:port list, a Python repr of a tensor
// size. Longer runs are another message that happens to share the pieces.
constexpr std::size_t kHole = 512;
// Too generic to identify a message ("%s", "{} {}", "failed: %s"): the row is kept but not indexed.
constexpr std::size_t kMinAnchor = 8;
constexpr std::size_t kMinLiteral = 12;
constexpr int kBacktrackBudget = 256;

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0;;) {
    auto j = s.find(sep, i);
    out.push_back(s.substr(i, j == std::string_view::npos ? std::string_view::npos : j - i));
    if (j == std::string_view::npos) break;
    i = j + 1;
  }
  return out;
}

std::uint64_t gram(const char* p) {
  std::uint64_t g;
  std::memcpy(&g, p, 8);
  return g;
}
std::size_t gate_bit(std::uint64_t g) { return static_cast<std::size_t>((g * 0x9E3779B97F4A7C15ull) >> 48); }

// A format's pieces: one segment per printed line (the catalogue keeps `\n` as written, and a log
// line holds one of them), holes between pieces. Returns the pieces of the segment with the most
// literal text.
std::vector<std::string> compile(std::string_view f) {
  std::vector<std::vector<std::string>> segments(1);
  std::string cur;
  auto hole = [&] {
    if (!cur.empty()) segments.back().push_back(std::move(cur));
    cur.clear();
    if (segments.back().empty() || !segments.back().back().empty()) segments.back().emplace_back();  // "" marks a hole
  };
  for (std::size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if (c == '\\' && i + 1 < f.size()) {
      char n = f[++i];
      if (n == 'n' || n == 'r') {  // a new printed line
        if (!cur.empty()) segments.back().push_back(std::move(cur));
        cur.clear();
        segments.emplace_back();
      } else if (n == 't') {
        hole();  // a tab, or the spaces a terminal made of it
      } else {
        cur += n;  // \" \\ \'
      }
      continue;
    }
    if (c == '%' && i + 1 < f.size()) {
      if (f[i + 1] == '%') {
        cur += '%';
        ++i;
        continue;
      }
      std::size_t j = i + 1;
      while (j < f.size() && std::string_view("-+ #0123456789.*").find(f[j]) != std::string_view::npos) ++j;
      while (j < f.size() && std::string_view("hljztLq").find(f[j]) != std::string_view::npos) ++j;
      if (j < f.size() && std::string_view("diouxXeEfgGcspaA").find(f[j]) != std::string_view::npos) {
        hole();
        i = j;
        continue;
      }
    }
    if (c == '{' || c == '}') {
      if (i + 1 < f.size() && f[i + 1] == c) {  // fmt's "{{" / "}}" print one brace
        cur += c;
        ++i;
        continue;
      }
      if (c == '{') {
        auto e = f.find('}', i);
        if (e != std::string_view::npos && e - i <= 80) {
          hole();
          i = e;
          continue;
        }
      }
    }
    cur += c;
  }
  if (!cur.empty()) segments.back().push_back(std::move(cur));
  std::vector<std::string>* best = nullptr;
  std::size_t best_len = 0;
  for (auto& s : segments) {
    std::size_t n = 0;
    for (const auto& p : s) n += p.size();
    if (!best || n > best_len) {
      best = &s;
      best_len = n;
    }
  }
  std::vector<std::string> out;
  for (auto& p : *best)
    if (!p.empty()) out.push_back(std::move(p));
  // A line loses its trailing blanks (editors, log shippers); leading blanks are the prefix's.
  if (!out.empty()) {
    while (!out.back().empty() && (out.back().back() == ' ' || out.back().back() == '\t')) out.back().pop_back();
    auto& first = out.front();
    first.erase(0, first.find_first_not_of(" \t") == std::string::npos ? first.size() : first.find_first_not_of(" \t"));
    std::erase_if(out, [](const std::string& p) { return p.empty(); });
  }
  return out;
}

// "2.19.4" -> comparable tuple; empty or odd text sorts first.
std::vector<int> version_key(std::string_view v) {
  std::vector<int> out;
  for (auto part : split(v, '.')) {
    int n = 0;
    for (char c : part) {
      if (c < '0' || c > '9') break;
      n = n * 10 + (c - '0');
    }
    out.push_back(n);
  }
  return out;
}

std::string major_minor(std::string_view v) {
  auto p = split(v, '.');
  if (p.size() < 2) return std::string(v);
  return std::string(p[0]) + "." + std::string(p[1]);
}

// One step of the match: pieces[k..] from `pos`, the hole before piece k at most kHole long
// (unbounded for the first piece: the line's prefix comes before the message).
bool match_from(const std::vector<std::string>& pieces, std::size_t k, std::string_view line, std::size_t pos,
                int& budget) {
  if (k == pieces.size()) return true;
  const std::string& p = pieces[k];
  const std::size_t limit = k == 0 ? line.size() : std::min(line.size(), pos + kHole + p.size());
  for (std::size_t at = line.find(p, pos); at != std::string_view::npos && at + p.size() <= limit;
       at = line.find(p, at + 1)) {
    if (--budget < 0) return false;
    if (match_from(pieces, k + 1, line, at + p.size(), budget)) return true;
  }
  return false;
}

}  // namespace

MessageCatalogue MessageCatalogue::parse(std::string_view tsv, std::string_view corrections) {
  std::map<std::pair<std::string, std::string>, std::pair<std::string, std::string>> fix;
  for (auto l : split(corrections, '\n')) {
    if (l.empty() || l[0] == '#') continue;
    auto c = split(l, '\t');
    if (c.size() != 4 || c[3].empty()) continue;  // a correction needs its reason (the test checks)
    fix[{std::string(c[0]), std::string(c[1])}] = {std::string(c[2]), std::string(c[3])};
  }
  MessageCatalogue cat;
  bool header = true;
  for (auto l : split(tsv, '\n')) {
    if (header) {  // the column names
      header = false;
      continue;
    }
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    auto c = split(l, '\t');
    if (c.size() != 8) continue;
    CatalogueRow r{std::string(c[0]), std::string(c[1]), std::string(c[2]), std::string(c[3]), std::string(c[4]),
                   std::string(c[5]), std::string(c[6]), std::string(c[7]), {}, {}, 0, 0};
    if (auto f = fix.find({r.project, r.format}); f != fix.end()) {
      r.klass = f->second.first;
      r.correction = f->second.second;
    }
    r.pieces = compile(r.format);
    for (std::size_t i = 0; i < r.pieces.size(); ++i) {
      r.literal += r.pieces[i].size();
      if (r.pieces[i].size() > r.pieces[r.anchor].size()) r.anchor = i;
    }
    cat.rows_.push_back(std::move(r));
  }
  for (std::uint32_t i = 0; i < cat.rows_.size(); ++i) {
    const auto& r = cat.rows_[i];
    if (r.pieces.empty() || r.literal < kMinLiteral || r.pieces[r.anchor].size() < kMinAnchor) continue;
    const std::uint64_t g = gram(r.pieces[r.anchor].data());
    cat.by_gram_[g].push_back(i);
    cat.gate_.set(gate_bit(g));
    ++cat.indexed_;
  }
  return cat;
}

bool MessageCatalogue::matches(const CatalogueRow& r, std::string_view line, std::size_t anchor_at) const {
  const std::string& a = r.pieces[r.anchor];
  if (line.compare(anchor_at, a.size(), a) != 0) return false;
  int budget = kBacktrackBudget;
  return match_from(r.pieces, 0, line, 0, budget);
}

namespace {
// The old order within a group: most literal characters (the most specific text), then the
// newest version.
bool more_specific(const CatalogueRow& r, const CatalogueRow& best) {
  if (r.literal != best.literal) return r.literal > best.literal;
  return version_key(r.last_version) > version_key(best.last_version);
}

// Whether [at, at+n) of `line` overlaps an occurrence of one of the row's literal pieces.
bool inside_literal_text(const CatalogueRow& r, std::string_view line, std::size_t at, std::size_t n) {
  for (const auto& p : r.pieces) {
    if (p.empty()) continue;
    for (std::size_t k = line.find(p); k != std::string_view::npos; k = line.find(p, k + 1))
      if (k < at + n && at < k + p.size()) return true;
  }
  return false;
}
}  // namespace

std::optional<CatalogueMatch> MessageCatalogue::match(std::string_view line) const {
  if (line.size() < kMinAnchor || by_gram_.empty()) return std::nullopt;
  const auto& gate = gate_;
  // The best generic row (class `other`: "NCCL error in: %s:%d, %s", "%s failed: %s"), and every
  // row with a class that matched, with where its anchor was found (a line holds a few at most).
  const CatalogueRow* wrapper = nullptr;
  std::vector<std::pair<const CatalogueRow*, std::size_t>> named;
  for (std::size_t i = 0; i + kMinAnchor <= line.size(); ++i) {
    const std::uint64_t g = gram(line.data() + i);
    if (!gate.test(gate_bit(g))) continue;
    auto it = by_gram_.find(g);
    if (it == by_gram_.end()) continue;
    for (std::uint32_t idx : it->second) {
      const CatalogueRow& r = rows_[idx];
      if (r.klass == "other" && wrapper && !more_specific(r, *wrapper)) continue;
      if (!matches(r, line, i)) continue;
      if (r.klass == "other") wrapper = &r;
      else if (named.size() < 64) named.emplace_back(&r, i);
    }
  }
  // A wrapper carries the message it wraps in its holes, on the same line: that wrapped text names
  // the failure, the wrapper only that one happened. So a row with a class found outside the
  // wrapper's own words wins; one found inside them is part of the wrapper's text, and the more
  // specific text decides.
  const CatalogueRow* wrapped = nullptr;
  const CatalogueRow* any = nullptr;
  for (const auto& [r, at] : named) {
    if (!any || more_specific(*r, *any)) any = r;
    // An info-only text in a wrapper's hole does not make the wrapper's error go away.
    if (wrapper && (r->klass == "info-only" || inside_literal_text(*wrapper, line, at, r->pieces[r->anchor].size())))
      continue;
    if (!wrapped || more_specific(*r, *wrapped)) wrapped = r;
  }
  if (wrapped) return CatalogueMatch{wrapped};
  if (!wrapper && !any) return std::nullopt;
  if (!wrapper || !any) return CatalogueMatch{wrapper ? wrapper : any};
  return CatalogueMatch{more_specific(*any, *wrapper) ? any : wrapper};
}

std::string MessageCatalogue::citation(const CatalogueRow& r) {
  std::string repo = r.project == "nccl"      ? "NVIDIA/nccl"
                     : r.project == "pytorch" ? "pytorch/pytorch"
                     : r.project == "vllm"    ? "vllm-project/vllm"
                     : r.project == "cuda"    ? "CUDA runtime"
                                              : r.project;
  std::string label = r.project == "nccl"      ? "NCCL"
                      : r.project == "pytorch" ? "PyTorch"
                      : r.project == "vllm"    ? "vLLM"
                      : r.project == "cuda"    ? "libcudart"
                                               : r.project;
  std::string s = repo + " " + r.file + (r.line.empty() ? "" : ":" + r.line);
  if (!r.first_version.empty()) {
    std::string a = major_minor(r.first_version), b = major_minor(r.last_version);
    s += ", " + label + " " + a + (b.empty() || b == a ? "" : "–" + b);
  }
  return s;
}

bool MessageCatalogue::carries_on(const CatalogueRow& r) {
  const std::string& k = r.kind;
  return k == "INFO" || k == "logger.info" || k == "logger.warning" || k == "warnings.warn" || k == "TORCH_WARN" ||
         k.rfind("TORCH_WARN", 0) == 0 || k == "LOG(WARNING)" || k == "LOG(INFO)" || k == "C10D_WARNING" ||
         k == "C10D_INFO";
}

const MessageCatalogue& message_catalogue() {
  static const MessageCatalogue cat = MessageCatalogue::parse(embedded("messages.tsv").value_or(std::string_view()),
                                                              embedded("messages_corrections.tsv").value_or(std::string_view()));
  return cat;
}

}  // namespace ncdx::knowledge
