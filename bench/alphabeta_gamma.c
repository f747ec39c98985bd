/* γ of the α-β-γ model (bench/alphabeta_netns.py): the time per byte of Open MPI's own MPI_SUM
 * on floats, MPI_Reduce_local over buffers of the sizes the collectives reduce (best of 20 after
 * warm-up, so a busy machine inflates it less). Prints "gamma_ns_per_byte <bytes> <value>" lines.
 * Build: mpicc -O2 alphabeta_gamma.c -o alphabeta_gamma; run: mpirun -np 1 ./alphabeta_gamma */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int sizes[] = {64 << 10, 1 << 20, 4 << 20};
  for (int s = 0; s < 3; ++s) {
    int n = sizes[s] / (int)sizeof(float);
    float* in = malloc(sizes[s]);
    float* inout = malloc(sizes[s]);
    for (int i = 0; i < n; ++i) in[i] = inout[i] = 1.0f;
    double best = 1e30;
    for (int it = 0; it < 23; ++it) {
      double t = MPI_Wtime();
      MPI_Reduce_local(in, inout, n, MPI_FLOAT, MPI_SUM);
      t = MPI_Wtime() - t;
      if (it >= 3 && t < best) best = t;
    }
    printf("gamma_ns_per_byte %d %.4f\n", sizes[s], best * 1e9 / sizes[s]);
    free(in);
    free(inout);
  }
  MPI_Finalize();
  return 0;
}
