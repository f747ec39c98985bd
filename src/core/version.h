#pragma once
#include "version_gen.h"
namespace ncdx::core {
inline constexpr const char* kVersion = NCDX_VERSION_STRING;
}
