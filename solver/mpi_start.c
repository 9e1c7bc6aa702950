/*
 * mpi_start.c - the start of a pipelay process: MPI through PETSc, quickly when alone.
 *
 * A process started without a launcher (no mpiexec, srun or PMI environment) is an MPI
 * singleton. Open MPI 4.1 then starts a helper daemon (orted) and probes its network
 * transports, which took 0.31 s of wall time on the development machine (2 cores) for an
 * empty MPI_Init/MPI_Finalize program, against 0.02 s with the settings below:
 *   ess_singleton_isolated = 1   no daemon (the process cannot spawn others: pipelay never does)
 *   pml = ob1, btl = self        the one process talks only to itself
 * They are set only when unset (a user's OMPI_MCA_* values win) and only without a launcher,
 * so runs under mpiexec keep every transport. Other MPI libraries ignore OMPI_MCA_*.
 */
#include <stdlib.h>
#include <petscsys.h>
#include "pipelay/solver.h"

PetscErrorCode PlInitialize(int *argc, char ***argv)
{
  static const char *const kLauncher[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "SLURM_STEP_ID"};
  int launched = 0;
  for (size_t k = 0; k < sizeof kLauncher / sizeof kLauncher[0]; ++k) launched |= getenv(kLauncher[k]) != NULL;
  if (!launched) {
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
    setenv("OMPI_MCA_pml", "ob1", 0);
    setenv("OMPI_MCA_btl", "self", 0);
  }
  return PetscInitialize(argc, argv, NULL, NULL);
}
