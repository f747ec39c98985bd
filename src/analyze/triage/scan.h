#pragma once
// Streams every input line through the prefix parser, the signature set and the fact collector,
// keeping bounded state: a few samples per signature, one ProcessFacts per process.
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyze/logs/log_line.h"
#include "analyze/logs/log_source.h"
#include "analyze/triage/exits.h"
#include "analyze/triage/fr_trace_text.h"
#include "analyze/triage/ras_report.h"
#include "analyze/triage/model.h"
#include "knowledge/signatures.h"

namespace ncdx::analyze {

struct ScanOptions {
  std::size_t max_samples = 8;        // full events kept per signature
  std::size_t max_processes = 100000; // bound on distinct host:pid keys (hostile input)
  std::size_t max_error_lines = 8;    // unexplained error-evidence lines kept for the fallback
  std::size_t max_catalogued = 16;    // catalogue lines kept per kind (failure, generic, observation)
};

class Scanner {
 public:
  Scanner(const knowledge::SignatureSet& sigs, ScanOptions opts = {});

  // Registers an input; returns its index for feed().
  std::size_t add_file(const std::string& display, const FileHints& hints);
  // Feeds one line. Non-context events found on it are appended to `new_events` when given
  // (follow mode prints them as alerts).
  void feed(std::size_t file, long long lineno, std::string_view line,
            std::vector<TriageEvent>* new_events = nullptr);
  // Opens and reads a whole input; problems are recorded in the summary, not fatal.
  void scan_file(const InputFile& in);
  void note_problem(core::Status st) { result_.input.problems.push_back(std::move(st)); }

  // Resolves ranks learned late (pid → rank from Init lines) into events and hit sets.
  const ScanResult& finish();
  const ScanResult& result() const { return result_; }
  const knowledge::SignatureSet& signatures() const { return sigs_; }

 private:
  // Who printed a line, as its prefix (or the line it continues) says.
  struct Who {
    std::optional<int> rank;
    std::optional<std::string> host;
    std::optional<int> pid;
    std::optional<int> cuda_dev;
    std::optional<double> time;
    bool epoch = false;
    std::string time_text;
  };
  // Per file: what the previous lines leave for the next one. `who`/`continues`: an error line
  // of glog or a logger whose message goes on over unprefixed lines (they inherit its prefix).
  // `wrap_*`: the previous line's text and failure signatures, to match a line that the terminal
  // or the issue page wrapped (the signature's words split over two lines).
  struct Carry {
    Who who;
    bool continues = false;
    bool after_last_error = false;  // the previous continuation line was PyTorch's "Last error:"
    long long last = 0;
    int span = 0;
    long long wrap_line = 0;         // first line of the pieces in wrap_text
    long long wrap_last = 0;         // last line read (0: none that can continue)
    std::size_t wrap_piece = 0;      // length of that line's text
    int wrap_pieces = 0;
    std::string wrap_text;           // the pieces joined with spaces (word wrap)
    std::string wrap_cat;            // the pieces joined as they are (hard wrap)
    Who wrap_who;                    // the first piece's prefix
    bool wrap_quiet = false;         // the first piece was printed at INFO/WARNING level
    std::vector<std::size_t> wrap_sigs;  // signatures the pieces matched already
    ProcessFacts* last_nccl = nullptr;   // process of the last host:pid NCCL line of this file
    std::string cmd_host;        // host of the last pasted "$ ssh HOST ..." command (shell_host.h)
    bool cmd_host_whole = false;  // ... for every line below it, not only unprefixed ones
    // Inside CPython's report of an exception it ignored ("Exception ignored in: <obj>", the
    // traceback, the exception line; Python/errors.c PyErr_WriteUnraisable): the interpreter went
    // on, so none of it is error evidence. Lines of it still to come (at most 64).
    int unraisable = 0;
    // A traceback one process prints for another rank (torch.distributed.checkpoint's
    // "Traceback (most recent call last): (RANK N)"): printer's rank (-1: none) → rank N, until the
    // exception line that ends it.
    std::vector<std::pair<int, int>> reported;
    // Python logging's exception(): the record's line carries the formatter's "[rankN]:" prefix, the
    // traceback it appends does not. The last such line, and the rank of the traceback under it
    // (until its exception line).
    long long rank_line = -1;
    int rank_line_rank = 0;
    std::optional<int> tb_rank;
    long long tb_last = -1;
  };
  static constexpr int kContinuationLines = 64;       // at most this many lines inherit a prefix
  static constexpr std::size_t kMinWrappedLine = 60;  // a shorter line did not reach the wrap width
  static constexpr int kMaxWrapPieces = 4;            // a message wrapped onto at most 4 lines
  static constexpr std::size_t kMaxWrapBytes = 1024;

