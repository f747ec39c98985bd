#pragma once
// Internal: a decoded dump (a view, fr/model_view.h) → the typed model of one rank, with one set
// of rules for the JSON and the pickle forms. Field types follow FlightRecorder.hpp; the JSON variant's
// stringified pg_status numbers and 0-for-unset times are read as what they mean; a field of the
// wrong type is dropped with a warning.
//
// Each dict is read in one pass (key → field slot, the last duplicate wins, as in JSON), then the
// slots are read in a fixed order, so warnings come out in the same order for both forms.
// Stack frames are checked in entry order but built only for the entries whose stacks are kept
// (FrReadLimits::keep_all_frames): the newest entry of each group and every entry not completed.
#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "analyze/fr/model_fields.h"
#include "analyze/fr/reader.h"

namespace ncdx::analyze::frmodel {

// Which entries keep their stacks when completed ones drop them (fr/model.cc): the newest entry
// of each group (highest record_id, the later of equals), found entry by entry so a streamed
// dump can drop a stack as soon as a newer entry of its group arrives.
class NewestPerGroup {
 public:
  static constexpr std::size_t npos = SIZE_MAX;
  // Entry i of `es` is seen; returns the entry it displaced as its group's newest (npos: none),
  // and whether i is now the newest in `newest`.
  std::size_t see(const std::vector<FrEntry>& es, std::size_t i, bool& newest);
  const std::map<std::string, std::size_t>& all() const { return newest_; }

 private:
  std::map<std::string, std::size_t> newest_;  // group → index of its newest entry
};
std::vector<bool> frames_to_keep(const FrRankDump& d);
std::optional<std::vector<int>> parse_ranks_text(std::string_view text);
void check_version(FrRankDump& d);

enum EntryKey {
  kRecordId, kPgId, kProcessGroup, kCollSeq, kP2pSeq, kOpId, kProfilingName, kCreated, kStarted, kCompleted,
  kDuration, kInSizes, kOutSizes, kInDtypes, kOutDtypes, kState, kTimeout, kIsP2p, kRetired, kThreadName,
  kThreadId, kFrames, kEntryKeys
};

template <class V>
class Builder {
 public:
  // `budget`: values the reading may visit (PickleLimits::max_output; SIZE_MAX for a JSON tree,
  // which holds no shared references). `id_space`: the number of value identities (a pickle's
  // value count; 0 for JSON).
  Builder(FrRankDump& d, bool keep_all_frames, std::size_t budget, std::size_t id_space)
      : d_(d), f_(d), keep_all_(keep_all_frames), budget_(budget), frame_ok_(id_space, false) {
    f_.set_budget(budget);
  }

