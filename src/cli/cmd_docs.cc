// `ncdx docs [NAME]`: lists the knowledge files compiled into the binary, or prints one. The
// generated docs under docs/ are produced from the same data (DESIGN.md "Knowledge is data").
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "knowledge/embedded.h"
#include "knowledge/signature_docs.h"
#include "knowledge/signatures.h"
#include "knowledge/xid.h"

namespace ncdx::cli {

CLI::App* add_docs(CLI::App& root, const GlobalOptions& global, int& exit_code) {
  auto* cmd = root.add_subcommand("docs", "list or print the knowledge files compiled into ncdx");
  static std::string name;
  cmd->add_option("name", name,
                  "'signatures' or 'xid' for the Markdown table, or a knowledge file to print (e.g. signatures.yaml)");
  cmd->callback([&exit_code] {
    if (name.empty()) {
      for (const auto& f : knowledge::embedded_files())
        std::cout << f.name << "\t" << f.content.size() << " bytes\n";
      exit_code = 0;
      return;
    }
    if (name == "signatures" || name == "xid") {
      // Generated tables (docs/SIGNATURES.md is this output); a broken table is our bug: exit 70.
      if (name == "xid" && !knowledge::xid_table_status().is_ok()) {
        std::fprintf(stderr, "ncdx docs: %s\n", knowledge::xid_table_status().message().c_str());
        exit_code = 70;
        return;
      }
      if (name == "xid") {
        std::cout << knowledge::xid_markdown();
        exit_code = 0;
        return;
      }
      auto set = knowledge::SignatureSet::load_embedded();
      if (!set.ok()) {
        std::fprintf(stderr, "ncdx docs: %s\n", set.status().message().c_str());
        exit_code = 70;
        return;
      }
      std::cout << knowledge::signatures_markdown(set.value());
      exit_code = 0;
      return;
    }
    auto f = knowledge::embedded(name);
    if (!f) {
      std::fprintf(stderr, "ncdx docs: no knowledge file named '%s' (run `ncdx docs` for the list)\n", name.c_str());
      exit_code = 66;
      return;
    }
    std::cout << *f;
    exit_code = 0;
  });
  return cmd;
}

}  // namespace ncdx::cli
