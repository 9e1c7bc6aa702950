#!/usr/bin/env python3
"""make_reference.py - the reference paths of the multibody_joints case, by a method unlike
pipelay's (minimal coordinates or Euler's equations, classical RK4 at a fixed step), run once
by hand: python3 make_reference.py. Writes heavy_top.csv, heavy_top_euler.csv (its Euler
parameters, the unit quaternion body -> global) and double_pendulum_{upper,lower}.csv
(every 0.01 s) and prints the RK4 convergence: the largest difference between the runs at
steps h, h/2 and h/4 must fall by ~16 (order 4), and the last one is the reference's error
estimate.

Heavy top (Saefstroem 2.4.2): body-frame Euler equations about the fixed point,
  I w' = u x (-m g k) - w x I w,  k = R^T e3,  q' = q (x) (0, w)/2,
I = diag(1000, 5000, 6000) kg m^2, u = (0, 0, 1) m, m g = 1 N, w0 = (10, 10, 10) rad/s, q0 = 1;
the centre of gravity R u.

Double pendulum of two rods (length L, masses m1, m2, inertia m L^2/12 about the centre) in
the x-z plane, angles th1, th2 from the downward vertical (x = sin, z = -cos), Lagrange's
equations in the two angles:
  [a11 a12; a12 a22] th'' = [-b sin(th1 - th2) th2'^2 - (m1/2 + m2) g L sin th1;
                              b sin(th1 - th2) th1'^2 - m2 g (L/2) sin th2],
  a11 = m1 L^2/4 + I1 + m2 L^2, a22 = m2 L^2/4 + I2, a12 = b cos(th1 - th2), b = m2 L^2/2;
the centres (L/2)(sin th1, -cos th1) and L (sin th1, -cos th1) + (L/2)(sin th2, -cos th2).

Block on an inclined prismatic joint (slider.yaml): m = 2 kg released at rest on a guide at
30 degrees below the horizontal, the closed form s(t) = g sin(30) t^2/2 along it, the centre at
(s cos 30, 0, -s sin 30), and the guide's constant force m g cos 30 (sin 30, 0, cos 30).

Two bodies welded by a fixed joint (welded.yaml) spinning freely: the one rigid body they make
(4 kg, inertia about the common centre c = (0.25, 0, 0) m diag(1.5, 3.25, 4.25) kg m^2, body axes
= global at the start), torque-free Euler equations I w' = -w x I w and the attitude by RK4 from
w0 = (1, 2, 3) rad/s; body b's origin at c + R (0.75, 0, 0).

Hand values at t = 0 (written as one-row or constant tables):
- heavy top: energy w.I_O w/2 + m g u_z = 600000 + 1 J, constant; the joint's force on the top
  m a_c - W with a_c = w' x u + w x (w x u), I_O w' = -w x I_O w (no gravity moment at q = 1):
  w' = (-100, 100, -66.7), a_c = (100, 100, 0) + (100, 100, -200), so (200, 200, -199) N;
- double pendulum released at rest: th'' from the equations above with th' = 0; the knee's
  force on the lower rod m2 a_2 - W_2, a_2 = L th1'' (cos th1, sin th1) + (L/2) th2'' (cos th2,
  sin th2) (x, z); energy the potential of the start, constant.
"""
import math


def rk4(f, y, h, n, out_every, record):
    rows = [record(0.0, y)]
    for i in range(1, n + 1):
        k1 = f(y)
        k2 = f([a + 0.5 * h * b for a, b in zip(y, k1)])
        k3 = f([a + 0.5 * h * b for a, b in zip(y, k2)])
        k4 = f([a + h * b for a, b in zip(y, k3)])
        y = [a + h / 6.0 * (b + 2 * c + 2 * d + e) for a, b, c, d, e in zip(y, k1, k2, k3, k4)]
        if i % out_every == 0:
            rows.append(record(i * h, y))
    return rows


# ---- heavy top ----
I = (1000.0, 5000.0, 6000.0)
U = (0.0, 0.0, 1.0)
MG = 1.0


def rot(q):
    w, x, y, z = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def top_rate(s):
    q, w = s[:4], s[4:]
    R = rot(q)
    k = (R[2][0], R[2][1], R[2][2])
    m = cross(U, (-MG * k[0], -MG * k[1], -MG * k[2]))
    Iw = (I[0] * w[0], I[1] * w[1], I[2] * w[2])
    g = cross(w, Iw)
    wd = [(m[i] - g[i]) / I[i] for i in range(3)]
    qd = [0.5 * (-q[1] * w[0] - q[2] * w[1] - q[3] * w[2]),
          0.5 * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]),
          0.5 * (q[0] * w[1] + q[3] * w[0] - q[1] * w[2]),
          0.5 * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0])]
    return qd + wd


def top_record(t, s):
    R = rot(s[:4])
    return (t, R[0][2], R[1][2], R[2][2])  # R u with u = e3


def top_euler_record(t, s):
    n = math.sqrt(sum(c * c for c in s[:4]))
    return (t,) + tuple(c / n for c in s[:4])  # the Euler parameters (unit quaternion) q0..q3


# ---- double pendulum ----
L, M1, M2, G = 2.0, 10.0, 5.0, 9.81
I1, I2 = M1 * L * L / 12, M2 * L * L / 12


def dp_rate(s):
    t1, t2, w1, w2 = s
    b = M2 * L * L / 2
    a11, a22, a12 = M1 * L * L / 4 + I1 + M2 * L * L, M2 * L * L / 4 + I2, b * math.cos(t1 - t2)
    r1 = -b * math.sin(t1 - t2) * w2 * w2 - (M1 / 2 + M2) * G * L * math.sin(t1)
    r2 = b * math.sin(t1 - t2) * w1 * w1 - M2 * G * (L / 2) * math.sin(t2)
    det = a11 * a22 - a12 * a12
    return [w1, w2, (a22 * r1 - a12 * r2) / det, (a11 * r2 - a12 * r1) / det]