  // bad_input for what is not a dump; otherwise fills d_.
  core::Status build(const V& raw) {
    const std::string& file = d_.file;
    if (!raw.is_object())
      return core::Status::bad_input(file + ": expected a Flight Recorder dump (a dict), found a " +
                                     std::string(raw.type_name()));
    enum { kVersion, kCommLib, kPgConfig, kPgStatus, kEntries };
    std::array<V, 5> top{};
    bool any = false;
    raw.pairs([&](std::string_view k, std::uint32_t id, const V& v) {
      int f = top_keys_.find(k, id);
      if (f >= 0) {
        top[f] = v;
        any = any || f != kCommLib;  // a dump has one of version, pg_config, pg_status, entries
      }
      return true;
    });
    if (!any)
      return core::Status::bad_input(file + ": not a Flight Recorder dump (no version, pg_config, "
                                            "pg_status or entries key)");
    const Ctx top_ctx{};
    d_.version = f_.text(top[kVersion], top_ctx, "version");
    d_.comm_lib_version = f_.text(top[kCommLib], top_ctx, "comm_lib_version");
    check_version(d_);
    if (!top[kPgConfig].null()) {
      if (!top[kPgConfig].is_object()) return core::Status::bad_input(file + ": pg_config is not a dict");
      for (auto& [key, v] : sorted_rows(top[kPgConfig])) {
        FrPgConfig c;
        c.key = key;
        if (v.is_object()) {
          std::array<V, 3> s{};
          read_dict(v, cfg_keys_, s.data());
          std::string head = "pg_config." + key + ".";
          Ctx ctx{head, SIZE_MAX, ""};
          c.name = f_.text(s[0], ctx, "name");
          c.desc = f_.text(s[1], ctx, "desc");
          if (!s[2].null()) {
            c.ranks = parse_ranks(s[2]);
            if (!c.ranks) f_.warn(head + "ranks is not a list of ranks");
          }
        }
        d_.pg_config.push_back(std::move(c));
      }
    }
    if (!top[kPgStatus].null()) {
      if (!top[kPgStatus].is_object()) return core::Status::bad_input(file + ": pg_status is not a dict");
      for (auto& [key, v] : sorted_rows(top[kPgStatus])) {
        FrPgStatus s;
        s.pg_id = key;
        if (v.is_object()) {
          std::array<V, 3> x{};
          read_dict(v, status_keys_, x.data());
          std::string head = "pg_status." + key + ".";
          Ctx ctx{head, SIZE_MAX, ""};
          s.last_enqueued = f_.integer(x[0], ctx, "last_enqueued_collective");
          s.last_started = f_.integer(x[1], ctx, "last_started_collective");
          s.last_completed = f_.integer(x[2], ctx, "last_completed_collective");
        }
        d_.pg_status.push_back(std::move(s));
      }
    }
    if (!top[kEntries].null()) {
      const V& es = top[kEntries];
      if (!es.is_array()) return core::Status::bad_input(file + ": entries is not a list");
      d_.has_entries = true;
      if (streamed_) {
        f_.replay_deferred();  // the entries' warnings, where a whole dump gives them
      } else {
        d_.entries.reserve(std::min(es.size(), budget_ / kEntryCost));
        frames_.reserve(std::min(es.size(), budget_ / kEntryCost));
        es.items([&](const V& e) { return read_entry(e); });
      }
      // A list of records none of which is a record is not a healthy rank with nothing to say.
      if (count_ > 0 && d_.entries.empty() && !f_.exhausted())
        return core::Status::bad_input(file + ": entries: none of the " + std::to_string(count_) +
                                       " records is a dict (" + std::to_string(count_) + " skipped)");
      if (!streamed_) build_frames();
    }
    if (f_.exhausted())
      return core::Status::bad_input(file + ": more than " + std::to_string(budget_) +
                                     " values after expanding shared references");
    return core::Status::ok();
  }

  // The JSON form read as it is parsed (fr/json_stream.cc): the items of a top-level "entries"
  // list come one at a time, each view valid only during its call, before the keys that precede
  // "entries" in the order above are known; build() of the rest of the dump then finishes.
  // stream_begin() at each top-level "entries" key: the last one wins, as in a JSON object.
  void stream_begin(std::size_t expect) {
    d_.entries.clear();
    d_.entries.reserve(expect);  // pages not written are not resident: a generous guess is free
    count_ = 0;
    newest_ = {};
    f_.drop_deferred();
    f_.set_deferred(true);
    streamed_ = true;
  }
  bool stream_entry(const V& e) {
    std::size_t before = d_.entries.size();
    bool go = read_entry(e);
    if (d_.entries.size() > before && !keep_all_) {
      // What build_frames keeps, decided now: a completed entry that is not, or no longer, its
      // group's newest has its stack dropped.
      bool newest = false;
      std::size_t displaced = newest_.see(d_.entries, before, newest);
      if (displaced != NewestPerGroup::npos) drop_frames(displaced);
      if (!newest) drop_frames(before);
    }
    return go;
  }
  void stream_end() { f_.set_deferred(false); }

