#pragma once
// Reporters for `ncdx doctor --cluster` (schema ncdx.cluster/1, docs/schema/cluster.schema.json).
// They compute nothing: every number comes from analyze::ClusterRun. `--plan`: plan_render.h.
#include <nlohmann/json.hpp>

#include <string>

#include "analyze/cluster/cluster_run.h"
#include "report/report_dir.h"

namespace ncdx::report {

nlohmann::json render_cluster_json(const analyze::ClusterRun& run, bool timestamps);
std::string render_cluster_text(const analyze::ClusterRun& run, bool color);
std::string render_cluster_html(const analyze::ClusterRun& run);
// report.json, report.html, summary.txt, junit.xml, metrics.prom
ReportFiles cluster_report_files(const analyze::ClusterRun& run, bool timestamps);

}  // namespace ncdx::report
