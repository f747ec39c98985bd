#include "cli/cmd_model_mpi.h"

#include <cstdio>
#include <iostream>

#include "core/json.h"
#include "core/strings.h"
#include "model/tune/ompi_alphabeta.h"
#include "model/tune/ompi_rules.h"
#include "report/context.h"

namespace ncdx::cli {

namespace mt = model::tune;
using measure::Collective;

int run_model_mpi(const MpiModelOpts& o, const std::vector<std::uint64_t>& sizes, const GlobalOptions& g) {
  auto bad = [](const std::string& m) { return fail("model", core::Status::usage(m)); };
  if (o.np < 1) return bad("--backend mpi needs --np N (ranks, one per host)");
  if (o.alpha_us < 0 || o.beta_ns <= 0 || o.gamma_ns < 0 || o.beta_x_ns < 0)
    return bad("--backend mpi needs --alpha-us A (>= 0) and --beta-ns B (> 0; ns per byte), --beta-x-ns and --gamma-ns >= 0");
  std::vector<Collective> colls;
  const std::string coll_list = o.colls.empty() ? "allreduce,allgather,broadcast" : o.colls;
  for (auto c : core::split(coll_list, ',')) {
    auto pc = measure::parse_collective(core::trim(c));
    if (!pc || mt::ompi_alphabeta_algorithms(*pc).empty())
      return bad("--coll with --backend mpi: \"" + std::string(c) + "\" is not modelled (allreduce, allgather, broadcast)");
    colls.push_back(*pc);
  }
  auto table = mt::ompi_algorithms();
  if (!table) return fail("model", table.status());
  const double beta_x_ns = o.beta_x_ns > 0 ? o.beta_x_ns : o.beta_ns;
  const mt::Link link{o.alpha_us, o.beta_ns / 1e3, o.gamma_ns / 1e3, beta_x_ns / 1e3};

  nlohmann::json rows = nlohmann::json::array();
  std::string text;
  char line[256];
  std::snprintf(line, sizeof line, "# α %.2f us, β %.3f ns/B (%.2f Mbit/s), βx %.3f ns/B, γ %.3f ns/B, %d ranks\n", o.alpha_us,
                o.beta_ns, 8e3 / o.beta_ns, beta_x_ns, o.gamma_ns, o.np);
  text += line;
  std::snprintf(line, sizeof line, "%-10s %-22s %12s %14s %9s %14s %14s %14s  %s\n", "coll", "algorithm", "bytes", "time_us",
                "α_steps", "β_bytes", "βx_bytes", "γ_bytes", "runs_as");
  text += line;
  for (Collective c : colls) {
    std::vector<std::string> names;
    if (o.algos.empty()) {
      names = mt::ompi_alphabeta_algorithms(c);
    } else {
      for (auto a : core::split(o.algos, ',')) names.emplace_back(core::trim(a));
    }
    for (const auto& name : names) {
      const mt::OmpiAlgorithm* alg = nullptr;
      for (const auto& a : *table)
        if (a.coll == c && a.name == name) alg = &a;
      if (!alg) return bad("--algo: \"" + name + "\" is not an Open MPI " + std::string(measure::name_of(c)) + " algorithm");
      nlohmann::json mca = nlohmann::json::object();
      for (const auto& [k, v] : mt::forced_mca(*alg, {alg->id, 0})) mca[k] = v;
      for (auto bytes : sizes) {
        auto cost = mt::ompi_alphabeta(c, name, o.np, bytes);
        if (!cost) {
          if (!o.algos.empty()) return bad("--algo " + name + ": not modelled at " + std::to_string(o.np) + " ranks");
          break;
        }
        const double t = cost->time_us(link);
        rows.push_back({{"collective", measure::name_of(c)}, {"algorithm", name}, {"id", alg->id},
                        {"runs_as", cost->runs_as.empty() ? name : cost->runs_as}, {"np", o.np}, {"bytes", bytes},
                        {"time_us", t}, {"alpha_steps", cost->alpha_steps}, {"beta_bytes", cost->beta_bytes},
                        {"beta_x_bytes", cost->beta_x_bytes}, {"gamma_bytes", cost->gamma_bytes}, {"mca", mca}});
        std::snprintf(line, sizeof line, "%-10s %-22s %12llu %14.1f %9.1f %14.0f %14.0f %14.0f  %s\n",
                      std::string(measure::name_of(c)).c_str(), name.c_str(), static_cast<unsigned long long>(bytes), t,
                      cost->alpha_steps, cost->beta_bytes, cost->beta_x_bytes, cost->gamma_bytes, cost->runs_as.c_str());
        text += line;
      }
    }
  }
  if (g.json) {
    nlohmann::json j = {{"schema", "ncdx.model.mpi/1"}};
    j["context"] = report::make_context(nlohmann::json::object(), !g.no_timestamps);
    j["link"] = {{"alpha_us", o.alpha_us}, {"beta_ns_per_byte", o.beta_ns}, {"beta_x_ns_per_byte", beta_x_ns},
                 {"gamma_ns_per_byte", o.gamma_ns}};
    j["np"] = o.np;
    j["rows"] = rows;
    std::cout << core::dump_json(j);
  } else {
    std::cout << text;
  }
  return 0;
}

}  // namespace ncdx::cli