def dp_record(t, s):
    t1, t2 = s[0], s[1]
    ux, uz = L / 2 * math.sin(t1), -L / 2 * math.cos(t1)
    lx, lz = L * math.sin(t1) + L / 2 * math.sin(t2), -L * math.cos(t1) - L / 2 * math.cos(t2)
    return (t, ux, uz, lx, lz)


def converged(f, y0, T, h, record):
    runs = []
    for level in range(3):
        hh = h / 2 ** level
        n = int(round(T / hh))
        runs.append(rk4(f, list(y0), hh, n, int(round(0.01 / hh)), record))
    d1 = max(abs(a - b) for ra, rb in zip(runs[0], runs[1]) for a, b in zip(ra[1:], rb[1:]))
    d2 = max(abs(a - b) for ra, rb in zip(runs[1], runs[2]) for a, b in zip(ra[1:], rb[1:]))
    return runs[2], d1, d2


def write(name, header, rows):
    with open(name, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join("%.17g" % v for v in r) + "\n")


if __name__ == "__main__":
    rows, d1, d2 = converged(top_rate, [1, 0, 0, 0, 10, 10, 10], 10.0, 1e-3, top_record)
    print("heavy top: |h - h/2| %.3e m, |h/2 - h/4| %.3e m, ratio %.2f" % (d1, d2, d1 / d2))
    write("heavy_top.csv", "t_s,x_m,y_m,z_m", rows)
    rows, d1, d2 = converged(top_rate, [1, 0, 0, 0, 10, 10, 10], 10.0, 1e-3, top_euler_record)
    print("heavy top, Euler parameters: |h - h/2| %.3e, |h/2 - h/4| %.3e, ratio %.2f" % (d1, d2, d1 / d2))
    write("heavy_top_euler.csv", "t_s,q0,q1,q2,q3", rows)
    rows, d1, d2 = converged(dp_rate, [math.radians(60), 0.0, 0.0, 0.0], 5.0, 1e-3, dp_record)
    print("double pendulum: |h - h/2| %.3e m, |h/2 - h/4| %.3e m, ratio %.2f" % (d1, d2, d1 / d2))
    write("double_pendulum_upper.csv", "t_s,x_m,z_m", [(r[0], r[1], r[2]) for r in rows])
    write("double_pendulum_lower.csv", "t_s,x_m,z_m", [(r[0], r[3], r[4]) for r in rows])
    # hand values at t = 0
    write("heavy_top_energy.csv", "t_s,total_J", [(0, 600001), (10, 600001)])
    # (pipelay verify compares at two or more reference rows: the value at t = 0 is repeated
    # 1e-12 s later, where the force has changed by ~1e-8 N)
    write("heavy_top_reaction_t0.csv", "t_s,force_x_N,force_y_N,force_z_N", [(0, 200, 200, -199), (1e-12, 200, 200, -199)])
    t1 = math.radians(60)
    dd1, dd2 = dp_rate([t1, 0.0, 0.0, 0.0])[2:]
    ax = L * dd1 * math.cos(t1) + L / 2 * dd2
    az = L * dd1 * math.sin(t1)
    knee = (M2 * ax, M2 * az + M2 * G)
    write("double_pendulum_knee_t0.csv", "t_s,force_x_N,force_z_N", [(0,) + knee, (1e-12,) + knee])
    e0 = -M1 * G * L / 2 * math.cos(t1) - M2 * G * (L * math.cos(t1) + L / 2)
    write("double_pendulum_energy.csv", "t_s,total_J", [(0, e0), (5, e0)])
    # the welded pair as one rigid body
    I, MG = (1.5, 3.25, 4.25), 0.0

    def welded_record(t, st):
        R = rot(st[:4])
        return (t, 0.25 + 0.75 * R[0][0], 0.75 * R[1][0], 0.75 * R[2][0])
    rows, d1, d2 = converged(top_rate, [1, 0, 0, 0, 1, 2, 3], 5.0, 1e-3, welded_record)
    print("welded pair: |h - h/2| %.3e m, |h/2 - h/4| %.3e m, ratio %.2f" % (d1, d2, d1 / d2))
    write("welded_b.csv", "t_s,x_m,y_m,z_m", rows)
    e_w = 0.5 * (1.5 * 1 + 3.25 * 4 + 4.25 * 9)  # w0 . I_c w0 / 2, constant
    write("welded_energy.csv", "t_s,total_J", [(0, e_w), (5, e_w)])
    # the slider: closed form every 0.01 s over 2 s
    a30 = math.radians(30)
    rows = []
    for k in range(201):
        t = 0.01 * k
        sl = 0.5 * G * math.sin(a30) * t * t
        rows.append((t, sl * math.cos(a30), -sl * math.sin(a30)))
    write("slider.csv", "t_s,x_m,z_m", rows)
    fs = 2.0 * G * math.cos(a30)
    write("slider_force.csv", "t_s,force_x_N,force_z_N",
          [(0, fs * math.sin(a30), fs * math.cos(a30)), (2, fs * math.sin(a30), fs * math.cos(a30))])
    print("double pendulum at t = 0: th'' = %.6f, %.6f rad/s^2; knee force %.6f, %.6f N; energy %.6f J" %
          (dd1, dd2, M2 * ax, M2 * az + M2 * G, e0))
