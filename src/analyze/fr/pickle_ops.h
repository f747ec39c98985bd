#pragma once
// The pickle opcode table (names from Python's pickletools) and which opcodes the data-only
// Flight Recorder reader refuses because they import, build objects or call code (Python pickletools opcode table).
#include <string>
#include <string_view>

namespace ncdx::analyze::pickle_ops {

struct OpInfo {
  const char* name;  // nullptr for a byte that is no opcode
  bool refused;
};
OpInfo op_info(unsigned char op);
std::string hex2(unsigned char c);              // "0x63"
std::string base64(std::string_view bytes);     // standard alphabet, padded

}  // namespace ncdx::analyze::pickle_ops
