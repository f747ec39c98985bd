#pragma once
// The one display sanitiser (issue #12): every string that came from an input (a Flight Recorder
// profiling_name, a process-group description, an env value, a log line, a file name) passes here
// before it reaches a terminal, summary.txt, Markdown or JUnit. JSON and HTML keep their own
// escaping (nlohmann's \u00XX, report/html.h) and never come here.
//
// What it does: control and escape sequences become visible escapes — C0 bytes (ESC → "\e",
// others "\xNN"), DEL, the C1 range U+0080–U+009F (CSI U+009B is a one-byte ESC[ on many
// terminals), bidirectional overrides U+202A–U+202E / U+2066–U+2069 ("Trojan Source",
// CVE-2021-42574), and bytes that are not UTF-8 ("\xNN"). A string longer than the cap is cut on
// a character boundary and ends with "…(N bytes)" so a 200 MB name prints as a few KiB.
#include <cstddef>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

namespace ncdx::report {

// Cap of one displayed field (a name, a value, an evidence line).
inline constexpr std::size_t kDisplayFieldCap = 4096;
// Cap of one line of a rendered text (a table row holds several capped fields).
inline constexpr std::size_t kDisplayLineCap = 16384;

// One field, one line: newlines and tabs are escaped too ("\n", "\t").
std::string sanitize(std::string_view s, std::size_t cap = kDisplayFieldCap);

// A whole rendered text (a report on stdout, summary.txt, report.md, junit.xml): keeps "\n" and
// "\t", escapes everything else as above, caps each line at kDisplayLineCap. With keep_color the
// exact SGR colour sequences core/term.h paints ("\x1b[31m" … "\x1b[0m") and the progress
// line's "\r\x1b[K" survive; every other escape sequence is made visible.
std::string sanitize_text(std::string_view text, bool keep_color = false);

// An ostream that passes what is written to `out` through sanitize_text as whole lines, so a
// report can be written as it is produced instead of rendered whole first (sanitize_text works
// line by line: the bytes are the same). The last, unterminated line goes out on destruction.
class SanitizedOut : public std::ostream {
 public:
  SanitizedOut(std::ostream& out, bool keep_color);
  ~SanitizedOut() override;

 private:
  class Buf : public std::streambuf {
   public:
    Buf(std::ostream& out, bool keep_color) : out_(out), color_(keep_color) {}
    void drain(bool all);

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;

   private:
    std::ostream& out_;
    bool color_;
    std::string pending_;
  };
  Buf buf_;
};

}  // namespace ncdx::report
