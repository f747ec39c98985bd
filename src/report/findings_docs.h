#pragma once
// docs/FINDINGS.md: the finding table (knowledge/data/findings.yaml) as Markdown, for
// `ncdx docs findings`; a CTest fails when the committed file is stale.
#include <string>

namespace ncdx::report {
std::string findings_markdown();
}
