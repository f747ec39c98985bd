#pragma once
// A temporary directory for tests, removed with everything in it at the end of the test.
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

namespace ncdx::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "ncdx-test-XXXXXX").string();
    path_ = ::mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }
  std::string file(const std::string& rel) const { return path_ + "/" + rel; }
  std::string write(const std::string& rel, const std::string& bytes) const {
    std::string p = file(rel);
    std::filesystem::create_directories(std::filesystem::path(p).parent_path());
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

 private:
  std::string path_;
};

}  // namespace ncdx::testing
