#include "report/context.h"

#include <chrono>
#include <ctime>
#include <unistd.h>

#include "core/redact.h"
#include "core/version.h"

namespace ncdx::report {

nlohmann::json make_context(const nlohmann::json& seen, bool timestamps) {
  char host[256] = {0};
  gethostname(host, sizeof host - 1);
  nlohmann::json ctx = {{"tool", "ncdx"}, {"version", core::kVersion}, {"host", host}};
  for (const char* k : {"nccl", "cuda", "driver"})
    ctx[std::string(k) + "_version"] = seen.contains(k) ? seen[k] : nlohmann::json(nullptr);
  ctx["env"] = core::relevant_env();
  if (timestamps) {
    auto t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    ctx["time"] = buf;
  } else {
    ctx["time"] = nullptr;
  }
  return ctx;
}

}  // namespace ncdx::report
