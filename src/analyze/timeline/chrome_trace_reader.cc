// Chrome trace reader (chrome_trace_reader.h). Each event is classified the moment its "cat" and
// "name" strings go by (their views die at the next token); only the few fields the analysis
// needs are converted, and "args" objects are skipped unread unless the event is a collective.
#include "analyze/timeline/chrome_trace_reader.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <map>

#include "analyze/timeline/json_pull.h"

namespace ncdx::analyze::timeline {
namespace {

enum class Cat : std::uint8_t { unknown, kernel, memcpy, memset, cpu_op, user_annotation, gpu_annotation, runtime, ray_task, ray_other, other };
enum class Name : std::uint8_t { unknown, other, nccl_kernel, record_param_comms, gloo, c10d, nccl_annotation, profiler_step };

Cat classify_cat(std::string_view c) {
  if (c == "kernel" || c == "Kernel") return Cat::kernel;
  if (c == "cpu_op" || c == "Operator") return Cat::cpu_op;
  if (c == "cuda_runtime" || c == "cuda_driver" || c == "Runtime") return Cat::runtime;
  if (c == "user_annotation") return Cat::user_annotation;
  if (c == "gpu_user_annotation") return Cat::gpu_annotation;
  if (c == "gpu_memcpy" || c == "Memcpy") return Cat::memcpy;
  if (c == "gpu_memset" || c == "Memset") return Cat::memset;
  // Ray (FORMAT.md §1): cat is the profile event name; "task:execute" is the work itself.
  if (c == "task:execute") return Cat::ray_task;
  if (c == "task" || c.rfind("task:", 0) == 0 || c == "worker_idle" || c == "ray.get" || c == "ray.put" ||
      c == "ray.wait" || c == "submit_task" || c == "wait_for_function" || c == "fetch_and_run_function" ||
      c == "register_remote_function")
    return Cat::ray_other;
  return Cat::other;
}

struct Ev {
  char ph = 0;
  Cat cat = Cat::unknown;
  Name name = Name::unknown;
  std::uint32_t coll = 0;     // collective (from the name, then args)
  std::int64_t step = -1;
  double ts = 0, dur = 0;
  bool has_ts = false, has_dur = false;
  std::int64_t pid = 0, tid = 0;
  // args
  std::uint32_t arg_coll = 0, pg = 0, func = 0;
  std::int64_t in_nelems = -1, seq = -1, dims_elems = -1, corr = -1;
  int elem_bytes = 0;
  std::int32_t group_size = -1;
  const char* bad = nullptr;  // why the event is skipped
};

bool interesting_args(const Ev& e) {
  switch (e.name) {
    case Name::unknown: return true;  // args before name: read them, decide later
    case Name::nccl_kernel: case Name::record_param_comms: case Name::gloo: case Name::c10d:
      return true;
    default:
      // GPU activities and their launches: only "correlation" is read (HTA's step filter).
      return e.cat == Cat::ray_task || e.cat == Cat::unknown || e.cat == Cat::kernel || e.cat == Cat::memcpy ||
             e.cat == Cat::memset || e.cat == Cat::runtime;
  }
}

std::int64_t hash_id(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return static_cast<std::int64_t>(h >> 1) | (std::int64_t{1} << 62);  // never a small OS id
}

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
    finish();
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
      if (k == "rank" || k == "world_size") {
        bool is_rank = k == "rank";
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::num) {
          double d = p_.number();
          if (!p_.error().is_ok()) return false;
          if (d >= 0 && d < 1e7 && d == std::floor(d)) (is_rank ? dist_rank_ : world_) = static_cast<int>(d);
        }
      } else if (k == "backend") {
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) backend_ = std::string(p_.text().substr(0, 64));
      } else if (p_.value() == Tok::error) {
        return false;
      }
    }
  }

  bool read_events() {
    saw_events_ = true;
    for (;;) {
      Tok t = p_.next();
      if (t == Tok::arr_end) return true;
      if (t == Tok::obj_begin) {
        if (!read_event()) return false;
      } else if (t == Tok::error) {
        return false;
      } else {
        if (!p_.skip()) return false;
        skip("event is not an object");
      }
    }
  }

  void skip(const char* why) {
    ++skipped_;
    ++reasons_[why];
  }

  bool num_field(double& v, bool& has, Ev& e, const char* wrong) {
    Tok t = p_.value();
    if (t == Tok::error) return false;
    if (t == Tok::num) {
      v = p_.number();
      if (!p_.error().is_ok()) return false;
      has = std::isfinite(v);
      if (!has) e.bad = wrong;
    } else if (t != Tok::null) {
      e.bad = wrong;
    }
    return true;
  }

  bool id_field(std::int64_t& v) {
    Tok t = p_.value();
    if (t == Tok::error) return false;
    if (t == Tok::num) {
      double d = p_.number();
      if (!p_.error().is_ok()) return false;
      v = std::isfinite(d) && std::fabs(d) < 9e15 ? static_cast<std::int64_t>(d) : 0;
    } else if (t == Tok::str) {
      v = hash_id(p_.text());
    }
    return true;
  }

  void classify_name(Ev& e, std::string_view n) {
    e.name = Name::other;
    if (n.size() < 5) return;
    switch (n[0]) {
      case 'n':
        if (n.rfind("ncclDevKernel_", 0) == 0 || n.rfind("ncclKernel_", 0) == 0) {
          e.name = Name::nccl_kernel;
        } else if (n.rfind("nccl:", 0) == 0) {
          e.name = Name::nccl_annotation;
        } else {
          return;
        }
        break;
      case 'r':
        if (n != "record_param_comms") return;
        e.name = Name::record_param_comms;
        return;
      case 'g':
        if (n.rfind("gloo:", 0) != 0) return;
        e.name = Name::gloo;
        break;
      case 'c':
        if (n.rfind("c10d::", 0) != 0) return;
        e.name = Name::c10d;
        break;
      case 'P':
        if (n.rfind("ProfilerStep#", 0) == 0) {
          std::int64_t v = 0;
          std::size_t i = 13;
          for (; i < n.size() && i < 31 && n[i] >= '0' && n[i] <= '9'; ++i) v = v * 10 + (n[i] - '0');
          if (i > 13) {
            e.name = Name::profiler_step;
            e.step = v;
          }
        }
        return;
      default:
        if (n.find("ncclKernel") != std::string_view::npos) {  // HTA counts these too (types.py)
          e.name = Name::nccl_kernel;
          break;
        }
        return;
    }
    std::string c = collective_from_name(n);
    if (c.empty() && e.name != Name::nccl_kernel) {
      e.name = Name::other;
      return;
    }
    e.coll = out_.strings.id(c);
  }

  bool read_args(Ev& e) {
    for (;;) {
      Tok t = p_.next();
      if (t == Tok::obj_end) return true;
      if (t != Tok::key) return false;
      std::string_view k = p_.text();
      if (k == "Collective name") {
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) e.arg_coll = out_.strings.id(collective_from_name(p_.text()));
      } else if (k == "In msg nelems" || k == "Group size" || k == "Seq" || k == "seq" || k == "Sequence number") {
        char which = k[0] == 'I' ? 'i' : k[0] == 'G' ? 'g' : 's';
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::num) {
          double d = p_.number();
          if (!p_.error().is_ok()) return false;
          if (d >= 0 && d < 9e15) {
            auto x = static_cast<std::int64_t>(d);
            if (which == 'i') e.in_nelems = x;
            else if (which == 'g') e.group_size = static_cast<std::int32_t>(std::min<std::int64_t>(x, 1 << 30));
            else if (k != "Sequence number" || x > 0) e.seq = x;  // c10d writes 0 for every op
          }
        }
      } else if (k == "dtype") {
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) e.elem_bytes = dtype_bytes(p_.text());
      } else if (k == "Process Group Name" || k == "Process Group Description") {
        bool name = k == "Process Group Name";
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::str && (name || e.pg == 0)) e.pg = out_.strings.id(p_.text().substr(0, 128));
      } else if (k == "Input type") {  // gloo spans: ["float"]
        Tok v = p_.next();
        if (v == Tok::arr_begin) {
          Tok s = p_.next();
          if (s == Tok::str && e.elem_bytes == 0) e.elem_bytes = dtype_bytes(p_.text());
          if (s == Tok::error) return false;
          if (s != Tok::arr_end) {
            if ((s == Tok::obj_begin || s == Tok::arr_begin) && !p_.skip()) return false;
            if (!skip_rest_of_array()) return false;
          }
        } else if (v == Tok::error) {
          return false;
        } else if (v == Tok::obj_begin && !p_.skip()) {
          return false;
        }
      } else if (k == "Input Dims") {  // gloo spans: [[65536]] — elements of the first tensor
        Tok v = p_.next();
        if (v == Tok::error) return false;
        if (v == Tok::arr_begin) {
          Tok s = p_.next();
          if (s == Tok::error) return false;
          if (s == Tok::arr_begin) {
            std::int64_t prod = 1;
            bool ok = true;
            for (;;) {
              Tok d = p_.next();
              if (d == Tok::arr_end) break;
              if (d == Tok::num) {
                double x = p_.number();
                if (!p_.error().is_ok()) return false;
                if (x >= 0 && x < 1e12 && prod < (std::int64_t{1} << 50)) prod *= static_cast<std::int64_t>(x);
                else ok = false;
              } else if (d == Tok::error) {
                return false;
              } else {
                ok = false;
                if ((d == Tok::obj_begin || d == Tok::arr_begin) && !p_.skip()) return false;
              }
            }
            if (ok) e.dims_elems = prod;
            if (!skip_rest_of_array()) return false;
          } else if (s != Tok::arr_end) {
            if (s == Tok::obj_begin && !p_.skip()) return false;
            if (!skip_rest_of_array()) return false;
          }
        } else if (v == Tok::obj_begin && !p_.skip()) {
          return false;
        }
      } else if (k == "correlation") {
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::num) {
          double d = p_.number();
          if (!p_.error().is_ok()) return false;
          if (d >= 0 && d < 9e15) e.corr = static_cast<std::int64_t>(d);
        }
      } else if (k == "func_or_class_name") {  // Ray
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) e.func = out_.strings.id(p_.text().substr(0, 256));
      } else if (p_.value() == Tok::error) {
        return false;
      }
    }
  }

  // After the first element of an array: skips the others and its end.
  bool skip_rest_of_array() {
    for (;;) {
      Tok t = p_.next();
      if (t == Tok::arr_end) return true;
      if (t == Tok::error) return false;
      if ((t == Tok::obj_begin || t == Tok::arr_begin) && !p_.skip()) return false;
    }
  }

  bool read_event() {
    Ev e;
    bool args_skipped = false;
    for (;;) {
      Tok t = p_.next();
      if (t == Tok::obj_end) break;
      if (t != Tok::key) return false;
      std::string_view k = p_.text();
      if (k.size() == 2) {
        if (k == "ph") {
          Tok v = p_.value();
          if (v == Tok::error) return false;
          if (v == Tok::str && !p_.text().empty()) e.ph = p_.text()[0];
          else e.bad = "\"ph\" is not a string";
          continue;
        }
        if (k == "ts") {
          if (!num_field(e.ts, e.has_ts, e, "\"ts\" is not a number")) return false;
          continue;
        }
      } else if (k.size() == 3) {
        if (k == "cat") {
          Tok v = p_.value();
          if (v == Tok::error) return false;
          if (v == Tok::str) e.cat = classify_cat(p_.text());
          continue;
        }
        if (k == "dur") {
          if (!num_field(e.dur, e.has_dur, e, "\"dur\" is not a number")) return false;
          continue;
        }
        if (k == "pid") {
          if (!id_field(e.pid)) return false;
          continue;
        }
        if (k == "tid") {
          if (!id_field(e.tid)) return false;
          continue;
        }
      } else if (k == "name") {
        Tok v = p_.value();
        if (v == Tok::error) return false;
        if (v == Tok::str) classify_name(e, p_.text());
        else e.name = Name::other;
        continue;
      } else if (k == "args") {
        Tok v = p_.next();
        if (v == Tok::error) return false;
        if (v == Tok::obj_begin) {
          if (interesting_args(e)) {
            if (!read_args(e)) return false;
          } else {
            if (!p_.skip()) return false;
            args_skipped = true;
          }
        } else if (v == Tok::arr_begin && !p_.skip()) {
          return false;
        }
        continue;
      }
      if (p_.value() == Tok::error) return false;
    }
    (void)args_skipped;
    ++events_;
    take(e);
    return true;
  }

  // Files the event into what the analysis keeps.
  void take(Ev& e) {
    if (e.ph != 'X') {
      if (e.ph == 0 && !e.bad) skip("missing \"ph\"");
      else if (e.ph == 'B' || e.ph == 'E') ++begin_end_;
      return;  // metadata, instants, flows, counters: not intervals
    }
    if (e.bad) return skip(e.bad);
    if (!e.has_ts) return skip("missing \"ts\"");
    if (!e.has_dur) return skip("missing \"dur\"");
    if (e.dur < 0) return skip("negative \"dur\"");
    if (std::fabs(e.ts) > 9e15 || e.dur > 9e15) return skip("\"ts\" or \"dur\" out of range");
    Ns start = std::llround(e.ts * 1000.0);
    Ns end = start + std::llround(e.dur * 1000.0);
    if (array_form_ && (e.cat == Cat::ray_task || e.cat == Cat::ray_other)) {
      ray_ = true;
      if (e.cat == Cat::ray_task) {
        auto& w = workers_[{e.pid, e.tid}];
        add_span(w.compute, start, end);
        w.first = std::min(w.first, start);
        w.last = std::max(w.last, end);
        CommOp op;
        // A Ray task's "arrival" is its end: the driver's ray.get waits for the last worker.
        op.start = op.end = end;
        op.coll = e.func;
        w.tasks.push_back(op);
      }
      return;
    }
    note_extent(start, end);
    switch (e.cat) {
      case Cat::kernel:
        gpu_ = true;
        if (e.name == Name::nccl_kernel) {
          add_comm(CommSource::nccl_kernel, e, start, end);
          gpu_events_.push_back({start, end, e.corr, 0});
        } else {
          gpu_events_.push_back({start, end, e.corr, 1});
        }
        return;
      case Cat::memcpy:
      case Cat::memset:
        gpu_ = true;
        gpu_events_.push_back({start, end, e.corr, 2});
        return;
      case Cat::runtime:
        if (e.corr >= 0) launches_.push_back({e.corr, start});
        return;
      case Cat::cpu_op:
        if (e.name == Name::record_param_comms) add_comm(CommSource::record_param_comms, e, start, end);
        else if (e.name == Name::c10d) add_comm(CommSource::c10d_op, e, start, end);
        else add_span(cpu_compute_, start, end);
        return;
      case Cat::user_annotation:
        if (e.name == Name::profiler_step) {
          steps_.push_back({e.step, start, end});
        } else if (e.name == Name::gloo) {
          add_comm(CommSource::gloo_span, e, start, end);
        } else if (e.name == Name::nccl_annotation) {
          add_comm(CommSource::nccl_annotation, e, start, end);
        }
        return;
      default:
        return;
    }
  }

  void note_extent(Ns start, Ns end) {
    first_ = std::min(first_, start);
    last_ = std::max(last_, end);
  }

  void add_comm(CommSource s, const Ev& e, Ns start, Ns end) {
    CommOp op;
    op.start = start;
    op.end = end;
    op.coll = e.arg_coll ? e.arg_coll : e.coll;
    op.pg = e.pg;
    op.seq = e.seq;
    op.group_size = e.group_size;
    std::int64_t n = e.in_nelems >= 0 ? e.in_nelems : e.dims_elems;
    if (n >= 0 && e.elem_bytes > 0) op.bytes = n * e.elem_bytes;
    cands_[static_cast<int>(s)].push_back(op);
  }

  // HTA keeps only the GPU activities launched before the last ProfilerStep began (the last step
  // is cut short by the profiler), matched to their launch by "correlation"
  // (hta/common/trace.py _filter_irrelevant_gpu_kernels at f4d0062). Same here, so the overlap
  // and idle numbers compare; skipped when there are fewer than 2 steps or it would drop most.
  void filter_gpu_by_step() {
    std::vector<bool> keep(gpu_events_.size(), true);
    if (steps_.size() >= 2 && !launches_.empty()) {
      Ns cutoff = INT64_MIN;
      for (const auto& st : steps_) cutoff = std::max(cutoff, st.start);
      std::sort(launches_.begin(), launches_.end());
      std::size_t kept = 0;
      for (std::size_t i = 0; i < gpu_events_.size(); ++i) {
        auto it = std::lower_bound(launches_.begin(), launches_.end(), std::make_pair(gpu_events_[i].corr, INT64_MIN));
        keep[i] = it != launches_.end() && it->first == gpu_events_[i].corr && it->second < cutoff;
        kept += keep[i];
      }
      if (kept * 2 < gpu_events_.size()) std::fill(keep.begin(), keep.end(), true);
      else filtered_ = gpu_events_.size() - kept;
    }
    // NCCL kernels were also kept as comm ops, in the same order as their gpu_events_ entries.
    std::vector<CommOp>& nccl = cands_[static_cast<int>(CommSource::nccl_kernel)];
    std::vector<CommOp> kept_ops;
    std::size_t op = 0;
    std::vector<Span> comp, mem;
    for (std::size_t i = 0; i < gpu_events_.size(); ++i) {
      const GpuEvent& g = gpu_events_[i];
      if (g.kind == 0) {
        if (keep[i] && op < nccl.size()) kept_ops.push_back(nccl[op]);
        ++op;
        continue;
      }
      if (!keep[i]) continue;
      (g.kind == 1 ? comp : mem).push_back({g.start, g.end});
    }
    nccl.swap(kept_ops);
    normalise(comp);
    normalise(mem);
    compute_.swap(comp);
    memory_.swap(mem);
  }

  void finish() {
    filter_gpu_by_step();
    auto sort_ops = [](std::vector<CommOp>& v) {
      std::stable_sort(v.begin(), v.end(), [](const CommOp& a, const CommOp& b) { return a.start < b.start; });
    };
    if (ray_) {
      int idx = 0;
      for (auto& [key, w] : workers_) {
        RankTrace r;
        r.rank = idx++;
        r.file = name_;
        r.format = "ray";
        r.rank_from = "ray worker (pid " + std::to_string(key.first) + ", tid " + std::to_string(key.second) + ")";
        r.comm_source = CommSource::ray_task;
        r.comm = std::move(w.tasks);
        sort_ops(r.comm);
        r.compute = std::move(w.compute);
        normalise(r.compute);
        r.first = w.first;
        r.last = w.last;
        r.events = events_;
        r.skipped = skipped_;
        r.skip_reasons = reasons_;
        out_.ranks.push_back(std::move(r));
      }
      return;
    }
    RankTrace r;
    r.file = name_;
    r.format = "kineto";
    r.world_size = world_;
    r.backend = backend_;
    if (dist_rank_ >= 0) {
      r.rank = dist_rank_;
      r.rank_from = "distributedInfo";
    } else if (int fr = rank_from_file_name(name_); fr >= 0) {
      r.rank = fr;
      r.rank_from = "file name";
    }
    r.gpu = gpu_;
    for (int s = 0; s < static_cast<int>(CommSource::count); ++s) {
      if (cands_[s].empty()) continue;
      // The CPU-side ops carry the sizes the kernels may lack: copy them over by order.
      r.comm_source = static_cast<CommSource>(s);
      r.comm = std::move(cands_[s]);
      break;
    }
    sort_ops(r.comm);
    if (r.comm_source == CommSource::nccl_kernel || r.comm_source == CommSource::gloo_span) {
      // Fill sizes the execution spans lack from record_param_comms, matched by order.
      auto& meta = cands_[static_cast<int>(CommSource::record_param_comms)];
      sort_ops(meta);
      if (meta.size() == r.comm.size()) {
        for (std::size_t i = 0; i < meta.size(); ++i) {
          if (r.comm[i].bytes < 0) r.comm[i].bytes = meta[i].bytes;
          if (r.comm[i].group_size < 0) r.comm[i].group_size = meta[i].group_size;
          if (r.comm[i].pg == 0) r.comm[i].pg = meta[i].pg;
        }
      }
    }
    r.compute = gpu_ ? std::move(compute_) : std::move(cpu_compute_);
    normalise(r.compute);
    r.memory = std::move(memory_);
    normalise(r.memory);
    std::sort(steps_.begin(), steps_.end(), [](const Step& a, const Step& b) { return a.number < b.number; });
    r.steps = std::move(steps_);
    r.first = first_;
    r.last = last_;
    r.events = events_;
    r.skipped = skipped_;
    r.skip_reasons = reasons_;
    if (begin_end_) r.skip_reasons["B/E pairs (not read)"] += begin_end_;
    if (filtered_) r.skip_reasons["GPU activity of the last (partial) profiler step (as HTA)"] += filtered_;
    out_.ranks.push_back(std::move(r));
  }

  struct GpuEvent {
    Ns start, end;
    std::int64_t corr;
    int kind;  // 0 NCCL kernel, 1 compute kernel, 2 memcpy/memset
  };
  std::vector<GpuEvent> gpu_events_;
  std::vector<std::pair<std::int64_t, Ns>> launches_;  // correlation → launch time
  std::size_t filtered_ = 0;

  struct Worker {
    std::vector<Span> compute;
    std::vector<CommOp> tasks;
    Ns first = INT64_MAX, last = INT64_MIN;
  };

  JsonPull& p_;
  const std::string& name_;
  TraceSet& out_;
  bool array_form_ = false, saw_events_ = false, gpu_ = false, ray_ = false;
  int dist_rank_ = -1, world_ = -1;
  std::string backend_;
  std::array<std::vector<CommOp>, static_cast<int>(CommSource::count)> cands_;
  std::vector<Span> compute_, cpu_compute_, memory_;
  std::vector<Step> steps_;
  std::map<std::pair<std::int64_t, std::int64_t>, Worker> workers_;
  Ns first_ = INT64_MAX, last_ = INT64_MIN;
  std::uint64_t events_ = 0, skipped_ = 0, begin_end_ = 0;
  std::map<std::string, std::uint64_t> reasons_;
  const char* fail_ = "";
  std::string bad_msg_;

 public:
  const std::string& bad_msg() const { return bad_msg_; }
};

}  // namespace

