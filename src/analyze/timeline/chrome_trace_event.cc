// What one Chrome trace event is (chrome_trace_event.h).
#include "analyze/timeline/chrome_trace_event.h"

#include <cctype>
#include <utility>

namespace ncdx::analyze::timeline {
namespace chrome {

Cat classify_cat(std::string_view c) {
  if (c == "kernel" || c == "Kernel") return Cat::kernel;
  if (c == "cpu_op" || c == "Operator") return Cat::cpu_op;
  if (c == "cuda_runtime" || c == "cuda_driver" || c == "Runtime") return Cat::runtime;
  if (c == "user_annotation") return Cat::user_annotation;
  if (c == "gpu_user_annotation") return Cat::gpu_annotation;
  if (c == "gpu_memcpy" || c == "Memcpy") return Cat::memcpy;
  if (c == "gpu_memset" || c == "Memset") return Cat::memset;
  // Ray (FORMAT.md §1): cat is the profile event name; "task:execute" is the work itself.
  if (c == "task:execute") return Cat::ray_task;
  // ray.timeline() of Ray 2.60 (ray/_private/state.py chrome_tracing_dump, GCS path): the whole
  // task is a span of cat "task::<function>", the only event that names the function.
  if (c.rfind("task::", 0) == 0) return Cat::ray_task_span;
  if (c == "task" || c.rfind("task:", 0) == 0 || c == "worker_idle" || c == "ray.get" || c == "ray.put" ||
      c == "ray.wait" || c == "submit_task" || c == "wait_for_function" || c == "fetch_and_run_function" ||
      c == "register_remote_function")
    return Cat::ray_other;
  return Cat::other;
}

void classify_name(Ev& e, std::string_view n, StringTable& strings) {
  e.name = Name::other;
  if (n.size() < 5) return;
  switch (n[0]) {
    case 'n':
      if (n.rfind("ncclDevKernel_", 0) == 0 || n.rfind("ncclKernel_", 0) == 0) {
        e.name = Name::nccl_kernel;
      } else if (n.rfind("nccl:", 0) == 0) {
        e.name = Name::nccl_annotation;
      } else {
        return;
      }
      break;
    case 'r':
      if (n != "record_param_comms") return;
      e.name = Name::record_param_comms;
      return;
    case 'g':
      if (n.rfind("gloo:", 0) != 0) return;
      e.name = Name::gloo;
      break;
    case 'c':
      if (n.rfind("c10d::", 0) != 0) return;
      e.name = Name::c10d;
      break;
    case 'P':
      if (n.rfind("ProfilerStep#", 0) == 0) {
        std::int64_t v = 0;
        std::size_t i = 13;
        for (; i < n.size() && i < 31 && n[i] >= '0' && n[i] <= '9'; ++i) v = v * 10 + (n[i] - '0');
        if (i > 13) {
          e.name = Name::profiler_step;
          e.step = v;
        }
      }
      return;
    default:
      if (n.find("ncclKernel") != std::string_view::npos) {  // HTA counts these too (types.py)
        e.name = Name::nccl_kernel;
        break;
      }
      return;
  }
  std::string c = collective_from_name(n);
  if (c.empty() && e.name != Name::nccl_kernel) {
    e.name = Name::other;
    return;
  }
  e.coll = strings.id(c);
  e.p2p = c == "send" || c == "recv";
}

bool interesting_args(const Ev& e) {
  switch (e.name) {
    case Name::unknown: return true;  // args before name: read them, decide later
    case Name::nccl_kernel: case Name::record_param_comms: case Name::gloo: case Name::c10d:
      return true;
    default: return e.cat == Cat::ray_task || e.cat == Cat::ray_task_span || e.cat == Cat::unknown || correlation_only(e);
  }
}

bool correlation_only(const Ev& e) {
  switch (e.name) {
    case Name::unknown: case Name::nccl_kernel: case Name::record_param_comms: case Name::gloo: case Name::c10d:
      return false;
    default:
      // GPU activities and their launches: only "correlation" is read (HTA's step filter).
      return e.cat == Cat::kernel || e.cat == Cat::memcpy || e.cat == Cat::memset || e.cat == Cat::runtime;
  }
}

std::int64_t hash_id(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return static_cast<std::int64_t>(h >> 1) | (std::int64_t{1} << 62);  // never a small OS id
}

}  // namespace chrome

std::string collective_from_name(std::string_view n) {
  std::string_view body = n;
  bool kernel = false;
  for (std::string_view pre : {"ncclDevKernel_", "ncclKernel_"}) {
    if (body.rfind(pre, 0) == 0) {
      body.remove_prefix(pre.size());
      kernel = true;
    }
  }
  if (kernel) {
    body = body.substr(0, body.find_first_of("_("));
  } else {
    for (std::string_view pre : {"c10d::", "gloo:", "nccl:"}) {
      if (body.rfind(pre, 0) == 0) body.remove_prefix(pre.size());
    }
  }
  std::string c;
  for (char ch : body.substr(0, 64)) {
    if (ch == '_' || ch == ' ') continue;
    if (ch == '(') break;
    c += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  // Variants of one collective (torch's _base/_coalesced/_into_tensor entry points, alltoallv).
  for (std::string_view suf : {"intotensorcoalesced", "tensorcoalesced", "coalesced", "base", "single"}) {
    if (c.size() > suf.size() && c.compare(c.size() - suf.size(), suf.size(), suf) == 0) c.resize(c.size() - suf.size());
  }
  if (c == "alltoallv") c = "alltoall";
  return c;
}

int dtype_bytes(std::string_view d) {
  if (d.rfind("c10::", 0) == 0) d.remove_prefix(5);
  static const std::pair<std::string_view, int> table[] = {
      {"Float", 4}, {"float", 4}, {"Double", 8}, {"double", 8}, {"Half", 2}, {"BFloat16", 2},
      {"Long", 8}, {"long int", 8}, {"long", 8}, {"int64_t", 8}, {"Int", 4}, {"int", 4}, {"int32_t", 4},
      {"Short", 2}, {"short int", 2}, {"Byte", 1}, {"unsigned char", 1}, {"Char", 1}, {"signed char", 1},
      {"Bool", 1}, {"bool", 1}, {"Float8_e4m3fn", 1}, {"Float8_e5m2", 1}, {"ComplexFloat", 8}, {"ComplexDouble", 16},
      {"UInt32", 4}, {"UInt64", 8}, {"UInt16", 2}};
  for (const auto& [k, v] : table)
    if (d == k) return v;
  return 0;
}

int rank_from_file_name(std::string_view path) {
  std::string_view base = path.substr(path.find_last_of('/') == std::string_view::npos ? 0 : path.find_last_of('/') + 1);
  std::string lower;
  for (char c : base) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::size_t at = lower.find("rank"); at != std::string::npos; at = lower.find("rank", at + 1)) {
    std::size_t i = at + 4;
    while (i < lower.size() && (lower[i] == '-' || lower[i] == '_' || lower[i] == '.' || lower[i] == '=')) ++i;
    int v = 0, digits = 0;
    while (i < lower.size() && lower[i] >= '0' && lower[i] <= '9' && digits < 7) v = v * 10 + (lower[i++] - '0'), ++digits;
    if (digits) return v;
  }
  return -1;
}

}  // namespace ncdx::analyze::timeline
