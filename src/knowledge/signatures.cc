#include "knowledge/signatures.h"

#include <re2/filtered_re2.h>
#include <re2/re2.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <unordered_map>
#include <utility>

#include "knowledge/atom_scanner.h"
#include "knowledge/yaml_load.h"
#include "knowledge/signature_yaml.h"
#include "knowledge/simple_pattern.h"

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
// Atoms shorter than this are useless as a filter (" : ", "lib"); FilteredRE2 then keeps the
// longer literals of the pattern. 4 also lets AtomScanner key every atom by a 4-byte window with a
// single Bloom probe per byte. A pattern left with no atom at all is "unfiltered" and runs on every
// line; the unit tests require that no shipped pattern is.
constexpr int kMinAtomLen = 4;

struct CompiledPattern {
  std::size_t sig;                                 // index into sigs
  int ngroups;                                     // capturing groups (RE2 path)
  std::vector<std::pair<std::string, int>> named;  // (name, group index), sorted by name (RE2 path)
  std::optional<SimplePattern> fast;               // same result as RE2, without its three passes
  std::vector<std::pair<std::string, int>> fast_named;  // (name, span index), sorted by name
};
}  // namespace

// One prefilter over a subset of the patterns: FilteredRE2 gives the atoms and the AND/OR tree,
// AtomScanner finds the atoms in a line. Its regexp ids map to indices of Impl::patterns.
struct Prefilter {
  re2::FilteredRE2 filter{kMinAtomLen};
  std::vector<int> pattern_of;  // filter regexp id -> index into Impl::patterns
  AtomScanner scanner;
  std::vector<int> unfiltered;  // filter regexp ids that pass whatever the atoms
  std::uint64_t memo_key = 0;   // unique per prefilter, for the per-thread AllPotentials memo
};

struct SignatureSet::Impl {
  std::vector<Signature> sigs;            // sorted by id
  std::vector<CompiledPattern> patterns;  // signature order; RE2 objects live in all.filter
  // `all` holds every pattern; `failures` only those of cause/symptom signatures, so that
  // match(..., include_context=false) does not even scan for the atoms of context signatures,
  // which nearly every NCCL INFO line contains.
  Prefilter all, failures;
  static inline std::atomic<std::uint64_t> next_memo_key{0};
};

SignatureSet::SignatureSet() : impl_(std::make_unique<Impl>()) {}
SignatureSet::SignatureSet(SignatureSet&&) noexcept = default;
SignatureSet& SignatureSet::operator=(SignatureSet&&) noexcept = default;
SignatureSet::~SignatureSet() = default;

const std::vector<Signature>& SignatureSet::all() const { return impl_->sigs; }

SignatureSet::Stats SignatureSet::stats() const {
  Stats st;
  st.patterns = impl_->patterns.size();
  st.unfiltered = impl_->all.unfiltered.size();
  for (const auto& p : impl_->patterns) st.fast += p.fast.has_value();
  return st;
}

const Signature* SignatureSet::find(std::string_view id) const {
  const auto& v = impl_->sigs;
  auto it = std::lower_bound(v.begin(), v.end(), id, [](const Signature& s, std::string_view k) { return s.id < k; });
  return it != v.end() && it->id == id ? &*it : nullptr;
}

core::Result<SignatureSet> SignatureSet::load_embedded() {
  return parse_embedded<SignatureSet>("signatures.yaml", [](std::string_view text, const std::string& source) {
    return load(text, source);
  });
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
      RE2::ErrorCode rc = im.all.filter.Add(s.patterns[k], opt, &id);
      if (rc != RE2::NoError) {
        RE2 probe(s.patterns[k], opt);  // FilteredRE2 drops the failed RE2; recompile for the message
        return core::Status::bad_input(std::string(source_name) + ":" + std::to_string(entries[i].pattern_lines[k]) +
                                       ": pattern of '" + s.id + "' does not compile: " + probe.error());
      }
      im.all.pattern_of.push_back(static_cast<int>(im.patterns.size()));
      if (s.role != Role::context) {
        im.failures.filter.Add(s.patterns[k], opt, &id);  // compiled fine just above
        im.failures.pattern_of.push_back(static_cast<int>(im.patterns.size()));
      }
      CompiledPattern cp{i, 0, {}, SimplePattern::compile(s.patterns[k])};
      im.patterns.push_back(std::move(cp));
    }
    im.sigs.push_back(s);
  }
  for (std::size_t i = 0; i < im.sigs.size(); ++i)
    for (auto& r : im.sigs[i].refine) {
      if (r.with.empty()) continue;  // a version refinement
      const Signature* other = set.find(r.with);
      if (!other)
        return core::Status::bad_input(std::string(source_name) + ":" + std::to_string(entries[i].line) +
                                       ": refinement of '" + im.sigs[i].id + "' names unknown signature '" + r.with + "'");
      r.with_index = static_cast<std::size_t>(other - im.sigs.data());
    }
  for (Prefilter* pf : {&im.all, &im.failures}) {
    std::vector<std::string> atoms;
    pf->filter.Compile(&atoms);
    pf->scanner = AtomScanner(atoms);
    if (!pf->pattern_of.empty()) pf->filter.AllPotentials({}, &pf->unfiltered);
    pf->memo_key = Impl::next_memo_key.fetch_add(1) + 1;
  }
  for (std::size_t id = 0; id < im.patterns.size(); ++id) {
    const RE2& re = im.all.filter.GetRE2(static_cast<int>(id));
    im.patterns[id].ngroups = re.NumberOfCapturingGroups();
    // Names sorted, so fields are appended to the std::map with an end() hint: no key compares.
    for (const auto& [name, idx] : re.NamedCapturingGroups()) im.patterns[id].named.emplace_back(name, idx);
    std::sort(im.patterns[id].named.begin(), im.patterns[id].named.end());
    if (im.patterns[id].fast) {
      const auto& names = im.patterns[id].fast->group_names();
      for (std::size_t g = 0; g < names.size(); ++g) im.patterns[id].fast_named.emplace_back(names[g], static_cast<int>(g));
      std::sort(im.patterns[id].fast_named.begin(), im.patterns[id].fast_named.end());
    }
  }
  return set;
}

