// parse_prefix(): peels the prefixes that launchers, loggers and NCCL put before a message,
// outermost first (Slurm label, mpirun tag, Ray actor, torchrun rank, timestamps, glog, NCCL).
// Hand-written scanning on the hot path: each layer looks at a few bytes and gives up early.
// Formats: NVIDIA/nccl src/debug.cc (v2.14.3-1 to v2.30.7-1) for NCCL; the rest from real lines in the corpus.
#include "analyze/logs/log_line.h"

#include <cstring>

#include "analyze/logs/line_clean.h"
#include "analyze/logs/paste_prefix.h"
#include "analyze/logs/python_log_prefix.h"
#include "analyze/logs/ray_prefix.h"
#include "analyze/logs/text_scan.h"

namespace ncdx::analyze {
namespace {

using scan::Cursor;
using scan::is_alpha;
using scan::is_digit;
using scan::source_token;

struct State {
  LinePrefix& out;
  // srun --label's task number: the global rank when srun starts one task per GPU, but only the
  // node's index when it starts one torchrun per node; a rank printed inside ("2: [rank17]:") wins.
  std::optional<int> task_label;
  void rank(int r) {
    if (!out.rank) out.rank = r;
  }
  void time_text(std::string_view t) {
    if (out.time_text.empty()) out.time_text.assign(t);
  }
  void clock(double c) {
    if (!out.clock) out.clock = c;
  }
  void epoch(double e) {
    if (!out.epoch) out.epoch = e;
  }
  // A host named by a launcher or collector; a redacted one ("<hostname>", "PRIVATE_IP") is unknown.
  void host(std::string_view h) {
    if (!out.host && !is_placeholder(h)) out.host.emplace(h);
  }
  void python(const pylog::Parsed& p) {
    out.level = p.level;
    if (!p.source.empty()) out.source = p.source;
    if (!p.time_text.empty()) time_text(p.time_text);
    if (p.clock) clock(*p.clock);
  }
};

LineLevel level_from_glog(char c) {
  switch (c) {
    case 'I': return LineLevel::info;
    case 'W': return LineLevel::warn;
    case 'E': return LineLevel::error;
    case 'F': return LineLevel::fatal;
    default: return LineLevel::unknown;
  }
}

// After "host:pid:tid " or "[dev] ": [dev] [ms] [file:line [(func)]] NCCL LEVEL msg
bool nccl_tail(Cursor& c, State& st, bool want_dev) {
  Cursor t = c;
  if (want_dev && t.peek() == '[') {
    Cursor d = t;
    ++d.i;
    bool neg = d.eat('-');
    int dev;
    if (d.num(dev) && d.eat(']') && d.eat(' ')) {
      st.out.cuda_dev = neg ? -dev : dev;
      t = d;
    }
  }
  if (is_digit(t.peek())) {  // TRACE: milliseconds since init, "12.345 "
    Cursor m = t;
    long long v;
    if (m.num(v) && m.eat('.') && m.num(v) && m.eat(' ')) t = m;
  }
  std::string_view src;
  if (t.peek() != 'N' || !t.eat("NCCL ")) {
    Cursor f = t;
    if (source_token(f, src) && f.eat(' ')) {
      if (f.peek() == '(') {  // 2.30: "(func) "
        std::size_t close = f.s.find(") ", f.i);
        if (close == std::string_view::npos || close - f.i > 200) return false;
        f.i = close + 2;
      }
      t = f;
    }
    if (!t.eat("NCCL ")) return false;
  }
  LineLevel lvl;
  if (t.eat("INFO")) lvl = LineLevel::info;
  else if (t.eat("WARN")) lvl = LineLevel::warn;
  else if (t.eat("TRACE") || t.eat("CALL")) lvl = LineLevel::info;
  else if (t.eat("ERROR")) lvl = LineLevel::error;
  else return false;
  if (!t.end() && !t.eat(' ')) return false;
  st.out.level = lvl;
  st.out.nccl = true;
  if (!src.empty()) st.out.source = src;
  c = t;
  return true;
}

// "host:pid:tid [dev] ..." — the common NCCL line.
bool nccl_line(Cursor& c, State& st) {
  Cursor t = c;
  // The host runs to the first ':' within 256 bytes, with no space or tab before it (memchr: this
  // runs for every line).
  const std::size_t lim = std::min(t.s.size(), t.i + 256);
  if (t.i >= lim) return false;
  const char* from = t.s.data() + t.i;
  const std::size_t span = lim - t.i;
  const char* colon = static_cast<const char*>(std::memchr(from, ':', span));
  if (colon == nullptr || colon == from) return false;
  const std::size_t head = static_cast<std::size_t>(colon - from);
  if (std::memchr(from, ' ', head) != nullptr || std::memchr(from, '\t', head) != nullptr) return false;
  const std::size_t j = t.i + head;
  std::string_view host = t.s.substr(t.i, j - t.i);
  t.i = j + 1;
  int pid, tid;
  if (!t.num(pid) || !t.eat(':') || !t.num(tid) || !t.eat(' ')) return false;
  if (!nccl_tail(t, st, true)) return false;
  // NCCL's host is the machine's name: it wins over a Ray ip (unless the paste redacted it).
  if (!may_be_placeholder(host.front()) || !is_placeholder(host)) st.out.host.emplace(host);
  if (!st.out.pid) st.out.pid = pid;
  st.out.tid = tid;
  c = t;
  return true;
}

// Glog body after the level letter: "[MMDD|MDD] [hh:mm:ss.frac] [tid] file:line" up to ']'.
bool glog_body(Cursor& t, State& st, char lvl, bool bracketed) {
  long long md;
  Cursor start = t;
  bool has_date = t.num(md, 3, 4);
  if (has_date && !t.eat(' ')) return false;
  double clk = 0;
  bool has_time = false;
  if (has_date) {
    has_time = scan::parse_time_of_day(t, clk);
    if (has_time && !t.eat(' ')) return false;
  } else if (!bracketed || !t.eat(' ')) {
    return false;
  }
  std::string_view time_text = start.s.substr(start.i, t.i - start.i);
  if (has_time && is_digit(t.peek())) {  // classic glog thread id
    Cursor k = t;
    int tid;
    if (k.num(tid) && k.eat(' ')) {
      st.out.tid = tid;
      t = k;
    }
  }
  std::string_view src;
  if (!source_token(t, src) || !t.eat(']')) return false;
  t.eat(' ');
  st.out.level = level_from_glog(lvl);
  st.out.source = src;
  if (has_date) {
    while (!time_text.empty() && time_text.back() == ' ') time_text.remove_suffix(1);
    st.time_text(time_text);
  }
  if (has_time) st.clock(clk);
  return true;
}

// "[date time(.frac)(zone)( extra)] " — bracketed ISO timestamps (NCCL 2.26+, determined, SGLang).
bool bracket_iso(Cursor& t, State& st) {
  Cursor c = t;
  ++c.i;
  double epoch, clk;
  std::size_t begin = c.i;
  if (!scan::parse_iso_datetime(c, epoch, clk)) return false;
  std::string_view tt = c.s.substr(begin, c.i - begin);
  std::size_t close = c.s.find(']', c.i);
  if (close == std::string_view::npos || close - c.i > 32) return false;
  // SGLang "[2025-01-01 12:00:00 TP3] ": the tensor-parallel rank is the rank when no DP/PP/EP
  // group is named beside it (then it is only the rank within that group).
  std::string_view extra = c.s.substr(c.i, close - c.i);
  if (std::size_t tp = extra.find(" TP"); tp != std::string_view::npos && extra.find(" DP") == std::string_view::npos &&
                                          extra.find(" PP") == std::string_view::npos && extra.find(" EP") == std::string_view::npos) {
    Cursor r{extra, tp + 3};
    int n;
    if (r.num(n) && (r.end() || r.peek() == ' ')) st.rank(n);
  }
  c.i = close + 1;
  c.eat(' ');
  st.time_text(tt);
  st.epoch(epoch);
  st.clock(clk);
  t = c;
  return true;
}

// Every layer that starts with '['.
bool bracket_layer(Cursor& c, State& st, bool first) {
  Cursor t = c;
  ++t.i;
  char a = t.peek();
  if (is_digit(a)) {
    if (bracket_iso(c, st)) return true;
    // mpirun --tag-output "[1,3]<stdout>:"
    int job, r;
    Cursor m = t;
    if (m.num(job) && m.eat(',') && m.num(r) && m.eat(']') && (m.eat("<stdout>:") || m.eat("<stderr>:") || m.eat("<stddiag>:"))) {
      st.rank(r);
      c = m;
      return true;
    }
    // "[3] include/shm.h:28 NCCL WARN" — NCCL without host (the number is the CUDA device)
    Cursor n = c;
    if (nccl_tail(n, st, true)) {
      c = n;
      return true;
    }
  }
  if (is_digit(a) || a == ' ') {
    // dmesg "[12345.678901] " / "[  +0.000316] ": seconds since boot, only kept as text.
    Cursor k = t;
    k.spaces();
    k.eat('+');
    long long v;
    if (k.num(v) && k.eat('.') && k.num(v) && k.eat(']')) {
      std::string_view tt = c.s.substr(c.i + 1, k.i - c.i - 2);
      while (!tt.empty() && tt.front() == ' ') tt.remove_prefix(1);
      st.time_text(tt);
      k.eat(' ');
      c = k;
      return true;
    }
    return false;
  }
  // glog "[E809 14:59:30.411 file.cc:629]" / "[E file.cc:828]"
  if ((a == 'I' || a == 'W' || a == 'E' || a == 'F') && (is_digit(t.peek(1)) || t.peek(1) == ' ')) {
    Cursor g = t;
    ++g.i;
    if (glog_body(g, st, a, true)) {
      c = g;
      return true;
    }
  }
  // DeepSpeed's logger "[INFO] " and "[launch.py:145:main] " (after its "[date time,ms] ").
  if (a >= 'A' && a <= 'Z') {
    Cursor w = t;
    LineLevel lvl;
    if (pylog::level_word(w, "] ", lvl)) {
      st.out.level = lvl;
      c = w;
      return true;
    }
  }
  if (is_alpha(a)) {
    Cursor w = t;
    std::string_view src;
    if (source_token(w, src)) {
      bool closed = w.eat(']');
      if (!closed && w.peek() == ':') {  // ":func]"
        std::size_t close = w.s.find(']', w.i);
        if (close != std::string_view::npos && close - w.i < 64 && w.s.substr(w.i, close - w.i).find(' ') == std::string_view::npos) {
          w.i = close + 1;
          closed = true;
        }
      }
      if (closed) {
        w.eat(' ');
        st.out.source = src;
        c = w;
        return true;
      }
    }
  }
  // torchrun "[rank3]:" (global) / "[default3]:" (role + local rank)
  if (is_alpha(a)) {
    Cursor w = t;
    while (is_alpha(w.peek()) || w.peek() == '_') ++w.i;
    std::string_view word = w.s.substr(t.i, w.i - t.i);
    int n;
    if (w.num(n) && w.eat(']') && w.eat(':')) {
      if (word == "rank") st.rank(n);
      else if (!st.out.local_rank) st.out.local_rank = n;
      w.eat(' ');
      c = w;
      return true;
    }
  }
  // "[Rank 2] " and determined's "[rank=1] || "
  {
    Cursor w = t;
    int n;
    if ((w.eat("Rank ") || w.eat("rank=")) && w.num(n) && w.eat(']')) {
      st.rank(n);
      w.eat(' ');
      w.eat("|| ");
      c = w;
      return true;
    }
  }
  // A training script's own "[rank6] step 3011 ..." (print(f"[rank{rank}] ...")): the torchrun
  // form without its colon, followed by the message.
  {
    Cursor w = t;
    int n;
    if (w.eat("rank") && w.num(n) && w.eat(']') && w.peek() == ' ') {
      st.rank(n);
      w.eat(' ');
      c = w;
      return true;
    }
  }
  // "[PG ID 0 PG GUID 0(default_pg) Rank 2] "
  if (t.eat("PG ")) {
    std::size_t close = t.s.find(']', t.i);
    if (close == std::string_view::npos || close - t.i > 200) return false;
    std::size_t rk = t.s.rfind(" Rank ", close);
    if (rk != std::string_view::npos && rk >= t.i) {
      Cursor r{t.s, rk + 6};
      int n;
      if (r.num(n) && r.i == close) st.rank(n);
    }
    c.i = close + 1;
    c.eat(' ');
    return true;
  }
  // dmesg -T "[Mon Mar  3 10:00:00 2025] "
  if (is_alpha(a) && t.peek(3) == ' ') {
    Cursor k = t;
    k.i += 4;
    int mon = scan::month_from_abbrev(k.s.substr(k.i, 3));
    if (mon == 0) return false;
    k.i += 3;
    int day, year;
    double clk;
    if (!k.spaces() || !k.num(day, 1, 2) || !k.eat(' ') || !scan::parse_time_of_day(k, clk) || !k.eat(' ') ||
        !k.num(year, 4, 4) || !k.eat(']'))
      return false;
    st.time_text(c.s.substr(c.i + 1, k.i - c.i - 2));
    st.epoch(static_cast<double>(scan::days_from_civil(year, mon, day)) * 86400.0 + clk);
    st.clock(clk);
    k.eat(' ');
    c = k;
    return true;
  }
  (void)first;
  return false;
}

// Ray "(WorkerDict pid=835, ip=172.26.143.83) " / "(VllmWorker rank=3 pid=1090) " (logs/ray_prefix.cc).
bool ray_layer(Cursor& c, State& st) {
  RayPrefix r;
  if (!ray_prefix(c, r)) return false;
  if (r.pid && !st.out.pid) st.out.pid = r.pid;
  if (r.rank) st.rank(*r.rank);
  if (!r.ip.empty()) st.host(r.ip);
  return true;
}

// Unbracketed glog "E0809 14:59:30.411244 12345 file.cc:629] "
bool glog_plain_layer(Cursor& c, State& st) {
  char a = c.peek();
  if (!(a == 'I' || a == 'W' || a == 'E' || a == 'F') || !is_digit(c.peek(1))) return false;
  Cursor t = c;
  ++t.i;
  if (!glog_body(t, st, a, false)) return false;
  c = t;
  return true;
}

// journal/syslog "Mar 03 10:00:00 host kernel: " (paste::syslog reads it).
bool syslog_layer(Cursor& c, State& st) {
  paste::Syslog sl;
  if (!paste::syslog(c, sl)) return false;
  if (sl.pid && !st.out.pid) st.out.pid = sl.pid;
  st.host(sl.host);
  st.time_text(sl.time_text);
  st.clock(sl.clock);
  return true;
}

// Python logging's "- LEVEL - " / "- name - LEVEL - " (after its asctime).
bool dash_layer(Cursor& c, State& st) {
  pylog::Parsed py;
  if (!pylog::dash_level(c, py)) return false;
  st.python(py);
  return true;
}

// determined's "fa88a9df [rank=1] || " (after its timestamp): an 8-hex container id.
bool hex_id_layer(Cursor& c) {
  if (c.peek(8) != ' ' || c.peek(9) != '[') return false;
  for (int k = 0; k < 8; ++k)
    if (!scan::is_hex(c.peek(k))) return false;
  if (c.s.substr(c.i + 9, 6) != "[rank=") return false;
  c.i += 9;
  return true;
}

}  // namespace

LinePrefix parse_prefix(std::string_view line) {
  LinePrefix out;
  State st{out};
  Cursor c{line};
  // `outer`: only paste decoration and collector prefixes (timestamps, CRI, compose, pdsh, srun)
  // so far — where a collector's prefix can still come; `body` is where the rest begins.
  bool outer = true, decor_only = true;
  std::size_t body = 0;
  // Indentation is peeled to find a prefix after it; when none follows, the message keeps it.
  std::size_t indent_from = std::string_view::npos;
  for (int layer = 0; layer < 32 && !c.end(); ++layer) {
    const std::size_t before = c.i;
    const char a = c.peek();
    bool ok = false, collector = false;
    if (a == '-' && dash_layer(c, st)) {  // "- LEVEL - " before "- " is taken for a bullet
      ok = true;
    } else if ((a == ' ' || a == '\t' || a == '>' || a == '-' || a == '+' || a == '*' || a == '`' || a == '~' ||
                a == '[' || a == '\xE2') &&
               paste::skip_decoration(c)) {
      if (a == ' ' || a == '\t') indent_from = before;
      else indent_from = std::string_view::npos;
      if (outer) body = c.i;
      continue;
    } else if (a == '[') {
      ok = bracket_layer(c, st, layer == 0);
      if (!ok) ok = nccl_line(c, st);  // "[REDACTED]:1234:5678 [0] NCCL ..."
      std::string_view name;
      int r;
      if (!ok && paste::sagemaker_mpi(c, r, name)) {
        st.rank(r);
        st.host(name);
        ok = true;
      } else if (!ok && outer && paste::kubectl_pod(c, name)) {
        st.host(name);
        ok = collector = true;
      }
    } else if (a == '(') {
      ok = ray_layer(c, st);
    } else {
      if (decor_only && is_digit(a)) {  // srun --label "3: " / "  3: "
        Cursor t = c;
        int r;
        if (t.num(r, 1, 6) && t.eat(": ")) {
          if (!st.task_label) st.task_label = r;
          c = t;
          ok = collector = true;
        }
      }
      if (!ok && is_digit(a)) {  // "2024-05-01 12:00:00,123 " (Python logging, kubectl --timestamps, journal)
        Cursor t = c;
        double epoch, clk;
        if (scan::parse_iso_datetime(t, epoch, clk) && (t.eat(' ') || t.eat('\t'))) {
          st.time_text(line.substr(c.i, t.i - 1 - c.i));
          st.epoch(epoch);
          st.clock(clk);
          c = t;
          ok = collector = true;
        }
      }
      pylog::Parsed py;
      if (!ok && a >= 'A' && a <= 'Z') {
        if (pylog::level_first(c, py) || pylog::colon_level(c, py) ||
            (!out.time_text.empty() && pylog::bare_level(c, py))) {
          st.python(py);
          ok = true;
        }
        if (!ok) ok = glog_plain_layer(c, st);
        if (!ok && syslog_layer(c, st)) ok = collector = true;
        if (!ok && a == 'N') ok = nccl_tail(c, st, false);  // bare "NCCL WARN msg"
      }
      if (!ok && hex_id_layer(c)) ok = true;
      if (!ok && nccl_line(c, st)) ok = true;
      if (!ok && is_alpha(a) && pylog::logger_bracket_level(c, py)) {
        st.python(py);
        ok = true;
      }
      if (!ok && a != ' ' && a != '\t') {  // "misc/ibvwrap.cc:278 NCCL WARN ..." (no host)
        Cursor t = c;
        std::string_view src;
        if (source_token(t, src) && t.eat(' ') && t.peek() == 'N') {
          Cursor n = c;
          if (nccl_tail(n, st, false)) {
            c = n;
            ok = true;
          }
        }
      }
      if (!ok && outer) {  // what collectors put before a program's own prefix
        std::string_view name;
        if (a == 's' && !out.time_text.empty() && paste::skip_cri_stream(c)) {
          ok = collector = true;
        } else if (paste::compose_service(c, name)) {
          st.host(name);
          ok = collector = true;
        } else if (c.eat("wandb: ")) {
          ok = collector = true;
        }
      }
      // pdsh's "host: " is recognised by its shape only: never before another identity, and
      // left in the text the signatures see.
      if (!ok && !out.host && !out.rank && !out.pid) {
        std::string_view name;
        if (paste::pdsh_host(c, name)) {
          st.host(name);
          ok = true;
        }
      }
    }
    if (!ok || c.i == before) break;
    indent_from = std::string_view::npos;
    decor_only = false;
    outer = outer && collector;
    if (outer) body = c.i;
    if (out.nccl) break;  // NCCL's prefix is always the innermost one
  }
  if (indent_from != std::string_view::npos) {
    c.i = indent_from;
    body = std::min(body, indent_from);
  }
  out.message = c.rest();
  if (!out.message.empty()) {
    const char z = out.message.back();
    if (z == ' ' || z == '\t' || z == '*' || z == '`' || z == ']' || z == 'm') {
      std::string_view m = paste::trim_end(out.message);
      if (!m.empty()) out.message = m;  // a blank line stays as it was
    }
  }
  const std::size_t end = c.i + out.message.size();
  out.text = line.substr(body, end - body);
  if (!out.rank) out.rank = st.task_label;
  return out;
}

}  // namespace ncdx::analyze
