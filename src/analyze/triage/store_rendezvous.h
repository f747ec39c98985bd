#pragma once
// The c10d store rendezvous (init_process_group with env:// or tcp://): every process connects to
// one TCPStore at MASTER_ADDR:MASTER_PORT, and a gloo process group then publishes each rank's
// address under the key "<rank>" and waits for the other ranks' keys in rank order (pytorch/gloo
// gloo/transport/tcp/context.cc, Context::createAndConnectAllPairs: store->set(std::to_string(rank))
// then wait_get(std::to_string(key++))). So the store's lines say who did not rendezvous: a process
// that tried another endpoint than the one the others reached (MASTER_PORT or MASTER_ADDR set
// differently on one rank), or the rank whose address key every waiter timed out on.
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "analyze/triage/model.h"

namespace ncdx::analyze {

// Reads the store facts of one line (a cheap gate first) into `out`. `rank`: the rank of the
// process that printed the line, when known.
void read_store_line(std::string_view text, std::optional<int> rank, std::size_t file, long long line,
                     StoreFacts& out);

struct StoreMismatch {
  std::string bad;               // the endpoint the odd process(es) tried and nobody reached
  std::string good;              // an endpoint other processes were connected to
  std::set<int> culprits;        // who tried `bad`; empty when the lines name no rank
  const StoreSide* tried = nullptr;
  const StoreSide* reached = nullptr;
};

// Processes that disagree about where the store is: one failed to connect to an endpoint nobody
// reached while others were connected to another (a different port, or another IP literal).
// `awaited` stands in for the culprit when the failing lines carry no rank.
std::optional<StoreMismatch> store_endpoint_mismatch(const StoreFacts& s, std::optional<int> awaited);

struct StoreAlone {
  std::string endpoint;          // where the clients looked for the store
  std::set<int> clients;         // the ranks that failed to connect there (may be empty: no prefixes)
  int expected = 0;              // the clients the server waited for, itself included
  std::optional<int> server;     // the server's rank
  const StoreSide* tried = nullptr;
  const StoreSide* server_line = nullptr;
};

// The store server saw no client but itself ("1/N clients joined", N >= 3) while its clients all
// failed to connect to one endpoint nobody reached: with one fault, the server is the odd one (it
// listens elsewhere, or its port is closed to them). The server is the rank the line names, else
// rank 0, which serves the store under env:// when torchrun's agent does not
// (torch/distributed/rendezvous.py, _create_c10d_store: start_daemon = rank == 0).
std::optional<StoreAlone> store_server_alone(const StoreFacts& s, bool agent_store);

struct StorePair {
  std::string endpoint;          // where the client looked for the store
  int server = 0;                // the rank that served it ("1/2 clients joined")
  int client = 0;                // its only client, which failed to connect there
  const StoreSide* server_line = nullptr;
  const StoreSide* tried = nullptr;
};

// A two-rank job whose store server saw no client ("1/2 clients joined") while its only client
// failed to connect to one endpoint nobody reached. Unlike store_server_alone (N >= 3: the clients
// agree among themselves, so the server is the odd one) these lines are the same whichever of the
// two was given the wrong MASTER_ADDR/MASTER_PORT: the server listening elsewhere, or the client
// looking elsewhere. The server is the rank its line names, else rank 0 (env://, as above; not
// with torchrun's agent store); the client the rank its lines name, else the one other rank of
// `world`, which must be exactly ranks 0 and 1 (the job's ranks as far as the input shows them:
// srun's "task 1: Exited" lines count; pair.h two_rank_job).
std::optional<StorePair> store_pair(const StoreFacts& s, bool agent_store, const std::set<int>& world);

// The rank whose gloo address key the waiters timed out on. With the store served by rank 0's own
// process (mpirun, a script: env:// makes rank 0 the TCPStore server, which blocks until every
// client joined) the key "0" names that blocked server, not the rank that failed to come, so key 0
// counts only when the store is torchrun's agent store (`agent_store`).
std::optional<int> awaited_rank(const StoreFacts& s, bool agent_store);

}  // namespace ncdx::analyze
