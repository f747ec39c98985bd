#pragma once
// Paragraphs that fit a terminal: the one way text renderers wrap a labelled line.
#include <cstddef>
#include <string>
#include <string_view>

namespace ncdx::report {

// head, then text wrapped to `width` columns with the continuation lines indented by `indent`
// (0: under the text, i.e. the display width of head; pass it when head carries colour codes).
// The text gets at least 24 columns; width 0 = one line. Ends in a newline.
std::string hanging(std::string_view head, std::string_view text, std::size_t width, std::size_t indent = 0);
// Whether every line of `text` is at most `width` display columns (width 0: always). A renderer
// with a layout for wide terminals and a narrower one asks this of the wide one first.
bool fits_width(std::string_view text, std::size_t width);

}  // namespace ncdx::report
