#pragma once
// Case-insensitive multi-literal search over the "atoms" that re2::FilteredRE2 extracts from the
// signature patterns: the prefilter of SignatureSet::match(). Only patterns whose atoms occur in
// a line are run as full RE2 matches, so the ~99.9% of log lines that match nothing cost one pass.
//
// Why not Aho-Corasick: with ~400 atoms its DFA is ~1 MB, and a byte-at-a-time walk through it is
// a chain of dependent cache misses (~3.5 ns/byte measured). Here each position costs one
// unaligned 4-byte load, a multiply and a byte test in a 32 KiB Bloom table that stays in L1/L2; the
// loop has no dependency between positions. Each atom is keyed by its rarest 4-byte window (not
// its prefix: ~20 atoms start with "nccl", which every NCCL line contains), so Bloom hits are rare
// apart from real atoms, and a hit compares one or two atoms.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ncdx::knowledge {

class AtomScanner {
 public:
  AtomScanner() = default;
  // `atoms` are lowercase (FilteredRE2 returns them so); matching folds ASCII case. Atoms shorter
  // than 4 bytes are ignored (FilteredRE2 is built with min_atom_len 4, so there are none).
  explicit AtomScanner(const std::vector<std::string>& atoms);

  // Appends the ids (indices into the constructor's vector) of every atom found in `text`;
  // ids may repeat when an atom occurs more than once.
  void scan(std::string_view text, std::vector<int>& found) const;
  bool empty() const { return atoms_.empty(); }

 private:
  static constexpr int kBloomSlots = 1 << 15;  // 32 KiB, ~1% full with ~300 atoms
  // Open-addressing table: key (a 4-byte window) -> the atoms keyed by it.
  struct Slot {
    std::uint32_t key = 0;  // a 4-byte window of the atoms, lower-cased
    std::uint32_t begin = 0, end = 0;  // range in ids_; begin == end: empty slot
  };
  struct Table {
    std::vector<std::uint8_t> bloom = std::vector<std::uint8_t>(kBloomSlots, 0);  // bytes: no shift/mask
    std::vector<Slot> slots;
    std::vector<std::pair<int, std::uint32_t>> ids;  // (atom id, offset of the key window in it)
    std::uint32_t mask = 0;
    void build(const std::unordered_map<std::uint32_t, std::vector<std::pair<int, std::uint32_t>>>& by_key);
    const Slot* find(std::uint32_t key) const;
  };
  // Per atom: its first 8 bytes and a mask covering min(len, 8) bytes, so most checks are one
  // 64-bit compare (no memcmp call); only atoms longer than 8 bytes compare the rest.
  struct Head {
    std::uint64_t word = 0, mask = 0;
    std::uint32_t len = 0;
  };
  std::vector<std::string> atoms_;
  std::vector<Head> heads_;
  Table t4_;
};

}  // namespace ncdx::knowledge
