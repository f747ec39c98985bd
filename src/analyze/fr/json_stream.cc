// read_json_dump (fr/json_stream.h): the SAX handler that builds a PickleDoc and streams the
// top-level "entries" list into the model builder, and the file reader that feeds it.
#include "analyze/fr/json_stream.h"

#include <cstdio>
#include <iterator>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyze/fr/model_build.h"
#include "analyze/fr/model_view.h"

namespace ncdx::analyze {

using Builder = frmodel::Builder<frview::PickleView>;

// Values go on a stack; a container collects everything pushed after its start as one run when
// it ends (as a pickle MARK … APPENDS does). An item of the streamed list (a value whose parent
// is the list at depth 2, the root dict being depth 1) goes to the builder when complete, and the
// document is rolled back to where the item began.
class JsonDumpReader {
 public:
  using Kind = PickleDoc::Kind;
  JsonDumpReader(PickleDoc& doc, Builder& sink, std::size_t expect) : doc_(doc), sink_(sink), expect_(expect) {
    doc_.reset();
    doc_.ids_stable_ = false;  // items are dropped once read and their indices reused
  }

  bool null() { return scalar(Kind::none); }
  bool boolean(bool v) { return scalar(Kind::boolean, [&](PickleDoc::Value& x) { x.i = v; }); }
  bool number_integer(std::int64_t v) { return scalar(Kind::sint, [&](PickleDoc::Value& x) { x.i = v; }); }
  bool number_unsigned(std::uint64_t v) {
    if (v <= INT64_MAX) return number_integer(static_cast<std::int64_t>(v));
    return scalar(Kind::uint, [&](PickleDoc::Value& x) { x.u = v; });
  }
  bool number_float(double v, const std::string&) {
    return scalar(Kind::real, [&](PickleDoc::Value& x) { x.d = v; });
  }
  bool string(std::string& s) {
    return scalar(Kind::str, [&](PickleDoc::Value& x) {
      x.n = static_cast<std::uint32_t>(s.size());
      x.p = doc_.store(s);
    });
  }
  bool key(std::string& s) {
    // A top-level "entries" key: the list after it is streamed; a later one replaces it.
    if (depth_ == 1) {
      entries_next_ = s == "entries";
      if (entries_next_) sink_.stream_begin(expect_);
    }
    std::uint32_t id = doc_.add(Kind::str);
    doc_.values_[id].n = static_cast<std::uint32_t>(s.size());
    doc_.values_[id].p = doc_.store(s);
    stack_.push_back(id);
    return true;
  }
  bool binary(nlohmann::json::binary_t&) { return false; }  // not in JSON text
  bool start_object(std::size_t) { return open(Kind::dict); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(Kind::list); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& ex) {
    error_at_ = position;
    error_ = ex.what();
    return false;
  }

  bool too_deep() const { return too_deep_; }
  std::size_t error_at() const { return error_at_; }
  const std::string& error() const { return error_; }
  std::uint32_t root() const { return stack_.size() == 1 ? stack_.back() : PickleDoc::npos; }

 private:
  // Where a value starts: an item of the streamed list begins here.
  bool begins_item() {
    bool stream = depth_ == 1 && entries_next_;
    if (depth_ == 1) entries_next_ = false;
    if (streaming_ && depth_ == 2) item_ = doc_.mark();
    return stream;
  }
  template <class F>
  bool scalar(Kind k, F&& fill) {
    begins_item();
    std::uint32_t id = doc_.add(k);
    fill(doc_.values_[id]);
    stack_.push_back(id);
    return item_done();
  }
  bool scalar(Kind k) {
    return scalar(k, [](PickleDoc::Value&) {});
  }
  bool open(Kind k) {
    bool stream = begins_item() && k == Kind::list;
    if (depth_ == kMaxFrJsonDepth) {
      too_deep_ = true;
      return false;
    }
    ++depth_;
    stack_.push_back(doc_.add_container(k, 0));
    marks_.push_back(stack_.size());
    if (stream) streaming_ = true;
    return true;
  }
  bool close() {
    std::size_t m = marks_.back();
    marks_.pop_back();
    if (stack_.size() > m) doc_.append(stack_[m - 1], stack_.data() + m, stack_.data() + stack_.size());
    stack_.resize(m);
    --depth_;
    if (streaming_ && depth_ == 1) {  // the streamed list itself ended (it holds nothing)
      streaming_ = false;
      return true;
    }
    return item_done();
  }
  // A complete value on top of the stack: if it is an item of the streamed list, to the builder.
  bool item_done() {
    if (!streaming_ || depth_ != 2) return true;
    sink_.stream_entry(frview::PickleView(&doc_, stack_.back()));
    stack_.pop_back();
    doc_.rollback(item_);
    return true;
  }

