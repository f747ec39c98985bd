#include "knowledge/atom_scanner.h"

#include <cstring>
#include <unordered_set>

namespace ncdx::knowledge {
namespace {


struct LowerTable {
  unsigned char t[256];
  constexpr LowerTable() : t() {
    for (int c = 0; c < 256; ++c) t[c] = static_cast<unsigned char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  }
};
constexpr LowerTable kLower;

inline std::uint32_t load32(const unsigned char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline std::uint64_t load64(const unsigned char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline std::uint32_t bloom_hash(std::uint32_t key) { return (key * 0x9E3779B1u) >> (32 - 15); }

}  // namespace

void AtomScanner::Table::build(
    const std::unordered_map<std::uint32_t, std::vector<std::pair<int, std::uint32_t>>>& by_key) {
  std::size_t cap = 16;
  while (cap < 2 * by_key.size()) cap *= 2;
  slots.assign(cap, Slot{});
  mask = static_cast<std::uint32_t>(cap - 1);
  for (const auto& [key, list] : by_key) {
    bloom[bloom_hash(key)] = 1;
    std::uint32_t s = (key * 0x85EBCA6Bu) & mask;
    while (slots[s].begin != slots[s].end) s = (s + 1) & mask;
    slots[s] = Slot{key, static_cast<std::uint32_t>(ids.size()), static_cast<std::uint32_t>(ids.size() + list.size())};
    ids.insert(ids.end(), list.begin(), list.end());
  }
}

const AtomScanner::Slot* AtomScanner::Table::find(std::uint32_t key) const {
  for (std::uint32_t s = (key * 0x85EBCA6Bu) & mask;; s = (s + 1) & mask) {
    const Slot& slot = slots[s];
    if (slot.begin == slot.end) return nullptr;
    if (slot.key == key) return &slot;
  }
}

AtomScanner::AtomScanner(const std::vector<std::string>& atoms) : atoms_(atoms) {
  // How many atoms contain each 4-byte window: an atom is keyed by its least shared window, ties
  // broken towards bytes that are rare in logs (letters like k/x/q over spaces, digits, 'e').
  std::unordered_map<std::uint32_t, int> shared;
  for (auto& a : atoms_) {
    for (char& c : a) c = static_cast<char>(kLower.t[static_cast<unsigned char>(c)]);
    std::unordered_set<std::uint32_t> seen;
    for (std::size_t o = 0; o + 4 <= a.size(); ++o) {
      const std::uint32_t w = load32(reinterpret_cast<const unsigned char*>(a.data()) + o);
      if (seen.insert(w).second) ++shared[w];
    }
  }
  auto commonness = [](unsigned char c) {
    static const std::string order = "etaoinsrhldcumfpgwybvkxjqz";  // English letter frequency
    if (c == ' ') return 40;
    if (c >= '0' && c <= '9') return 35;
    if (std::strchr(":/.[]-_=,()<>", c)) return 30;
    auto pos = order.find(static_cast<char>(c));
    return pos == std::string::npos ? 10 : 28 - static_cast<int>(pos);
  };
  std::unordered_map<std::uint32_t, std::vector<std::pair<int, std::uint32_t>>> by4;
  heads_.resize(atoms_.size());
  for (std::size_t id = 0; id < atoms_.size(); ++id) {
    std::string& a = atoms_[id];
    unsigned char w[8] = {};
    const std::size_t h = a.size() < 8 ? a.size() : 8;
    std::memcpy(w, a.data(), h);
    heads_[id].word = load64(w);
    heads_[id].mask = h == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * h)) - 1;
    heads_[id].len = static_cast<std::uint32_t>(a.size());
    if (a.size() < 3) continue;  // cannot happen with min_atom_len 3; never matched
    if (a.size() < 4) continue;  // FilteredRE2 is built with min_atom_len 4: never happens
    const auto* d = reinterpret_cast<const unsigned char*>(a.data());
    std::size_t best = 0;
    long best_score = -1;
    for (std::size_t o = 0; o + 4 <= a.size(); ++o) {
      long score = 1000L * shared[load32(d + o)];
      for (int j = 0; j < 4; ++j) score += commonness(d[o + j]);
      if (best_score < 0 || score < best_score) best_score = score, best = o;
    }
    by4[load32(d + best)].emplace_back(static_cast<int>(id), static_cast<std::uint32_t>(best));
  }
  t4_.build(by4);
}

void AtomScanner::scan(std::string_view text, std::vector<int>& found) const {
  const std::size_t n = text.size();
  if (atoms_.empty() || n < 4) return;
  // Lower-cased copy with 8 zero bytes of padding, so every 8-byte load is in bounds and a word
  // that runs past the end contains a 0 byte (atoms never do, so it cannot compare equal).
  thread_local std::vector<unsigned char> low;
  if (low.size() < n + 8) low.resize(n + 8);
  unsigned char* p = low.data();
  std::size_t i0 = 0;
  for (; i0 + 8 <= n; i0 += 8) {  // SWAR: eight bytes at a time, 'A'..'Z' |= 0x20, others unchanged
    std::uint64_t x;
    std::memcpy(&x, text.data() + i0, 8);
    const std::uint64_t h = x & 0x7f7f7f7f7f7f7f7fULL;
    const std::uint64_t upper = ((h + 0x3f3f3f3f3f3f3f3fULL) ^ (h + 0x2525252525252525ULL)) & ~x & 0x8080808080808080ULL;
    x |= upper >> 2;
    std::memcpy(p + i0, &x, 8);
  }
  for (; i0 < n; ++i0) p[i0] = kLower.t[static_cast<unsigned char>(text[i0])];
  std::memset(p + n, 0, 8);

  auto verify = [&](const Table& t, std::uint32_t key, std::size_t i) {
    const Slot* slot = t.find(key);
    if (!slot) return;
    for (std::uint32_t k = slot->begin; k < slot->end; ++k) {
      const auto [id, off] = t.ids[k];
      if (off > i) continue;
      const std::size_t at = i - off;
      const Head& h = heads_[id];
      if ((load64(p + at) & h.mask) != h.word) continue;
      if (h.len > 8 && (at + h.len > n || std::memcmp(p + at + 8, atoms_[id].data() + 8, h.len - 8) != 0)) continue;
      found.push_back(id);
    }
  };
  // Five windows per 8-byte load; the padding makes the last load safe, and windows that reach
  // into the zero padding never equal an atom key.
  const std::uint8_t* bloom = t4_.bloom.data();
  std::size_t i = 0;
  for (; i + 8 <= n + 3; i += 5) {
    const std::uint64_t w = load64(p + i);
    for (int k = 0; k < 5; ++k) {
      const auto key = static_cast<std::uint32_t>(w >> (8 * k));
      if (bloom[bloom_hash(key)]) verify(t4_, key, i + k);
    }
  }
  for (; i + 4 <= n; ++i) {
    const std::uint32_t key = load32(p + i);
    if (bloom[bloom_hash(key)]) verify(t4_, key, i);
  }
}

}  // namespace ncdx::knowledge
