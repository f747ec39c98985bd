#pragma once
// Every byte ncdx writes to stderr (errors, warnings, progress) passes the display sanitiser
// (report/sanitize.h): messages quote inputs — file names, a JSON parser's "last read: '…'", FR
// fields in warnings — and must not drive the terminal. Installed once by main() before anything
// is printed: stderr becomes a line-buffered stdio stream (glibc fopencookie) whose writes are
// sanitised and passed to file descriptor 2. Our own colours survive; nothing else does.
namespace ncdx::cli {

void install_stderr_filter();

}  // namespace ncdx::cli
