// gzip through zlib's streaming inflate. Concatenated members (what `cat a.gz b.gz` and log
// rotators produce) are read one after another; a stream that ends before its trailer is reported
// as truncated after the lines already decoded have been delivered.
#include <zlib.h>

#include <cstring>

#include "analyze/logs/byte_source.h"

namespace ncdx::analyze {
namespace {

class GzipSource final : public ByteSource {
 public:
  explicit GzipSource(std::unique_ptr<RawInput> in) : in_(std::move(in)) {
    std::memset(&zs_, 0, sizeof zs_);
    if (inflateInit2(&zs_, 15 + 16) != Z_OK) fail("cannot initialise zlib");
    else inited_ = true;
  }
  ~GzipSource() override {
    if (inited_) inflateEnd(&zs_);
  }

  std::size_t read(char* out, std::size_t cap) override {
    if (done_ || !status_.is_ok()) return 0;
    zs_.next_out = reinterpret_cast<Bytef*>(out);
    zs_.avail_out = static_cast<uInt>(std::min<std::size_t>(cap, 1u << 30));
    const uInt start_out = zs_.avail_out;
    while (zs_.avail_out == start_out) {
      if (!in_->fill()) {
        if (!in_->status().is_ok()) status_ = in_->status();
        else if (in_member_) fail("truncated gzip stream (unexpected end of file)");
        else done_ = true;
        break;
      }
      if (!in_member_) {
        // A new member must start with the gzip magic; anything else is trailing garbage.
        if (in_->size() >= 1 && static_cast<unsigned char>(in_->data()[0]) != 0x1f) {
          fail("trailing garbage after gzip data");
          break;
        }
        if (inflateReset(&zs_) != Z_OK) {
          fail("cannot reset zlib");
          break;
        }
        in_member_ = true;
      }
      zs_.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in_->data()));
      zs_.avail_in = static_cast<uInt>(std::min<std::size_t>(in_->size(), 1u << 30));
      const uInt before = zs_.avail_in;
      int rc = inflate(&zs_, Z_NO_FLUSH);
      in_->consume(before - zs_.avail_in);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
      } else if (rc == Z_BUF_ERROR) {
        // No progress possible with this input; loop to fetch more.
      } else if (rc != Z_OK) {
        fail(std::string("corrupt gzip data (") + (zs_.msg ? zs_.msg : "zlib error") + ")");
        break;
      }
    }
    return start_out - zs_.avail_out;
  }
  std::uint64_t bytes_in() const override { return in_->consumed(); }
  core::Status status() const override { return status_; }

 private:
  void fail(const std::string& what) { status_ = core::Status::bad_input(in_->name() + ": " + what); }

  std::unique_ptr<RawInput> in_;
  z_stream zs_;
  bool inited_ = false;
  bool in_member_ = false;
  bool done_ = false;
  core::Status status_;
};

}  // namespace

std::unique_ptr<ByteSource> make_gzip_source(std::unique_ptr<RawInput> in) {
  return std::make_unique<GzipSource>(std::move(in));
}

}  // namespace ncdx::analyze
