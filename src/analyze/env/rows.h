#pragma once
// The rows of one env lint, held compactly (issue #12, "bounded work"). An env file at the 6 MiB
// execve limit (config/env_file.cc) holds ~300 000 distinct unknown NCCL_* names, one row each;
// as nine std::strings a row took ~600 bytes with its heap blocks, and the table, the rendered
// text and the JSON tree built from them took a gigabyte. Here a row is 56 bytes: its parameter,
// value and origin point into the EnvLintInput maps (which must outlive the rows), and its rule,
// risk, recommendation, rationale and source are kept once each in a pool — they repeat across
// rows (every unknown name says the same, bar the ~600 possible "did you mean" targets), and a
// text that quotes a value comes from a rule of a known variable, of which there are a few hundred.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analyze/env/origins.h"
#include "core/outcome.h"
#include "core/string_pool.h"

namespace ncdx::analyze {

// One row as the renderers read it (the fields of EnvRow, lint.h, as views).
struct EnvRowView {
  std::string_view parameter, value, recommended, risk;
  core::Outcome status = core::Outcome::pass;
  std::string_view why, source, rule;
  std::string origin;  // "run.env:12" (made from the row's EnvWhere when viewed)
};

class EnvRows {
 public:
  // `parameter`, `value` and the origin's source must outlive the rows; pooled() makes a string
  // that does.
  void add(const std::string* parameter, const std::string* value, EnvWhere origin, core::Outcome status,
           std::string_view rule, std::string_view risk, std::string_view recommended, std::string_view why,
           std::string_view source);
  // A string kept as long as the rows (one copy per distinct text).
  const std::string* pooled(std::string_view s) { return &pool_.at(pool_.intern(s)); }
  void reserve(std::size_t n) { rows_.reserve(n); }

  std::size_t size() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }
  const std::string& parameter(std::size_t i) const { return *rows_[i].parameter; }
  core::Outcome status(std::size_t i) const { return rows_[i].status; }
  EnvRowView operator[](std::size_t i) const;

  // Sorts by parameter, then rule id (stable), and drops a PASS row ("nothing to report") where
  // another row reports on the same parameter.
  void finish();

  class iterator {
   public:
    using value_type = EnvRowView;
    iterator(const EnvRows* rows, std::size_t i) : rows_(rows), i_(i) {}
    EnvRowView operator*() const { return (*rows_)[i_]; }
    iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator!=(const iterator& o) const { return i_ != o.i_; }

   private:
    const EnvRows* rows_;
    std::size_t i_;
  };
  iterator begin() const { return {this, 0}; }
  iterator end() const { return {this, rows_.size()}; }

 private:
  struct Row {
    const std::string *parameter, *value, *origin;  // origin: EnvWhere::source
    std::uint32_t origin_line, rule, risk, recommended, why, source;
    core::Outcome status;
  };
  std::uint32_t intern(std::string_view s) { return pool_.intern(s); }
  const std::string& text(std::uint32_t id) const { return pool_.at(id); }

  std::vector<Row> rows_;
  core::StringPool pool_;
};

}  // namespace ncdx::analyze
