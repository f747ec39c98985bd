#pragma once
// What a log goes through between the job and a GitHub issue, as functions over the log text:
// markdown, terminals, log collectors, scrapers, wrapping. Each reproduces the real tool's output
// format (kubectl logs --timestamps, containerd CRI files, docker compose, pdsh, journald, Python
// logging, vLLM/SGLang/Ray/determined/srun/mpirun prefixes, tqdm redraws, HTML escaping).
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace ncdx::testing {

struct Artefact {
  std::string name;
  // true: the artefact adds nothing a parser may read as identity (rank/host), so the verdict's
  // culprits must stay those of the clean log; false: only the class must stay.
  bool neutral;
  std::function<std::string(const std::string&)> apply;
};

inline std::vector<std::string> split_lines(const std::string& log) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= log.size()) {
    std::size_t nl = log.find('\n', start);
    if (nl == std::string::npos) {
      if (start < log.size()) out.push_back(log.substr(start));
      break;
    }
    out.push_back(log.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

inline std::string join_lines(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

// Applies f(line, index) to every line.
inline std::string each_line(const std::string& log, const std::function<std::string(const std::string&, std::size_t)>& f) {
  auto lines = split_lines(log);
  for (std::size_t i = 0; i < lines.size(); ++i) lines[i] = f(lines[i], i);
  return join_lines(lines);
}

inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = 0; (p = s.find(from, p)) != std::string::npos; p += to.size()) s.replace(p, from.size(), to);
  return s;
}

// A terminal of `width` columns copied with hard line breaks (tmux copy mode), or an editor's
// word wrap (break at the last space before the width).
inline std::string wrap(const std::string& log, std::size_t width, bool at_words) {
  std::vector<std::string> out;
  for (auto line : split_lines(log)) {
    while (line.size() > width) {
      std::size_t cut = width;
      if (at_words) {
        std::size_t sp = line.rfind(' ', width);
        if (sp == std::string::npos || sp < width / 2) break;
        cut = sp;
      }
      out.push_back(line.substr(0, cut));
      line = line.substr(at_words ? cut + 1 : cut);
    }
    out.push_back(line);
  }
  return join_lines(out);
}

inline std::string html_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default: o += c;
    }
  }
  return o;
}

// Seconds-resolution timestamps that advance by a millisecond a line (real collectors' are increasing).
inline std::string k8s_time(std::size_t i) {
  char b[64];
  std::snprintf(b, sizeof b, "2024-05-01T12:00:%02zu.%03zu456789Z", (i / 1000) % 60, i % 1000);
  return b;
}

// The log with a final newline (bank logs end without one), so that text added after it starts a line.
inline std::string ended(const std::string& log) { return !log.empty() && log.back() != '\n' ? log + "\n" : log; }

