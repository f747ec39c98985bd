#include "analyze/config/shell_lexer.h"

#include <cctype>

namespace ncdx::analyze {
namespace {

class Lexer {
 public:
  Lexer(std::string_view t, std::string_view f) : t_(t), file_(f) {}

  core::Result<std::vector<ShellCommand>> run() {
    if (auto nul = t_.find('\0'); nul != std::string_view::npos)
      return err(line_at(nul), "binary data (NUL byte); expected a shell script");
    while (i_ < t_.size()) {
      char c = t_[i_];
      if (c == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] == '\n') {  // continuation between words
        end_word();
        i_ += 2;
        ++line_;
        continue;
      }
      if (c == '\\' && i_ + 1 >= t_.size()) return err(line_, "line continuation '\\' at end of file: expected another line");
      if (c == '\r' && i_ + 1 < t_.size() && t_[i_ + 1] == '\n') { ++i_; continue; }
      if (c == '\n') {
        end_command();
        ++line_;
        ++i_;
        if (!heredocs_.empty()) skip_heredocs();
        continue;
      }
      if (c == ' ' || c == '\t') { end_word(); ++i_; continue; }
      if (c == '#' && word_.empty()) {
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '>' || (c == '<' && !(i_ + 1 < t_.size() && t_[i_ + 1] == '<')) ||
          (c == '&' && i_ + 1 < t_.size() && t_[i_ + 1] == '>')) {
        auto st = skip_redirection();
        if (!st.is_ok()) return st;
        continue;
      }
      if (c == ';' || c == '&' || c == '|') {
        end_command();
        ++i_;
        if (i_ < t_.size() && (t_[i_] == c || (c == ';' && t_[i_] == '&'))) ++i_;
        continue;
      }
      if ((c == '(' || c == ')') && word_.empty()) { end_command(); ++i_; continue; }
      if (c == '<' && i_ + 1 < t_.size() && t_[i_ + 1] == '<' && !(i_ + 2 < t_.size() && t_[i_ + 2] == '<')) {
        end_word();
        i_ += 2;
        if (i_ < t_.size() && t_[i_] == '-') ++i_;
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) ++i_;
        std::string delim;
        while (i_ < t_.size() && !std::isspace(static_cast<unsigned char>(t_[i_])) && t_[i_] != ';') {
          if (t_[i_] != '\'' && t_[i_] != '"') delim.push_back(t_[i_]);
          ++i_;
        }
        if (!delim.empty()) heredocs_.push_back(delim);
        continue;
      }
      auto st = scan_word_part();
      if (!st.is_ok()) return st;
    }
    end_command();
    return std::move(cmds_);
  }

 private:
  std::string_view t_, file_;
  std::size_t i_ = 0;
  int line_ = 1;
  std::string word_;
  int word_line_ = 0;
  std::vector<ShellWord> words_;
  std::vector<ShellCommand> cmds_;
  std::vector<std::string> heredocs_;

  core::Status err(int line, const std::string& what) const {
    return core::Status::bad_input(std::string(file_) + ":" + std::to_string(line) + ": " + what);
  }
  int line_at(std::size_t pos) const {
    int l = 1;
    for (std::size_t k = 0; k < pos && k < t_.size(); ++k) l += t_[k] == '\n';
    return l;
  }
  void put(char c) {
    if (word_.empty()) word_line_ = line_;
    word_.push_back(c);
    if (c == '\n') ++line_;
  }
  void end_word() {
    if (!word_.empty()) words_.push_back({word_, word_line_});
    word_.clear();
  }
  void end_command() {
    end_word();
    if (!words_.empty()) {
      int line = words_.front().line;
      cmds_.push_back({std::move(words_), line});
    }
    words_.clear();
  }
  void skip_heredocs() {
    for (const auto& d : heredocs_) {
      while (i_ < t_.size()) {
        std::size_t eol = t_.find('\n', i_);
        std::string_view ln = t_.substr(i_, eol == std::string_view::npos ? std::string_view::npos : eol - i_);
        while (!ln.empty() && ln.front() == '\t') ln.remove_prefix(1);
        i_ = eol == std::string_view::npos ? t_.size() : eol + 1;
        ++line_;
        if (ln == d) break;
      }
    }
    heredocs_.clear();
  }

