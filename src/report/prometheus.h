#pragma once
// node_exporter textfile-collector format (metrics.prom).
#include <map>
#include <string>
#include <vector>

namespace ncdx::report {

struct Metric {
  std::string name;  // ncdx_...
  std::string help;
  std::map<std::string, std::string> labels;
  double value = 0;
};

std::string render_prometheus(const std::vector<Metric>& metrics);

}  // namespace ncdx::report
