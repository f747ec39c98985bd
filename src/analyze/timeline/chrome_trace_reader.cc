// Chrome trace reader (chrome_trace_reader.h): pulls the JSON, fills one chrome::Ev per event
// (chrome_trace_event.h classifies it as its strings go by; "args" objects are skipped unread
// unless they matter) and hands it to chrome::RankFiling (chrome_trace_filing.h).
#include "analyze/timeline/chrome_trace_reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>

#include "analyze/timeline/chrome_trace_filing.h"
#include "analyze/timeline/decimal_fast.h"
#include "analyze/timeline/json_pull.h"
#include "analyze/timeline/span_pull.h"
#include "core/strings.h"

namespace ncdx::analyze::timeline {
namespace {

using namespace chrome;

class Reader {
 public:
  Reader(JsonPull& p, const std::string& name, TraceSet& out) : p_(p), name_(name), out_(out) {}

  core::Status run() {
    Tok t = p_.next();
    if (t == Tok::obj_begin) {
      if (!read_top_object()) return err();
    } else if (t == Tok::arr_begin) {
      array_form_ = true;
      if (!read_events()) return err();
    } else if (t == Tok::error) {
      return err();
    } else {
      return core::Status::bad_input(name_ + ":1: expected a Chrome trace (an object with \"traceEvents\", or an array of events)");
    }
    if (p_.next() != Tok::end) return err();
    if (!saw_events_) return core::Status::bad_input(name_ + ": no \"traceEvents\" array: not a Chrome/Kineto trace");
    filing_.finish(name_, dist_, out_);
    return {};
  }

 private:
  core::Status err() {
    if (!p_.error().is_ok()) return p_.error();
    return core::Status::bad_input(name_ + ":" + std::to_string(p_.line()) + ": malformed trace");
  }

  bool read_top_object() {
    for (;;) {
      Tok t = p_.next();
      if (t == Tok::obj_end) return true;
      if (t != Tok::key) return false;
      std::string_view k = p_.text();
      if (k == "traceEvents") {
        Tok v = p_.next();
        if (v == Tok::arr_begin) {
          if (!read_events()) return false;
        } else if (v == Tok::error) {
          return false;
        } else {
          fail_ = "\"traceEvents\" is not an array";
          p_.skip();
          return bad_here();
        }
      } else if (k == "distributedInfo") {
        Tok v = p_.next();
        if (v == Tok::obj_begin) {
          if (!read_dist_info()) return false;
        } else if (v == Tok::error) {
          return false;
        }
      } else {
        if (p_.value() == Tok::error) return false;
      }
    }
  }

  bool bad_here() {
    bad_msg_ = name_ + ":" + std::to_string(p_.line()) + ": " + fail_;
    return false;
  }

  bool read_dist_info() {
    for (;;) {
      Tok t = p_.next();
      if (t == Tok::obj_end) return true;
      if (t != Tok::key) return false;
      std::string_view k = p_.text();
      if (k == "rank" || k == "world_size" || k == "pg_count") {
        int& slot = k == "rank" ? dist_.rank : k == "world_size" ? dist_.world : dist_.pg_count;
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::num) {
          double d = p_.number();
          if (!p_.error().is_ok()) return false;
          if (d >= 0 && d < 1e7 && d == std::floor(d)) slot = static_cast<int>(d);
        }
      } else if (k == "backend") {
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) dist_.backend = std::string(p_.text().substr(0, 64));
      } else if (p_.value() == Tok::error) {
        return false;
      }
    }
  }

