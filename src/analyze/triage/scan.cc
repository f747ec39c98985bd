#include "analyze/triage/scan.h"
#include "analyze/triage/shell_host.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "core/redact.h"
#include "core/strings.h"
#include "analyze/logs/line_clean.h"
#include "analyze/triage/facts.h"
#include "analyze/triage/fingerprint.h"
#include "analyze/triage/fr_trace_text.h"
#include "analyze/triage/line_shapes.h"
#include "analyze/triage/ras_report.h"
#include "analyze/triage/store_rendezvous.h"

namespace ncdx::analyze {
namespace {
constexpr std::size_t kNone = static_cast<std::size_t>(-1);
// How far apart (in lines of one file) two signatures may be and still describe one error: PyTorch
// prints "NCCL error ..., invalid usage" then "ncclInvalidUsage: ..." then "Last error:" then the
// WARN text; NCCL prints its WARN before the exception that carries the result code.
constexpr long long kRefineWindow = 8;
constexpr std::size_t kRecentPerFile = 16;

bool earlier(const TriageEvent& a, const TriageEvent& b) {
  // Times from different clocks (epoch vs time of day) are not comparable: fall back to order.
  if (a.time && b.time && a.time_is_epoch == b.time_is_epoch) return *a.time < *b.time;
  return a.order < b.order;
}

}  // namespace

std::string evidence_text(std::string_view line, std::size_t max_chars) {
  auto s = core::redact_text(core::sanitize_utf8(core::trim(line)));
  if (s.size() > max_chars) {
    s.resize(max_chars);
    while (!s.empty() && (static_cast<unsigned char>(s.back()) & 0xC0) == 0x80) s.pop_back();
    if (!s.empty() && (static_cast<unsigned char>(s.back()) & 0x80)) s.pop_back();
    s += "…";
  }
  return s;
}

Scanner::Scanner(const knowledge::SignatureSet& sigs, ScanOptions opts)
    : sigs_(sigs), opts_(opts), hit_index_(sigs.all().size(), kNone) {}

std::size_t Scanner::add_file(const std::string& display, const FileHints& hints) {
  result_.input.files.push_back(display);
  hints_.push_back(hints);
  // torchrun --log-dir ".../attempt_0/<local_rank>/stderr.log": on one node (the common case, and
  // the only one a single log tree can show) the local rank is the global rank. Trees of several
  // nodes must be given apart (their local ranks repeat): see docs/TRIAGE.md §1.
  if (!hints_.back().rank && hints_.back().local_rank) hints_.back().rank = hints_.back().local_rank;
  file_hints_.push_back(hints_.back());
  exit_state_.emplace_back();
  fr_trace_.emplace_back();
  ras_.emplace_back();
  frames_.emplace_back();
  recent_.emplace_back();
  carry_.emplace_back();
  return result_.input.files.size() - 1;
}

// Writes the key into `out` (a reused buffer: this runs for every line).
void Scanner::process_key(const LinePrefix& p, std::size_t file, std::string& out) const {
  const auto& h = hints_[file];
  const auto& host = p.host ? p.host : h.host;
  auto pid = p.pid ? p.pid : h.pid;
  char num[24];
  auto put = [&](const char* tag, long long v) {
    out.assign(tag);
    auto [end, ec] = std::to_chars(num, num + sizeof num, v);
    out.append(num, end);
  };
  if (host && pid) {
    out.assign(*host);
    out.push_back(':');
    auto [end, ec] = std::to_chars(num, num + sizeof num, *pid);
    out.append(num, end);
  } else if (p.rank) {
    put("rank:", *p.rank);
  } else if (h.rank) {
    put("rank:", *h.rank);
  } else {
    put("file:", static_cast<long long>(file));
  }
}

void Scanner::add_event(TriageEvent ev) {
  auto& idx = hit_index_[ev.sig];
  if (idx == kNone) {
    idx = result_.hits.size();
    SignatureHits fresh;
    fresh.sig = ev.sig;
    result_.hits.push_back(std::move(fresh));
  }
  auto& h = result_.hits[idx];
  ++h.count;
  if (ev.rank) h.ranks.insert(*ev.rank);
  if (ev.host && h.hosts.size() < 4096) h.hosts.insert(*ev.host);
  if (!h.earliest || earlier(ev, *h.earliest)) h.earliest = ev;
  if (h.samples.size() < opts_.max_samples) h.samples.push_back(std::move(ev));
}

void Scanner::feed(std::size_t file, long long lineno, std::string_view line,
                   std::vector<TriageEvent>* new_events) {
  ++result_.input.lines;
  result_.input.bytes += line.size() + 1;
  if (line.empty()) {
    carry_[file] = Carry{};
    return;
  }
  // Pasted and scraped logs: escape sequences, entities, odd spaces; '\r' redraws (tqdm) make one
  // stored line of several that a terminal showed. NCCL INFO lines (most of a debug log) are
  // taken as NCCL printed them: their prefix parsed, nothing pasted sits before it.
  LinePrefix p = parse_prefix(line);
  const bool info = p.nccl && p.level == LineLevel::info;  // only its prefix is checked
  nccl_tests_.add(file, lineno, line, info);
  const std::size_t head = info && !p.message.empty() ? static_cast<std::size_t>(p.message.data() - line.data()) : line.size();
  if (needs_cleaning(line.substr(0, head))) {
    std::string_view clean = clean_line(line, clean_);
    if (clean.find('\r') != std::string_view::npos) {
      split_redraws(clean, [&](std::string_view piece) {
        LinePrefix q = parse_prefix(piece);
        feed_line(file, lineno, piece, q, new_events);
      });
      return;
    }
    p = parse_prefix(clean);
    line = clean;
  }
  feed_line(file, lineno, line, p, new_events);
}

namespace {
// A line none of whose prefixes was recognised (a traceback line, a wrapped piece, a message's
// continuation).
bool bare(const LinePrefix& p) {
  return !p.nccl && !p.rank && !p.local_rank && !p.cuda_dev && !p.pid && !p.host && !p.epoch && !p.clock &&
         p.time_text.empty() && p.level == LineLevel::unknown && p.source.empty();
}
// A piece that continues a sentence: starts with a lowercase letter, a digit or punctuation.
bool mid_sentence(std::string_view line) {
  const char c = line.empty() ? ' ' : line.front();
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == ')' || c == ',' || c == '.' || c == ':' ||
         c == ';' || c == '\'' || c == '"' || c == ']';
}
// Whether an unprefixed line after a glog error line is part of that message. PyTorch continues a
// C++ exception on "frame #N" lines, "Exception raised from …", the NCCL result name and "Last error:"
// followed by NCCL's own text; a line that starts a new sentence of its own (another tool's output
// pasted below: nvidia-smi, a kernel line) is not, and must not take the rank of the line above.
bool continues_message(std::string_view line, bool after_last_error) {
  // (Indentation says nothing here: a pasted log is often indented as a whole.)
  if (after_last_error || line.empty() || mid_sentence(line)) return true;
  for (std::string_view start : {"Exception raised from", "frame #", "what()", "Last error", "Traceback",
                                 "terminate called", "Error ", "Cuda failure", "NCCL ", "Process group"})
    if (line.substr(0, start.size()) == start) return true;
  // "ncclUnhandledCudaError: Call to CUDA function failed." and friends.
  return line.size() > 5 && line.substr(0, 4) == "nccl" && line[4] >= 'A' && line[4] <= 'Z';
}

}  // namespace

bool Scanner::tail_section(std::size_t file, std::string_view text) {
  auto t = core::trim(text);
  if (t.size() >= 2 && t[0] == '$' && t[1] == ' ') {  // a new command: its output is no longer the section's
    hints_[file] = file_hints_[file];
    return false;
  }
  auto path = tail_header_path(t);
  if (!path) return false;
  // `tail -n +1 run/attempt_0/*/stderr.log` (torchrun --log-dir, one node: the local rank is the
  // global rank, as for the tree itself in add_file), `tail rank3.log rank5.log`, `head node-1/rank_3/out`.
  FileHints section = hints_from_path(*path);
  if (!section.rank && section.local_rank) section.rank = section.local_rank;
  if (!section.host) section.host = file_hints_[file].host;  // tail ran where the outer file was written
  hints_[file] = std::move(section);
  carry_[file] = Carry{};
  return true;
}

void Scanner::feed_line(std::size_t file, long long lineno, std::string_view line, LinePrefix& p,
                        std::vector<TriageEvent>* new_events) {
  // tail's "==> path <==" headers and shell prompts (cheap test first: this runs for every line).
  if (const char c = p.text.empty() ? 'x' : p.text.front(); c == '=' || c == '$' || c == ' ' || c == '\t')
    if (const auto t = core::trim(p.text); !t.empty() && (t.front() == '=' || t.front() == '$') && tail_section(file, t))
      return;
  const auto& h = hints_[file];
  Carry& carry = carry_[file];
  // torchrun's "[default3]:" (--tee) names the local rank: on one node, the global rank. A rank
  // printed inside the line ("[default3]:[rank11]:") wins. A line that names its host (NCCL's
  // "host:pid:tid") may come from any of several nodes, whose local ranks repeat: its process is
  // known by host:pid, and the local rank says nothing about its global rank.
  if (!p.rank && p.local_rank && !p.host) p.rank = p.local_rank;
  const bool unprefixed = bare(p);
  // An unprefixed piece takes the process identity of the line it continues.
  auto take_identity = [](LinePrefix& to, const Who& w) {
    to.rank = w.rank;
    to.host = w.host;
    to.pid = w.pid;
    to.cuda_dev = w.cuda_dev;
  };
  if (!unprefixed) {
    carry.tb_rank.reset();
    if (p.rank && core::trim(line).starts_with("[rank")) carry.rank_line = lineno, carry.rank_line_rank = *p.rank;
  }
  if (unprefixed && !p.rank)
    if (auto r = traceback_rank(carry, lineno, p)) p.rank = r;
  if (!unprefixed) {
    // An error line of glog or a logger may continue on unprefixed lines (PyTorch prints a C++
    // exception's "what()" and "Exception raised from ..." frames after the glog prefix).
    carry.continues = p.level >= LineLevel::warn && (p.rank || p.host || p.pid);
    carry.after_last_error = false;
    if (carry.continues) {  // (not on the hot path: INFO lines and lines without identity skip it)
      carry.who = {p.rank, p.host, p.pid, p.cuda_dev, p.epoch ? p.epoch : p.clock, p.epoch.has_value(), p.time_text};
      carry.last = lineno;
      carry.span = 0;
    }
  } else if (carry.continues && lineno - carry.last <= 1 && carry.span < kContinuationLines &&
             continues_message(p.text, carry.after_last_error)) {
    const Who& w = carry.who;
    take_identity(p, w);
    if (w.time) (w.epoch ? p.epoch : p.clock) = w.time;
    p.time_text = w.time_text;
    carry.last = lineno;
    ++carry.span;
    carry.after_last_error = core::trim(p.text) == "Last error:";
  } else if (carry.wrap_last == lineno - 1 && carry.wrap_pieces == 1 && carry.wrap_piece >= kMinWrappedLine &&
             prefix_spans_wrap(carry, line)) {
    // The terminal cut the line inside its prefix ("... NCCL WAR" / "N NET/IB: ..."): the prefix
    // read across both pieces names the process, for this piece and the joined line.
    take_identity(p, carry.wrap_who);
    carry.continues = false;
  } else if (carry.wrap_last == lineno - 1 && carry.wrap_piece >= kMinWrappedLine && mid_sentence(p.text)) {
    // The rest of a line the terminal cut at its width: it starts mid-word or mid-sentence
    // (a new message would start with a capital, a space or a prefix).
    take_identity(p, carry.wrap_who);
    carry.continues = false;
  } else {
    carry.continues = false;
  }

  // A pasted command that runs on another host ("$ ssh node02 dmesg", "$ kubectl exec worker-1 --
  // nvidia-smi"): its output lines name no host of their own, but were printed there.
  if (auto cmd = triage::shell_command_host(p.text.empty() ? line : p.text)) {
    carry.cmd_host = std::move(cmd->host);
    carry.cmd_host_whole = cmd->whole;
  } else if (!p.host && !carry.cmd_host.empty() && (carry.cmd_host_whole || (!p.rank && !p.pid))) {
    p.host = carry.cmd_host;
  }

  ProcessFacts* known = nullptr;
  PidSlot* slot_of_line = nullptr;  // the pid_index_ entry `known` came from
  // NCCL 2.14-2.21 print "NCCL version x.y.z" with a bare printf (2.22+ too below INFO), once per
  // process after its own INFO lines (NVIDIA/nccl src/init.cc): it belongs to the process of the NCCL
  // line before it (else two hosts' bare version lines in one paste fall into one unknown process
  // and their skew is lost).
  if (unprefixed && carry.last_nccl && p.text.substr(0, 13) == "NCCL version ") known = carry.last_nccl;
  const auto& line_host = p.host ? p.host : h.host;
  const auto line_pid = p.pid ? p.pid : h.pid;
  if (line_host && line_host->ends_with("-master-0") && result_.topology.master_pods.size() < 4)
    result_.topology.master_pods.insert(*line_host);
  if (line_host && line_pid)
    if (auto c = pid_index_.find(*line_pid); c != pid_index_.end() && c->second.host == *line_host) {
      known = c->second.proc;
      slot_of_line = &c->second;
    }
  if (!known) {
    process_key(p, file, key_);
    auto slot = proc_index_.find(key_);
    if (slot == proc_index_.end()) {
      if (result_.processes.size() >= opts_.max_processes) key_ = "overflow";
      auto [it, fresh] = result_.processes.try_emplace(key_);
      if (fresh) {
        it->second.host = line_host;
        it->second.pid = line_pid;
      }
      slot = proc_index_.emplace(key_, &it->second).first;
    }
    known = slot->second;
    if (line_host && line_pid && pid_index_.size() < opts_.max_processes) pid_index_[*line_pid] = {*line_host, known, 0};
  }
  ProcessFacts& proc = *known;
  if (p.nccl && p.host && p.pid) carry.last_nccl = &proc;
  // Hot path: skip the set insert in the common case (the process writes one file, or the last one,
  // or its pid slot remembers this file as listed).
  if (!(slot_of_line && slot_of_line->listed == file + 1) && proc.files.size() < 8) {
    if (proc.files.empty() || *proc.files.rbegin() != result_.input.files[file]) proc.files.insert(result_.input.files[file]);
    if (slot_of_line) slot_of_line->listed = file + 1;
  }
  ++proc.lines;
  if (!proc.rank) {
    if (p.rank) proc.rank = p.rank;
    else if (h.rank) proc.rank = h.rank;
  }
  if (p.cuda_dev && proc.cuda_devs.size() < 64) proc.cuda_devs.insert(*p.cuda_dev);
  std::optional<double> t = p.epoch ? p.epoch : p.clock;
  if (t) {
    if (!proc.first_time || *t < *proc.first_time) proc.first_time = t;
    if (!proc.last_time || *t > *proc.last_time) proc.last_time = t;
    proc.time_is_epoch = p.epoch.has_value();
  }

  std::string_view msg = p.message.empty() ? line : p.message;
  if (collect_facts(msg, proc, result_.topology) == FactKind::fixed_format) {
    carry.wrap_last = 0;
    return;
  }
  if (auto tm = core::trim(msg); tm.substr(0, 6) == "File \"") {
    frames_[file].text = evidence_text(tm, 200);
    frames_[file].line = lineno;
  }
  const std::string_view text = p.text;
  if (text.empty()) {  // a code fence or a line of decoration only
    carry.wrap_last = 0;
    return;
  }
  const bool unraisable = unraisable_report_line(carry.unraisable, core::trim(text));
  // An HTTP server that answered a request with success after an error line was still serving:
  // what it logged before was a request's failure (a rejected prompt, a client that hung up), not
  // the job's. Only the unexplained error lines of this file are dropped; signatures keep theirs.
  if (!result_.error_lines.empty() && answered_ok(text))
    std::erase_if(result_.error_lines, [&](const ErrorLine& e) { return e.file == file; });
  // Launcher exit lines (torchrun's failure block, mpirun, srun): how each rank ended.
  bool exit_line = read_exit_line(text, exit_state_[file], result_.exits);
  // srun's and mpirun's one-line exit reports behind a prefix the line reader does not strip (a
  // Python logger's "- ERROR - ", a worker tag): the report starts where its own words do.
  for (std::string_view w : {"srun: error: ", "mpirun noticed that process rank "}) {
    if (exit_line) break;
    if (auto at = text.find(w); at != std::string_view::npos && at > 0 && at < 160)
      exit_line = read_exit_line(text.substr(at), exit_state_[file], result_.exits);
  }
  // The torch.distributed call a traceback went through ("distributed_c10d.py", line N, in all_reduce).
  if (auto c = text.find("distributed_c10d.py\", line "); c != std::string_view::npos) {
    if (auto in = text.find(", in ", c); in != std::string_view::npos) {
      auto name = core::trim(text.substr(in + 5));
      if (!name.empty() && name.size() < 64 && name != "wrapper") proc.c10d_call = std::string(name);
    }
  }
  if (text.find("CollectiveFingerPrint(") != std::string_view::npos) read_fingerprints(text, result_.fingerprints);
  read_store_line(text, proc.rank, file, lineno, result_.store);
  read_fr_trace_line(text, file, lineno, fr_trace_[file], result_.fr_trace);
  read_ras_line(text, file, lineno, ras_[file], result_.ras);
  reported_for_ = reported_rank(carry, p);

  matches_.clear();
  sigs_.match(text, matches_, /*include_context=*/false);
  auto who = [&] { return Who{p.rank, p.host, p.pid, p.cuda_dev, t, p.epoch.has_value(), p.time_text}; };
  const std::size_t own = matches_.size();
  note_catalogued(file, lineno, line, text, p.level, who(), std::span(matches_.data(), own));
  // A line the terminal or the issue page wrapped: the signature's words are split between the
  // previous line(s) and this unprefixed one. Matches that need both are added for the first
  // line's process (word wrap joins with a space, a hard wrap at the terminal width without).
  const bool wrapped = unprefixed && carry.wrap_last == lineno - 1 && carry.wrap_piece >= kMinWrappedLine;
  if (wrapped) match_wrapped(carry, text);
  if (!matches_.empty()) {
    // This piece is part of the joined line, which is evidence for its strongest signature only.
    int joined_best = -1;
    for (std::size_t k = own; k < matches_.size(); ++k)
      joined_best = std::max(joined_best, sigs_.all()[matches_[k].index].priority);
    emit_matches(file, lineno, line, who(), proc, 0, own, new_events, joined_best);
    if (own < matches_.size()) {
      // The joined line is one line: a signature its first piece matched alone (torchrun's
      // "ChildFailedError: " with the "=====" rule on the next line) outranks a weaker one that
      // only the join completes (python.exception's "Error: <detail>").
      int pieces_best = -1;
      for (std::size_t sig : carry.wrap_sigs)
        if (sigs_.all()[sig].role != knowledge::Role::context) pieces_best = std::max(pieces_best, sigs_.all()[sig].priority);
      emit_matches(file, carry.wrap_line, joined_, carry.wrap_who, proc, own, matches_.size(), new_events, pieces_best);
    }
  } else if (p.level != LineLevel::info && p.level != LineLevel::warn && !exit_line && !(wrapped && carry.wrap_quiet) &&
             !unraisable && !ras_layout_line(text)) {
    // A line its logger printed at INFO or WARNING level (NCCL INFO/WARN, glog I/W, Python logging
    // INFO/WARNING) is the library saying it carries on ("P2P test failed" before vLLM falls back,
    // a deprecated variable): a failure among them is a signature's business (NCCL WARN texts have
    // nccl.warn.unclassified). A launcher's exit line is read above as how a rank ended: the
    // cascade weighs it; alone (srun tearing down "tasks 0-7") it is no error of its own. The rest of
    // such a line that the terminal wrapped is still that INFO line.
    note_error_evidence(file, lineno, line, text, who());
  }
  if (wrapped && carry.wrap_pieces < kMaxWrapPieces && carry.wrap_text.size() <= kMaxWrapBytes) {
    ++carry.wrap_pieces;  // the chains already hold this piece
  } else if (line.size() < kMinWrappedLine) {  // too short to have been cut by a wrap
    carry.wrap_last = 0;
    return;
  } else {
    carry.wrap_line = lineno;
    carry.wrap_text.assign(text);  // (the hard-wrap chain is copied from it when a piece follows)
    carry.wrap_who = who();
    carry.wrap_quiet = p.level == LineLevel::info || p.level == LineLevel::warn;
    carry.wrap_sigs.clear();
    carry.wrap_pieces = 1;
  }
  for (const auto& m : matches_) carry.wrap_sigs.push_back(m.index);
  carry.wrap_last = lineno;
  carry.wrap_piece = line.size();  // the terminal wrapped the whole line, prefix included
}

// Whether the previous line's prefix continues on this piece (a hard wrap inside it): the
// previous line joined to this one parses to a longer prefix that names more of the process.
// Then the first piece's identity is completed in carry.wrap_who.
bool Scanner::prefix_spans_wrap(Carry& carry, std::string_view line) {
  joined_.assign(carry.wrap_text).append(line);
  LinePrefix q = parse_prefix(joined_);
  const std::size_t head = q.message.empty() ? joined_.size() : static_cast<std::size_t>(q.message.data() - joined_.data());
  Who& w = carry.wrap_who;
  if (head <= carry.wrap_text.size() || (!q.host && !q.rank && !q.pid) ||
      (q.host == w.host && q.rank == w.rank && q.pid == w.pid))
    return false;
  if (q.rank) w.rank = q.rank;
  if (q.host) w.host = q.host;
  if (q.pid) w.pid = q.pid;
  if (q.cuda_dev) w.cuda_dev = q.cuda_dev;
  return true;
}

// Appends to matches_ the signatures that match the previous pieces joined to `text` but no piece
// alone. Two joins: with a space (an editor's word wrap) and without (a terminal's hard wrap at its
// width, which may cut a word). joined_ is left as the one whose new match is strongest (the
// evidence text).
void Scanner::match_wrapped(Carry& carry, std::string_view text) {
  auto seen = [&](std::size_t sig) {
    for (const auto& m : matches_)
      if (m.index == sig) return true;
    return std::find(carry.wrap_sigs.begin(), carry.wrap_sigs.end(), sig) != carry.wrap_sigs.end();
  };
  if (carry.wrap_pieces == 1) carry.wrap_cat.assign(carry.wrap_text);
  carry.wrap_text.append(" ").append(text);
  carry.wrap_cat.append(text);
  int best = -1;
  const std::string* best_text = &carry.wrap_text;
  for (const std::string* joined : {&carry.wrap_text, &carry.wrap_cat}) {
    wrapped_.clear();
    sigs_.match(*joined, wrapped_, /*include_context=*/false);
    for (auto& m : wrapped_) {
      if (seen(m.index)) continue;
      if (int pr = sigs_.all()[m.index].priority; pr > best) {
        best = pr;
        best_text = joined;
      }
      matches_.push_back(std::move(m));
    }
  }
  joined_.assign(*best_text);
}

// Turns matches_[from, to) into events of one line.
void Scanner::emit_matches(std::size_t file, long long lineno, std::string_view line, const Who& who,
                           ProcessFacts& proc, std::size_t from, std::size_t to, std::vector<TriageEvent>* new_events,
                           int floor) {
  const auto& h = hints_[file];
  // Several signatures can match one line (a generic "NCCL WARN" and the specific IB error it
  // carries): the line is evidence for the strongest one only. Context signatures are not asked
  // for: collect_facts reads those facts by hand.
  int best = floor;
  for (std::size_t k = from; k < to; ++k) {
    const auto& sig = sigs_.all()[matches_[k].index];
    if (sig.role != knowledge::Role::context) best = std::max(best, sig.priority);
  }
  std::optional<int> rank = who.rank ? who.rank : h.rank ? h.rank : proc.rank;
  const bool for_other = reported_for_ && rank != reported_for_;
  if (reported_for_) rank = reported_for_;
  for (std::size_t k = from; k < to; ++k) {
    auto& m = matches_[k];
    const auto& sig = sigs_.all()[m.index];
    if (sig.role != knowledge::Role::context && sig.priority < best) continue;
    if (sig.role != knowledge::Role::context) ++proc.error_lines;
    TriageEvent ev;
    ev.sig = m.index;
    ev.fields = std::move(m.fields);
    // A redacted peer ("<IP><port>", "xxx.xxx.xxx.xxx<port>", "PRIVATE_IP") names nobody.
    for (const char* k : {"peer", "peer_ip", "remote"})
      if (auto f = ev.fields.find(k); f != ev.fields.end() && is_placeholder(std::string_view(f->second).substr(0, f->second.find('<'))))
        ev.fields.erase(f);
    ev.file = file;
    ev.line = lineno;
    ev.order = order_++;
    ev.rank = rank;
    ev.host = who.host ? who.host : h.host;
    ev.pid = who.pid ? who.pid : h.pid;
    if (for_other) ev.host.reset(), ev.pid.reset();  // the printer's, not the failed rank's
    ev.cuda_dev = who.cuda_dev;
    ev.time = who.time;
    ev.time_is_epoch = who.epoch;
    ev.time_text = who.time_text;
    ev.text = evidence_text(line);
    // A traceback prints its innermost frame and code line just before the exception line.
    if (const auto& fr = frames_[file]; fr.line && lineno - fr.line <= 3 && lineno > fr.line)
      ev.text += "  [raised at " + fr.text + "]";
    if (new_events && sig.role != knowledge::Role::context) new_events->push_back(ev);
    add_event(std::move(ev));
  }
  refine_hits(file, lineno, rank, from, to);
}

// Records this line's failure signatures among the file's recent ones, then marks every hit whose
// refinement names a signature seen within the window (same rank when both are known).
void Scanner::refine_hits(std::size_t file, long long lineno, std::optional<int> rank, std::size_t from,
                          std::size_t to) {
  auto& recent = recent_[file];
  for (std::size_t k = from; k < to; ++k)
    if (sigs_.all()[matches_[k].index].role != knowledge::Role::context) recent.push_back({matches_[k].index, lineno, rank});
  if (recent.size() > kRecentPerFile) recent.erase(recent.begin(), recent.end() - kRecentPerFile);
  auto near = [&](const Recent& r) {
    return lineno - r.line <= kRefineWindow && (!rank || !r.rank || *rank == *r.rank);
  };
  for (const auto& a : recent) {
    if (!near(a) || hit_index_[a.sig] == kNone) continue;
    auto& hit = result_.hits[hit_index_[a.sig]];
    if (hit.refinement) continue;
    const auto& rules = sigs_.all()[a.sig].refine;
    for (std::size_t k = 0; k < rules.size() && !hit.refinement; ++k)
      for (const auto& b : recent)
        if (!rules[k].with.empty() && b.sig == rules[k].with_index && near(b)) {
          hit.refinement = k;
          break;
        }
  }
}

void Scanner::scan_file(const InputFile& in) {
  auto file = add_file(in.display, hints_from_path(in.path));
  auto reader = LineReader::open(in.path);
  if (!reader) {
    note_problem(reader.status());
    return;
  }
  std::string_view line;
  const auto counted_before = result_.input.bytes;
  while ((*reader)->next(line)) {
    if ((*reader)->last_truncated()) ++result_.input.truncated_lines;
    feed(file, (*reader)->line_number(), line);
  }
  // The summary counts every byte read, also the parts of long lines that were cut off.
  const auto counted = result_.input.bytes - counted_before;
  if ((*reader)->bytes_read() > counted) result_.input.bytes += (*reader)->bytes_read() - counted;
  if (auto st = (*reader)->status(); !st) note_problem(st);
}

const ScanResult& Scanner::finish() {
  result_.nccl_tests = nccl_tests_.take_tables();
  proc_index_.clear();  // the merges below erase processes
  pid_index_.clear();
  for (auto& c : carry_) c.last_nccl = nullptr;
  // A bare "NCCL version" line or a [rankN]: line lands in a file-level or rank-level process;
  // when the file holds exactly one host:pid process, they are the same process.
  std::map<std::string, std::vector<std::string>> by_file;
  for (auto& [key, pf] : result_.processes)
    if (key.find(':') != std::string::npos && key.rfind("file:", 0) != 0 && key.rfind("rank:", 0) != 0)
      for (const auto& f : pf.files) by_file[f].push_back(key);
  for (std::size_t f = 0; f < result_.input.files.size(); ++f) {
    auto it = result_.processes.find("file:" + std::to_string(f));
    if (it == result_.processes.end()) continue;
    auto owners = by_file.find(result_.input.files[f]);
    if (owners != by_file.end() && owners->second.size() == 1) {
      merge_facts(result_.processes[owners->second.front()], it->second);
      result_.processes.erase(it);
    }
  }
  // A line without a prefix (a bare "NCCL WARN", a traceback) in a file written by one host
  // belongs to that host.
  std::map<std::string, std::set<std::string>> file_hosts;
  for (const auto& [key, pf] : result_.processes)
    if (pf.host)
      for (const auto& f : pf.files) file_hosts[f].insert(*pf.host);
  auto fill_host = [&](TriageEvent& ev, SignatureHits& h) {
    if (ev.host || ev.file >= result_.input.files.size()) return;
    auto it = file_hosts.find(result_.input.files[ev.file]);
    if (it != file_hosts.end() && it->second.size() == 1) {
      ev.host = *it->second.begin();
      h.hosts.insert(*ev.host);
    }
  };
  for (auto& h : result_.hits) {
    for (auto& ev : h.samples) fill_host(ev, h);
    if (h.earliest) fill_host(*h.earliest, h);
  }
  // host:pid → rank, for events printed before the Init line that names the rank.
  std::map<std::pair<std::string, int>, int> pid_rank;
  for (const auto& [key, pf] : result_.processes)
    if (pf.rank && pf.host && pf.pid) pid_rank[{*pf.host, *pf.pid}] = *pf.rank;
  auto resolve = [&](TriageEvent& ev) {
    if (ev.rank || !ev.host || !ev.pid) return;
    if (auto it = pid_rank.find({*ev.host, *ev.pid}); it != pid_rank.end()) ev.rank = it->second;
  };
  for (auto& h : result_.hits) {
    for (auto& ev : h.samples) {
      resolve(ev);
      if (ev.rank) h.ranks.insert(*ev.rank);
    }
    if (h.earliest) resolve(*h.earliest);
  }
  for (auto& c : result_.catalogued)
    if (!c.rank && c.host && c.pid)
      if (auto it = pid_rank.find({*c.host, *c.pid}); it != pid_rank.end()) c.rank = it->second;
  return result_;
}

}  // namespace ncdx::analyze
