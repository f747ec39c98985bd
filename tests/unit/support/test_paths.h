#pragma once
// Where the unit tests find their data and the binaries they run: absolute paths of this checkout
// and build, defined once in a file the build generates (tests/CMakeLists.txt) instead of as -D
// flags on every test file. ccache keys on the flags, so with -D paths a clean clone at another
// path recompiled every test file; now only the generated one differs.
namespace ncdx::testing::paths {
extern const char* const test_data;   // tests/data
extern const char* const shared_dir;  // ../shared (the project's shared reference data)
extern const char* const source_dir;  // the checkout
extern const char* const ncdx_bin;    // the ncdx binary
extern const char* const fake_nvml;   // tests' fake libnvidia-ml.so.1
}  // namespace ncdx::testing::paths

#define NCDX_TEST_DATA ::ncdx::testing::paths::test_data
#define NCDX_SHARED_DIR ::ncdx::testing::paths::shared_dir
#define NCDX_SOURCE_DIR ::ncdx::testing::paths::source_dir
#define NCDX_BIN ::ncdx::testing::paths::ncdx_bin
#define NCDX_FAKE_NVML ::ncdx::testing::paths::fake_nvml
