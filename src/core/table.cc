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

std::string Table::render(bool color, std::size_t max_width, std::size_t total_width) const {
  std::size_t ncol = headers_.size();
  for (const auto& r : rows_) ncol = std::max(ncol, r.size());
  std::vector<std::size_t> width(ncol, 0);
  auto text_at = [&](const std::vector<Cell>& r, std::size_t i) {
    return i < r.size() ? cut(r[i].text, max_width) : std::string();
  };
  for (std::size_t i = 0; i < headers_.size(); ++i) width[i] = display_width(headers_[i]);
  for (const auto& r : rows_)
    for (std::size_t i = 0; i < ncol; ++i) width[i] = std::max(width[i], display_width(text_at(r, i)));

  // Where the last column starts, and how wide it may be to fit total_width.
  std::size_t indent = 0;
  for (std::size_t i = 0; i + 1 < ncol; ++i) indent += width[i] + 2;
  constexpr std::size_t kMinLast = 24;
  std::size_t last_width = 0;
  if (total_width > 0) last_width = total_width > indent + kMinLast ? total_width - indent : kMinLast;

  std::string out;
  auto emit = [&](const std::vector<std::string>& texts, const std::vector<Color>& colors) {
    std::string line;
    std::vector<std::string> tail = {""};
    for (std::size_t i = 0; i < ncol; ++i) {
      const std::string& t = texts[i];
      bool last = i + 1 == ncol;
      if (last) {
        tail = wrap_text(t, last_width);
        line += paint(tail[0], colors[i], color);
      } else {
        line += paint(t, colors[i], color);
        line += std::string(width[i] - display_width(t) + 2, ' ');
      }
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    for (std::size_t k = 1; k < tail.size(); ++k) out += std::string(indent, ' ') + paint(tail[k], colors[ncol - 1], color) + "\n";
  };
  std::vector<std::string> h(ncol);
  for (std::size_t i = 0; i < headers_.size(); ++i) h[i] = headers_[i];
  emit(h, std::vector<Color>(ncol, Color::bold));
  for (const auto& r : rows_) {
    std::vector<std::string> t(ncol);
    std::vector<Color> c(ncol, Color::none);
    for (std::size_t i = 0; i < ncol; ++i) {
      t[i] = text_at(r, i);
      if (i < r.size()) c[i] = r[i].color;
    }
    emit(t, c);
  }
  return out;
}

}  // namespace ncdx::core