  void feed_line(std::size_t file, long long lineno, std::string_view line, LinePrefix& p,
                 std::vector<TriageEvent>* new_events);
  std::optional<int> reported_rank(Carry& carry, const LinePrefix& p);
  std::optional<int> traceback_rank(Carry& carry, long long lineno, const LinePrefix& p);
  void match_wrapped(Carry& carry, std::string_view text);
  bool prefix_spans_wrap(Carry& carry, std::string_view line);
  void emit_matches(std::size_t file, long long lineno, std::string_view line, const Who& who, ProcessFacts& proc,
                    std::size_t from, std::size_t to, std::vector<TriageEvent>* new_events, int floor = -1);
  void process_key(const LinePrefix& p, std::size_t file, std::string& out) const;
  void add_event(TriageEvent ev);
  void refine_hits(std::size_t file, long long lineno, std::optional<int> rank, std::size_t from, std::size_t to);
  // A line no signature matched: scored for error evidence (the fallback verdict's input).
  void note_error_evidence(std::size_t file, long long lineno, std::string_view line, std::string_view text,
                           const Who& who);

  // A line that looks like an error (not INFO): the catalogue text it carries, if any. `matches`:
  // the signatures the line matched on its own (a severity-info one says it is an observation).
  void note_catalogued(std::size_t file, long long lineno, std::string_view line, std::string_view text,
                       LineLevel level, const Who& who, std::span<const knowledge::SignatureMatch> matches);

  const knowledge::SignatureSet& sigs_;
  ScanOptions opts_;
  ScanResult result_;
  NcclTestsCapture nccl_tests_;
  std::vector<FileHints> hints_;       // per file: what its path says, or the tail section's path
  std::vector<FileHints> file_hints_;  // per file: what its own path says
  // A tail(1) header "==> path <==" starts a section whose lines are that file's: its path's hints
  // replace the file's until the next header or a shell prompt line ("$ ..."). True: `text` was a header.
  bool tail_section(std::size_t file, std::string_view text);
  // Per file: the innermost Python frame of the traceback being printed ("File \"x.py\", line
  // 12, in f") and its line number, so an exception line keeps the frame it was raised in.
  struct Frame {
    std::string text;
    long long line = 0;
  };
  std::vector<Frame> frames_;
  // The rank whose traceback the current line belongs to when its printer reports another rank's
  // failure (Carry::reported); events of the line are that rank's, not the printer's.
  std::optional<int> reported_for_;
  // Per file: the last few failure signatures that matched (winners or not), for refinements
  // (one error reported by two signatures on nearby lines). Touched on matching lines only.
  struct Recent {
    std::size_t sig;
    long long line;
    std::optional<int> rank;
  };
  std::vector<std::vector<Recent>> recent_;
  std::vector<std::size_t> hit_index_;  // signature index → position in result_.hits, or npos
  std::vector<knowledge::SignatureMatch> matches_;  // reused per line
  std::uint64_t order_ = 0;
  std::string key_;  // process-key buffer reused across lines
  // Hash index over result_.processes (map nodes are stable): one hash instead of ~log2(n) string
  // compares of keys that share long prefixes ("gpu-node-03:…"), per line. Cleared by finish().
  std::unordered_map<std::string, ProcessFacts*> proc_index_;
  // Lines with a host:pid prefix (most of an NCCL log) skip even that: pid → (host, process).
  // `listed`: 1 + a file index known to be in the process's `files` already (0: none), so that
  // the per-line set insert, a no-op then, is skipped.
  struct PidSlot {
    std::string host;
    ProcessFacts* proc = nullptr;
    std::size_t listed = 0;
  };
  std::unordered_map<long long, PidSlot> pid_index_;
  std::vector<Carry> carry_;                 // per file
  std::vector<ExitBlockState> exit_state_;   // per file: the launcher block being read
  std::vector<FrTraceTextState> fr_trace_;   // per file: the torchfrtrace report block being read
  std::vector<RasTextState> ras_;            // per file: the NCCL RAS report block being read
  std::string lower_;                        // lowercased line for the evidence scorer (reused)
  std::string clean_;                        // the cleaned line (reused)
  std::string joined_;                       // two wrapped lines joined (reused)
  std::vector<knowledge::SignatureMatch> wrapped_;  // matches of joined_ (reused)
};

// Display text for evidence: valid UTF-8, secrets redacted, at most max_chars.
std::string evidence_text(std::string_view line, std::size_t max_chars = 400);

}  // namespace ncdx::analyze
