#pragma once
// docs/ENV.md, generated from the same tables the linter uses (DESIGN.md "Knowledge is data").
// A CTest (tests/env/tests.cmake) fails when the committed file is stale.
#include <string>

namespace ncdx::analyze {
std::string env_docs_markdown();
}
