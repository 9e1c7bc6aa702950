#!/usr/bin/env python3
"""make_reference.py - reference solutions of the rigid-body cases of section 7 of the Giusti
report (../../../shared/papers/giusti-2016-spatial-rigid-body-lie-group.md), written once
by hand; nothing runs this at build or test time.

  oscillator.csv        Table 4, eqs 44-46: m = 1 kg, omega_n = pi rad/s, nu = 0.3, forced by
                        F = sin(2 omega_n t) N along x, at rest at x = 0: the exact solution x(t),
                        every 0.01 s over 20 s (checked here against its ODE by finite differences).
  oscillator_force.csv  the forcing as the environment-load time series of the model
                        (t,Fx,Fy,Fz,Mx,My,Mz every 1 ms: linear interpolation between the rows
                        changes x by ~2e-7 m, below the 1e-4 m tolerance by a factor 500).
  sphere.csv            Table 2: J = diag(3, 3, 3) kg m^2, body-fixed torque (0, 0, 30) N m,
  axisymmetric.csv      w0 = (10, 15, 20) rad/s; Table 3: J = diag(20, 20, 7), w0 = (1, 2, 3).
                        The path of the body point (0, 0, -0.6) m every 0.01 s over 5 s: Romano's
                        closed-form body angular velocity (Euler's equations, axisymmetric body
                        with an axial torque: w3 = w3(0) + T t/J3, w1 + i w2 = (w1 + i w2)(0)
                        exp(i k Theta), k = (J3 - J1)/J1, Theta = int w3 dt) and the attitude
                        from q' = q (x) (0, w)/2 by classical RK4 (a different method from
                        pipelay's BDF). Convergence is shown: the differences between N, 2N and
                        4N steps fall by 16 (order 4) and the 4N path is written, its error
                        estimated as |x(2N) - x(4N)|/15 (printed; below 1e-9 m).
"""
import math

def osc_exact(t):
    wn, nu, F = math.pi, 0.3, 1.0
    w, K = 2 * wn, wn * wn
    al = w / wn
    xs = F / (K * math.sqrt((1 - al * al) ** 2 + 4 * nu * nu * al * al))
    psi = math.atan2(2 * nu * al, 1 - al * al)
    wd = wn * math.sqrt(1 - nu * nu)
    return xs * math.sin(w * t - psi) - math.exp(-nu * wn * t) * xs * (
        math.sin(-psi) * math.cos(wd * t) + (w * math.cos(-psi) + nu * wn * math.sin(-psi)) / wd * math.sin(wd * t))

def check_osc():
    wn, nu, h, worst = math.pi, 0.3, 1e-4, 0.0
    for k in range(1, 21):
        t = 0.97 * k
        x = osc_exact(t)
        xp = (osc_exact(t + h) - osc_exact(t - h)) / (2 * h)
        xpp = (osc_exact(t + h) - 2 * x + osc_exact(t - h)) / h ** 2
        worst = max(worst, abs(xpp + 2 * nu * wn * xp + wn * wn * x - math.sin(2 * wn * t)))
    print(f"oscillator: exact solution satisfies the ODE to {worst:.2e}; x(0) = {osc_exact(0.0):.1e}")

def omega(p, t):
    J1, J3, T3, w0 = p
    k = (J3 - J1) / J1
    a = k * (w0[2] * t + 0.5 * T3 / J3 * t * t)
    return (w0[0] * math.cos(a) - w0[1] * math.sin(a), w0[0] * math.sin(a) + w0[1] * math.cos(a), w0[2] + T3 / J3 * t)

def qdot(q, w):
    return (-0.5 * (q[1] * w[0] + q[2] * w[1] + q[3] * w[2]), 0.5 * (q[0] * w[0] + q[2] * w[2] - q[3] * w[1]),
            0.5 * (q[0] * w[1] + q[3] * w[0] - q[1] * w[2]), 0.5 * (q[0] * w[2] + q[1] * w[1] - q[2] * w[0]))

def point(q):
    n = math.sqrt(sum(c * c for c in q))
    w, x, y, z = (c / n for c in q)
    # R (0, 0, -0.6): -0.6 times the third column of R(q)
    return (-0.6 * 2 * (x * z + w * y), -0.6 * 2 * (y * z - w * x), -0.6 * (1 - 2 * (x * x + y * y)))

def rk4(p, nsteps):
    q, h, every, out = (1.0, 0.0, 0.0, 0.0), 5.0 / nsteps, nsteps // 500, [point((1.0, 0.0, 0.0, 0.0))]
    for k in range(nsteps):
        t = k * h
        k1 = qdot(q, omega(p, t))
        wm = omega(p, t + 0.5 * h)
        k2 = qdot([q[i] + 0.5 * h * k1[i] for i in range(4)], wm)
        k3 = qdot([q[i] + 0.5 * h * k2[i] for i in range(4)], wm)
        k4 = qdot([q[i] + h * k3[i] for i in range(4)], omega(p, t + h))
        q = tuple(q[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(4))
        if (k + 1) % every == 0:
            out.append(point(q))
    return out

def maxdiff(a, b):
    return max(math.dist(u, v) for u, v in zip(a, b))

def spin(name, p, n0):
    x1, x2, x3 = rk4(p, n0), rk4(p, 2 * n0), rk4(p, 4 * n0)
    d12, d23 = maxdiff(x1, x2), maxdiff(x2, x3)
    print(f"{name}: RK4 |x(N)-x(2N)| = {d12:.3e} m, |x(2N)-x(4N)| = {d23:.3e} m, ratio {d12 / d23:.2f} "
          f"(order {math.log2(d12 / d23):.2f}), estimated error of the 4N path {d23 / 15:.1e} m (N = {n0})")
    with open(f"{name}.csv", "w") as f:
        f.write(f"# Giusti report section 7, {name}: path of the body point (0, 0, -0.6) m; Romano's closed-form\n"
                f"# angular velocity, attitude by RK4 with {4 * n0} steps (make_reference.py; estimated error "
                f"{d23 / 15:.1e} m)\n")
        f.write("t_s,hang_off_x_m,hang_off_y_m,hang_off_z_m\n")
        for k, x in enumerate(x3):
            f.write(f"{0.01 * k:.2f},{x[0]:.17g},{x[1]:.17g},{x[2]:.17g}\n")

check_osc()
with open("oscillator.csv", "w") as f:
    f.write("# Giusti report Table 4, eqs 44-46: exact displacement of the forced damped oscillator "
            "(make_reference.py)\nt_s,x_m\n")
    for k in range(2001):
        f.write(f"{0.01 * k:.2f},{osc_exact(0.01 * k):.17g}\n")
with open("oscillator_force.csv", "w") as f:
    f.write("t,Fx,Fy,Fz,Mx,My,Mz\n")
    for k in range(20001):
        t = 0.001 * k
        F = math.sin(2 * math.pi * t)
        F = 0.0 if abs(F) < 1e-12 else F  # sin(k pi) rounds to ~1e-16; the loader takes 0 or >= 1e-15
        f.write(f"{t:.3f},{F:.17g},0,0,0,0,0\n")
spin("sphere", (3.0, 3.0, 30.0, (10.0, 15.0, 20.0)), 10000)
spin("axisymmetric", (20.0, 7.0, 30.0, (1.0, 2.0, 3.0)), 2500)
