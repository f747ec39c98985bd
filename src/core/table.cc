#include "core/table.h"

#include <algorithm>

#include "core/strings.h"

namespace ncdx::core {
namespace {
std::string cut(const std::string& s, std::size_t max_width) {
  if (max_width == 0 || display_width(s) <= max_width) return s;
  std::string out;
  std::size_t w = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) {
      if (w + 1 >= max_width) break;
      ++w;
    }
    out.push_back(s[i]);
  }
  // Do not leave a partial UTF-8 sequence at the end.
  while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
  if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0x80)) out.pop_back();
  return out + "…";
}
}  // namespace

TableWriter::TableWriter(const std::vector<std::string>& headers, std::size_t max_width, std::size_t total_width)
    : headers_(headers), max_width_(max_width), total_width_(total_width), width_(headers.size(), 0) {
  for (std::size_t i = 0; i < headers_.size(); ++i) width_[i] = display_width(headers_[i]);
}

void TableWriter::wrap_columns(std::vector<std::size_t> columns) {
  wrap_ = std::move(columns);
  room_ok_ = false;
}

void TableWriter::measure(const std::vector<Cell>& row) {
  if (row.size() > width_.size()) width_.resize(row.size(), 0);
  for (std::size_t i = 0; i < row.size(); ++i) width_[i] = std::max(width_[i], display_width(cut(row[i].text, max_width_)));
  room_ok_ = false;
}

std::size_t TableWriter::natural_width() const {
  std::size_t w = width_.empty() ? 0 : 2 * (width_.size() - 1);
  for (std::size_t c : width_) w += c;
  return w;
}

const std::vector<std::size_t>& TableWriter::room() const {
  if (room_ok_) return room_;
  // Narrow the widest wrapping column by one until the line fits or every wrapping column is at
  // its floor. The last column's text is never padded, so its floor applies to the room it gets.
  const std::size_t ncol = width_.size();
  constexpr std::size_t kMinLast = 24, kMinOther = 16;
  room_ = width_;
  if (total_width_ > 0) {
    std::vector<bool> wraps(ncol, false);
    if (wrap_.empty() && ncol > 0) wraps[ncol - 1] = true;
    for (std::size_t c : wrap_)
      if (c < ncol) wraps[c] = true;
    for (std::size_t w = natural_width(); w > total_width_; --w) {
      std::size_t pick = ncol;
      for (std::size_t i = 0; i < ncol; ++i) {
        const std::size_t floor = i + 1 == ncol ? kMinLast : kMinOther;
        if (wraps[i] && room_[i] > floor && (pick == ncol || room_[i] > room_[pick])) pick = i;
      }
      if (pick == ncol) break;
      --room_[pick];
    }
  }
  room_ok_ = true;
  return room_;
}

std::string TableWriter::emit(const std::vector<std::string>& texts, const std::vector<Color>& colors,
                              bool color) const {
  const std::size_t ncol = width_.size();
  const std::vector<std::size_t>& room = this->room();
  std::vector<std::vector<std::string>> parts(ncol);
  std::size_t lines = 1;
  for (std::size_t i = 0; i < ncol; ++i) {
    parts[i] = total_width_ > 0 && room[i] < display_width(texts[i]) ? wrap_text(texts[i], room[i])
                                                                       : std::vector<std::string>{texts[i]};
    if (parts[i].empty()) parts[i].emplace_back();
    lines = std::max(lines, parts[i].size());
  }
  std::string out;
  for (std::size_t k = 0; k < lines; ++k) {
    std::string line;
    for (std::size_t i = 0; i < ncol; ++i) {
      const std::string t = k < parts[i].size() ? parts[i][k] : std::string();
      line += paint(t, colors[i], color && (k == 0 || !t.empty()));
      if (i + 1 < ncol) line += std::string(room[i] - std::min(room[i], display_width(t)) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string TableWriter::header(bool color) const {
  std::vector<std::string> h(width_.size());
  std::copy(headers_.begin(), headers_.end(), h.begin());
  return emit(h, std::vector<Color>(width_.size(), Color::bold), color);
}

std::string TableWriter::line(const std::vector<Cell>& row, bool color) const {
  std::vector<std::string> t(width_.size());
  std::vector<Color> c(width_.size(), Color::none);
  for (std::size_t i = 0; i < row.size() && i < t.size(); ++i) {
    t[i] = cut(row[i].text, max_width_);
    c[i] = row[i].color;
  }
  return emit(t, c, color);
}

std::string Table::render(bool color, std::size_t max_width, std::size_t total_width) const {
  TableWriter w(headers_, max_width, total_width);
  if (!wrap_.empty()) w.wrap_columns(wrap_);
  for (const auto& r : rows_) w.measure(r);
  std::string out = w.header(color);
  for (const auto& r : rows_) out += w.line(r, color);
  return out;
}

}  // namespace ncdx::core
