// zstd through libzstd's streaming API. The window is capped (ZSTD_d_windowLogMax) so a frame made
// with --long=31 cannot make ncdx allocate gigabytes: it is reported as bad input instead.
#include <zstd.h>

#include "analyze/logs/byte_source.h"

namespace ncdx::analyze {
namespace {

constexpr int kMaxWindowLog = 27;  // 128 MiB, zstd's own default limit

class ZstdSource final : public ByteSource {
 public:
  explicit ZstdSource(std::unique_ptr<RawInput> in) : in_(std::move(in)), dctx_(ZSTD_createDCtx()) {
    if (!dctx_) fail("cannot initialise zstd");
    else ZSTD_DCtx_setParameter(dctx_, ZSTD_d_windowLogMax, kMaxWindowLog);
  }
  ~ZstdSource() override { ZSTD_freeDCtx(dctx_); }

  std::size_t read(char* out, std::size_t cap) override {
    if (done_ || !status_.is_ok()) return 0;
    ZSTD_outBuffer ob{out, cap, 0};
    while (ob.pos == 0) {
      // Flush what the decoder still holds before asking for more input.
      if (pending_) {
        ZSTD_inBuffer empty{nullptr, 0, 0};
        std::size_t r = ZSTD_decompressStream(dctx_, &ob, &empty);
        if (ZSTD_isError(r)) { fail_code(r); break; }
        last_ = r;
        pending_ = ob.pos == ob.size;
        if (ob.pos > 0) break;
      }
      if (!in_->fill()) {
        if (!in_->status().is_ok()) status_ = in_->status();
        else if (last_ != 0) fail("truncated zstd stream (unexpected end of file)");
        else done_ = true;
        break;
      }
      ZSTD_inBuffer ib{in_->data(), in_->size(), 0};
      std::size_t r = ZSTD_decompressStream(dctx_, &ob, &ib);
      in_->consume(ib.pos);
      if (ZSTD_isError(r)) { fail_code(r); break; }
      last_ = r;
      pending_ = ob.pos == ob.size;  // output full: the decoder may hold more
    }
    return ob.pos;
  }
  std::uint64_t bytes_in() const override { return in_->consumed(); }
  core::Status status() const override { return status_; }

 private:
  void fail(const std::string& what) { status_ = core::Status::bad_input(in_->name() + ": " + what); }
  void fail_code(std::size_t r) { fail(std::string("corrupt zstd data (") + ZSTD_getErrorName(r) + ")"); }

  std::unique_ptr<RawInput> in_;
  ZSTD_DCtx* dctx_;
  std::size_t last_ = 0;  // 0 once a frame has been completely decoded and flushed
  bool pending_ = false;
  bool done_ = false;
  core::Status status_;
};

}  // namespace

std::unique_ptr<ByteSource> make_zstd_source(std::unique_ptr<RawInput> in) {
  return std::make_unique<ZstdSource>(std::move(in));
}

}  // namespace ncdx::analyze
