/* rod_dynamics_val.c - the dynamic kernels on plain doubles: residuals only. The dual type
 * with no derivative directions (PL_DUAL_N 0) is a double and every derivative loop is empty,
 * so this is the kernel source of rod_dynamics.c compiled for values (3 to 5 % of a run's time
 * at 740 nodes against the one-direction instance it replaces). */
#define PL_DUAL_N 0
#define KFN(name) PlDyn##name##_val
#include "rod_dynamics_kernel.inc"
