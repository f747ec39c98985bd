#include "analyze/logs/decompress_budget.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>

#include "core/log.h"
#include "core/strings.h"

namespace ncdx::analyze {
namespace {

DecompressBudget g_budget;
std::atomic<bool> g_progress{false};

class BudgetedSource final : public ByteSource {
 public:
  BudgetedSource(std::unique_ptr<ByteSource> src, std::string name, bool compressed)
      : src_(std::move(src)), name_(std::move(name)), compressed_(compressed),
        tty_(isatty(fileno(stderr)) == 1), start_(std::chrono::steady_clock::now()), last_(start_) {}

  ~BudgetedSource() override {
    if (drawn_ && tty_) std::fprintf(stderr, "\r\x1b[K");
  }

  std::size_t read(char* out, std::size_t cap) override {
    if (stopped_) return 0;
    std::size_t n = src_->read(out, cap);
    out_ += n;
    if (compressed_ && over()) {
      stopped_ = true;
      core::log::warn("{}: stopped after {} decoded from {} compressed ({}); the rest was not read "
                      "(raise the limit with --max-decompressed SIZE)",
                      name_, core::human_bytes(static_cast<double>(out_)),
                      core::human_bytes(static_cast<double>(src_->bytes_in())),
                      out_ > g_budget.max_bytes ? "over the decompression budget" : "expansion ratio over the limit");
    }
    progress();
    return n;
  }
  std::uint64_t bytes_in() const override { return src_->bytes_in(); }
  std::uint64_t bytes_out() const override { return out_; }
  core::Status status() const override { return src_->status(); }

 private:
  bool over() const {
    if (g_budget.max_bytes && out_ > g_budget.max_bytes) return true;
    if (g_budget.max_ratio > 0 && out_ > g_budget.ratio_floor &&
        static_cast<double>(out_) > g_budget.max_ratio * static_cast<double>(std::max<std::uint64_t>(src_->bytes_in(), 1)))
      return true;
    return false;
  }
  // A long read says how far it got: redrawn in place on a TTY, one line every 5 s with
  // --progress elsewhere (CI logs, pipes). Short reads print nothing.
  void progress() {
    bool on_tty = tty_, forced = g_progress.load();
    if (!on_tty && !forced) return;
    auto now = std::chrono::steady_clock::now();
    if (now - start_ < std::chrono::seconds(2)) return;
    if (now - last_ < (on_tty ? std::chrono::milliseconds(200) : std::chrono::milliseconds(5000))) return;
    last_ = now;
    std::string msg = "reading " + name_ + ": " + core::human_bytes(static_cast<double>(out_));
    if (compressed_) msg += " decoded from " + core::human_bytes(static_cast<double>(src_->bytes_in()));
    if (on_tty) std::fprintf(stderr, "\r\x1b[K%s", msg.c_str());
    else std::fprintf(stderr, "ncdx: %s\n", msg.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }

  std::unique_ptr<ByteSource> src_;
  std::string name_;
  bool compressed_, tty_;
  bool stopped_ = false, drawn_ = false;
  std::uint64_t out_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace

void set_decompress_budget(const DecompressBudget& b) { g_budget = b; }
const DecompressBudget& decompress_budget() { return g_budget; }
void set_read_progress(bool on) { g_progress = on; }

std::unique_ptr<ByteSource> with_budget(std::unique_ptr<ByteSource> src, std::string name, bool compressed) {
  return std::make_unique<BudgetedSource>(std::move(src), std::move(name), compressed);
}

}  // namespace ncdx::analyze
