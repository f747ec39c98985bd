#include "analyze/logs/paste_prefix.h"

namespace ncdx::analyze::paste {
namespace {

using scan::Cursor;
using scan::is_alpha;
using scan::is_digit;

bool host_char(char c) { return is_alpha(c) || is_digit(c) || c == '-' || c == '.' || c == '_'; }

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// "[36m", "[0m", "[1;31m": an SGR sequence whose ESC was lost in the paste.
bool orphan_sgr(Cursor& c) {
  std::size_t j = c.i + 1, digits = 0;
  while (j < c.s.size() && j - c.i < 16 && (is_digit(c.s[j]) || c.s[j] == ';')) {
    digits += is_digit(c.s[j]);
    ++j;
  }
  if (digits == 0 || j >= c.s.size() || c.s[j] != 'm') return false;
  c.i = j + 1;
  return true;
}

}  // namespace

bool skip_decoration(Cursor& c) {
  const char a = c.peek();
  const char b = c.peek(1);
  switch (a) {
    case ' ':
    case '\t':
      while (c.peek() == ' ' || c.peek() == '\t') ++c.i;
      return true;
    case '>':  // blockquote, possibly nested ("> > ")
      if (b != ' ' && b != '>' && b != '\0') return false;
      ++c.i;
      c.eat(' ');
      return true;
    case '-':
    case '+':
      if (b != ' ') return false;
      c.i += 2;
      return true;
    case '*':
      // "* " bullet or "**" bold; "***" and "**:" are redactions, not markup.
      if (b == ' ' || (b == '*' && c.peek(2) != '*' && c.peek(2) != ':' && c.peek(2) != ' ' && c.peek(2) != '\0')) {
        c.i += 2;
        return true;
      }
      return false;
    case '`':
    case '~': {
      std::size_t n = 0;
      while (c.peek(n) == a && n < 3) ++n;
      if (a == '~' && n < 3) return false;
      if (n == 3) {  // a fence line: "```", "```text", "~~~python" — nothing of the log on it
        std::size_t j = c.i + 3;
        while (j < c.s.size() && (is_alpha(c.s[j]) || is_digit(c.s[j]) || c.s[j] == '-' || c.s[j] == '+' || c.s[j] == '_')) ++j;
        while (j < c.s.size() && c.s[j] == ' ') ++j;
        if (j == c.s.size()) {
          c.i = j;
          return true;
        }
      }
      c.i += n;
      return true;
    }
    case '[':
      return is_digit(b) && orphan_sgr(c);
    case '\xE2':  // "• " U+2022 bullet
      if (b == '\x80' && c.peek(2) == '\xA2' && c.peek(3) == ' ') {
        c.i += 4;
        return true;
      }
      return false;
    default:
      return false;
  }
}

bool syslog(Cursor& c, Syslog& out) {
  int mon = scan::month_from_abbrev(c.s.substr(c.i, 3));
  if (mon == 0 || c.peek(3) != ' ') return false;
  Cursor t = c;
  t.i += 4;
  t.spaces();
  int day;
  double clk;
  std::size_t tb = c.i;
  if (!t.num(day, 1, 2) || !t.eat(' ') || !scan::parse_time_of_day(t, clk)) return false;
  std::string_view tt = t.s.substr(tb, t.i - tb);
  if (!t.eat(' ')) return false;
  std::size_t hs = t.i;
  while (!t.end() && t.peek() != ' ' && t.peek() != ':') ++t.i;
  std::string_view host = t.s.substr(hs, t.i - hs);
  if (host.empty() || !t.eat(' ')) return false;
  std::size_t colon = t.s.find(": ", t.i);
  if (colon == std::string_view::npos || colon - t.i > 64) return false;
  std::string_view tag = t.s.substr(t.i, colon - t.i);
  if (tag.find(' ') != std::string_view::npos) return false;
  std::size_t lb = tag.find('[');
  if (lb != std::string_view::npos && tag.back() == ']') {
    Cursor p{tag, lb + 1};
    int pid;
    if (p.num(pid)) out.pid = pid;
  }
  t.i = colon + 2;
  out.host = host;
  out.time_text = tt;
  out.clock = clk;
  c = t;
  return true;
}

bool skip_cri_stream(Cursor& c) {
  Cursor t = c;
  if (!t.eat("stdout ") && !t.eat("stderr ")) return false;
  if (!t.eat('F') && !t.eat('P')) return false;
  if (!t.eat(' ') && !t.end()) return false;
  c = t;
  return true;
}

bool compose_service(Cursor& c, std::string_view& name) {
  std::size_t j = c.i, lim = std::min(c.s.size(), c.i + 64);
  if (!is_alpha(c.peek()) && !is_digit(c.peek())) return false;
  while (j < lim && host_char(c.s[j])) ++j;
  std::size_t end = j;
  while (j < c.s.size() && c.s[j] == ' ') ++j;
  if (j == end || j + 1 >= c.s.size() || c.s[j] != '|' || (c.s[j + 1] != ' ' && j + 1 != c.s.size())) return false;
  name = c.s.substr(c.i, end - c.i);
  c.i = j + 1;
  c.eat(' ');
  return true;
}

bool pdsh_host(Cursor& c, std::string_view& host) {
  std::size_t j = c.i, lim = std::min(c.s.size(), c.i + 64);
  if (!is_alpha(c.peek()) && !is_digit(c.peek())) return false;
  bool digit = false, dash = false, alpha = false;
  while (j < lim && host_char(c.s[j])) {
    digit |= is_digit(c.s[j]);
    dash |= c.s[j] == '-';
    alpha |= is_alpha(c.s[j]);
    ++j;
  }
  if (j + 1 >= c.s.size() || c.s[j] != ':' || c.s[j + 1] != ' ') return false;
  std::string_view w = c.s.substr(c.i, j - c.i);
  if (!alpha && !digit) return false;
  // Host names have no '_' and no file extension ("…-gnu.so: undefined symbol", "train.py: ").
  if (w.find('_') != std::string_view::npos) return false;
  if (std::size_t dot = w.rfind('.'); dot != std::string_view::npos) {
    std::string_view ext = w.substr(dot + 1);
    for (auto e : {"so", "py", "cc", "cpp", "cu", "cuh", "h", "hpp", "c", "sh", "txt", "log", "json", "yaml", "yml"})
      if (ext == e) return false;
  }
  if (!alpha && w.find('.') == std::string_view::npos) return false;  // "3: " is srun's label
  // Cluster hosts carry a number (node01, gpu-7, ip-10-0-0-2); a word without one is a program or
  // an exception ("nvidia-container-cli: ", "RuntimeError: ", "Note: ").
  if (w != "localhost" && !digit) return false;
  (void)dash;
  for (auto bad : {"Error", "Exception", "Warning", "Interrupt", "Exit", "Failure", "Timeout"})
    if (ends_with(w, bad)) return false;
  // Device, interface and counter labels with a number: "GPU0: ", "eth0: ", "rank3: ", "epoch 1".
  std::size_t letters = 0;
  while (letters < w.size() && (is_alpha(w[letters]) || w[letters] == '_')) ++letters;
  if (letters < w.size() && is_digit(w[letters])) {
    std::string_view stem = w.substr(0, letters);
    for (auto label : {"GPU", "gpu", "cuda", "CUDA", "rank", "Rank", "eth", "ib", "bond", "mlx", "mlx5_", "nvme", "hfi", "efa", "Epoch",
                       "epoch", "step", "Step", "iter", "Iter", "line", "Line", "dev", "nvlink", "NVLink", "port"})
      if (stem == label) return false;
  }
  host = w;
  c.i = j + 2;
  return true;
}

bool kubectl_pod(Cursor& c, std::string_view& pod) {
  if (c.s.substr(c.i, 5) != "[pod/") return false;
  std::size_t close = c.s.find(']', c.i);
  if (close == std::string_view::npos || close - c.i > 256) return false;
  std::string_view in = c.s.substr(c.i + 5, close - c.i - 5);
  if (in.empty() || in.find(' ') != std::string_view::npos) return false;
  pod = in.substr(0, in.find('/'));
  c.i = close + 1;
  c.eat(' ');
  return !pod.empty();
}

bool sagemaker_mpi(Cursor& c, int& rank, std::string_view& host) {
  Cursor t = c;
  int job;
  if (!t.eat('[') || !t.num(job) || !t.eat(",mpirank:") || !t.num(rank) || !t.eat(',')) return false;
  std::size_t close = t.s.find(']', t.i);
  if (close == std::string_view::npos || close - t.i > 64) return false;
  host = t.s.substr(t.i, close - t.i);
  t.i = close + 1;
  if (!t.eat("<stdout>:") && !t.eat("<stderr>:") && !t.eat("<stddiag>:")) return false;
  c = t;
  return true;
}

std::string_view trim_end(std::string_view m) {
  for (;;) {
    std::size_t n = m.size();
    while (!m.empty() && (m.back() == ' ' || m.back() == '\t')) m.remove_suffix(1);
    if (ends_with(m, "across cluster]")) {
      std::size_t lb = m.rfind(" [repeated ");
      if (lb != std::string_view::npos && m.size() - lb < 48) m = m.substr(0, lb);
    }
    if (ends_with(m, "**")) m.remove_suffix(2);
    if (!m.empty() && m.back() == 'm') {  // a colour reset whose ESC was lost: "...[0m"
      std::size_t lb = m.rfind('[');
      if (lb != std::string_view::npos && m.size() - lb <= 16) {
        Cursor t{m, lb};
        if (orphan_sgr(t) && t.end()) m = m.substr(0, lb);
      }
    }
    while (!m.empty() && m.back() == '`') m.remove_suffix(1);
    if (m.size() == n) return m;
  }
}

}  // namespace ncdx::analyze::paste
