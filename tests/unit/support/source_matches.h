#pragma once
// The table tests (findings.yaml, doctor_fixes.yaml) read the analysis sources to learn which ids
// the code names: every match of a regex in one source file, or in every .cc file of a folder.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace ncdx::testing {

template <class OnMatch>
void for_each_source_match(const std::filesystem::path& path, const std::regex& re, OnMatch&& on_match) {
  auto scan = [&](const std::filesystem::path& file) {
    std::ifstream f(file);
    std::stringstream text;
    text << f.rdbuf();
    const std::string s = text.str();
    for (std::sregex_iterator it(s.begin(), s.end(), re), end; it != end; ++it) on_match(*it);
  };
  if (!std::filesystem::is_directory(path)) return scan(path);
  for (const auto& e : std::filesystem::directory_iterator(path))
    if (e.path().extension() == ".cc") scan(e.path());
}

}  // namespace ncdx::testing