namespace {

// Candidate patterns (filter regexp ids, sorted) for a line, or nullptr when none can match.
const std::vector<int>* candidates(const Prefilter& pf, std::string_view line) {
  thread_local std::vector<int> atoms;
  thread_local std::vector<int> scratch;
  atoms.clear();
  pf.scanner.scan(line, atoms);
  if (atoms.empty()) return pf.unfiltered.empty() ? nullptr : &pf.unfiltered;  // the common case
  std::sort(atoms.begin(), atoms.end());
  atoms.erase(std::unique(atoms.begin(), atoms.end()), atoms.end());
  // Lines of one kind (COLL, Channel, ...) yield the same atom set again and again; the
  // prefilter-tree walk of AllPotentials allocates, so its answer is memoised per thread.
  struct Entry {
    std::vector<int> atoms, candidates;
  };
  thread_local struct {
    std::uint64_t owner = 0;
    std::unordered_multimap<std::uint64_t, Entry> map;  // FNV-1a of the atom ids -> entry
  } memo;
  if (memo.owner != pf.memo_key || memo.map.size() > 4096) {
    memo.map.clear();
    memo.owner = pf.memo_key;
  }
  std::uint64_t h = 1469598103934665603ULL;
  for (int a : atoms) h = (h ^ static_cast<std::uint64_t>(a)) * 1099511628211ULL;
  for (auto [it, end] = memo.map.equal_range(h); it != end; ++it)
    if (it->second.atoms == atoms) return &it->second.candidates;
  pf.filter.AllPotentials(atoms, &scratch);  // sorted; includes the unfiltered ones
  return &memo.map.emplace(h, Entry{atoms, scratch})->second.candidates;
}

}  // namespace

void SignatureSet::match(std::string_view line, std::vector<SignatureMatch>& out, bool include_context) const {
  const Impl& im = *impl_;
  const Prefilter& pf = include_context ? im.all : im.failures;
  const std::vector<int>* cands = candidates(pf, line);
  if (!cands) return;
  thread_local std::vector<re2::StringPiece> groups;
  thread_local std::vector<std::string_view> spans;
  const re2::StringPiece text(line.data(), line.size());
  std::size_t last_sig = static_cast<std::size_t>(-1);
  // Pattern indices follow signature order (patterns were added in id order), so one hit per
  // signature is reported in id order.
  for (int fid : *cands) {
    const int id = pf.pattern_of[fid];
    const CompiledPattern& cp = im.patterns[id];
    if (cp.sig == last_sig) continue;
    if (cp.fast) {
      if (!cp.fast->match(line, spans)) continue;
      SignatureMatch m{cp.sig, {}};
      for (const auto& [name, g] : cp.fast_named) m.fields.emplace_hint(m.fields.end(), name, spans[g]);
      out.push_back(std::move(m));
      last_sig = cp.sig;
      continue;
    }
    groups.assign(cp.ngroups + 1, re2::StringPiece());
    if (!im.all.filter.GetRE2(id).Match(text, 0, text.size(), RE2::UNANCHORED, groups.data(), cp.ngroups + 1))
      continue;
    SignatureMatch m{cp.sig, {}};
    for (const auto& [name, idx] : cp.named)
      if (groups[idx].data() != nullptr)
        m.fields.emplace_hint(m.fields.end(), name, std::string(groups[idx].data(), groups[idx].size()));
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
