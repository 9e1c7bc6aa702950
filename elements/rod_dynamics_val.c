/* rod_dynamics_val.c - the dynamic kernels on one-direction dual numbers: residuals only
 * (no derivative is seeded), about 2x the cost of plain doubles instead of 15x. */
#define PL_DUAL_N 1
#define KFN(name) PlDyn##name##_val
#include "rod_dynamics_kernel.inc"
