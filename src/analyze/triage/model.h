#pragma once
// The data triage accumulates while scanning (events, per-process facts, topology facts) and the
// result it produces. Plain structs: scanning fills them, correlation reads them, reporters
// render them.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyze/triage/nccl_tests_capture.h"
#include "core/finding.h"
#include "core/result.h"
#include "knowledge/message_catalogue.h"

namespace ncdx::analyze {

// One signature hit on one line.
struct TriageEvent {
  std::size_t sig = 0;                        // index into SignatureSet::all()
  std::map<std::string, std::string> fields;  // named groups of the pattern
  std::size_t file = 0;                       // index into ScanResult::files
  long long line = 0;
  std::uint64_t order = 0;                    // global reading order
  std::optional<int> rank;
  std::optional<std::string> host;
  std::optional<int> pid;
  std::optional<int> cuda_dev;
  std::optional<double> time;                 // seconds (epoch or time of day, see time_is_epoch)
  bool time_is_epoch = false;
  std::string time_text;
  std::string text;                           // sanitised, redacted, cut
};

// All hits of one signature: a few samples in full, the rest counted.
struct SignatureHits {
  std::size_t sig = 0;
  std::size_t count = 0;
  std::vector<TriageEvent> samples;  // first hits in reading order (bounded)
  std::optional<TriageEvent> earliest;  // earliest by time when known, else first read
  std::set<int> ranks;
  std::set<std::string> hosts;
  // Index into the signature's `refine` list when another signature reported the same error
  // (knowledge::Refinement); the finding then takes that class.
  std::optional<std::size_t> refinement;
};

// What one process (host:pid, or a rank, or a file without either) told us.
struct ProcessFacts {
  std::optional<int> rank;
  std::optional<int> nranks;
  std::optional<std::string> host;
  std::optional<int> pid;
  std::set<int> cuda_devs;
  std::set<std::string> files;
  std::optional<std::string> nccl_version;
  std::optional<std::string> nccl_cuda;        // "+cuda12.4"
  std::optional<long long> cuda_driver;        // cudaDriverVersion
  bool init_start = false;
  bool init_complete = false;
  std::optional<long long> last_opcount;       // NCCL_DEBUG_SUBSYS=COLL
  std::optional<std::string> last_coll;        // function of the last COLL line
  std::optional<long long> timeout_seq;        // watchdog: the SeqNum that timed out
  std::optional<std::string> timeout_op;
  std::optional<long long> timeout_ms;
  std::optional<long long> ran_for_ms;
  std::optional<long long> last_enqueued;
  std::optional<long long> last_completed;
  std::optional<long long> configured_timeout_ms;  // "ProcessGroupNCCL initialization options"
  bool watchdog_stuck = false;                  // heartbeat monitor: "watchdog got stuck for N seconds"
  std::optional<double> first_time, last_time;
  bool time_is_epoch = false;
  long long lines = 0;
  long long error_lines = 0;
  // The torch.distributed call the process was in when its traceback was printed (the innermost
  // "distributed_c10d.py ..., in all_reduce" frame): ranks of one job stuck in different calls
  // diverged.
  std::optional<std::string> c10d_call;
};

// How the launcher says a rank ended: torchrun's failure block ("rank : 3 (local_rank: 3)" then
// "exitcode : -9 (pid: 123)"), mpirun ("process rank 3 with PID 123 on node h exited on signal 9",
// "Process name: [[j,1],3]" then "Exit code: 1"), srun ("srun: error: h: task 3: Killed").
struct RankExit {
  std::optional<int> code;        // exit status (torchrun: negative = killed by that signal)
  std::optional<int> signal;      // the signal that ended it
  std::optional<int> local_rank;
  std::optional<int> pid;
  std::optional<std::string> host;
  bool root_cause = false;        // torchrun's "Root Cause (first observed failure)" entry
  bool first_failed = false;      // mpirun's "The first process to do so was"; srun's first task line
  std::optional<long long> time;  // torchrun's "time : 2026-12-05_21:46:27" of the entry, in seconds
                                  // (comparable between entries only: no time zone is printed)
  bool by_srun = false;           // from srun's "task N: ..." / "tasks 3-4: ..." exit lines
};

// One rank's CollectiveFingerPrint as a mismatch report prints it (TORCH_DISTRIBUTED_DEBUG=DETAIL):
// "Rank 2 is running collective: CollectiveFingerPrint(SequenceNumber=7, OpType=ALLREDUCE,
// TensorShape=[2048], TensorDtypes=Float, ...)".
struct Fingerprint {
  std::string sequence, op, shape, dtypes;
  std::string key() const { return sequence + "|" + op + "|" + shape + "|" + dtypes; }
  bool operator==(const Fingerprint&) const = default;
};

// The c10d store as the processes saw it (TCPStore client and server lines, socket.cpp and
// TCPStore.cpp of torch/csrc/distributed/c10d): which "host:port" a process failed to connect to,
// which one a process was connected to, which gloo address keys the waiters timed out on, and the
// server's own count of clients. Ranks the line could not be tied to are counted, not made up.
struct StoreSide {
  std::set<int> ranks;
  long long unranked = 0;
  std::size_t file = 0;   // the first line that showed it
  long long line = 0;
  std::string text;
};
struct StoreFacts {
  std::map<std::string, StoreSide> failed;    // endpoint -> who failed to connect to it
  std::map<std::string, StoreSide> reached;   // endpoint -> who was connected to it
  std::map<int, StoreSide> awaited;           // rank whose gloo address key the waiters timed out on
  std::optional<int> clients_joined, clients_expected;  // "waiting for clients. K/N clients joined."
  std::optional<StoreSide> server;            // the server's line
};

// One report block of PyTorch's Flight Recorder analyser (torchfrtrace / fr_trace) pasted into a
// log: its header names the kind ("Not all ranks joining collective, sequence number: N",
// "Collective sequence number: N has errors", ...), the lines after it the collective
// (torch/distributed/flight_recorder/components/types.py EntryState.log, utils.py error_analysis).
struct FrTraceBlock {
  enum class Kind { not_joined, has_errors, io_mismatch, missing_dumps };
  Kind kind = Kind::not_joined;
  long long seq = -1;
  std::string group, op, state;        // "0:default_pg", "nccl:all_reduce", "scheduled"
  std::set<int> missing, expected;     // "missing ranks: {…}", "expected ranks: {…}"
  std::map<int, std::string> errors;   // "Culprit rank R; Error type: T, …" → R → T
  std::size_t file = 0;
  long long line = 0;
  std::string text;                    // the header line
};

// One communicator of an NCCL RAS report (the `ncclras` client's text output, NCCL >= 2.24,
// NVIDIA/nccl src/ras/client_support.cc) pasted into a log: "#0-0 (<hash>) INCOMPLETE" with the
// ranks that sent no data ("  Rank 3 -- GPU 0 managed by process 123 on node h2"), or "#0-0 (<hash>)
// MISMATCH" with "Communicator ranks have different <Coll> operation counts" and the ranks per count
// ("  7 ranks have launched up to operation 12", "  Rank 3 has launched up to operation 11 -- ...").
struct RasBlock {
  enum class Kind { incomplete, mismatch };
  Kind kind = Kind::incomplete;
  std::string comm;                      // "#0-0 (f8e1a5b9c0d2e3f4)"
  std::set<int> missing;                 // incomplete: ranks without data
  std::string coll;                      // mismatch: the collective whose counts differ
  struct Group {
    long long count = 0;                 // ranks in the group ("7 ranks have ..."; 1 for a single rank)
    long long op = 0;                    // operations launched (0: none)
    std::set<int> ranks;                 // ranks listed (the outliers; the largest group is not listed)
  };
  std::vector<Group> groups;
  std::map<int, std::string> host_of;    // rank -> "on node H"
  std::size_t file = 0;
  long long line = 0;
  std::string text;                      // the block's header line
};

// A line with error evidence that no signature explains, kept for the fallback verdict (bounded:
// the strongest few).
struct ErrorLine {
  int score = 0;
  std::string klass;              // from the token families of the line
  std::vector<std::string> tokens;  // the evidence words found
  std::size_t file = 0;
  long long line = 0;
  std::uint64_t order = 0;
  std::optional<int> rank;
  std::optional<std::string> host;
  std::string text;
};

// A line that carries a text of the message catalogue (knowledge/message_catalogue.h): a known
// message of a known source file, kept for the verdict when no signature names a cause (bounded:
// the earliest few).
struct CataloguedLine {
  const knowledge::CatalogueRow* row = nullptr;  // rows of the embedded catalogue live for the program
  bool observation = false;  // printed at INFO/WARNING level, or a row its library carries on after
  // A signature other than a catch-all (an unclassified NCCL WARN, a bare exception) matched the
  // line: the signature's reading of it stands, the catalogue's proposed class does not.
  bool explained = false;
  std::size_t file = 0;
  long long line = 0;
  std::uint64_t order = 0;
  std::optional<int> rank;
  std::optional<std::string> host;
  std::optional<int> pid;
  std::optional<double> time;
  bool time_is_epoch = false;
  std::string time_text;
  std::string text;
};

struct TopologyFacts {
  std::set<std::string> networks;           // "Using network IB"
  std::set<std::string> ib_devices;         // mlx5_0:1/RoCE
  std::set<std::string> socket_ifs;         // eth0:10.0.0.1
  // NCCL's own address on each host ("Bootstrap : Using ib0:10.10.2.13<0>", "NET/IB : Using ... ;
  // OOB ib0:10.10.2.13<0>"): a peer another line names by address is that host (bounded).
  std::map<std::string, std::string> host_of_addr;
  // Hosts named "<job>-master-0" (a Kubeflow PyTorchJob's master pod, which runs node rank 0).
  std::set<std::string> master_pods;
  bool ib_no_device = false;                // NET/IB : No device found
  bool verbs_missing = false;               // Failed to open libibverbs
  bool ib_disabled_by_env = false;          // NCCL_IB_DISABLE set by environment to 1
  // The job's size from the environment: WORLD_SIZE=N in an env dump, torchrun's rendezvous result
  // "global_world_sizes=[2, 2]" (bounded: a few values; more than one is two jobs).
  std::set<int> world_sizes;
  // IB settings the user forced (NCCL misc/param.cc "NCCL_IB_GID_INDEX set by environment to 3.",
  // transport/net_ib/init.cc "NCCL_IB_HCA set to mlx5_0", or NAME=value in an env dump): an
  // explicitly set wrong value is a configuration error, not a fabric fault.
  std::string ib_gid_index_env, ib_hca_env;
  // The libnccl vLLM was told to load (VLLM_NCCL_SO_PATH: vLLM utils.py find_nccl_library's
  // "Found nccl from environment variable VLLM_NCCL_SO_PATH=%s", or an env dump).
  std::string vllm_nccl_so_path;
  std::string p2p_level_env;                // NCCL_P2P_LEVEL set by environment to SYS (graph/paths.cc)
  bool gdr_disabled = false;                // NET/IB : GPU Direct RDMA Disabled for HCA (no peermem/DMA-BUF)
  std::map<std::string, long long> transports;  // "P2P/CUMEM" -> channel lines, "NET/IB" ...
  std::optional<int> max_channels;
  // Transport per connected rank pair (from -> to), from the same channel lines (bounded).
  std::map<std::pair<int, int>, std::string> peer_transports;
  // Ring order per channel ("Channel 00/08 :    0   3   2   1 ..."; rank 0 prints it) and each
  // rank's tree on channel 0 ("Trees [0] 5/-1/-1->1->2 ...": children -> rank -> parent).
  std::map<int, std::string> rings;
  std::map<int, std::string> trees;
  // CUDA sample p2pBandwidthLatencyTest output: a matrix header with no data row after it means
  // the P2P copy it was measuring never finished.
  bool p2p_test = false;
  int p2p_matrix_headers = 0;
  int p2p_rows_after_header = 0;
  // nccl-tests device list ("#  Rank  0 Group  0 Pid  1234 on host device  0 [0x07] ..."): the pids
  // that call themselves rank 0 and the highest rank listed. Several rank-0 processes and no other
  // rank = each process ran its own one-rank test (built without MPI=1, launched by mpirun).
  std::set<long long> nccltests_rank0_pids;
  int nccltests_max_rank = -1;
};

struct InputSummary {
  std::vector<std::string> files;           // display names, index = TriageEvent::file
  std::vector<core::Status> problems;       // unreadable parts (reported, analysis continues)
  long long lines = 0;
  std::uint64_t bytes = 0;
  long long truncated_lines = 0;
};

struct ScanResult {
  InputSummary input;
  std::vector<SignatureHits> hits;                  // one per signature that matched
  std::map<std::string, ProcessFacts> processes;    // key: "host:pid", "rank:N" or "file:F"
  TopologyFacts topology;
  std::map<int, RankExit> exits;                    // per global rank, from launcher lines (bounded)
  std::map<int, Fingerprint> fingerprints;          // per rank, from collective-mismatch reports (bounded)
  std::vector<ErrorLine> error_lines;               // unexplained error evidence, strongest first (bounded)
  std::vector<CataloguedLine> catalogued;           // catalogue texts, in reading order (bounded per kind)
  std::vector<NcclTestsText> nccl_tests;            // inputs that hold an nccl-tests table
  StoreFacts store;                                 // the c10d store rendezvous as each process saw it
  std::vector<FrTraceBlock> fr_trace;               // torchfrtrace reports pasted into the input (bounded)
  std::vector<RasBlock> ras;                        // NCCL RAS reports pasted into the input (bounded)
};

// Folds what `src` knows into `dst` (same process seen under two keys, or a rank's processes).
void merge_facts(ProcessFacts& dst, const ProcessFacts& src);

struct TriageResult {
  core::Finding verdict;                 // klass "none" when nothing is wrong
  std::vector<core::Finding> findings;   // secondary findings, strongest first
  std::map<int, ProcessFacts> ranks;     // per global rank, after merging processes
  std::vector<ProcessFacts> unranked;    // processes whose rank could not be learned
  TopologyFacts topology;
  InputSummary input;
  std::map<int, RankExit> exits;
};

}  // namespace ncdx::analyze
