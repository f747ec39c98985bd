#pragma once
// Asks a given libnccl file for its version through ncclGetVersion (NVIDIA/nccl src/nccl.h.in: X·10000
// + Y·100 + Z from 2.9 on, X·1000 + Y·100 + Z before). Only for files on the live machine: a
// library inside a bundle is never loaded (bundles are untrusted input).
#include <optional>
#include <string>

namespace ncdx::vendor {

std::optional<std::string> nccl_library_version(const std::string& path);
// 22809 -> "2.28.9"; 2708 -> "2.7.8"
std::string nccl_version_code_to_string(int code);

}  // namespace ncdx::vendor
