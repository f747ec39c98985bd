#pragma once
// JUnit XML (one testcase per check) so CI systems can gate on ncdx results.
#include <string>
#include <vector>

#include "core/outcome.h"

namespace ncdx::report {

struct JUnitCase {
  std::string classname;  // category
  std::string name;       // check id
  core::Outcome status = core::Outcome::pass;
  std::string message;
};

// WARN is reported as passing with system-out text; FAIL as <failure>; SKIP as <skipped>; PASS and
// INFO as a plain passing case.
std::string render_junit(const std::string& suite, const std::vector<JUnitCase>& cases);

}  // namespace ncdx::report
