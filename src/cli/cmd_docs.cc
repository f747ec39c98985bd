// `ncdx docs [NAME]`: lists the knowledge files compiled into the binary, or prints one. The
// generated docs under docs/ are produced from the same data (docs/DEVELOPING.md, src/knowledge/data/).
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "knowledge/embedded.h"
#include "knowledge/findings.h"
#include "knowledge/signatures.h"
#include "knowledge/xid.h"
#include "core/strings.h"
#include "report/findings_docs.h"
#include "report/id_docs.h"
#include "report/sanitize.h"
#include "report/signature_docs.h"

namespace ncdx::cli {

CLI::App* add_docs(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("docs");
  static std::string name;
  cmd->add_option("name", name,
                  "'signatures', 'xid' or 'findings' for the Markdown table, a knowledge file to print (e.g. signatures.yaml), "
                  "or an id that ncdx printed (signature, finding, doctor check, audit rule, NCCL_/TORCH_ variable)");
  cmd->callback([&exit_code] {
    if (name.empty()) {
      for (const auto& f : knowledge::embedded_files())
        std::cout << f.name << "\t" << f.content.size() << " bytes\n";
      exit_code = 0;
      return;
    }
    if (name == "findings") {  // docs/FINDINGS.md is this output
      if (auto st = knowledge::finding_table_status(); !st) {
        exit_code = fail("docs", st);
        return;
      }
      std::cout << report::findings_markdown();
      exit_code = 0;
      return;
    }
    if (name == "signatures" || name == "xid") {
      // Generated tables (docs/SIGNATURES.md is this output); a broken table is our bug: exit 70.
      if (name == "xid" && !knowledge::xid_table_status().is_ok()) {
        exit_code = fail("docs", core::Status::internal(knowledge::xid_table_status().message()));
        return;
      }
      if (name == "xid") {
        std::cout << report::xid_markdown();
        exit_code = 0;
        return;
      }
      auto set = knowledge::SignatureSet::load_embedded();
      if (!set.ok()) {
        exit_code = fail("docs", core::Status::internal(set.status().message()));
        return;
      }
      std::cout << report::signatures_markdown(set.value());
      exit_code = 0;
      return;
    }
    auto f = knowledge::embedded(name);
    if (!f) {
      // An id that a command printed: a signature, finding, doctor check, audit rule or env variable.
      if (auto text = report::describe_id(name)) {
        std::cout << report::sanitize_text(*text);
        exit_code = 0;
        return;
      }
      std::vector<std::string> known = report::documented_ids();
      for (const auto& e : knowledge::embedded_files()) known.emplace_back(e.name);
      std::string guess = core::closest(name, known);
      exit_code = fail("docs", core::Status::not_found("no knowledge file or id named '" + name + "'" +
                                                       (guess.empty() ? "" : "; did you mean '" + guess + "'?") +
                                                       " (run `ncdx docs` for the files)"));
      return;
    }
    std::cout << *f;
    exit_code = 0;
  });
  return cmd;
}

}  // namespace ncdx::cli
