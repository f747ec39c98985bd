// Which part of Open MPI makes a two-way exchange slower than a one-way send on a shaped TCP link
// (docs/MODEL.md (c), "the exchange's β_x"): 2 ranks, per size the median of 5 MPI_Sendrecv to
// and from the other rank, and of 5 one-way MPI_Send answered by a 1-byte message.
//   mpicc -O2 -o /tmp/xprobe bench/mpi_exchange_probe.c
//   NCDX=/bin/true NCDX_MPI_NET=data RATE=50mbit scripts/netns-cluster.sh exec 2 -- \
//     bash -c 'mpirun $NCDX_MPIRUN_ARGS [--mca btl_tcp_flags F] -np 2 /tmp/xprobe'
// Results: bench/results/mpi_exchange_probe_50mbit_2026-12-07.txt.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
static int cmp(const void* a, const void* b) { double x = *(double*)a, y = *(double*)b; return x < y ? -1 : x > y; }
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int r; MPI_Comm_rank(MPI_COMM_WORLD, &r);
  long sizes[] = {32768, 65536, 131072, 262144, 1048576};
  char* s = malloc(1 << 20); char* d = malloc(1 << 20);
  for (int k = 0; k < 5; ++k) {
    long n = sizes[k]; double tx[5], t1[5];
    for (int i = 0; i < 5; ++i) {
      MPI_Barrier(MPI_COMM_WORLD); double t = MPI_Wtime();
      MPI_Sendrecv(s, n, MPI_BYTE, 1 - r, 0, d, n, MPI_BYTE, 1 - r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      tx[i] = MPI_Wtime() - t;
      MPI_Barrier(MPI_COMM_WORLD); t = MPI_Wtime();
      if (r == 0) { MPI_Send(s, n, MPI_BYTE, 1, 1, MPI_COMM_WORLD); MPI_Recv(d, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); }
      else { MPI_Recv(d, n, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); MPI_Send(s, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD); }
      t1[i] = MPI_Wtime() - t;
    }
    qsort(tx, 5, sizeof(double), cmp); qsort(t1, 5, sizeof(double), cmp);
    if (r == 0) printf("%8ld exchange %7.1f ms  oneway %7.1f ms  ratio %.2f\n", n, tx[2] * 1e3, t1[2] * 1e3, tx[2] / t1[2]);
  }
  MPI_Finalize();
}
