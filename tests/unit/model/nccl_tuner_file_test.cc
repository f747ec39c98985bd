// The tuner CSV and env file (model/tune/nccl_tuner_file.h): the tokens of NCCL's example tuner
// (plugins/tuner/example/plugin.c @ v2.30.7-1), comment lines in column 0 and short, rules that
// neither reader would accept written as comments, and the reader's grammar (ncdx_tuner.c).
#include <gtest/gtest.h>

#include "core/strings.h"
#include "model/tune/nccl_tuner_file.h"

using namespace ncdx;
using namespace ncdx::model::tune;
using measure::Collective;

namespace {

NcclTunerRule rule(Collective c, std::size_t lo, std::size_t hi, std::string a, std::string p) {
  NcclTunerRule r;
  r.coll = c;
  r.min_bytes = lo;
  r.max_bytes = hi;
  r.algo = std::move(a);
  r.proto = std::move(p);
  return r;
}

}  // namespace

TEST(NcclTunerFile, TokensAreTheExampleTunersAndNcclsSpellingMapsOntoThem) {
  EXPECT_EQ(nccl_tuner_coll_token(Collective::reducescatter), "reducescatter");
  EXPECT_EQ(nccl_tuner_coll_token(Collective::broadcast), "broadcast");
  EXPECT_FALSE(nccl_tuner_coll_token(Collective::alltoall));
  EXPECT_FALSE(nccl_tuner_coll_token(Collective::sendrecv));
  EXPECT_EQ(nccl_tuner_algo_token("NVLSTree"), "nvls_tree");
  EXPECT_EQ(nccl_tuner_algo_token("CollNetDirect"), "collnet_direct");
  EXPECT_EQ(nccl_tuner_algo_token("collnet_chain"), "collnet_chain");
  EXPECT_EQ(nccl_tuner_algo_token("PAT"), "pat");
  EXPECT_FALSE(nccl_tuner_algo_token("collnet"));  // the <= 2.13 token: not an algorithm of the tuner
  EXPECT_EQ(nccl_tuner_proto_token("LL128"), "ll128");
  EXPECT_EQ(nccl_tuner_proto_token("Simple"), "simple");
  EXPECT_FALSE(nccl_tuner_proto_token("ll64"));
}

TEST(NcclTunerFile, RendersRulesInOrderBelowAColumnZeroHeader) {
  auto r1 = rule(Collective::allreduce, 0, 65535, "Tree", "LL");
  auto r2 = rule(Collective::allgather, 65536, 1048575, "ring", "LL128");
  r2.channels = 8;
  r2.nnodes = 2;
  r2.nranks = 16;
  const std::string csv = render_nccl_tuner_csv({r1, r2}, "ncdx tune --model: predicted\n\nsecond paragraph");
  EXPECT_EQ(csv,
            "# ncdx tune --model: predicted\n"
            "#\n"
            "# second paragraph\n"
            "# collective,min_bytes,max_bytes,algorithm,protocol,channels,nNodes,nRanks\n"
            "allreduce,0,65535,tree,ll,-1,-1,-1\n"
            "allgather,65536,1048575,ring,ll128,8,2,16\n");
}

TEST(NcclTunerFile, EveryLineFitsTheExampleTunersBufferAndCommentsAreAscii) {
  std::string long_header(2000, 'x');
  long_header += " \xe2\x9c\x93 tail\r";
  const std::string csv = render_nccl_tuner_csv({rule(Collective::reduce, 1, 2, "ring", "simple")}, long_header);
  for (auto line : core::split(csv, '\n')) {
    EXPECT_LT(line.size(), 200u) << line;
    for (char c : line) EXPECT_LT(static_cast<unsigned char>(c), 0x80) << line;
    if (!line.empty() && line.find(',') == std::string_view::npos) EXPECT_EQ(line[0], '#') << line;
  }
}

