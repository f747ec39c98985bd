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

}  // namespace ncdx::report