inline std::vector<Artefact> artefacts() {
  const std::string esc = "\x1b";
  std::vector<Artefact> a = {
      {"fence", true, [](const std::string& l) { return "```\n" + ended(l) + "```\n"; }},
      {"fence-text", true, [](const std::string& l) { return "```text\n" + ended(l) + "```\n"; }},
      {"blockquote", true, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "> " + s; }); }},
      {"bold", true, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "**" + s + "**"; }); }},
      {"bullet", true, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "- " + s; }); }},
      {"backticks", true, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "`" + s + "`"; }); }},
      {"indent", true, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "    " + s; }); }},
      {"tab", true, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "\t" + s; }); }},
      {"elision", true, [](const std::string& l) {
         return each_line(l, [](auto& s, auto i) { return i % 2 ? "...\n" + s : s; });
       }},
      {"ansi-colour", true, [esc](const std::string& l) {
         return each_line(l, [esc](auto& s, auto) { return esc + "[1;31m" + s + esc + "[0m"; });
       }},
      {"ansi-esc-lost", true, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return "[33m" + s + "[0m"; });
       }},
      {"caret-escape", true, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return "^[[31m" + s + "^[[0m"; });
       }},
      {"crlf", true, [](const std::string& l) { return replace_all(l, "\n", "\r\n"); }},
      {"tqdm-redraw", true, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return " 10%|\xe2\x96\x88         | 1/10 [00:01<00:09]\r" + s; });
       }},
      {"trailing-space", true, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return s + "   "; }); }},
      {"nbsp", true, [](const std::string& l) { return replace_all(l, " ", "\xc2\xa0"); }},
      {"zero-width", true, [](const std::string& l) {
         return "\xef\xbb\xbf" + each_line(l, [](auto& s, auto) {
                  return s.size() > 1 ? s.substr(0, 1) + "\xe2\x80\x8b" + s.substr(1) : s;
                });
       }},
      {"html-entities", true, [](const std::string& l) { return html_escape(l); }},
      {"kubectl-timestamps", true, [](const std::string& l) {
         return each_line(l, [](auto& s, auto i) { return k8s_time(i) + " " + s; });
       }},
      {"cri-file", true, [](const std::string& l) {
         return each_line(l, [](auto& s, auto i) { return k8s_time(i) + " stderr F " + s; });
       }},
      {"python-logging", true, [](const std::string& l) {
         return each_line(l, [](auto& s, auto i) {
           char b[64];
           std::snprintf(b, sizeof b, "2024-05-01 12:00:%02zu,%03zu - ERROR - ", (i / 1000) % 60, i % 1000);
           return b + s;
         });
       }},
      {"chinese-comments", true, [](const std::string& l) {
         return "\xe6\x8a\xa5\xe9\x94\x99\xe4\xbf\xa1\xe6\x81\xaf\xe5\xa6\x82\xe4\xb8\x8b\xef\xbc\x9a\n" + ended(l) +
                "\xe8\xaf\xb7\xe9\x97\xae\xe5\xa6\x82\xe4\xbd\x95\xe8\xa7\xa3\xe5\x86\xb3\xef\xbc\x9f\n";
       }},
      {"nohup", true, [](const std::string& l) { return "nohup: ignoring input\n" + l; }},
      // Wrapping: a continuation piece has no prefix, so its own matches lose the rank (unknown,
      // not wrong); culprit changes are printed, not asserted.
      {"hard-wrap-80", false, [](const std::string& l) { return wrap(l, 80, false); }},
      {"word-wrap-100", false, [](const std::string& l) { return wrap(l, 100, true); }},
      // Identity-carrying prefixes: the class must survive them.
      {"ray-colour", false, [esc](const std::string& l) {
         return each_line(l, [esc](auto& s, auto) { return esc + "[36m(WorkerDict pid=1234, ip=10.0.0.1)" + esc + "[0m " + s; });
       }},
      {"ray-esc-lost", false, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return "[36m(WorkerDict pid=1234, ip=10.0.0.1)[0m " + s; });
       }},
      {"raylet", false, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "(raylet, ip=10.0.0.1) " + s; }); }},
      {"docker-compose", false, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "worker-1  | " + s; }); }},
      {"kubectl-prefix", false, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return "[pod/trainer-worker-0/pytorch] " + s; });
       }},
      {"pdsh", false, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "worker-1: " + s; }); }},
      {"journald", false, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return "Nov 30 10:00:00 gpu-node-1 python[1234]: " + s; });
       }},
      {"vllm-logger", false, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return "(VllmWorker rank=3 pid=1090) ERROR 06-05 06:18:13 [multiproc_executor.py:470] " + s; });
       }},
      {"sglang", false, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "[2025-01-01 12:00:00 TP3] " + s; }); }},
      {"determined", false, [](const std::string& l) {
         return each_line(l, [](auto& s, auto) { return "[2024-02-27T21:35:28.705869Z] fa88a9df [rank=1] || " + s; });
       }},
      {"srun-label", false, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "3: " + s; }); }},
      {"mpirun-tag", false, [](const std::string& l) { return each_line(l, [](auto& s, auto) { return "[1,3]<stderr>:" + s; }); }},
      {"stacked-k8s-torchrun", false, [](const std::string& l) {
         return each_line(l, [](auto& s, auto i) { return k8s_time(i) + " [default3]:" + s; });
       }},
      {"redacted-ips", false, [](const std::string& l) {
         std::string o;
         for (std::size_t i = 0; i < l.size(); ++i) {  // every dotted quad → xxx.xxx.xxx.xxx
           std::size_t j = i, dots = 0;
           while (j < l.size() && (std::isdigit(static_cast<unsigned char>(l[j])) || l[j] == '.')) dots += l[j++] == '.';
           if (dots == 3 && j > i + 6 && (i == 0 || !std::isalnum(static_cast<unsigned char>(l[i - 1])))) {
             o += "xxx.xxx.xxx.xxx";
             i = j - 1;
           } else {
             o += l[i];
           }
         }
         return o;
       }},
  };
  return a;
}

}  // namespace ncdx::testing