  bool read_events() {
    saw_events_ = true;
    for (;;) {
      // Most events are read straight from the buffer (span_pull.h); one SpanPull gives up on
      // (cut by the buffer's end, an escape, anything odd) is read again by JsonPull from its '{'.
      if (std::string_view buffered = p_.buffered_object(); !buffered.empty()) {
        SpanPull fast(buffered.data(), buffered.data() + buffered.size(), p_.max_string());
        Ev e;
        if (fast.next() == Tok::obj_begin && read_event(fast, e) && fast.done() && !fast.failed()) {
          p_.take_object(fast.used());
          filing_.count_event();
          filing_.take(e, array_form_);
          continue;
        }
      }
      Tok t = p_.next();
      if (t == Tok::arr_end) return true;
      if (t == Tok::obj_begin) {
        Ev e;
        if (!read_event(p_, e)) return false;
        filing_.count_event();
        filing_.take(e, array_form_);
      } else if (t == Tok::error) {
        return false;
      } else {
        if (!p_.skip()) return false;
        filing_.skip("event is not an object");
      }
    }
  }

  // p.value() with the kind the reader expects (SpanPull tests it first; JsonPull has no use for it).
  static Tok number_value(JsonPull& p) { return p.value(); }
  static Tok number_value(SpanPull& p) { return p.number_value(); }
  static Tok string_value(JsonPull& p) { return p.value(); }
  static Tok string_value(SpanPull& p) { return p.string_value(); }

  template <class P>
  bool num_field(P& p, double& v, bool& has, Ev& e, const char* wrong) {
    Tok t = number_value(p);
    if (t == Tok::error) return false;
    if (t == Tok::num) {
      v = p.number();
      if (p.failed()) return false;
      has = std::isfinite(v);
      if (!has) e.bad = wrong;
    } else if (t != Tok::null) {
      e.bad = wrong;
    }
    return true;
  }

  template <class P>
  bool id_field(P& p, std::int64_t& v, std::uint32_t& name) {
    Tok t = number_value(p);
    if (t == Tok::error) return false;
    if (t == Tok::num) {
      double d = p.number();
      if (p.failed()) return false;
      v = std::isfinite(d) && std::fabs(d) < 9e15 ? static_cast<std::int64_t>(d) : 0;
    } else if (t == Tok::str) {
      v = hash_id(p.text());
      name = out_.strings.id(p.text().substr(0, 256));
    }
    return true;
  }

  // The args keys read_args() reads ("Concrete Inputs" only of c10d ops), told apart by length
  // first: a chain of string compares per key was most of read_args() under callgrind.
  enum class ArgKey : std::uint8_t { other, coll_name, in_nelems, group_size, seq, seq_number, peer_rank, concrete_inputs,
                                     dtype, pg_name, pg_desc, input_type, input_dims, correlation, func };
  static ArgKey arg_key(std::string_view k) {
    // Tests, not a switch: a jump table on the length was an indirect branch that mispredicted on
    // most keys of a kernel's args (callgrind). "correlation" first, the key looked for most.
    std::size_t n = k.size();
    if (n == 11) return k == "correlation" ? ArgKey::correlation : ArgKey::other;
    constexpr std::uint32_t kLengths = 1u << 3 | 1u << 5 | 1u << 8 | 1u << 10 | 1u << 13 | 1u << 15 | 1u << 18 | 1u << 25;
    if (n > 25 || !(kLengths >> n & 1)) return ArgKey::other;
    if (n == 3) return k == "Seq" || k == "seq" ? ArgKey::seq : ArgKey::other;
    if (n == 5) return k == "dtype" ? ArgKey::dtype : ArgKey::other;
    if (n == 8) return k == "Dst Rank" || k == "Src Rank" ? ArgKey::peer_rank : ArgKey::other;
    if (n == 10)
      return k == "Group size" ? ArgKey::group_size : k == "Input type" ? ArgKey::input_type
                                                       : k == "Input Dims" ? ArgKey::input_dims : ArgKey::other;
    if (n == 13) return k == "In msg nelems" ? ArgKey::in_nelems : ArgKey::other;
    if (n == 15)
      return k == "Collective name"   ? ArgKey::coll_name
             : k == "Sequence number" ? ArgKey::seq_number
             : k == "Concrete Inputs" ? ArgKey::concrete_inputs
                                      : ArgKey::other;
    if (n == 18) return k == "Process Group Name" ? ArgKey::pg_name : k == "func_or_class_name" ? ArgKey::func : ArgKey::other;
    return k == "Process Group Description" ? ArgKey::pg_desc : ArgKey::other;
  }

