#pragma once
// docs/ENV.md, generated from the same tables the linter uses (docs/DEVELOPING.md, src/knowledge/data/).
// A CTest (tests/env/tests.cmake) fails when the committed file is stale.
#include <string>

namespace ncdx::report {
std::string env_docs_markdown();
}