TEST(NcclTunerFile, RulesNoReaderAcceptsBecomeComments) {
  auto a2a = rule(Collective::alltoall, 0, 10, "ring", "simple");
  auto backwards = rule(Collective::allreduce, 10, 5, "ring", "simple");
  auto algo = rule(Collective::allreduce, 0, 5, "collnet", "simple");
  auto proto = rule(Collective::allreduce, 0, 5, "ring", "ll64");
  auto zero_ch = rule(Collective::allreduce, 0, 5, "ring", "simple");
  zero_ch.channels = 0;
  auto zero_nodes = rule(Collective::allreduce, 0, 5, "ring", "simple");
  zero_nodes.nnodes = 0;
  for (const auto& r : {a2a, backwards, algo, proto, zero_ch, zero_nodes}) {
    EXPECT_FALSE(check_nccl_tuner_rule(r).is_ok());
    const std::string csv = render_nccl_tuner_csv({r}, "");
    auto parsed = parse_nccl_tuner_csv(csv);
    ASSERT_TRUE(parsed.ok()) << csv;
    EXPECT_TRUE(parsed->empty()) << csv;
    EXPECT_NE(csv.find("# not a rule ("), std::string::npos) << csv;
  }
}

TEST(NcclTunerFile, ReadsBackWhatItWrites) {
  auto r1 = rule(Collective::broadcast, 0, 8191, "ring", "ll");
  auto r2 = rule(Collective::allreduce, 8192, 4294967295u, "NVLSTree", "Simple");
  r2.channels = 16;
  r2.nnodes = 4;
  r2.nranks = 32;
  auto back = parse_nccl_tuner_csv(render_nccl_tuner_csv({r1, r2}, "h"));
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].coll, Collective::broadcast);
  EXPECT_EQ((*back)[0].max_bytes, 8191u);
  EXPECT_EQ((*back)[0].algo, "ring");
  EXPECT_EQ((*back)[0].channels, -1);
  EXPECT_EQ((*back)[1].algo, "nvls_tree");
  EXPECT_EQ((*back)[1].proto, "simple");
  EXPECT_EQ((*back)[1].channels, 16);
  EXPECT_EQ((*back)[1].nnodes, 4);
  EXPECT_EQ((*back)[1].nranks, 32);
}

TEST(NcclTunerFile, ReaderNamesTheLineOfABadRule) {
  auto r = parse_nccl_tuner_csv("# c\nallreduce,0,10,ring,simple,-1,-1,-1\nallreduce,0,10,Ring,simple,-1,-1,-1\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("line 3: unknown algorithm 'Ring'", 0), 0u) << r.status().message();
  EXPECT_FALSE(parse_nccl_tuner_csv("allreduce,0,10,ring,simple,-1,-1").ok());            // 7 fields
  EXPECT_FALSE(parse_nccl_tuner_csv("alltoall,0,10,ring,simple,-1,-1,-1").ok());          // not tuned
  EXPECT_FALSE(parse_nccl_tuner_csv("allreduce,10,0,ring,simple,-1,-1,-1").ok());         // max < min
  EXPECT_FALSE(parse_nccl_tuner_csv("allreduce,0,10,ring,simple,0,-1,-1").ok());          // 0 channels
  EXPECT_FALSE(parse_nccl_tuner_csv("allreduce,0,10,ring,simple,-1,-1,-1,2").ok());       // numPipeOps
  EXPECT_TRUE(parse_nccl_tuner_csv("allreduce,0,10,ring,simple,-1,-1,-1,-1,-1\n").ok());
}

TEST(NcclTunerFile, EnvFileIsNcclConfFormWithVerbatimValues) {
  const std::string env = render_nccl_env_file({{"NCCL_ALGO", "allreduce:tree;allgather:ring"}, {"NCCL_PROTO", "Simple"}},
                                               "one setting wins everywhere");
  EXPECT_EQ(env, "# one setting wins everywhere\nNCCL_ALGO=allreduce:tree;allgather:ring\nNCCL_PROTO=Simple\n");
  const std::string bad = render_nccl_env_file({{"LD_PRELOAD", "x.so"}, {"NCCL_ALGO", "a\nb"}, {"NCCL_", "x"}}, "");
  // No assignment line at all:
  for (auto line : core::split(bad, '\n'))
    if (!line.empty()) EXPECT_EQ(line[0], '#') << line;
}