  // The args of a GPU activity or a launch, where read_args() would read only "correlation"
  // (chrome::correlation_only), in one walk over the bytes (SpanPull::members) instead of two
  // token calls per member: kernel args have fourteen members, and read_args() was 19 % of the
  // run under callgrind (2026-12-06). Any other key read_args() knows, or anything the walk does
  // not take, leaves the object to read_args() unread (a number that is not converted exactly,
  // too: read_args() gives up on it the same way).
  static bool correlation_args(JsonPull&, Ev&) { return false; }
  static bool correlation_args(SpanPull& p, Ev& e) {
    if (!correlation_only(e)) return false;
    return p.members([&](std::string_view k, Tok t, std::string_view text) {
      ArgKey key = arg_key(k);
      if (key == ArgKey::other) return true;
      if (key != ArgKey::correlation) return false;
      double d = 0;
      if (t == Tok::num) {
        if (!decimal_fast(text, d)) return false;
        if (d >= 0 && d < 9e15) e.corr = static_cast<std::int64_t>(d);
      }
      return true;
    });
  }

  template <class P>
  bool read_args(P& p, Ev& e) {
    for (;;) {
      Tok t = p.next();
      if (t == Tok::obj_end) return true;
      if (t != Tok::key) return false;
      std::string_view k = p.text();
      ArgKey key = arg_key(k);
      if (key == ArgKey::coll_name) {
        Tok v = p.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) e.arg_coll = out_.strings.id(collective_from_name(p.text()));
      } else if (key == ArgKey::in_nelems || key == ArgKey::group_size || key == ArgKey::seq || key == ArgKey::seq_number) {
        Tok v = p.value();
        if (v == Tok::error) return false;
        if (v == Tok::num) {
          double d = p.number();
          if (p.failed()) return false;
          if (d >= 0 && d < 9e15) {
            auto x = static_cast<std::int64_t>(d);
            if (key == ArgKey::in_nelems) e.in_nelems = x;
            else if (key == ArgKey::group_size) e.group_size = static_cast<std::int32_t>(std::min<std::int64_t>(x, 1 << 30));
            else if (key != ArgKey::seq_number || x > 0) e.seq = x;  // c10d writes 0 for every op
          }
        }
      } else if (key == ArgKey::peer_rank) {
        // The peer of a send ("Dst Rank") or recv ("Src Rank"): a number, or a decimal string.
        Tok v = p.value();
        if (v == Tok::error) return false;
        double d = -1;
        if (v == Tok::num) {
          d = p.number();
          if (p.failed()) return false;
        } else if (v == Tok::str) {
          d = core::parse_int(p.text()).value_or(-1);
        }
        if (d >= 0 && d < 1e7 && d == std::floor(d)) e.peer = static_cast<std::int32_t>(d);
      } else if (key == ArgKey::concrete_inputs && e.name == Name::c10d) {  // ["", "", "2", "0"]: the third is the peer
        Tok v = p.next();
        if (v == Tok::error) return false;
        if (v == Tok::arr_begin) {
          for (int i = 0;; ++i) {
            Tok s = p.next();
            if (s == Tok::arr_end) break;
            if (s == Tok::error) return false;
            if (s == Tok::str && i == 2) {
              long long x = core::parse_int(p.text()).value_or(-1);
              if (x >= 0 && x < 10000000) e.arg_peer = static_cast<std::int32_t>(x);
            }
            if ((s == Tok::obj_begin || s == Tok::arr_begin) && !p.skip()) return false;
          }
        } else if (v == Tok::obj_begin && !p.skip()) {
          return false;
        }
      } else if (key == ArgKey::dtype) {
        Tok v = p.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) e.elem_bytes = dtype_bytes(p.text());
      } else if (key == ArgKey::pg_name || key == ArgKey::pg_desc) {
        bool name = key == ArgKey::pg_name;
        Tok v = p.value();
        if (v == Tok::error) return false;
        if (v == Tok::str && (name || e.pg == 0)) e.pg = out_.strings.id(p.text().substr(0, 128));
      } else if (key == ArgKey::input_type) {  // gloo spans: ["float"]
        Tok v = p.next();
        if (v == Tok::arr_begin) {
          Tok s = p.next();
          if (s == Tok::str && e.elem_bytes == 0) e.elem_bytes = dtype_bytes(p.text());
          if (s == Tok::error) return false;
          if (s != Tok::arr_end) {
            if ((s == Tok::obj_begin || s == Tok::arr_begin) && !p.skip()) return false;
            if (!skip_rest_of_array(p)) return false;
          }
        } else if (v == Tok::error) {
          return false;
        } else if (v == Tok::obj_begin && !p.skip()) {
          return false;
        }
      } else if (key == ArgKey::input_dims) {  // gloo spans: [[65536]] — elements of the first tensor
        Tok v = p.next();
        if (v == Tok::error) return false;
        if (v == Tok::arr_begin) {
          Tok s = p.next();
          if (s == Tok::error) return false;
          if (s == Tok::arr_begin) {
            std::int64_t prod = 1;
            bool ok = true;
            for (;;) {
              Tok d = p.next();
              if (d == Tok::arr_end) break;
              if (d == Tok::num) {
                double x = p.number();
                if (p.failed()) return false;
                if (x >= 0 && x < 1e12 && prod < (std::int64_t{1} << 50)) prod *= static_cast<std::int64_t>(x);
                else ok = false;
              } else if (d == Tok::error) {
                return false;
              } else {
                ok = false;
                if ((d == Tok::obj_begin || d == Tok::arr_begin) && !p.skip()) return false;
              }
            }
            if (ok) e.dims_elems = prod;
            if (!skip_rest_of_array(p)) return false;
          } else if (s != Tok::arr_end) {
            if (s == Tok::obj_begin && !p.skip()) return false;
            if (!skip_rest_of_array(p)) return false;
          }
        } else if (v == Tok::obj_begin && !p.skip()) {
          return false;
        }
      } else if (key == ArgKey::correlation) {
        Tok v = number_value(p);
        if (v == Tok::error) return false;
        if (v == Tok::num) {
          double d = p.number();
          if (p.failed()) return false;
          if (d >= 0 && d < 9e15) e.corr = static_cast<std::int64_t>(d);
        }
      } else if (key == ArgKey::func) {  // Ray
        Tok v = p.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) e.func = out_.strings.id(p.text().substr(0, 256));
      } else if (p.value() == Tok::error) {
        return false;
      }
    }
  }

  // After the first element of an array: skips the others and its end.
  template <class P>
  bool skip_rest_of_array(P& p) {
    for (;;) {
      Tok t = p.next();
      if (t == Tok::arr_end) return true;
      if (t == Tok::error) return false;
      if ((t == Tok::obj_begin || t == Tok::arr_begin) && !p.skip()) return false;
    }
  }

  // The keys of a Kineto event in the order libkineto writes them (ChromeTraceLogger::
  // handleActivity, pytorch/kineto libkineto/src/output_json.cpp: "ph", "cat", "name", "pid",
  // "tid", "ts", "dur", "args"), so the in-buffer reader compares the next key's bytes instead of
  // scanning them (SpanPull::next(KeyGuess)); kNoGuess after the last or an unknown key.
  enum Guess : int { g_ph, g_cat, g_name, g_pid, g_tid, g_ts, g_dur, g_args, kNoGuess };
  static Tok next_key(JsonPull& p, int) { return p.next(); }
  static Tok next_key(SpanPull& p, int guess) {
    static const KeyGuess kGuesses[] = {KeyGuess("ph"),  KeyGuess("cat"), KeyGuess("name"), KeyGuess("pid"),
                                        KeyGuess("tid"), KeyGuess("ts"),  KeyGuess("dur"),  KeyGuess("args")};
    return guess == kNoGuess ? p.next() : p.next(kGuesses[guess]);
  }

  template <class P>
  bool read_event(P& p, Ev& e) {
    int guess = g_ph;
    for (;;) {
      Tok t = next_key(p, guess);
      guess = kNoGuess;
      if (t == Tok::obj_end) break;
      if (t != Tok::key) return false;
      std::string_view k = p.text();
      if (k.size() == 2) {
        if (k == "ph") {
          Tok v = string_value(p);
          if (v == Tok::error) return false;
          if (v == Tok::str && !p.text().empty()) e.ph = p.text()[0];
          else e.bad = "\"ph\" is not a string";
          guess = g_cat;
          continue;
        }
        if (k == "ts") {
          if (!num_field(p, e.ts, e.has_ts, e, "\"ts\" is not a number")) return false;
          guess = g_dur;
          continue;
        }
      } else if (k.size() == 3) {
        if (k == "cat") {
          Tok v = string_value(p);
          if (v == Tok::error) return false;
          if (v == Tok::str) e.cat = classify_cat(p.text());
          if (e.cat == Cat::ray_task_span && e.func == 0) e.func = out_.strings.id(p.text().substr(6, 256));
          guess = g_name;
          continue;
        }
        if (k == "dur") {
          if (!num_field(p, e.dur, e.has_dur, e, "\"dur\" is not a number")) return false;
          guess = g_args;
          continue;
        }
        if (k == "pid") {
          if (!id_field(p, e.pid, e.pid_name)) return false;
          guess = g_tid;
          continue;
        }
        if (k == "tid") {
          if (!id_field(p, e.tid, e.tid_name)) return false;
          guess = g_ts;
          continue;
        }
      } else if (k == "name") {
        Tok v = string_value(p);
        if (v == Tok::error) return false;
        if (v == Tok::str) classify_name(e, p.text(), out_.strings);
        else e.name = Name::other;
        guess = g_pid;
        continue;
      } else if (k == "args") {
        Tok v = p.next();
        if (v == Tok::error) return false;
        if (v == Tok::obj_begin) {
          if (interesting_args(e)) {
            if (!correlation_args(p, e) && !read_args(p, e)) return false;
          } else if (!p.skip()) {
            return false;
          }
        } else if (v == Tok::arr_begin && !p.skip()) {
          return false;
        }
        continue;
      }
      if (p.value() == Tok::error) return false;
    }
    return true;
  }

  JsonPull& p_;
  const std::string& name_;
  TraceSet& out_;
  bool array_form_ = false, saw_events_ = false;
  DistInfo dist_;
  RankFiling filing_;
  const char* fail_ = "";
  std::string bad_msg_;

 public:
  const std::string& bad_msg() const { return bad_msg_; }
};

}  // namespace

core::Status read_chrome_trace(ByteSource& src, const std::string& name, TraceSet& out) {
  JsonPull p(src, name);
  Reader r(p, name, out);
  core::Status s = r.run();
  if (!s.is_ok() && !r.bad_msg().empty()) return core::Status::bad_input(r.bad_msg());
  if (s.is_ok() && !out.ranks.empty()) out.ranks.back().bytes = p.offset();
  return s;
}

core::Status read_chrome_trace(const std::string& path, TraceSet& out) {
  auto src = open_decoded(path);
  if (!src) return src.status();
  return read_chrome_trace(**src, path, out);
}

}  // namespace ncdx::analyze::timeline
