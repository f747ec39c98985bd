#include "analyze/triage/exits.h"

#include <algorithm>
#include <charconv>
#include <utility>

#include "core/strings.h"

namespace ncdx::analyze {
namespace {

std::optional<long long> leading_int(std::string_view s) {
  s = core::trim(s);
  long long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p == s.data()) return std::nullopt;
  return v;
}

std::optional<long long> int_after(std::string_view s, std::string_view key) {
  auto p = s.find(key);
  if (p == std::string_view::npos) return std::nullopt;
  return leading_int(s.substr(p + key.size()));
}

// "key   : value" (torchrun pads the key with spaces).
bool field(std::string_view t, std::string_view key, std::string_view& value) {
  if (t.substr(0, key.size()) != key) return false;
  auto rest = t.substr(key.size());
  std::size_t i = 0;
  while (i < rest.size() && rest[i] == ' ') ++i;
  if (i >= rest.size() || rest[i] != ':') return false;
  value = core::trim(rest.substr(i + 1));
  return true;
}

// The signal as strsignal(3) words it (glibc string/strsignal.c, sysdeps/generic/siglist.h) after
// srun's "task 5: " / "tasks 3-4: " ("Terminated": srun's own teardown after --kill-on-bad-exit,
// or scancel). `after` starts at the task id(s).
std::optional<int> exit_signal(std::string_view after) {
  static constexpr std::pair<std::string_view, int> kSignalText[] = {
      {"Killed", 9},    {"Segmentation fault", 11}, {"Aborted", 6},          {"Terminated", 15},
      {"Bus error", 7}, {"Interrupt", 2},           {"Hangup", 1},           {"Illegal instruction", 4},
      {"Floating point exception", 8}};
  auto what = core::trim(after);
  what = core::trim(what.substr(std::min(what.size(), what.find(':') + 1)));
  for (const auto& [text, sig] : kSignalText)
    if (what.substr(0, text.size()) == text) return sig;
  return std::nullopt;
}

// Calls f(task) for each id of a Slurm bit_fmt() list ("0-3,5,7-8"); stops at anything else, after
// 100000 ids in all (hostile input) or when f returns false.
template <class F>
void for_each_task(std::string_view list, F&& f) {
  long long budget = 100000;
  while (!list.empty()) {
    auto item = core::trim(list.substr(0, list.find(',')));
    list = list.find(',') == std::string_view::npos ? std::string_view{} : list.substr(list.find(',') + 1);
    auto dash = item.find('-');
    auto lo = leading_int(item.substr(0, dash));
    auto hi = dash == std::string_view::npos ? lo : leading_int(item.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > 10'000'000) return;
    for (long long r = *lo; r <= *hi; ++r)
      if (--budget < 0 || !f(static_cast<int>(r))) return;
  }
}

// torchrun's entry time: ProcessFailure.timestamp_isoformat() in
// torch/distributed/elastic/multiprocessing/errors/__init__.py is
// datetime.fromtimestamp(ts).isoformat(sep="_") of an integer timestamp: "2026-12-05_21:46:27",
// local time. Returned as seconds on a proleptic day count (only differences are used).
std::optional<long long> entry_time(std::string_view v) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (v.size() < 19 || v[4] != '-' || v[7] != '-' || (v[10] != '_' && v[10] != 'T' && v[10] != ' ') ||
      v[13] != ':' || v[16] != ':')
    return std::nullopt;
  auto num = [&](std::size_t at, std::size_t n, int& out) {
    auto [p, ec] = std::from_chars(v.data() + at, v.data() + at + n, out);
    return ec == std::errc() && p == v.data() + at + n;
  };
  if (!num(0, 4, y) || !num(5, 2, mo) || !num(8, 2, d) || !num(11, 2, h) || !num(14, 2, mi) || !num(17, 2, s))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return std::nullopt;
  // Days from civil (H. Hinnant's algorithm, public domain: howardhinnant.github.io/date_algorithms.html).
  const int yy = y - (mo <= 2);
  const long long era = (yy >= 0 ? yy : yy - 399) / 400;
  const long long yoe = yy - era * 400;
  const long long doy = (153LL * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const long long days = era * 146097 + doe;
  return ((days * 24 + h) * 60 + mi) * 60 + s;
}

RankExit* slot(std::map<int, RankExit>& exits, long long rank, std::size_t max_ranks) {
  if (rank < 0 || rank > 10'000'000) return nullptr;
  auto it = exits.find(static_cast<int>(rank));
  if (it != exits.end()) return &it->second;
  if (exits.size() >= max_ranks) return nullptr;
  return &exits[static_cast<int>(rank)];
}

}  // namespace

