#include "analyze/fr/pickle_ops.h"

#include <cstdint>

namespace ncdx::analyze::pickle_ops {

OpInfo op_info(unsigned char op) {
  switch (op) {
    case 'c': return {"GLOBAL", true};
    case 0x93: return {"STACK_GLOBAL", true};
    case 'R': return {"REDUCE", true};
    case 'b': return {"BUILD", true};
    case 'i': return {"INST", true};
    case 'o': return {"OBJ", true};
    case 0x81: return {"NEWOBJ", true};
    case 0x92: return {"NEWOBJ_EX", true};
    case 0x82: return {"EXT1", true};
    case 0x83: return {"EXT2", true};
    case 0x84: return {"EXT4", true};
    case 'P': return {"PERSID", true};
    case 'Q': return {"BINPERSID", true};
    case 0x97: return {"NEXT_BUFFER", true};
    case 0x98: return {"READONLY_BUFFER", true};
    case 0x80: return {"PROTO", false};
    case 0x95: return {"FRAME", false};
    case '.': return {"STOP", false};
    case '(': return {"MARK", false};
    case '0': return {"POP", false};
    case '1': return {"POP_MARK", false};
    case '2': return {"DUP", false};
    case 'p': return {"PUT", false};
    case 'q': return {"BINPUT", false};
    case 'r': return {"LONG_BINPUT", false};
    case 0x94: return {"MEMOIZE", false};
    case 'g': return {"GET", false};
    case 'h': return {"BINGET", false};
    case 'j': return {"LONG_BINGET", false};
    case 'N': return {"NONE", false};
    case 0x88: return {"NEWTRUE", false};
    case 0x89: return {"NEWFALSE", false};
    case 'I': return {"INT", false};
    case 'J': return {"BININT", false};
    case 'K': return {"BININT1", false};
    case 'M': return {"BININT2", false};
    case 'L': return {"LONG", false};
    case 0x8a: return {"LONG1", false};
    case 0x8b: return {"LONG4", false};
    case 'F': return {"FLOAT", false};
    case 'G': return {"BINFLOAT", false};
    case 'S': return {"STRING", false};
    case 'T': return {"BINSTRING", false};
    case 'U': return {"SHORT_BINSTRING", false};
    case 'V': return {"UNICODE", false};
    case 'X': return {"BINUNICODE", false};
    case 0x8c: return {"SHORT_BINUNICODE", false};
    case 0x8d: return {"BINUNICODE8", false};
    case 'B': return {"BINBYTES", false};
    case 'C': return {"SHORT_BINBYTES", false};
    case 0x8e: return {"BINBYTES8", false};
    case 0x96: return {"BYTEARRAY8", false};
    case ']': return {"EMPTY_LIST", false};
    case 'a': return {"APPEND", false};
    case 'e': return {"APPENDS", false};
    case 'l': return {"LIST", false};
    case ')': return {"EMPTY_TUPLE", false};
    case 't': return {"TUPLE", false};
    case 0x85: return {"TUPLE1", false};
    case 0x86: return {"TUPLE2", false};
    case 0x87: return {"TUPLE3", false};
    case '}': return {"EMPTY_DICT", false};
    case 'd': return {"DICT", false};
    case 's': return {"SETITEM", false};
    case 'u': return {"SETITEMS", false};
    case 0x8f: return {"EMPTY_SET", false};
    case 0x90: return {"ADDITEMS", false};
    case 0x91: return {"FROZENSET", false};
    default: return {nullptr, false};
  }
}

std::string hex2(unsigned char c) {
  static const char* d = "0123456789abcdef";
  return std::string("0x") + d[c >> 4] + d[c & 15];
}

std::string base64(std::string_view in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    std::uint32_t v = (std::uint8_t(in[i]) << 16) | (std::uint8_t(in[i + 1]) << 8) | std::uint8_t(in[i + 2]);
    out += t[v >> 18];
    out += t[(v >> 12) & 63];
    out += t[(v >> 6) & 63];
    out += t[v & 63];
  }
  if (i < in.size()) {
    std::uint32_t v = std::uint8_t(in[i]) << 16;
    if (i + 1 < in.size()) v |= std::uint8_t(in[i + 1]) << 8;
    out += t[v >> 18];
    out += t[(v >> 12) & 63];
    out += i + 1 < in.size() ? t[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

}  // namespace ncdx::analyze::pickle_ops
