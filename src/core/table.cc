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

  // Fit total_width: narrow the widest wrapping column by one until the line fits or every
  // wrapping column is at its floor. The last column's text is never padded, so its floor applies
  // to the room it gets, not to its natural width.
  constexpr std::size_t kMinLast = 24, kMinOther = 16;
  std::vector<bool> wraps(ncol, false);
  if (wrap_.empty() && ncol > 0) wraps[ncol - 1] = true;
  for (std::size_t c : wrap_)
    if (c < ncol) wraps[c] = true;
  std::vector<std::size_t> room = width;  // the columns each cell may use (wrapped beyond)
  if (total_width > 0) {
    auto line = [&] {
      std::size_t w = ncol > 0 ? 2 * (ncol - 1) : 0;
      for (std::size_t r : room) w += r;
      return w;
    };
    for (std::size_t w = line(); w > total_width; --w) {
      std::size_t pick = ncol;
      for (std::size_t i = 0; i < ncol; ++i) {
        std::size_t floor = i + 1 == ncol ? kMinLast : kMinOther;
        if (wraps[i] && room[i] > floor && (pick == ncol || room[i] > room[pick])) pick = i;
      }
      if (pick == ncol) break;
      --room[pick];
    }
  }

  std::string out;
  auto emit = [&](const std::vector<std::string>& texts, const std::vector<Color>& colors) {
    std::vector<std::vector<std::string>> parts(ncol);
    std::size_t lines = 1;
    for (std::size_t i = 0; i < ncol; ++i) {
      parts[i] = wraps[i] && total_width > 0 ? wrap_text(texts[i], room[i]) : std::vector<std::string>{texts[i]};
      lines = std::max(lines, parts[i].size());
    }
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
