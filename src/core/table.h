#pragma once
// Plain text tables for terminal reports (aligned columns, UTF-8 aware, optional colour per cell).
#include <string>
#include <vector>

#include "core/term.h"

namespace ncdx::core {

struct Cell {
  std::string text;
  Color color = Color::none;
  Cell(std::string t, Color c = Color::none) : text(std::move(t)), color(c) {}  // NOLINT
  Cell(const char* t) : text(t) {}                                              // NOLINT
};

class Table {
 public:
  explicit Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add(std::vector<Cell> row) { rows_.push_back(std::move(row)); }
  std::size_t size() const { return rows_.size(); }
  // The columns that may wrap onto more lines to fit a total width (default: the last one). Text
  // columns (a reason, a recommendation) wrap; names and values stay whole, so they stay greppable.
  void wrap_columns(std::vector<std::size_t> columns) { wrap_ = std::move(columns); }
  // max_width caps each column (longer cells are cut with "…"); 0 = no cap. total_width (0 = none)
  // is the line length to fit: the wrapping columns narrow, widest first, down to 24 columns for
  // the last one and 16 for the others (then the line overflows rather than become unreadable).
  std::string render(bool color, std::size_t max_width = 0, std::size_t total_width = 0) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<Cell>> rows_;
  std::vector<std::size_t> wrap_;  // empty: the last column
};

}  // namespace ncdx::core
