#pragma once
// JUnit XML (one testcase per check) so CI systems can gate on ncdx results. The attributes follow
// the JUnit schema Jenkins' xunit plugin publishes (junit-10.xsd, the one pytest validates its own
// --junitxml output against); hostname and timestamp are optional there but what a CI needs to tell
// the files of many nodes apart.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/outcome.h"

namespace ncdx::report {

struct JUnitCase {
  std::string classname;  // category
  std::string name;       // check id
  core::Outcome status = core::Outcome::pass;
  std::string message;
};

struct JUnitSuite {
  std::string tool;      // "ncdx.doctor"; the suite is named tool@hostname, so one CI run that
                         // collects the files of 64 nodes keeps 64 suites instead of merging them
  std::string hostname;  // the machine the checks ran on (empty: unknown, the name is the tool)
  std::vector<JUnitCase> cases;
};

// context: a report's "context" object (report/context.h): its host names a suite without one, its
// time (absent with --no-timestamps) becomes the timestamp attribute.
// WARN is reported as passing with system-out text; FAIL as <failure>; SKIP as <skipped>; PASS and
// INFO as a plain passing case.
std::string render_junit(std::vector<JUnitSuite> suites, const nlohmann::json& context);

}  // namespace ncdx::report
