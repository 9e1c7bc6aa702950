#!/usr/bin/env python3
# make_reference.py - the pivot pulse of the case pendulum_energy (pulse.csv) and its
# reference: the rigid pendulum (reference.csv, rigid_undamped.csv, rigid_damped.csv); run
# once by hand (about 10 s), the output is committed.
#
# The rod of pendulum.yaml (L = 2 m, m = 100 kg/m, rotary inertia J2 = 2.5 kg m about the
# bending axes, outer diameter d = 0.2 m in water of 1025 kg/m^3, g = 9.81 m/s^2) hangs from
# a pin at its top. Taken as rigid (its lowest bending mode is some 50 times faster than the
# swing), it is a compound pendulum: with theta its angle from the vertical and u(t) the
# horizontal position of the pin,
#   I theta'' = -(w L^2/2) sin theta - (m L^2/2) u'' cos theta + Q_drag - D5 L theta',
#   I = m L^3/3 + J2 L,  w = (m - rho_w pi d^2/4) g  (the submerged weight per length),
#   Q_drag = -1/2 rho_w d C_dn int_0^L |v_n| v_n s ds,  v_n = u' cos theta + s theta'
# (Morison drag on the velocity normal to the rod, eq 5.34; the tangential drag does no work
# on theta; rotational damping D5 per length about the bending axis, eq 5.37). Its energy
# E = 1/2 I theta'^2 + w L^2/2 (1 - cos theta) is constant while the pin is still and
# there is no drag or damping. Small swings: omega^2 = w L^2/(2 I), T = 2 pi/omega.
#
# The pin makes one horizontal (x) pulse u = D sin^2(pi (t - h)/tau), D = 0.15 m, tau = T/2,
# h = tau/40, and then holds still (pulse.csv; pipelay interpolates the rows by cubic
# Hermite segments, and so does this script, models/motion.c's formula). For small swings
# the pulse leaves the swing amplitude (m L^2 D/(2 I)) (4/3) = 8.4 deg. This script
# integrates the nonlinear equation above with the same pin motion (RK4, 2e-4 s) for the
# undamped rod and for the damped one (C_dn = 1.2, D5 = 5 N s, as in the C test
# dynamic_passivity), and writes from the free swing (t >= 1.5 s, the pin still):
# the undamped swing energy, its period (upward zero crossings of the free end's x), and the
# energy the damped rod loses from t = 1.5 s to the end of its run (16 s).
import math
import os

here = os.path.dirname(os.path.abspath(__file__))
rho, g = 1025.0, 9.81
L, mu, J2, d = 2.0, 100.0, 2.5, 0.2
w = (mu - rho * math.pi * d * d / 4) * g
I = mu * L**3 / 3 + J2 * L
T_small = 2 * math.pi / math.sqrt(w * L * L / 2 / I)
D, tau = 0.15, T_small / 2
T_FREE, END_UNDAMPED, END_DAMPED = 1.5, 18.0, 16.0


def hermite(rows):
    """pipelay's cubic Hermite interpolation of (t, y) rows (models/motion.c): (y, y', y'')."""
    n = len(rows)

    def f(t):
        if t < rows[0][0]:
            return 0.0, 0.0, 0.0
        if t >= rows[-1][0]:
            return rows[-1][1], 0.0, 0.0
        lo, hi = 0, n - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if rows[mid][0] <= t:
                lo = mid
            else:
                hi = mid
        (ta, ya), (tb, yb) = rows[lo], rows[hi]
        h = tb - ta
        r = (t - ta) / h
        s0 = (yb - ya) / h
        ma = mb = s0
        if lo > 0:
            tz, yz = rows[lo - 1]
            ma = ((ta - tz) * s0 + h * (ya - yz) / (ta - tz)) / (ta - tz + h)
        if hi < n - 1:
            tz, yz = rows[hi + 1]
            mb = ((tz - tb) * s0 + h * (yz - yb) / (tz - tb)) / (tz - tb + h)
        r2, r3 = r * r, r * r * r
        val = (2*r3 - 3*r2 + 1) * ya + (r3 - 2*r2 + r) * h * ma + (-2*r3 + 3*r2) * yb + (r3 - r2) * h * mb
        vel = ((6*r2 - 6*r) * ya + (3*r2 - 4*r + 1) * h * ma + (-6*r2 + 6*r) * yb + (3*r2 - 2*r) * h * mb) / h
        acc = ((12*r - 6) * ya + (6*r - 4) * h * ma + (-12*r + 6) * yb + (6*r - 2) * h * mb) / (h * h)
        return val, vel, acc
    return f


