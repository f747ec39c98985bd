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
  // max_width caps each column (longer cells are cut with "…"); 0 = no cap. total_width (0 = none)
  // is the line length to fit: the last column wraps onto indented lines (never under 24 columns).
  std::string render(bool color, std::size_t max_width = 0, std::size_t total_width = 0) const;

 private:
  std::vector<std::string> headers_;
  std::vector<std::vector<Cell>> rows_;
};

}  // namespace ncdx::core
