// decode_json_into (fr/pickle_doc.h): a dump_json text → PickleDoc through nlohmann's SAX parser,
// so the JSON form is read by the same model builder as pickles, without a DOM (a DOM of
// std::map nodes cost most of the time, and freeing it much of the rest).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analyze/fr/pickle_doc.h"

namespace ncdx::analyze {

// The SAX handler: values go on a stack; a container collects everything pushed after its start
// as one run when it ends (as a pickle MARK … APPENDS does).
class JsonDocBuilder {
 public:
  using Kind = PickleDoc::Kind;
  explicit JsonDocBuilder(PickleDoc& doc) : doc_(doc) {}

  bool null() { return push(doc_.add(Kind::none)); }
  bool boolean(bool v) {
    std::uint32_t id = doc_.add(Kind::boolean);
    doc_.values_[id].i = v;
    return push(id);
  }
  bool number_integer(std::int64_t v) {
    std::uint32_t id = doc_.add(Kind::sint);
    doc_.values_[id].i = v;
    return push(id);
  }
  bool number_unsigned(std::uint64_t v) {
    if (v <= INT64_MAX) return number_integer(static_cast<std::int64_t>(v));
    std::uint32_t id = doc_.add(Kind::uint);
    doc_.values_[id].u = v;
    return push(id);
  }
  bool number_float(double v, const std::string&) {
    std::uint32_t id = doc_.add(Kind::real);
    doc_.values_[id].d = v;
    return push(id);
  }
  bool string(std::string& s) {
    std::uint32_t id = doc_.add(Kind::str);
    doc_.values_[id].n = static_cast<std::uint32_t>(s.size());
    doc_.values_[id].p = doc_.store(s);
    return push(id);
  }
  bool key(std::string& s) { return string(s); }
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

  static core::Status decode(PickleDoc& doc, std::string_view text, std::string_view source);

 private:
  bool push(std::uint32_t id) {
    stack_.push_back(id);
    return true;
  }
  bool open(Kind k) {
    stack_.push_back(doc_.add_container(k, 0));
    marks_.push_back(stack_.size());
    return true;
  }
  bool close() {
    std::size_t m = marks_.back();
    marks_.pop_back();
    if (stack_.size() > m) doc_.append(stack_[m - 1], stack_.data() + m, stack_.data() + stack_.size());
    stack_.resize(m);
    return true;
  }
  PickleDoc& doc_;
  std::vector<std::uint32_t> stack_;
  std::vector<std::size_t> marks_;
  std::size_t error_at_ = 0;
  std::string error_;
};

core::Status JsonDocBuilder::decode(PickleDoc& doc, std::string_view text, std::string_view source) {
  doc.reset();
  // About one value per 12 bytes of dump_json text.
  doc.values_.reserve(text.size() / 12 + 16);
  doc.items_.reserve(text.size() / 12 + 16);
  JsonDocBuilder b(doc);
  if (!nlohmann::json::sax_parse(text.begin(), text.end(), &b) || b.stack_.size() != 1) {
    doc.reset();
    return core::Status::bad_input(std::string(source) + ": byte " + std::to_string(b.error_at_) +
                                   ": invalid JSON (" + b.error_ + ")");
  }
  doc.root_ = b.stack_.back();
  return core::Status::ok();
}

core::Status decode_json_into(PickleDoc& doc, std::string_view text, std::string_view source) {
  return JsonDocBuilder::decode(doc, text, source);
}

}  // namespace ncdx::analyze
