// The tuner plugin's rules-file parser (plugins/nccl-tuner/ncdx_tuner.c), as NCCL would drive
// it: any bytes as NCDX_TUNER_FILE, then init, a few getCollInfo calls on a 7x3 cost table with
// ignored entries, and finalize. The plugin must never crash or write outside the table.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

extern "C" {
#include "../plugins/nccl-tuner/ncdx_tuner.c"
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/ncdx_tuner_fuzz_" + std::to_string(getpid()) + ".conf";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  setenv("NCDX_TUNER_FILE", path.c_str(), 1);
  void* ctx = nullptr;
  ncclTunerPlugin_v5.init(&ctx, 1, 8, 2, nullptr, nullptr, nullptr);
  float table[7 * 3 + 3];
  for (int coll = 0; coll < 5; ++coll)
    for (size_t bytes : {size_t{0}, size_t{4096}, size_t{1} << 20, size_t{4294967295u}}) {
      for (int i = 0; i < 24; ++i) table[i] = (i % 4 == 0) ? NCDX_ALGO_PROTO_IGNORE : 10.0f + i;
      int nch = 0;
      ncclTunerPlugin_v5.getCollInfo(ctx, coll, bytes, 1, reinterpret_cast<float**>(table), 7, 3, 0, &nch);
      if (table[21] != 10.0f + 21 || table[22] != 10.0f + 22 || table[23] != 10.0f + 23) __builtin_trap();  // the 3 guard floats past the 7x3 table are untouched
      for (int i = 0; i < 21; i += 4)
        if (table[i] != NCDX_ALGO_PROTO_IGNORE) __builtin_trap();  // ignored entries stay ignored
    }
  ncclTunerPlugin_v5.finalize(ctx);
  return 0;
}
