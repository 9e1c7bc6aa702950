/*
 * fatigue.h - fatigue of the pipe wall (output/fatigue.c: the definitions and derivations):
 * rainflow counting of a stress history (ASTM E1049-85, 5.4.4), the S-N curves of
 * DNV-RP-C203 (edition April 2016, tables 2-1, 2-2 and 2-4), and Miner's damage sum.
 * Pure functions, but PlRunFatigue (the post-pass over a dynamic run's time series).
 */
#pragma once
#include <stdio.h>

#include "pipelay/models.h"

/* Rainflow counting of x[0..n-1] per ASTM E1049-85 5.4.4 (three-point method, the first
 * reversal the starting point, the residue counted as half cycles): the k-th counted range
 * in range[k] with its count (1 or 0.5) in count[k]; range and count hold at least n values.
 * Returns the number of ranges (0 with fewer than two reversals). */
int PlRainflow(const double *x, int n, double *range, double *count);

/* The S-N curves, in the order of PlSNCurveNames (NULL-ended): B1 ... W3. */
extern const char *const PlSNCurveNames[];
/* Environments, in the order of PlSNEnvironmentNames: air, seawater with cathodic protection,
 * seawater with free corrosion. */
typedef enum { PL_SN_AIR = 0, PL_SN_SEAWATER_CP = 1, PL_SN_FREE_CORROSION = 2 } PlSNEnvironment;
extern const char *const PlSNEnvironmentNames[];

/* One curve: log10 N = log_a1 - m1 log10(S) for N <= n_knee, log_a2 - m2 log10(S) beyond
 * (S the stress range in MPa); a single slope when m2 == 0 (free corrosion). k: the thickness
 * exponent, applied for wall thicknesses above t_ref = 25 mm. */
typedef struct {
  double m1, log_a1, m2, log_a2, n_knee, k;
} PlSNCurve;

/* The tabulated curve of index curve (PlSNCurveNames) in env: 0, or 1 for a bad index. */
int PlSNCurveGet(int curve, PlSNEnvironment env, PlSNCurve *c);
/* The knee's stress range [MPa]: 10^((log_a1 - log10 n_knee) / m1) (NAN without a knee). */
double PlSNKneeStress(const PlSNCurve *c);
/* Cycles to failure under the stress range s [Pa] at a wall of thickness t [m] behind a stress
 * concentration factor scf: N(scf s (max(t, t_ref)/t_ref)^k), the branch by the knee's stress. */
double PlSNCycles(const PlSNCurve *c, double s, double t, double scf);
/* Miner's sum over n rainflow ranges [Pa]: sum count_i / N(range_i). */
double PlMinerDamage(const PlSNCurve *c, const double *range, const double *count, int n, double t, double scf);

/* The nominal axial stress [Pa] at the fibre at angle theta [rad] (from the section's t2 axis
 * towards t3) of a pipe wall of area A and second moment I, outer radius r_o, under the axial
 * force N [N] and the bending moments M2, M3 [N m] about t2, t3. */
double PlFibreStress(double N, double M2, double M3, double theta, double area, double second_moment, double r_o);

/* The fatigue of every line point of a dynamic run in dir (its time series from t0 on, as
 * statistics): fatigue.csv, summary.json's "fatigue" and a line on say (or NULL). 0 or an
 * exit code with err. */
int PlRunFatigue(const PlModel *m, const char *dir, double t0, FILE *say, PlError *err);
