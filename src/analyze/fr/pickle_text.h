#pragma once
// Text decoding for the pickle reader: UTF-8 validation and the argument formats of the protocol 0
// opcodes (INT/LONG decimal, FLOAT repr, STRING quoted repr, UNICODE raw-unicode-escape).
#include <optional>
#include <string>
#include <string_view>

namespace ncdx::analyze {

// Strict UTF-8: no overlong forms, no surrogates, nothing above U+10FFFF.
bool valid_utf8(std::string_view s);
// Optional sign and decimal digits; nullopt when malformed or wider than 127 bits.
std::optional<__int128> parse_decimal_int128(std::string_view s);
// What Python's float() accepts from repr(): decimal, exponent, inf, nan.
std::optional<double> parse_python_float(std::string_view s);
// A quoted Python 2 str repr ('abc\n', "it's") with backslash escapes, to raw bytes.
bool decode_string_repr(std::string_view quoted, std::string& out);
// raw-unicode-escape: bytes are Latin-1 code points except \uXXXX and \UXXXXXXXX; output UTF-8.
bool decode_raw_unicode_escape(std::string_view in, std::string& out);

}  // namespace ncdx::analyze
