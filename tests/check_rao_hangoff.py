#!/usr/bin/env python3
"""check_rao_hangoff.py - a vessel's RAO motion at its hang-off, end to end (vessel.raos,
examples/jlay_rao_supply.yaml): the J-lay's top end follows r + R (P + d(t)) at every output,
r, R the vessel's low-frequency pose as timeseries_vessel.csv reports it (O_b; roll, pitch, yaw
zyx) and d = xi_t + xi_r x (P - O) the RAO motion computed here, independently of models/rao.c:
the shipped table's rows read from the CSV, interpolated linearly in period (real and imaginary
parts) at the wave's heading relative to the vessel, in its declared conventions (heading towards,
phase lead, rad/m), the wave number from the exact dispersion relation, the phase on the crest
at the phase origin (the RAO origin at the initial pose), times the sea's C^2 ramp. The sea is a
regular Airy wave (2 m, 9 s, travelling towards 150 deg, phase 30 deg) ramped in over 20 s; 40 s at
rtol 1e-7 and atol_position 1e-8 m. Checked: the top end's position within 10 atol_position of
r + R (P + d) at every output (Newton solves the constraint rows to the integration tolerance:
7.7e-9 m here, 2.1e-5 m at the example's own 1e-5 m); the motion is not nil (at least 0.2 m of
the hang-off's travel against the vessel's origin); and energy.csv's balance closes to 1e-4 of
the largest work (the RAO motion's work on the line is in work_ends_J; without it the balance is
off by the whole of it); with the hang-off fixed instead (its frame turning with the RAO rotation)
the balance likewise.
Usage: check_rao_hangoff.py PIPELAY EXAMPLES_DIR WORKDIR
"""
import cmath, csv, math, os, subprocess, sys
import numpy as np

pipelay, examples, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
g, depth = 9.80665, 800.0
H_wave, T, beta_deg, phase_deg, ramp = 2.0, 9.0, 150.0, 30.0, 20.0
ATOL = 1e-8  # [m] the run's atol_position: Newton solves the hang-off's constraint rows to it
out = os.path.join(work, "rao_hangoff")
cmd = [pipelay, "run", os.path.join(examples, "jlay_rao_supply.yaml"), "--output", out, "--quiet", "--no-plots",
       "--set", f"waves.trains=[{{kind: airy, height: {H_wave}, period: {T}, heading: {beta_deg}, phase: {phase_deg}}}]",
       "--set", "analysis.dynamic.duration=40", "--set", "analysis.dynamic.rtol=1e-7",
       "--set", f"analysis.dynamic.atol_position={ATOL}"]
r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
if r.returncode:
    print(r.stdout)
    sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}")

# the table (examples/jlay_rao_supply.yaml: heading towards, phase lead, rotations rad)
rows = {}
with open(os.path.join(examples, "raos", "mss_supply", "supply_raos.csv")) as f:
    lines = [l for l in f if not l.startswith("#")]
for h, per, dof, amp, ph in list(csv.reader(lines))[1:]:
    rows[(float(h), float(per), dof)] = float(amp) * cmath.exp(1j * math.radians(float(ph)))
names = ("surge", "sway", "heave", "roll", "pitch", "yaw")
periods = sorted({p for (_, p, _) in rows})
psi0, r0 = 0.0, (766.0, 0.0)                 # vessel.initial
O, P = np.array([0.0, 0.0, -1.3]), np.zeros(3)  # raos.origin, hang_off.point
hrel = (beta_deg - math.degrees(psi0)) % 360.0
i = max(j for j in range(len(periods)) if periods[j] <= T)
wgt = (T - periods[i]) / (periods[i + 1] - periods[i])
Hc = [(1 - wgt) * rows[(hrel, periods[i], n)] + wgt * rows[(hrel, periods[i + 1], n)] for n in names]
w = 2 * math.pi / T
k = w * w / g
for _ in range(100):  # omega^2 = g k tanh(k h), Newton
    k -= (g * k * math.tanh(k * depth) - w * w) / (g * math.tanh(k * depth) + g * k * depth / math.cosh(k * depth) ** 2)
