// Protocol 0/1 opcodes whose argument is a text line (INT, LONG, FLOAT, STRING, UNICODE, PUT,
// GET): rare in dumps (a user re-saving one with protocol 0), so kept off the hot switch.
#include "analyze/fr/pickle_decode.h"
#include "analyze/fr/pickle_ops.h"
#include "analyze/fr/pickle_text.h"

namespace ncdx::analyze {

bool PickleDecoder::step_text(unsigned char op) {
  std::size_t nl = in_.find('\n', pos_);
  if (nl == std::string_view::npos)
    return fail(op_at_, std::string("truncated: ") + op_name() + " argument has no terminating newline");
  std::string_view line = in_.substr(pos_, nl - pos_);
  pos_ = nl + 1;
  switch (op) {
    case 'I':
    case 'L': {
      if (op == 'I' && (line == "00" || line == "01")) return push_scalar(Kind::boolean, line == "01");
      if (op == 'L' && !line.empty() && line.back() == 'L') line.remove_suffix(1);
      auto v = parse_decimal_int128(line);
      if (!v) return fail(op_at_, std::string(op_name()) + " argument is not a 64-bit decimal integer");
      return push_int(*v);
    }
    case 'F': {
      auto v = parse_python_float(line);
      if (!v) return fail(op_at_, "FLOAT argument is not a number");
      return push_real(*v);
    }
    case 'S':
    case 'V': {
      auto out = std::make_unique<std::string>();
      if (op == 'S' && !decode_string_repr(line, *out))
        return fail(op_at_, "STRING argument is not a quoted, escaped string");
      if (op == 'V' && !decode_raw_unicode_escape(line, *out))
        return fail(op_at_, "UNICODE argument has a bad \\u escape");
      std::string_view s = *out;
      doc_.owned_.push_back(std::move(out));  // the heap string does not move with the vector
      return push_text(op == 'V' || valid_utf8(s) ? Kind::str : Kind::bytes, s);
    }
    case 'p':
    case 'g': {
      auto v = parse_decimal_int128(line);
      if (!v || *v < 0 || *v > static_cast<__int128>(UINT64_MAX))
        return fail(op_at_, std::string(op_name()) + " argument is not a memo index");
      return op == 'p' ? memo_put(static_cast<std::uint64_t>(*v)) : memo_get(static_cast<std::uint64_t>(*v));
    }
    default:
      return fail(op_at_, "unknown pickle opcode " + pickle_ops::hex2(op));
  }
}

}  // namespace ncdx::analyze
