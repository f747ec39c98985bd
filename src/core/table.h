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

// A table written row by row without holding it: every row is shown to measure() first (column
// widths), then written with line(). For tables too large to keep twice (env lint of an env file
// at the execve limit: ~300 000 rows, issue #12); Table holds its rows and uses this to render.
class TableWriter {
 public:
  // max_width caps each column (longer cells are cut with "…"); 0 = no cap. total_width (0 = none)
  // is the line length to fit: the wrapping columns narrow, widest first, down to 24 columns for
  // the last one and 16 for the others (then the line overflows rather than become unreadable).
  explicit TableWriter(const std::vector<std::string>& headers, std::size_t max_width = 0,
                       std::size_t total_width = 0);
  // The columns that may wrap onto more lines to fit total_width (default: the last one). Text
  // columns (a reason, a recommendation) wrap; names and values stay whole, so they stay greppable.
  void wrap_columns(std::vector<std::size_t> columns);
  void measure(const std::vector<Cell>& row);
  // The length of the widest line with nothing wrapped (after every measure()).
  std::size_t natural_width() const;
  // The header line, and one row's line(s), each ending in "\n"; after every measure().
  std::string header(bool color) const;
  std::string line(const std::vector<Cell>& row, bool color) const;

 private:
  const std::vector<std::size_t>& room() const;
  std::string emit(const std::vector<std::string>& texts, const std::vector<Color>& colors, bool color) const;
  std::vector<std::string> headers_;
  std::size_t max_width_, total_width_;
  std::vector<std::size_t> width_;
  std::vector<std::size_t> wrap_;
  // The columns each cell may use (wrapped beyond), fitted to total_width once after measuring.
  mutable std::vector<std::size_t> room_;
  mutable bool room_ok_ = false;
};

class Table {
 public:
  explicit Table(std::vector<std::string> headers) : headers_(std::move(headers)) {}
  void add(std::vector<Cell> row) { rows_.push_back(std::move(row)); }
  std::size_t size() const { return rows_.size(); }
  void wrap_columns(std::vector<std::size_t> columns) { wrap_ = std::move(columns); }
  // max_width and total_width as TableWriter's.
  std::string render(bool color, std::size_t max_width = 0, std::size_t total_width = 0) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<Cell>> rows_;
  std::vector<std::size_t> wrap_;
};

}  // namespace ncdx::core
