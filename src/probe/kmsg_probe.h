#pragma once
// NVIDIA XID lines from the kernel ring buffer: /dev/kmsg read non-blocking on a live machine
// (it would block at the end otherwise), or a kmsg/dmesg text file in a rooted tree or bundle.
#include "probe/inventory.h"
#include "probe/sys_reader.h"

namespace ncdx::probe {

// Live: reads /dev/kmsg with O_NONBLOCK. Replay: ROOT/dev/kmsg or ROOT/var/log/dmesg as text.
// `raw_out` receives the text read (for bundles).
KernelLog probe_kmsg(const SysReader& r, std::string* raw_out = nullptr);
// Parses kmsg records ("6,123,4567890,-;NVRM: Xid ...") or dmesg lines ("[  12.3] NVRM: ...").
KernelLog parse_kernel_log(std::string_view text);
// One XID line -> event; nullopt when the line is not an NVIDIA XID report.
std::optional<XidEvent> parse_xid_line(std::string_view message);

}  // namespace ncdx::probe