b = math.radians(beta_deg)
xph = (r0[0] + math.cos(psi0) * O[0] - math.sin(psi0) * O[1], r0[1] + math.sin(psi0) * O[0] + math.cos(psi0) * O[1])
c0 = -k * (xph[0] * math.cos(b) + xph[1] * math.sin(b)) - math.radians(phase_deg)
a = H_wave / 2

top = np.genfromtxt(os.path.join(out, "timeseries_top.csv"), delimiter=",", names=True)
ves = np.genfromtxt(os.path.join(out, "timeseries_vessel.csv"), delimiter=",", names=True)
worst, travel = 0.0, 0.0
for j, t in enumerate(top["t_s"]):
    x = min(max(t / ramp, 0.0), 1.0)
    rr = x ** 3 * (10 - 15 * x + 6 * x * x)
    xi = np.array([rr * (a * Hc[m] * cmath.exp(1j * (w * t + c0))).real for m in range(6)])
    d = xi[:3] + np.cross(xi[3:], P - O)
    ph, th, ps = (math.radians(ves[n][j]) for n in ("roll_deg", "pitch_deg", "yaw_deg"))
    Rz = np.array([[math.cos(ps), -math.sin(ps), 0], [math.sin(ps), math.cos(ps), 0], [0, 0, 1]])
    Ry = np.array([[math.cos(th), 0, math.sin(th)], [0, 1, 0], [-math.sin(th), 0, math.cos(th)]])
    Rx = np.array([[1, 0, 0], [0, math.cos(ph), -math.sin(ph)], [0, math.sin(ph), math.cos(ph)]])
    R = Rz @ Ry @ Rx
    rv = np.array([ves["x_m"][j], ves["y_m"][j], ves["z_m"][j]])
    want = rv + R @ (P + d)
    got = np.array([top["x_m"][j], top["y_m"][j], top["z_m"][j]])
    worst = max(worst, float(np.abs(got - want).max()))
    travel = max(travel, float(np.abs(got - rv - R @ P).max()))
e = np.genfromtxt(os.path.join(out, "energy.csv"), delimiter=",", names=True)
wmax = max(float(np.abs(e[n]).max()) for n in e.dtype.names if n.startswith("work_"))
bal = float(np.abs(e["balance_J"]).max())
ok = worst <= 10 * ATOL and travel >= 0.2 and bal <= 1e-4 * wmax
print(f"{'ok' if ok else 'FAIL'}: top end vs r + R (P + d): {worst:.3e} m ({10 * ATOL:g}); the hang-off's RAO travel "
      f"{travel:.3f} m (>= 0.2); |balance| {bal:.4g} J of work {wmax:.4g} J ({bal / wmax:.2e}, 1e-4)")

# the same run with the hang-off fixed (its frame turning with the RAO rotation, its moment into
# the vessel): the balance closes to 1e-4 of the largest work only with the RAO rotation's work
# on the line's end moment in work_ends_J (without it: about 0.35 of the largest work)
out_fixed = os.path.join(work, "rao_hangoff_fixed")
r = subprocess.run(cmd[:4] + [out_fixed] + cmd[5:] + ["--set", "vessel.hang_off.connection=fixed", "--set",
                                                    "vessel.hang_off.orientation=[0, -80, 0]"],
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
if r.returncode:
    print(r.stdout)
    sys.exit("FAIL: the fixed hang-off's run exited %d" % r.returncode)
e = np.genfromtxt(os.path.join(out_fixed, "energy.csv"), delimiter=",", names=True)
wmax_f = max(float(np.abs(e[n]).max()) for n in e.dtype.names if n.startswith("work_"))
bal_f = float(np.abs(e["balance_J"]).max())
ok_f = bal_f <= 1e-4 * wmax_f
print(f"{'ok' if ok_f else 'FAIL'}: fixed hang-off: |balance| {bal_f:.4g} J of work {wmax_f:.4g} J "
      f"({bal_f / wmax_f:.2e}, 1e-4)")
sys.exit(0 if ok and ok_f else 1)