 private:
  void drop_frames(std::size_t i) {
    FrEntry& e = d_.entries[i];
    if (e.completed() && e.frames && !e.frames->empty()) e.frames = std::vector<FrFrame>{};
  }
  // One item of the entries list; false to stop (the value budget ran out).
  bool read_entry(const V& e) {
    if (!f_.spend(kEntryCost)) return false;
    if (!e.is_object()) f_.warn("entries[" + std::to_string(count_) + "] is not a dict; skipped");
    else parse_entry(e, count_, d_.format == "json");
    ++count_;
    return !f_.exhausted();
  }
  template <std::size_t N>
  void read_dict(const V& v, FieldTable<N>& t, V* slots) {
    v.pairs([&](std::string_view k, std::uint32_t id, const V& x) {
      int f = t.find(k, id);
      if (f >= 0) slots[f] = x;
      return f_.spend(1);
    });
  }
  // A dict's rows in key order with one row per key (the last wins), as a JSON object holds them.
  std::vector<std::pair<std::string, V>> sorted_rows(const V& obj) {
    std::vector<std::pair<std::string, V>> rows;
    obj.pairs([&](std::string_view k, std::uint32_t, const V& v) {
      rows.emplace_back(std::string(k), v);
      return f_.spend(1);
    });
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::pair<std::string, V>> out;
    for (std::size_t i = 0; i < rows.size(); ++i)
      if (i + 1 == rows.size() || rows[i + 1].first != rows[i].first) out.push_back(std::move(rows[i]));
    return out;
  }
  std::optional<std::vector<int>> parse_ranks(const V& v) {
    if (v.is_string()) return parse_ranks_text(v.str());
    if (!v.is_array() || !f_.spend(v.size())) return std::nullopt;
    std::vector<int> out;
    bool ok = v.items([&](const V& r) {
      if (!r.is_int() || r.is_big_uint()) return false;
      long long x = r.as_int();
      if (x < 0 || x > 0x7fffffff) return false;
      out.push_back(static_cast<int>(x));
      return true;
    });
    if (!ok) return std::nullopt;
    return out;
  }

  void parse_entry(const V& e, std::size_t index, bool json_form) {
    std::array<V, kEntryKeys> s{};
    read_dict(e, entry_keys_, s.data());
    FrEntry& x = d_.entries.emplace_back();
    x.index = index;
    const Ctx ctx{"entries", index, "."};
    x.record_id = f_.integer(s[kRecordId], ctx, "record_id");
    x.pg_id = f_.integer(s[kPgId], ctx, "pg_id");
    if (const V& pg = s[kProcessGroup]; !pg.null()) {
      V parts[2];
      std::size_t n = 0;
      if (pg.is_array() && pg.size() == 2)
        pg.items([&](const V& p) {
          parts[n++] = p;
          return true;
        });
      if (n == 2 && parts[0].is_string() && parts[1].is_string()) {
        x.pg_name = texts_(f_.keep_text(parts[0].str(), ctx, "process_group name"));
        x.pg_desc = texts_(f_.keep_text(parts[1].str(), ctx, "process_group desc"));
      } else {
        f_.warn(ctx.str("process_group is not a (name, desc) pair"));
      }
    }
    x.collective_seq_id = f_.integer(s[kCollSeq], ctx, "collective_seq_id");
    x.p2p_seq_id = f_.integer(s[kP2pSeq], ctx, "p2p_seq_id");
    x.op_id = f_.integer(s[kOpId], ctx, "op_id");
    x.profiling_name = texts_(f_.text(s[kProfilingName], ctx, "profiling_name"));
    x.time_created_ns = f_.integer(s[kCreated], ctx, "time_created_ns");
    x.time_discovered_started_ns = f_.integer(s[kStarted], ctx, "time_discovered_started_ns");
    x.time_discovered_completed_ns = f_.integer(s[kCompleted], ctx, "time_discovered_completed_ns");
    if (json_form) {  // dump_json writes 0 for "not yet"
      if (x.time_discovered_started_ns == 0) x.time_discovered_started_ns.reset();
      if (x.time_discovered_completed_ns == 0) x.time_discovered_completed_ns.reset();
    }
    x.duration_ms = f_.real(s[kDuration], ctx, "duration_ms");
    x.input_sizes = shapes_(f_.shapes(s[kInSizes], ctx, "input_sizes"));
    x.output_sizes = shapes_(f_.shapes(s[kOutSizes], ctx, "output_sizes"));
    x.input_dtypes = names_(f_.strings(s[kInDtypes], ctx, "input_dtypes"));
    x.output_dtypes = names_(f_.strings(s[kOutDtypes], ctx, "output_dtypes"));
    x.state = texts_(f_.text(s[kState], ctx, "state"));
    if (x.state && *x.state != "scheduled" && *x.state != "started" && *x.state != "completed")
      f_.warn(ctx.str("state '" + *x.state + "' is not scheduled/started/completed"));
    x.timeout_ms = f_.integer(s[kTimeout], ctx, "timeout_ms");
    x.is_p2p = f_.boolean(s[kIsP2p], ctx, "is_p2p");
    x.retired = f_.boolean(s[kRetired], ctx, "retired");
    x.thread_name = texts_(f_.text(s[kThreadName], ctx, "thread_name"));
    x.thread_id = texts_(f_.text(s[kThreadId], ctx, "thread_id"));
    if (const V& fr = s[kFrames]; !fr.null()) {
      if (fr.is_array()) {
        check_frames(fr, ctx);
        x.frames = std::vector<FrFrame>{};  // filled by build_frames (streamed: now, quietly)
        if (streamed_) {
          f_.set_quiet(true);
          build_frames_of(x, fr);
          f_.set_quiet(false);
        } else {
          frames_.emplace_back(d_.entries.size() - 1, fr);
        }
      } else {
        f_.warn(ctx.str("frames is not a list"));
      }
    }
  }