bool read_exit_line(std::string_view text, ExitBlockState& st, std::map<int, RankExit>& exits,
                    std::size_t max_ranks) {
  std::string_view t = core::trim(text);
  if (t.empty()) return false;
  std::string_view v;
  switch (t.front()) {
    case 'h':  // torchrun "host      : node1"
      if (field(t, "host", v)) {
        st.host = std::string(v);
        return true;
      }
      return false;
    case 'r':  // torchrun "rank      : 3 (local_rank: 3)"
      if (field(t, "rank", v)) {
        auto r = leading_int(v);
        auto lr = int_after(v, "(local_rank:");
        if (!r || !lr) return false;
        if (RankExit* e = slot(exits, *r, max_ranks)) {
          e->local_rank = static_cast<int>(*lr);
          if (st.host) e->host = st.host;
          if (st.time) e->time = st.time;
          e->root_cause |= st.root;
          st.rank = static_cast<int>(*r);
        }
        st.host.reset();
        st.time.reset();
        return true;
      }
      return false;
    case 't':  // torchrun "time      : 2026-12-05_21:46:27"
      if (field(t, "time", v)) {
        st.time = entry_time(v);
        return st.time.has_value();
      }
      return false;
    case 'e':  // torchrun "exitcode  : -9 (pid: 123)  (SIGKILL)"
      if (st.rank && field(t, "exitcode", v)) {
        auto code = leading_int(v);
        RankExit& e = exits[*st.rank];
        if (code) {
          e.code = static_cast<int>(*code);
          if (*code < 0) e.signal = static_cast<int>(-*code);
        }
        if (auto pid = int_after(v, "(pid:")) e.pid = static_cast<int>(*pid);
        return true;
      }
      return false;
    case 'R':
      if (t.substr(0, 10) == "Root Cause") {
        st.root = true;
        st.rank.reset();
        return true;
      }
      return false;
    case 'F':
      if (t == "Failures:") {
        st.root = false;
        st.rank.reset();
        return true;
      }
      return false;
    case '=':
      if (t.substr(0, 8) == "========") {
        st = ExitBlockState{};
        return true;
      }
      return false;
    case 'm':  // "mpirun noticed that process rank 3 with PID 123 on node h exited on signal 9 (Killed)."
      if (t.substr(0, 33) == "mpirun noticed that process rank ") {
        auto r = int_after(t, "process rank ");
        if (!r) return false;
        RankExit* e = slot(exits, *r, max_ranks);
        if (!e) return true;
        if (auto pid = int_after(t, " with PID ")) e->pid = static_cast<int>(*pid);
        if (auto n = t.find(" on node "); n != std::string_view::npos) {
          auto rest = t.substr(n + 9);
          e->host = std::string(rest.substr(0, rest.find(' ')));
        }
        if (auto s = int_after(t, "exited on signal ")) e->signal = static_cast<int>(*s);
        else if (auto c = int_after(t, "exited with status ")) e->code = static_cast<int>(*c);
        return true;
      }
      return false;
    case 'T':
      if (t.substr(0, 31) == "The first process to do so was") {
        st.mpi_first = true;
        return true;
      }
      return false;
    case 'P':  // mpirun "Process name: [[7375,1],2]"
      if (t.substr(0, 14) == "Process name: ") {
        auto c = t.rfind(',');
        auto r = c == std::string_view::npos ? std::nullopt : leading_int(t.substr(c + 1));
        if (!r) return false;
        st.mpi_rank = static_cast<int>(*r);
        if (RankExit* e = slot(exits, *r, max_ranks)) e->first_failed |= st.mpi_first;
        st.mpi_first = false;
        return true;
      }
      return false;
    case 'E':  // mpirun "Exit code:    1"
      if (st.mpi_rank && field(t, "Exit code", v)) {
        if (auto code = leading_int(v)) exits[*st.mpi_rank].code = static_cast<int>(*code);
        st.mpi_rank.reset();
        return true;
      }
      return false;
    case 's':  // "srun: error: node3: task 5: Killed" / "...: task 5: Exited with exit code 1"
      if (t.substr(0, 13) == "srun: error: ") {
        // srun prints these as the task exits reach it, so the first is the first task to fail
        // (the same as mpirun's "first process"; a task that exits 0 gets no line).
        const bool first = !st.srun_seen;
        // "n2: tasks 3-4: Terminated": srun folds the tasks of one node that ended the same way into
        // one line, the task ids as Slurm's bit_fmt() writes a set ("0-3,5,7-8"). Each of them is
        // a task srun reported on (srun prints nothing for a task that exits 0, which is what
        // cascade.cc reads from a task missing here), with its node and exit code; a stop signal
        // is kept, a crash signal is not: one line for several tasks is srun tearing the step down
        // ("tasks 0-7: Killed"), not several crashes. Not the first failure either.
        if (auto k = t.find(": tasks "); k != std::string_view::npos) {
          st.srun_seen = true;
          auto node = t.substr(13, k - 13);
          auto list = t.substr(k + 8);
          list = list.substr(0, list.find(':'));
          auto c = int_after(t, "exit code ");
          auto sig = exit_signal(t.substr(k + 8));
          const bool stop = sig && (*sig == 15 || *sig == 2 || *sig == 1);
          for_each_task(list, [&](int r) {
            RankExit* e = slot(exits, r, max_ranks);
            if (!e) return false;
            e->by_srun = true;
            if (!node.empty() && node.find(' ') == std::string_view::npos) e->host = std::string(node);
            if (c) e->code = static_cast<int>(*c);
            if (stop) e->signal = sig;
            return true;
          });
          return true;
        }
        auto k = t.find(": task ");
        if (k == std::string_view::npos) return false;
        auto r = leading_int(t.substr(k + 7));
        if (!r) return false;
        st.srun_seen = true;
        RankExit* e = slot(exits, *r, max_ranks);
        if (!e) return true;
        e->by_srun = true;
        e->first_failed |= first;
        auto node = t.substr(13, k - 13);
        if (!node.empty() && node.find(' ') == std::string_view::npos) e->host = std::string(node);
        if (auto c = int_after(t, "exit code ")) {
          e->code = static_cast<int>(*c);
          return true;
        }
        if (auto sig = exit_signal(t.substr(k + 7))) e->signal = sig;
        return true;
      }
      return false;
    default:
      return false;
  }
}

}  // namespace ncdx::analyze
