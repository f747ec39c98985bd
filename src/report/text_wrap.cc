#include "report/text_wrap.h"

#include "core/strings.h"

namespace ncdx::report {

std::string hanging(std::string_view head, std::string_view text, std::size_t width, std::size_t indent) {
  if (indent == 0) indent = core::display_width(head);
  const std::size_t room = width == 0 ? 0 : (width > indent + 24 ? width - indent : 24);
  auto lines = core::wrap_text(text, room);
  std::string out = std::string(head) + lines[0] + "\n";
  for (std::size_t k = 1; k < lines.size(); ++k) out += std::string(indent, ' ') + lines[k] + "\n";
  return out;
}

bool fits_width(std::string_view text, std::size_t width) {
  if (width == 0) return true;
  std::size_t w = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      w = 0;
    } else if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {  // a colour code takes no column
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
    } else if ((c & 0xC0) != 0x80 && ++w > width) {
      return false;
    }
  }
  return true;
}

}  // namespace ncdx::report
