#include "knowledge/signatures.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <utility>

#include "knowledge/atom_scanner.h"
#include "knowledge/embedded.h"
#include "knowledge/signature_yaml.h"

namespace ncdx::knowledge {

const char* to_string(Role r) {
  switch (r) {
    case Role::cause: return "cause";
    case Role::symptom: return "symptom";
    case Role::context: return "context";
  }
  return "cause";
}

namespace {
// Atoms shorter than this are useless as a filter ("ib", "\n"); FilteredRE2 then keeps the
// longer literals of the pattern. A pattern left with no atom at all is "unfiltered" and runs on
// every line; the unit tests require that no shipped pattern is.
constexpr int kMinAtomLen = 3;

struct CompiledPattern {
  std::size_t sig;                                // index into sigs
  int ngroups;                                    // capturing groups
  std::vector<std::pair<std::string, int>> named;  // name -> group index
};
}  // namespace

struct SignatureSet::Impl {
  std::vector<Signature> sigs;  // sorted by id
  re2::FilteredRE2 filter{kMinAtomLen};
  std::vector<CompiledPattern> patterns;  // by FilteredRE2 regexp id
  AtomScanner scanner;
  std::vector<int> unfiltered;  // regexp ids that pass the filter whatever the atoms
};

SignatureSet::SignatureSet() : impl_(std::make_unique<Impl>()) {}
SignatureSet::SignatureSet(SignatureSet&&) noexcept = default;
SignatureSet& SignatureSet::operator=(SignatureSet&&) noexcept = default;
SignatureSet::~SignatureSet() = default;

const std::vector<Signature>& SignatureSet::all() const { return impl_->sigs; }

const Signature* SignatureSet::find(std::string_view id) const {
  const auto& v = impl_->sigs;
  auto it = std::lower_bound(v.begin(), v.end(), id, [](const Signature& s, std::string_view k) { return s.id < k; });
  return it != v.end() && it->id == id ? &*it : nullptr;
}

core::Result<SignatureSet> SignatureSet::load_embedded() {
  auto text = embedded("signatures.yaml");
  if (!text) return core::Status::internal("knowledge file not embedded: signatures.yaml");
  auto set = load(*text, "knowledge/signatures.yaml");
  // The file ships inside the binary, so a problem with it is our bug, not the user's input.
  if (!set.ok()) return core::Status::internal(set.status().message());
  return set;
}

core::Result<SignatureSet> SignatureSet::load(std::string_view yaml_text, std::string_view source_name) {
  auto parsed = parse_signatures_yaml(yaml_text, source_name);
  if (!parsed.ok()) return parsed.status();
  auto& entries = parsed.value();
  std::sort(entries.begin(), entries.end(),
            [](const ParsedSignature& a, const ParsedSignature& b) { return a.sig.id < b.sig.id; });

  SignatureSet set;
  Impl& im = *set.impl_;
  RE2::Options opt;
  opt.set_log_errors(false);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Signature& s = entries[i].sig;
    for (std::size_t k = 0; k < s.patterns.size(); ++k) {
      int id = -1;
      RE2::ErrorCode rc = im.filter.Add(s.patterns[k], opt, &id);
      if (rc != RE2::NoError) {
        RE2 probe(s.patterns[k], opt);  // FilteredRE2 drops the failed RE2; recompile for the message
        return core::Status::bad_input(std::string(source_name) + ":" + std::to_string(entries[i].pattern_lines[k]) +
                                       ": pattern of '" + s.id + "' does not compile: " + probe.error());
      }
      CompiledPattern cp{i, 0, {}};
      im.patterns.push_back(std::move(cp));
    }
    im.sigs.push_back(s);
  }
  std::vector<std::string> atoms;
  im.filter.Compile(&atoms);
  for (std::size_t id = 0; id < im.patterns.size(); ++id) {
    const RE2& re = im.filter.GetRE2(static_cast<int>(id));
    im.patterns[id].ngroups = re.NumberOfCapturingGroups();
    for (const auto& [name, idx] : re.NamedCapturingGroups()) im.patterns[id].named.emplace_back(name, idx);
  }
  im.scanner = AtomScanner(atoms);
  if (!im.patterns.empty()) im.filter.AllPotentials({}, &im.unfiltered);
  return set;
}

void SignatureSet::match(std::string_view line, std::vector<SignatureMatch>& out, bool include_context) const {
  const Impl& im = *impl_;
  thread_local std::vector<int> atoms;
  thread_local std::vector<int> candidates;
  thread_local std::vector<re2::StringPiece> groups;
  atoms.clear();
  im.scanner.scan(line, atoms);
  if (atoms.empty() && im.unfiltered.empty()) return;  // the common case: nothing to look at
  if (atoms.empty()) {
    candidates = im.unfiltered;
  } else {
    std::sort(atoms.begin(), atoms.end());
    atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
    im.filter.AllPotentials(atoms, &candidates);  // sorted; includes the unfiltered ones
  }
  const re2::StringPiece text(line.data(), line.size());
  std::size_t last_sig = static_cast<std::size_t>(-1);
  // Regexp ids follow signature order (patterns were added in id order), so one hit per
  // signature is reported in id order.
  for (int id : candidates) {
    const CompiledPattern& cp = im.patterns[id];
    if (cp.sig == last_sig) continue;
    if (!include_context && im.sigs[cp.sig].role == Role::context) continue;
    groups.assign(cp.ngroups + 1, re2::StringPiece());
    if (!im.filter.GetRE2(id).Match(text, 0, text.size(), RE2::UNANCHORED, groups.data(), cp.ngroups + 1))
      continue;
    SignatureMatch m{cp.sig, {}};
    for (const auto& [name, idx] : cp.named)
      if (groups[idx].data() != nullptr) m.fields.emplace(name, std::string(groups[idx].data(), groups[idx].size()));
    out.push_back(std::move(m));
    last_sig = cp.sig;
  }
}

std::string render_cause(const Signature& sig, const std::map<std::string, std::string>& fields) {
  std::string out;
  const std::string& c = sig.cause;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i] == '{') {
      std::size_t end = c.find('}', i + 1);
      if (end != std::string::npos) {
        auto it = fields.find(c.substr(i + 1, end - i - 1));
        out += it != fields.end() ? it->second : std::string("?");
        i = end;
        continue;
      }
    }
    out += c[i];
  }
  return out;
}

}  // namespace ncdx::knowledge