  PickleDoc& doc_;
  Builder& sink_;
  std::size_t expect_;
  std::vector<std::uint32_t> stack_;
  std::vector<std::size_t> marks_;
  std::size_t depth_ = 0;
  bool entries_next_ = false, streaming_ = false, too_deep_ = false;
  PickleDoc::Mark item_{};
  std::size_t error_at_ = 0;
  std::string error_;
};

namespace {

// A file's bytes as an input iterator for nlohmann's SAX parser, 1 MiB at a time.
class FileChars {
 public:
  FileChars(std::FILE* f, std::size_t max_bytes) : f_(f), max_(max_bytes), buf_(1u << 20) { refill(); }
  bool bad() const { return bad_; }
  bool too_big() const { return too_big_; }

  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;
    iterator() = default;
    explicit iterator(FileChars* src) : src_(src) {}
    const char& operator*() const { return src_->buf_[src_->pos_]; }
    iterator& operator++() {
      if (++src_->pos_ == src_->len_) src_->refill();
      return *this;
    }
    bool operator==(const iterator& o) const { return at_end() == o.at_end(); }
    bool operator!=(const iterator& o) const { return !(*this == o); }

   private:
    bool at_end() const { return !src_ || src_->len_ == 0; }
    FileChars* src_ = nullptr;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

 private:
  void refill() {
    pos_ = 0;
    len_ = too_big_ ? 0 : std::fread(buf_.data(), 1, buf_.size(), f_);
    if (len_ == 0 && std::ferror(f_)) bad_ = true;
    total_ += len_;
    if (total_ > max_) {  // the file grew past the limit after it was checked
      too_big_ = true;
      len_ = 0;
    }
  }
  std::FILE* f_;
  std::size_t max_, total_ = 0, pos_ = 0, len_ = 0;
  std::vector<char> buf_;
  bool bad_ = false, too_big_ = false;
};

// About the fewest bytes of dump_json text an entry takes (a real one is ~600): the entries vector
// is reserved for text size / this; pages never written are not resident, so a generous guess
// costs no memory and saves the copies of growing it.
constexpr std::size_t kMinEntryBytes = 256;

template <class It>
core::Result<FrRankDump> read_json(It first, It last, std::size_t size, const std::string& file,
                                   std::optional<int> rank, bool keep_all_frames, PickleDoc& doc,
                                   const FileChars* from) {
  FrRankDump d;
  d.file = file;
  d.rank = rank;
  d.format = "json";
  Builder b(d, keep_all_frames, SIZE_MAX, 0);  // no shared references: no budget, no identities
  JsonDumpReader r(doc, b, size / kMinEntryBytes);
  bool ok = nlohmann::json::sax_parse(first, last, &r);
  if (from && from->bad()) return core::Status::bad_input(file + ": read error");
  if (from && from->too_big()) return core::Status::bad_input(file + ": exceeds the dump size limit");
  if (r.too_deep())
    return core::Status::bad_input(file + ": JSON nested deeper than " + std::to_string(kMaxFrJsonDepth) + " levels");
  if (!ok || r.root() == PickleDoc::npos)
    return core::Status::bad_input(file + ": byte " + std::to_string(r.error_at()) + ": invalid JSON (" + r.error() +
                                   ")");
  b.stream_end();
  if (core::Status st = b.build(frview::PickleView(&doc, r.root())); !st) return st;
  return d;
}

}  // namespace

core::Result<FrRankDump> read_json_dump(std::string_view text, const std::string& file, std::optional<int> rank,
                                        bool keep_all_frames, PickleDoc& scratch) {
  return read_json(text.begin(), text.end(), text.size(), file, rank, keep_all_frames, scratch, nullptr);
}

core::Result<FrRankDump> read_json_dump_file(const std::string& path, std::size_t max_bytes, std::optional<int> rank,
                                             bool keep_all_frames, PickleDoc& scratch) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) return core::Status::not_found(path + ": cannot open");
  std::fseek(f.get(), 0, SEEK_END);
  long size = std::ftell(f.get());
  std::rewind(f.get());
  FileChars chars(f.get(), max_bytes);
  return read_json(chars.begin(), chars.end(), size > 0 ? static_cast<std::size_t>(size) : 0, path, rank,
                   keep_all_frames, scratch, &chars);
}

}  // namespace ncdx::analyze