def drag_moment(a, b, cdn):
    """-1/2 rho d C_dn int_0^L |a + b s| (a + b s) s ds, in closed form on each side of a sign change"""
    def P(s):
        return a * a * s * s / 2 + 2 * a * b * s**3 / 3 + b * b * s**4 / 4
    pts = [0.0] + ([-a / b] if b != 0 and 0 < -a / b < L else []) + [L]
    tot = 0.0
    for s1, s2 in zip(pts[:-1], pts[1:]):
        tot += (1.0 if a + b * (s1 + s2) / 2 >= 0 else -1.0) * (P(s2) - P(s1))
    return -0.5 * rho * d * cdn * tot


def swing(u, duration, cdn, drot, dt=2e-4, out=0.02):
    def rhs(t, th, om):
        _, ud, udd = u(t)
        q = -(w * L * L / 2) * math.sin(th) - (mu * L * L / 2) * udd * math.cos(th)
        return om, (q + drag_moment(ud * math.cos(th), om, cdn) - drot * L * om) / I
    t, th, om, res = 0.0, 0.0, 0.0, []
    every = int(round(out / dt))
    for k in range(int(round(duration / dt)) + 1):
        if k % every == 0:
            res.append((k * dt, u(k * dt)[0] + L * math.sin(th), 0.5 * I * om * om,
                        0.5 * I * om * om + w * L * L / 2 * (1 - math.cos(th))))
        k1 = rhs(t, th, om)
        k2 = rhs(t + dt / 2, th + dt / 2 * k1[0], om + dt / 2 * k1[1])
        k3 = rhs(t + dt / 2, th + dt / 2 * k2[0], om + dt / 2 * k2[1])
        k4 = rhs(t + dt, th + dt * k3[0], om + dt * k3[1])
        th += dt / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0])
        om += dt / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])
        t = (k + 1) * dt
    return res


def period(ts, xs):
    m = sum(xs) / len(xs)
    v = [x - m for x in xs]
    c = [ts[i - 1] + (ts[i] - ts[i - 1]) * (-v[i - 1]) / (v[i] - v[i - 1])
         for i in range(1, len(v)) if v[i - 1] < 0 <= v[i]]
    return (c[-1] - c[0]) / (len(c) - 1)


n = 40
h = tau / n
rows = []
for i in range(n + 3):
    t = i * h
    r = (t - h) / tau
    x = D * math.sin(math.pi * r) ** 2 if 0 < r < 1 else 0.0
    rows.append((t, x if abs(x) > 1e-13 else 0.0))
assert rows[-1][0] < T_FREE
with open(os.path.join(here, "pulse.csv"), "w") as f:
    f.write("# pin pulse: x = D sin^2(pi (t - h)/tau), D = %g m, tau = T/2 = %.9g s, h = tau/40\n"
            "# (make_reference.py)\nt,x,y,z\n" % (D, tau))
    for t, x in rows:
        f.write("%.15g,%.15g,0,0\n" % (t, x))
u = hermite(rows)

results = {}
for name, cdn, drot, end in (("undamped", 0.0, 0.0, END_UNDAMPED), ("damped", 1.2, 5.0, END_DAMPED)):
    res = swing(u, end, cdn, drot)
    free = [r for r in res if r[0] >= T_FREE - 1e-9]
    results[name] = (free, res)
    with open(os.path.join(here, "rigid_%s.csv" % name), "w") as f:
        f.write("# rigid pendulum (make_reference.py), %s: C_dn = %g, D5 = %g N s; the free end's x, the\n"
                "# kinetic energy and the energy E = 1/2 I theta'^2 + w L^2/2 (1 - cos theta)\n"
                "t_s,x_m,kinetic_J,energy_J\n" % (name, cdn, drot))
        for r in res:
            f.write("%.6f,%.12g,%.12g,%.12g\n" % r)
free_u = results["undamped"][0]
free_d = results["damped"][0]
E_swing = max(r[2] for r in free_u)
T_swing = period([r[0] for r in free_u], [r[1] for r in free_u])
E_lost = free_d[-1][3] - free_d[0][3]
with open(os.path.join(here, "reference.csv"), "w") as f:
    f.write("# the rigid pendulum of make_reference.py (the free swing, t >= %g s)\nname,value,unit\n" % T_FREE)
    f.write("swing_energy,%.9g,J\n" % E_swing)
    f.write("swing_period,%.9g,s\n" % T_swing)
    f.write("small_swing_period,%.9g,s\n" % T_small)
    f.write("energy_change_damped,%.9g,J\n" % E_lost)
print("I = %.6g kg m^2, w = %.6g N/m, small-swing period %.6f s, pulse tau = %.6f s" % (I, w, T_small, tau))
print("undamped: swing energy %.6f J (drift of the RK4 energy %.2e J), period %.6f s" %
      (E_swing, max(abs(r[3] - free_u[0][3]) for r in free_u), T_swing))
print("damped: energy at t = %g s %.6f J, at %g s %.6f J, change %.6f J" %
      (T_FREE, free_d[0][3], END_DAMPED, free_d[-1][3], E_lost))
