#!/usr/bin/env python3
"""check_axial_damping.py - structural axial damping (line.sections[*].axial_damping, a
Kelvin-Voigt material) damps the axial modes of a taut rod with the ratio the theory gives.

The rod: the taut string of verification/free_vibration (L0 = 10 m, EA = 1e7 N, m0 = 10 kg/m,
weightless in water, no drag, pinned 10.1 m apart, 40 elements). Its bottom end makes an axial
(x) sin^2 pulse of 0.1 mm over 0.02 s and holds still; the rod then vibrates axially. The
damping force c_a eps' is proportional to the axial stiffness's (EA eps), so every axial mode,
of the discrete rod as of the continuous one, has the damping ratio
    zeta = c_a omega / (2 EA)
at its circular frequency omega (stiffness-proportional, Rayleigh beta = c_a/EA). The middle
node shows the odd modes only, and mode 3 decays nine times faster than mode 1 (zeta_n grows
with omega_n), so after 3 periods its x is the first mode's damped oscillation. Measured from
its positive peaks over the next 10 periods: omega_d from their spacing, zeta from the
logarithmic decrement delta = ln(A_k / A_k+N) / N, zeta = delta / sqrt(4 pi^2 + delta^2); and
compared with c_a omega_n / (2 EA), omega_n = omega_d / sqrt(1 - zeta^2), within 0.5 % for
c_a giving zeta = 0.01 and 0.03 at the continuous rod's first frequency (the rest: the peaks'
sampling and the integrator's own damping at rtol 1e-8). Without damping the decrement's zeta is
below 2e-4. The energy balance closes with the damping's energy in dissipated_J (balance_J
within 1e-4 of the largest energy term over the run, the undamped run's floor 4e-5, where the
damping's energy is 2e-3 of it).

usage: check_axial_damping.py PIPELAY WORKDIR
"""
import csv, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks  # noqa: E402

EA, M0, L0 = 1.0e7, 10.0, 10.0
W1 = math.pi / L0 * math.sqrt(EA / M0)       # the continuous rod's first axial mode [rad/s]
TAU = 2 * math.pi / W1                       # the pulse: one period

MODEL = """name: taut rod, axial free vibration after a pulse
environment: {{water_depth: 1000, water_density: 1025, gravity: 9.81}}
line:
  length: 10
  sections:
    - {{outer_diameter: 0.11145334995830505, EA: 1.0e7, GA: 1.0e6, GJ: 1.0, EI: 1.0, mass_per_length: 10,
       rotary_inertia: [0.02, 0.01, 0.01], hydrodynamics: {{drag_normal: 0}}, axial_damping: {ca:.17g}}}
seabed: {{model: none}}
mesh: {{elements: 40}}
ends:
  bottom:
    position: [0, 0, -500]
    orientation: [0, 0, 0]
    fixed: [x, y, z]
    motion: {{type: timeseries, file: pulse.csv, interpolation: cubic}}
  top: {{position: [10.1, 0, -500], fixed: [x, y, z]}}
analysis:
  type: dynamic
  initial_guess: straight
  load_steps: 4
  rtol: 1.0e-12
  dynamic: {{duration: {T:.17g}, output_interval: {dt:.17g}, rtol: 1.0e-8, atol_position: 1.0e-10,
            atol_rotation: 1.0e-10, atol_velocity: 1.0e-8, atol_angular_velocity: 1.0e-8, max_steps: 1000000}}
output:
  points: [{{name: middle, arc_length: 5}}]
"""


def column(path, name):
    with open(path) as f:
        r = csv.reader(f)
        head = next(r)
        k, t = head.index(name), head.index("t_s")
        rows = [(float(x[t]), float(x[k])) for x in r]
    return [a for a, _ in rows], [b for _, b in rows]


def peaks(t, x):
    """Positive peaks of x as (time, value), each refined by a parabola through its 3 samples."""
    out = []
    for i in range(1, len(x) - 1):
        if x[i] > 0 and x[i] >= x[i - 1] and x[i] > x[i + 1]:
            a, b, c = x[i - 1], x[i], x[i + 1]
            den = a - 2 * b + c
            s = 0.5 * (a - c) / den if den else 0.0
            h = t[i + 1] - t[i]
            out.append((t[i] + s * h, b - 0.25 * (a - c) * s))
    return out


def main():
    pipelay, work = (os.path.abspath(a) for a in sys.argv[1:3])
    os.makedirs(work, exist_ok=True)
    c = Checks(pipelay, work)
    with open(os.path.join(work, "pulse.csv"), "w") as f:
        f.write("t,x,y,z\n")
        n = 200
        for i in range(n + 1):
            t = TAU * i / n
            x = 0.0 if i in (0, n) else 1e-4 * math.sin(math.pi * i / n) ** 2  # the ends exactly at rest
            f.write("%.17g,%.17g,0,0\n" % (t, x))
    T, dt = TAU * 16, TAU / 100
    for zeta in (0.0, 0.01, 0.03):
        ca = 2 * zeta * EA / W1
        name = "zeta%g" % zeta
        out = c.run(name, MODEL.format(ca=ca, T=T, dt=dt))
        if not out:
            continue
        t, x = column(os.path.join(out, "timeseries_middle.csv"), "x_m")
        i0 = next(i for i, v in enumerate(t) if v >= 4 * TAU)  # after the pulse and 3 periods
        pk = peaks(t[i0:], [v - x[0] for v in x[i0:]])[:11]  # about the static position (t = 0, at rest)
        if len(pk) < 11:
            c.check(False, "%s: only %d peaks after 4 periods" % (name, len(pk)))
            continue
        N = len(pk) - 1
        wd = 2 * math.pi * N / (pk[-1][0] - pk[0][0])
        delta = math.log(pk[0][1] / pk[-1][1]) / N
        zm = delta / math.sqrt(4 * math.pi ** 2 + delta ** 2)
        wn = wd / math.sqrt(1 - zm ** 2)
        zp = ca * wn / (2 * EA)
        if zeta == 0.0:
            c.check(abs(zm) < 2e-4, "no damping: the decrement's zeta %.2e (below 2e-4); omega_d %.6g rad/s against "
                    "the continuous rod's %.6g" % (zm, wd, W1))
        else:
            c.check(abs(zm - zp) <= 0.005 * zp, "c_a = %.6g N s: zeta %.6f from %d periods' decrement against c_a omega_n "
                    "/ (2 EA) = %.6f (%.2f %%; 0.5 %% allowed)" % (ca, zm, N, zp, 100 * abs(zm - zp) / zp))
        et, bal = column(os.path.join(out, "energy.csv"), "balance_J")
        _, dis = column(os.path.join(out, "energy.csv"), "dissipated_J")
        _, kin = column(os.path.join(out, "energy.csv"), "kinetic_J")
        _, strain = column(os.path.join(out, "energy.csv"), "strain_J")
        scale = max(max(abs(v) for v in kin), max(abs(v) for v in dis), max(abs(s - strain[0]) for s in strain))
        worst = max(abs(v) for v in bal)
        c.check(worst <= 1e-4 * scale and (zeta == 0.0 or dis[-1] > 0.0),
                "%s: energy balance within %.2e of its largest term %.3g J (1e-4 allowed: the undamped run's own "
                "floor is 4e-5; the damping's energy is 2e-3 of it); dissipated %.4g J" % (name, worst / scale, scale,
                                                                                          dis[-1]))
    print("%d failure(s)" % c.fails)
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
