#!/usr/bin/env python3
"""The integrator stops and restarts at the forcing's breakpoints (models/motion.c,
PlModelBreakpoints; solver/system_dynamic.c, PlIdaStep).

tests/models/breakpoint_pulse.yaml: a body of m = 1 kg on a spring k = pi^2 N/m, at rest, struck
at t = 3 s by a triangular force pulse (0 to 100 N in 50 ms and back: 5 N s), no damping. Its
motion is the exact response of m x'' + k x = F(t) to the linear pieces of F: on a piece
F = F_a + s (t - t_a) from x_a, v_a at t_a,
  x(t) = (F_a + s tau)/k + (x_a - F_a/k) cos(w tau) + (v_a - s/k) sin(w tau)/w,  tau = t - t_a,
w = sqrt(k/m); the velocity its derivative. Checked: the body's x and surge velocity at every
output time within 1 % of their peaks (about 1.6 m and 5 m/s), at the default tolerances.
Without the stops IDA, whose steps grow while the body rests, steps over the 0.1-s pulse and
samples the force at the steps' ends only: the body never moves. The pulse's corners must be
the model's breakpoints in pipelay info (3, 3.05 and 3.1 s).

tests/models/breakpoint_hanger.yaml: a model of lines (the system's run, solver/system_run.c), a
clump on a cable whose given top end jerks up 5 cm and back within 0.1 s (a linear series).
The held top is at its prescribed position at every output time (within 1e-6 m: between the
corners the series is linear, which IDA's polynomials hold exactly; across one they do not),
and the jerk reaches the clump (its speed exceeds 0.1 m/s). Stepped over, the top stays at
z = -10 m at the jerk's peak (t = 1.05 s) and the clump at rest.

usage: check_breakpoints.py PIPELAY MODELS_DIR WORKDIR
"""
import math, os, subprocess, sys
import numpy as np

M, K, F = 1.0, math.pi ** 2, [(0.0, 0.0), (3.0, 0.0), (3.05, 100.0), (3.1, 0.0)]


def exact(t):
    """x, v at the times t (sorted) of m x'' + k x = F(t), from rest; F linear between the rows
    of F, zero before the first and held (0) after the last."""
    w = math.sqrt(K / M)
    knots = [p[0] for p in F] + [math.inf]
    xs, vs = [], []
    x, v, i = 0.0, 0.0, 0
    for tt in t:
        while tt > knots[i + 1]:  # propagate to the next row
            x, v = piece(x, v, i, knots[i + 1] - knots[i], w)
            i += 1
        xi, vi = piece(x, v, i, tt - knots[i], w)
        xs.append(xi)
        vs.append(vi)
    return np.array(xs), np.array(vs)


def piece(x, v, i, tau, w):
    fa = F[i][1]
    s = (F[i + 1][1] - fa) / (F[i + 1][0] - F[i][0]) if i + 1 < len(F) else 0.0
    c, sn = math.cos(w * tau), math.sin(w * tau)
    a, b = x - fa / K, (v - s / K) / w
    return (fa + s * tau) / K + a * c + b * sn, s / K - a * w * sn + b * w * c


def hanger(pipelay, models, work):
    out = os.path.join(work, "breakpoint_hanger")
    p = subprocess.run([pipelay, "run", os.path.join(models, "breakpoint_hanger.yaml"), "--output", out, "--quiet",
                        "--no-plots"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode:
        print("FAIL the hanger: exit %d %s" % (p.returncode, p.stderr.strip()[-300:]))
        return 1
    top = np.genfromtxt(os.path.join(out, "line_hanger", "timeseries_top.csv"), delimiter=",", names=True)
    lift = np.genfromtxt(os.path.join(models, "breakpoint_lift.csv"), delimiter=",", names=True)
    err = np.abs(top["z_m"] - (-10.0 + np.interp(top["t_s"], lift["t"], lift["z"])))
    i = int(np.argmax(err))
    ok1 = err[i] <= 1e-6
    print("%s the held top at its prescribed position: largest difference %.3g m at t = %.2f s (limit 1e-6 m)" % (
        "PASS" if ok1 else "FAIL", err[i], top["t_s"][i]))
    clump = np.genfromtxt(os.path.join(out, "timeseries_point_clump.csv"), delimiter=",", names=True)
    vmax = np.max(np.abs(clump["vz_mps"]))
    ok2 = vmax > 0.1
    print("%s the jerk reaches the clump: its largest speed %.3g m/s (above 0.1 m/s)" % ("PASS" if ok2 else "FAIL", vmax))
    return (not ok1) + (not ok2)


def main():
    pipelay, models, work = sys.argv[1:4]
    model = os.path.join(models, "breakpoint_pulse.yaml")
    fails = 0
    info = subprocess.run([pipelay, "info", model], stdout=subprocess.PIPE, text=True).stdout
    ok = "breakpoints (restarts)       3: 3, 3.05, 3.1 s" in info
    print("%s pipelay info lists the pulse's corners as breakpoints" % ("PASS" if ok else "FAIL"))
    fails += not ok
    out = os.path.join(work, "breakpoint_pulse")
    p = subprocess.run([pipelay, "run", model, "--output", out, "--quiet", "--no-plots"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        print("FAIL the run: exit %d %s" % (p.returncode, p.stderr.strip()[-300:]))
        return 1
    a = np.genfromtxt(os.path.join(out, "timeseries_vessel.csv"), delimiter=",", names=True)
    x, v = exact(a["t_s"])
    for name, got, ref in (("x", a["x_m"], x), ("surge velocity", a["surge_velocity_mps"], v)):
        peak = np.max(np.abs(ref))
        err = np.abs(got - ref)
        i = int(np.argmax(err))
        ok = err[i] <= 0.01 * peak
        print("%s %s: largest difference %.3g at t = %.2f s, %.3f %% of its peak %.4g (limit 1 %%)" % (
            "PASS" if ok else "FAIL", name, err[i], a["t_s"][i], 100 * err[i] / peak, peak))
        fails += not ok
    fails += hanger(pipelay, models, work)
    print("%d failed" % fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