std::string collective_from_name(std::string_view n) {
  std::string_view body = n;
  bool kernel = false;
  for (std::string_view pre : {"ncclDevKernel_", "ncclKernel_"}) {
    if (body.rfind(pre, 0) == 0) {
      body.remove_prefix(pre.size());
      kernel = true;
    }
  }
  if (kernel) {
    body = body.substr(0, body.find_first_of("_("));
  } else {
    for (std::string_view pre : {"c10d::", "gloo:", "nccl:"}) {
      if (body.rfind(pre, 0) == 0) body.remove_prefix(pre.size());
    }
  }
  std::string c;
  for (char ch : body.substr(0, 64)) {
    if (ch == '_' || ch == ' ') continue;
    if (ch == '(') break;
    c += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  // Variants of one collective (torch's _base/_coalesced/_into_tensor entry points, alltoallv).
  for (std::string_view suf : {"intotensorcoalesced", "tensorcoalesced", "coalesced", "base", "single"}) {
    if (c.size() > suf.size() && c.compare(c.size() - suf.size(), suf.size(), suf) == 0) c.resize(c.size() - suf.size());
  }
  if (c == "alltoallv") c = "alltoall";
  return c;
}

int dtype_bytes(std::string_view d) {
  if (d.rfind("c10::", 0) == 0) d.remove_prefix(5);
  static const std::pair<std::string_view, int> table[] = {
      {"Float", 4}, {"float", 4}, {"Double", 8}, {"double", 8}, {"Half", 2}, {"BFloat16", 2},
      {"Long", 8}, {"long int", 8}, {"long", 8}, {"int64_t", 8}, {"Int", 4}, {"int", 4}, {"int32_t", 4},
      {"Short", 2}, {"short int", 2}, {"Byte", 1}, {"unsigned char", 1}, {"Char", 1}, {"signed char", 1},
      {"Bool", 1}, {"bool", 1}, {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1}, {"ComplexFloat", 8}, {"ComplexDouble", 16},
      {"UInt32", 4}, {"UInt64", 8}, {"UInt16", 2}};
  for (const auto& [k, v] : table)
    if (d == k) return v;
  return 0;
}

int rank_from_file_name(std::string_view path) {
  std::string_view base = path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
  std::string lower;
  for (char c : base) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::size_t at = lower.find("rank"); at != std::string::npos; at = lower.find("rank", at + 1)) {
    std::size_t i = at + 4;
    while (i < lower.size() && (lower[i] == '-' || lower[i] == '_' || lower[i] == '.' || lower[i] == '=')) ++i;
    int v = 0, digits = 0;
    while (i < lower.size() && lower[i] >= '0' && lower[i] <= '9' && digits < 7) v = v * 10 + (lower[i++] - '0'), ++digits;
    if (digits) return v;
  }
  return -1;
}

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
