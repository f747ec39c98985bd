#include "report/sanitize.h"

#include <gtest/gtest.h>

#include <sstream>

using ncdx::report::sanitize;
using ncdx::report::sanitize_text;

TEST(Sanitize, EscapesControlSequences) {
  EXPECT_EQ(sanitize("a\x1b]0;pwned\x07z"), "a\\e]0;pwned\\x07z");   // title change (OSC)
  EXPECT_EQ(sanitize("\x1b[2J\x1b[H"), "\\e[2J\\e[H");               // clear screen
  EXPECT_EQ(sanitize("x\r\nnext\tt"), "x\\r\\nnext\\tt");
  EXPECT_EQ(sanitize("\xc2\x9b" "31m"), "\\u{9b}31m");                 // C1 CSI
  EXPECT_EQ(sanitize("a\xe2\x80\xae" "b"), "a\\u{202e}b");                // bidi override
  EXPECT_EQ(sanitize("bad\xff\xc0\xaf"), "bad\\xff\\xc0\\xaf");        // not UTF-8 (overlong)
  EXPECT_EQ(sanitize("del\x7f"), "del\\x7f");
  EXPECT_EQ(sanitize("ok · é 日本 …"), "ok · é 日本 …");
}

TEST(Sanitize, CapsLength) {
  std::string big(1 << 20, 'x');
  auto s = sanitize(big);
  EXPECT_LT(s.size(), 4200u);
  EXPECT_NE(s.find("…(1048576 bytes)"), std::string::npos);
  std::string multi = std::string(5000, 'a') + "\xe6\x97\xa5";  // never cuts inside a character
  EXPECT_EQ(sanitize(multi, 5000), std::string(5000, 'a') + "…(5003 bytes)");
  EXPECT_EQ(sanitize(multi, 5001), multi);  // the last character is kept whole, not cut
}

TEST(Sanitize, WholeTexts) {
  EXPECT_EQ(sanitize_text("line1\n\tline2\x1b[8m\n"), "line1\n\tline2\\e[8m\n");
  // Our own colours survive only when asked, other sequences never.
  EXPECT_EQ(sanitize_text("\x1b[31mFAIL\x1b[0m \x1b[8mhidden", true), "\x1b[31mFAIL\x1b[0m \\e[8mhidden");
  EXPECT_EQ(sanitize_text("\x1b[31mFAIL\x1b[0m"), "\\e[31mFAIL\\e[0m");
  std::string longline(100000, 'y');
  auto t = sanitize_text("a\n" + longline + "\nb\n");
  EXPECT_LT(t.size(), 17000u);
  EXPECT_TRUE(t.ends_with("\nb\n"));
}

TEST(Sanitize, StreamWritesTheBytesOfTheWholeText) {
  // Lines past the 64 KiB drain point, escapes and colour, an unterminated last line.
  std::string text;
  for (int i = 0; i < 3000; ++i)
    text += "row " + std::to_string(i) + " \x1b[31mred\x1b[0m \x1b]0;t\x07" + std::string(i % 97, 'v') + "\n";
  text += std::string(20000, 'w') + "\nlast, no newline";
  for (bool color : {false, true}) {
    std::ostringstream got;
    {
      ncdx::report::SanitizedOut out(got, color);
      for (std::size_t i = 0; i < text.size(); i += 777) out << text.substr(i, 777);
    }
    EXPECT_EQ(got.str(), sanitize_text(text, color));
  }
}
