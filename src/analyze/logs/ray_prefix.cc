// ray_prefix(): the "(name key=value, ...)" prefixes Ray puts before its workers' lines, and the
// same shape vLLM uses for its worker processes.
#include "analyze/logs/ray_prefix.h"

namespace ncdx::analyze {

using scan::Cursor;

bool ray_prefix(Cursor& c, RayPrefix& out) {
  std::size_t close = c.s.find(')', c.i);
  if (close == std::string_view::npos || close - c.i > 200) return false;
  std::string_view in = c.s.substr(c.i + 1, close - c.i - 1);
  auto keyed = [&](std::string_view key) {
    std::size_t p = in.find(key);
    return p != std::string_view::npos && (p == 0 || in[p - 1] == ' ' || in[p - 1] == ',');
  };
  // Ray's own processes: "(raylet, ip=10.0.0.1)", "(autoscaler +1m2s)", "(gcs_server)".
  auto system = [&] {
    for (std::string_view w : {"raylet", "autoscaler", "gcs_server", "monitor", "dashboard", "log_monitor"})
      if (in.substr(0, w.size()) == w && (in.size() == w.size() || in[w.size()] == ',' || in[w.size()] == ' '))
        return true;
    return false;
  };
  if (!keyed("pid=") && !keyed("ip=") && !system()) return false;
  auto value = [&](std::string_view key) -> std::string_view {
    std::size_t k = 0;
    while ((k = in.find(key, k)) != std::string_view::npos) {
      if (k == 0 || in[k - 1] == ' ' || in[k - 1] == ',') {
        std::size_t e = k + key.size();
        while (e < in.size() && in[e] != ',' && in[e] != ' ') ++e;
        return in.substr(k + key.size(), e - k - key.size());
      }
      k += key.size();
    }
    return {};
  };
  auto to_int = [](std::string_view v, int& out) {
    Cursor k{v};
    return k.num(out) && k.end();
  };
  int n;
  if (to_int(value("pid="), n)) out.pid = n;
  if (to_int(value("rank="), n)) {
    out.rank = n;
  } else if (std::size_t tp = in.find("TP"); tp != std::string_view::npos && in.find("PP") == std::string_view::npos &&
                                             in.find("DP") == std::string_view::npos) {
    // vLLM ≥ 0.10 "(VllmWorker TP3 pid=1090)", "(Worker_TP3 pid=…)": the tensor-parallel rank
    Cursor r{in, tp + 2};
    if ((tp == 0 || in[tp - 1] == ' ' || in[tp - 1] == '_') && r.num(n) && (r.end() || r.peek() == ' ' || r.peek() == ','))
      out.rank = n;
  }
  out.ip = value("ip=");
  c.i = close + 1;
  c.eat(' ');
  return true;
}

}  // namespace ncdx::analyze