  // One frame dict's fields; `quiet` on the second read. A pickle shares frame dicts between
  // entries, so a frame that read cleanly once is not read again until it is built.
  void read_frame(const V& one, const Ctx& ctx, FrFrame* out) {
    std::array<V, 3> s{};
    read_dict(one, frame_keys_, s.data());
    auto name = f_.text(s[0], ctx, "name");
    auto filename = f_.text(s[1], ctx, "filename");
    auto line = f_.integer(s[2], ctx, "line");
    if (out) *out = FrFrame{name.value_or(""), filename.value_or(""), line};
  }
  void check_frames(const V& fr, const Ctx& entry_ctx) {
    const Ctx ctx{entry_ctx.head, entry_ctx.index, ".frames."};
    if (!f_.spend(fr.size())) return;
    fr.items([&](const V& one) {
      if (!one.is_object()) return true;
      std::uint32_t id = one.id();
      if (id < frame_ok_.size() && frame_ok_[id]) return true;
      std::size_t before = d_.warnings.size();
      read_frame(one, ctx, nullptr);
      if (id < frame_ok_.size() && d_.warnings.size() == before) frame_ok_[id] = true;
      return !f_.exhausted();
    });
  }
  void build_frames() {
    std::vector<bool> keep = keep_all_ ? std::vector<bool>{} : frames_to_keep(d_);
    f_.set_quiet(true);
    for (auto& [i, fr] : frames_) {
      FrEntry& e = d_.entries[i];
      if (!keep_all_ && e.completed() && !keep[i]) continue;  // stays an empty list
      if (!build_frames_of(e, fr)) break;
    }
    f_.set_quiet(false);
  }
  // False when the budget ran out.
  bool build_frames_of(FrEntry& e, const V& fr) {
    if (!f_.spend(fr.size())) return false;
    e.frames->reserve(fr.size());
    const Ctx ctx{};
    fr.items([&](const V& one) {
      if (one.is_object()) read_frame(one, ctx, &e.frames->emplace_back());
      return !f_.exhausted();
    });
    return true;
  }

  // An entry is charged like the ~32 JSON values its model takes in memory (an FrEntry is ~600
  // bytes), so a pickle naming one empty dict millions of times cannot build gigabytes of model.
  static constexpr std::size_t kEntryCost = 32;

  FrRankDump& d_;
  Fields f_;
  bool keep_all_;
  std::size_t budget_;
  std::vector<bool> frame_ok_;  // by pickle value index: frame dicts that read without a warning
  std::vector<std::pair<std::size_t, V>> frames_;  // entry position → its frames list
  core::Interner<std::string> texts_;  // one copy of each distinct text, shape, dtype list
  core::Interner<std::vector<std::vector<long long>>> shapes_;
  core::Interner<std::vector<std::string>> names_;
  std::size_t count_ = 0;                          // items of the entries list read
  bool streamed_ = false;
  NewestPerGroup newest_;
  FieldTable<5> top_keys_{{"version", "comm_lib_version", "pg_config", "pg_status", "entries"}};
  FieldTable<3> cfg_keys_{{"name", "desc", "ranks"}};
  FieldTable<3> status_keys_{{"last_enqueued_collective", "last_started_collective", "last_completed_collective"}};
  FieldTable<3> frame_keys_{{"name", "filename", "line"}};
  FieldTable<kEntryKeys> entry_keys_{{"record_id", "pg_id", "process_group", "collective_seq_id", "p2p_seq_id",
                                      "op_id", "profiling_name", "time_created_ns", "time_discovered_started_ns",
                                      "time_discovered_completed_ns", "duration_ms", "input_sizes", "output_sizes",
                                      "input_dtypes", "output_dtypes", "state", "timeout_ms", "is_p2p", "retired",
                                      "thread_name", "thread_id", "frames"}};
};

}  // namespace ncdx::analyze::frmodel
