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

void TableWriter::measure(const std::vector<Cell>& row) {
  if (row.size() > width_.size()) width_.resize(row.size(), 0);
  for (std::size_t i = 0; i < row.size(); ++i) width_[i] = std::max(width_[i], display_width(cut(row[i].text, max_width_)));
}

std::string TableWriter::emit(const std::vector<std::string>& texts, const std::vector<Color>& colors,
                              bool color) const {
  const std::size_t ncol = width_.size();
  // Where the last column starts, and how wide it may be to fit total_width.
  std::size_t indent = 0;
  for (std::size_t i = 0; i + 1 < ncol; ++i) indent += width_[i] + 2;
  constexpr std::size_t kMinLast = 24;
  std::size_t last_width = 0;
  if (total_width_ > 0) last_width = total_width_ > indent + kMinLast ? total_width_ - indent : kMinLast;

  std::string out, line;
  std::vector<std::string> tail = {""};
  for (std::size_t i = 0; i < ncol; ++i) {
    const std::string& t = texts[i];
    if (i + 1 == ncol) {
      tail = wrap_text(t, last_width);
      line += paint(tail[0], colors[i], color);
    } else {
      line += paint(t, colors[i], color);
      line += std::string(width_[i] - display_width(t) + 2, ' ');
    }
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  out += line + "\n";
  for (std::size_t k = 1; k < tail.size(); ++k) out += std::string(indent, ' ') + paint(tail[k], colors[ncol - 1], color) + "\n";
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
  for (const auto& r : rows_) w.measure(r);
  std::string out = w.header(color);
  for (const auto& r : rows_) out += w.line(r, color);
  return out;
}

}  // namespace ncdx::core