  // A redirection (`> log`, `2>&1`, `>> f`, `&> f`, `< in`) is not an argument of the command: it
  // and its target are dropped. A word of digits just before it is the file descriptor.
  core::Status skip_redirection() {
    bool fd = !word_.empty();
    for (char ch : word_) fd &= std::isdigit(static_cast<unsigned char>(ch)) != 0;
    if (fd) word_.clear();
    else end_word();
    if (t_[i_] == '&') ++i_;
    ++i_;  // > or <
    if (i_ < t_.size() && (t_[i_] == '>' || t_[i_] == '|')) ++i_;
    bool dup = i_ < t_.size() && t_[i_] == '&';
    if (dup) ++i_;
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) ++i_;
    if (dup) {  // >&2, 2>&1, >&-
      while (i_ < t_.size() && (std::isdigit(static_cast<unsigned char>(t_[i_])) || t_[i_] == '-')) ++i_;
      return {};
    }
    // The target word: scanned like any word, then thrown away.
    while (i_ < t_.size()) {
      char ch = t_[i_];
      if (ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' || ch == '&' || ch == '|' || ch == '>' || ch == '<') break;
      if (ch == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] == '\n') break;
      auto st = scan_word_part();
      if (!st.is_ok()) return st;
    }
    word_.clear();
    return {};
  }

  // One quoted or unquoted run of characters, or a $-construct, appended to the current word.
  core::Status scan_word_part() {
    char c = t_[i_];
    if (c == '\\') {  // escaped char (a continuation inside a word is removed)
      if (i_ + 1 >= t_.size()) {  // a backslash that ends the file escapes nothing: bash keeps it
        put(c);
        ++i_;
        return {};
      }
      if (t_[i_ + 1] == '\n') { i_ += 2; ++line_; return {}; }
      put(c);
      put(t_[i_ + 1]);
      i_ += 2;
      return {};
    }
    if (c == '\'') {
      int open = line_;
      put(c);
      ++i_;
      while (i_ < t_.size() && t_[i_] != '\'') put(t_[i_++]);
      if (i_ >= t_.size()) return err(open, "unbalanced single quote: expected a closing '");
      put(t_[i_++]);
      return {};
    }
    if (c == '"') {
      int open = line_;
      put(c);
      ++i_;
      while (i_ < t_.size() && t_[i_] != '"') {
        if (t_[i_] == '\\' && i_ + 1 < t_.size()) {
          if (t_[i_ + 1] == '\n') { i_ += 2; ++line_; continue; }
          put(t_[i_++]);
          put(t_[i_++]);
          continue;
        }
        if (t_[i_] == '$' || t_[i_] == '`') {
          auto st = scan_dollar();
          if (!st.is_ok()) return st;
          continue;
        }
        put(t_[i_++]);
      }
      if (i_ >= t_.size()) return err(open, "unbalanced double quote: expected a closing \"");
      put(t_[i_++]);
      return {};
    }
    if (c == '$' || c == '`') return scan_dollar();
    if (c == '=' && i_ + 1 < t_.size() && t_[i_ + 1] == '(' &&
        (is_name(word_) || (word_.size() > 1 && word_.back() == '+' && is_name(word_.substr(0, word_.size() - 1))))) {
      // NAME=( array ) / NAME+=( more )
      put(t_[i_++]);
      return scan_balanced('(', ')', "array assignment NAME=(...)");
    }
    put(t_[i_++]);
    return {};
  }

  static bool is_name(const std::string& w) {
    if (w.empty() || std::isdigit(static_cast<unsigned char>(w[0]))) return false;
    for (char ch : w)
      if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_')) return false;
    return true;
  }

  core::Status scan_balanced(char open_c, char close_c, const char* what) {
    int open_line = line_;
    int depth = 0;
    while (i_ < t_.size()) {
      char ch = t_[i_];
      if (ch == '\\' && i_ + 1 < t_.size()) { put(t_[i_++]); put(t_[i_++]); continue; }
      if (ch == '\'' || ch == '"') {
        char q = ch;
        int ql = line_;
        put(t_[i_++]);
        while (i_ < t_.size() && t_[i_] != q) {
          if (q == '"' && t_[i_] == '\\' && i_ + 1 < t_.size()) put(t_[i_++]);
          put(t_[i_++]);
        }
        if (i_ >= t_.size()) return err(ql, std::string("unbalanced quote ") + q + " inside " + what);
        put(t_[i_++]);
        continue;
      }
      put(t_[i_++]);
      if (ch == open_c) ++depth;
      if (ch == close_c && --depth == 0) return {};
    }
    return err(open_line, std::string("unterminated ") + what + ": expected '" + close_c + "'");
  }

  core::Status scan_dollar() {
    if (t_[i_] == '`') {
      int open = line_;
      put(t_[i_++]);
      while (i_ < t_.size() && t_[i_] != '`') {
        if (t_[i_] == '\\' && i_ + 1 < t_.size()) put(t_[i_++]);
        put(t_[i_++]);
      }
      if (i_ >= t_.size()) return err(open, "unbalanced backquote: expected a closing `");
      put(t_[i_++]);
      return {};
    }
    put(t_[i_++]);  // $
    if (i_ < t_.size() && t_[i_] == '(') return scan_balanced('(', ')', "$(...)");
    if (i_ < t_.size() && t_[i_] == '{') return scan_balanced('{', '}', "${...}");
    return {};
  }
};

}  // namespace

core::Result<std::vector<ShellCommand>> lex_shell(std::string_view text, std::string_view file) {
  return Lexer(text, file).run();
}

}  // namespace ncdx::analyze
