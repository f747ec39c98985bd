#include "knowledge/atom_scanner.h"

#include <cctype>
#include <deque>

namespace ncdx::knowledge {

AtomScanner::AtomScanner(const std::vector<std::string>& atoms) {
  // Dense byte classes keep the transition table small enough to stay in cache: only bytes that
  // occur in some atom get their own column, upper case folded onto lower case.
  int nclass = 1;
  for (const auto& a : atoms)
    for (unsigned char c : a) {
      unsigned char l = static_cast<unsigned char>(std::tolower(c));
      if (byte_class_[l] == 0) byte_class_[l] = static_cast<std::uint8_t>(nclass++);
    }
  for (int b = 0; b < 256; ++b) {
    unsigned char l = static_cast<unsigned char>(std::tolower(b));
    byte_class_[b] = byte_class_[l];
  }
  nclasses_ = nclass;

  // Trie (0 = "no edge" while building; state 0 is the root, so no edge ever points back to 0).
  std::vector<std::uint32_t> go(nclasses_, 0);
  std::vector<std::vector<int>> own(1);
  for (std::size_t id = 0; id < atoms.size(); ++id) {
    std::uint32_t s = 0;
    for (unsigned char c : atoms[id]) {
      const std::size_t edge = s * nclasses_ + byte_class_[c];
      if (go[edge] == 0) {
        go[edge] = static_cast<std::uint32_t>(own.size());
        own.emplace_back();
        go.resize(go.size() + nclasses_, 0);  // invalidates references into go: index only
      }
      s = go[edge];
    }
    own[s].push_back(static_cast<int>(id));
  }
  nstates_ = static_cast<std::uint32_t>(own.size());

  // Breadth-first failure links turn the trie into a complete DFA.
  std::vector<std::uint32_t> fail(nstates_, 0);
  std::vector<std::uint32_t> order;
  order.reserve(nstates_);
  std::deque<std::uint32_t> queue;
  for (int c = 0; c < nclasses_; ++c)
    if (std::uint32_t t = go[c]) queue.push_back(t);
  while (!queue.empty()) {
    std::uint32_t s = queue.front();
    queue.pop_front();
    order.push_back(s);
    for (int c = 0; c < nclasses_; ++c) {
      std::uint32_t& t = go[s * nclasses_ + c];
      if (t) {
        fail[t] = go[fail[s] * nclasses_ + c];
        queue.push_back(t);
      } else {
        t = go[fail[s] * nclasses_ + c];
      }
    }
  }
  // Outputs: own atoms plus those of the failure chain (already complete for shallower states).
  std::vector<std::vector<int>> outs(nstates_);
  outs[0] = own[0];
  for (std::uint32_t s : order) {
    outs[s] = own[s];
    const auto& f = outs[fail[s]];
    outs[s].insert(outs[s].end(), f.begin(), f.end());
  }
  out_begin_.resize(nstates_ + 1);
  for (std::uint32_t s = 0; s < nstates_; ++s) {
    out_begin_[s] = static_cast<std::uint32_t>(out_.size());
    out_.insert(out_.end(), outs[s].begin(), outs[s].end());
  }
  out_begin_[nstates_] = static_cast<std::uint32_t>(out_.size());
  next_ = std::move(go);
}

void AtomScanner::scan(std::string_view text, std::vector<int>& found) const {
  if (nstates_ <= 1) return;
  const std::uint32_t* next = next_.data();
  const std::uint32_t* ob = out_begin_.data();
  const int nc = nclasses_;
  std::uint32_t s = 0;
  for (unsigned char c : text) {
    s = next[s * nc + byte_class_[c]];
    if (ob[s] != ob[s + 1]) found.insert(found.end(), out_.begin() + ob[s], out_.begin() + ob[s + 1]);
  }
}

}  // namespace ncdx::knowledge
