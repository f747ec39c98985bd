#pragma once
// Prefixes of Python's logging module as the ML stack configures it: vLLM "INFO 06-05 06:18:13
// [file.py:470] ", SGLang "INFO server_args.py:1697: ", torchrun's elastic agent
// "torch.distributed.elastic.multiprocessing.api: [WARNING] ", the common "%(asctime)s -
// %(name)s - %(levelname)s - " format and basicConfig's "ERROR:root:". Used by parse_prefix().
#include <optional>
#include <string_view>

#include "analyze/logs/log_line.h"
#include "analyze/logs/text_scan.h"

namespace ncdx::analyze::pylog {

struct Parsed {
  LineLevel level = LineLevel::unknown;
  std::string_view source;     // "file.py:470"
  std::string_view time_text;  // "06-05 06:18:13"
  std::optional<double> clock;
};

// vLLM / SGLang: "LEVEL MM-DD hh:mm:ss [file.py:N] " or "LEVEL file.py:N: ".
bool level_first(scan::Cursor& c, Parsed& out);
// "logger.name: [LEVEL] " (torchrun's elastic agent after its "[date time,ms] ").
bool logger_bracket_level(scan::Cursor& c, Parsed& out);
// "- LEVEL - " or "- logger.name - LEVEL - " (after an asctime the caller already read).
bool dash_level(scan::Cursor& c, Parsed& out);
// basicConfig's default "LEVEL:logger.name:".
bool colon_level(scan::Cursor& c, Parsed& out);
// A bare "LEVEL " / "[LEVEL] " (after a timestamp the caller already read; DeepSpeed, Ray).
bool bare_level(scan::Cursor& c, Parsed& out);

// The level word at the cursor followed by `after` ("INFO", "WARNING", "WARN", "ERROR",
// "CRITICAL", "FATAL", "DEBUG"); advances past both.
bool level_word(scan::Cursor& c, std::string_view after, LineLevel& level);

}  // namespace ncdx::analyze::pylog
