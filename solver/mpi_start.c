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
 *
 * Every isolated singleton has the same job name, so all of them would share one session
 * directory, $TMPDIR/ompi.HOST.UID/jf.0/1: one process's MPI_Finalize removes it while
 * another creates it, and that MPI_Init aborts ("mkdir was unable to create the desired
 * directory"; seen with 60 runs started at once, and once in CI's parallel tests). Each
 * process therefore gets its own base, a fresh $TMPDIR/pipelay-mpi-XXXXXX
 * (orte_tmpdir_base), which Open MPI empties at MPI_Finalize and we remove at exit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <petscsys.h>
#include "pipelay/solver.h"

static char session_base[4096];

static void RemoveSessionBase(void)
{
  if (session_base[0]) (void)rmdir(session_base);
}

/* A private session directory base for this process, unless the user chose one. */
static void PrivateSessionBase(void)
{
  if (getenv("OMPI_MCA_orte_tmpdir_base")) return;
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !tmp[0]) tmp = "/tmp";
  int n = snprintf(session_base, sizeof session_base, "%s/pipelay-mpi-XXXXXX", tmp);
  if (n <= 0 || (size_t)n >= sizeof session_base || !mkdtemp(session_base)) {
    session_base[0] = '\0'; /* Open MPI's shared default: still works, only less safely */
    return;
  }
  setenv("OMPI_MCA_orte_tmpdir_base", session_base, 1);
  atexit(RemoveSessionBase);
}

PetscErrorCode PlInitialize(int *argc, char ***argv)
{
  static const char *const kLauncher[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "SLURM_STEP_ID"};
  int launched = 0;
  for (size_t k = 0; k < sizeof kLauncher / sizeof kLauncher[0]; ++k) launched |= getenv(kLauncher[k]) != NULL;
  if (!launched) {
    setenv("OMPI_MCA_ess_singleton_isolated", "1", 0);
    setenv("OMPI_MCA_pml", "ob1", 0);
    setenv("OMPI_MCA_btl", "self", 0);
    PrivateSessionBase();
  }
  return PetscInitialize(argc, argv, NULL, NULL);
}
