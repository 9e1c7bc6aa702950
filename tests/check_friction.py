#!/usr/bin/env python3
"""Seabed friction in statics against closed forms (issue 17, item 2; models/friction.c).

The 30-inch pipe of Tables 5.1-5.2 laid straight (or on an arc) on a flat seabed 100 m deep,
eq. 5.38's contact (the normal force per length N = w = 1234.11 N/m at rest), with Coulomb
friction in its elastic-slip form: mu_a = 0.5, mu_l = 0.8, mobilisation delta_a = 5 mm,
delta_l = 0.1 d_o = 76.2 mm. The as-laid state (the anchors) is a start shape written here
(static.csv, --start-from).

1. Axial pull P at the free top end of a 200 m pipe (bottom end held against torsion only):
   - P = 0.5 and 0.99 of mu_a w L: holds; the end's displacement against the boundary-value
     problem EA u'' = mu_a w tanh(u / delta_a), u'(0) = 0, EA u'(L) = P (shooting with RK4
     here, 20000 steps), within 2 % (the law's saturated spring, the pipe's own stretch
     included);
   - P = 1.01 of mu_a w L: no equilibrium, exit status 3 (not converged) and the message "slides on the
     seabed" with the axial capacity mu_a N L = 123.4 kN within 0.1 %.
2. Lateral breakout under a uniform current across the pipe (drag q = rho C_d D U^2 / 2 per
   metre): q = 0.5 and 0.99 of mu_l w: holds, the pipe moves sideways as a rigid body by the
   law's lateral slip at the utilisation r = q / (mu_l w), delta_l ((1 - eps) r + eps atanh(r)),
   eps = mu_a delta_a / (mu_l delta_l) = 0.041 (models/friction.c: the lateral axis is the one
   with the larger mu delta, nearly elastic-perfectly plastic; the closed form), within 1 %, and
   summary.json's friction_mobilised
   is q / (mu_l w) within 2e-3; q = 1.01 mu_l w: slides (the message).
4. In time (the anchors as states of the integration, solver/line_dynamics.c):
   - the top end drawn along the pipe at 0.1 m/s for 20 s: while it slides, the top
     element's tension is the friction of the pipe below its middle at the law's sliding
     level, mu_a w (L - L_e/2) tanh(4), within 0.1 %, and the middle follows the end's 2 m;
   - a current across the pipe ramped in to 1.5 mu_l w: the pipe slides at the velocity where
     the drag of the relative flow balances the friction, U - sqrt(mu_l w tanh(4) /
     (rho C_d D / 2)), within 1 %; ramped to 0.8 mu_l w: it settles at the statics'
     delta_l ((1 - eps) 0.8 + eps atanh(0.8)) within 1 %.

5. The axial pull (statics) and the drawn end (in time) written as models of lines: on the
   system core's paths (per-line statics, the whole system's Newton with the anchors held,
   the system's run driver): the tension equal to the one-line runs' within 1e-8.

Not here: the curved-lay criterion (R > T_b / (mu_l w)). It needs the laid pipe to carry its
tension from the moment it is anchored, as it does in a lay; a static model that anchors an
unstressed arc and then pulls its ends mobilises the axial friction everywhere (the arc must
stretch and shorten), which uses up the friction ellipse and lets the ends slide at any
radius. It belongs with the dynamic lay (docs/design-laying.md, step 2).

usage: check_friction.py PIPELAY WORKDIR
"""
import csv, json, math, os, subprocess, sys

RHO, G = 1025.0, 9.80665
D, M, EA = 0.762, 593.2818, 1.5569e10
W = (M - RHO * math.pi * D * D / 4.0) * G
MUA, MUL, DA, DL = 0.5, 0.8, 0.005, 0.1 * D
EPS = MUA * DA / (MUL * DL)  # the lateral law's eps (models/friction.c)


def lateral_slip(r):
    """The law's lateral slip at the utilisation r (models/friction.c; mu_l delta_l > mu_a delta_a)."""
    return DL * ((1.0 - EPS) * r + EPS * math.atanh(r))

DEPTH = 100.0
ZREST = -DEPTH + D / 2.0 - D / 8.0  # centreline at rest (eq 5.38 carries w at d_o/8)

SECTION = """      outer_diameter: 0.762
      EA: 1.5569e10
      GA: 9.0330e9
      GJ: 7.9720e8
      mass_per_length: 593.2818
"""

def model(path, name, length, nel, friction, bottom, top, extra="", EI=1.0364e9):
    with open(path, "w") as f:
        f.write("""name: %s
environment: {water_depth: %g, water_density: %g, gravity: %g}
line:
  length: %g
  sections:
    - hydrodynamics: {drag_normal: 1.0}
%s      EI: %g
seabed:
  model: nonlinear
  friction: %s
mesh: {elements: %d}
ends:
  bottom: %s
  top: %s
%s""" % (name, DEPTH, RHO, G, length, SECTION, EI, friction, nel, bottom, top, extra))

def shape(dirname, pts):
    """A start shape (the as-laid state): static.csv with S, x, y, z and the section axes."""
    os.makedirs(dirname, exist_ok=True)
    with open(os.path.join(dirname, "static.csv"), "w") as f:
        f.write("S_m,x_m,y_m,z_m,t2_x,t2_y,t2_z,t3_x,t3_y,t3_z\n")
        for S, x, y, z, tx, ty in pts:
            # t1 = (tx, ty, 0), t3 = e_z, t2 = t3 x t1
            f.write("%.12g,%.12g,%.12g,%.12g,%.12g,%.12g,0,0,0,1\n" % (S, x, y, z, -ty, tx))

def run(pipelay, yaml, out, start):
    return subprocess.run([pipelay, "run", yaml, "--output", out, "--start-from", start, "--quiet", "--no-plots"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

def nodes(out):
    return list(csv.DictReader(open(os.path.join(out, "static.csv"))))

def axial_reference(P, L):
    """EA u'' = mu_a w tanh(u/delta_a), u'(0) = 0, EA u'(L) = P: u(L) by shooting on u(0)."""
    k = MUA * W / EA

    def end(u0, n=20000):
        h, u, v = L / n, u0, 0.0
        for _ in range(n):
            f = lambda uu: k * math.tanh(uu / DA)
            k1u, k1v = v, f(u)
            k2u, k2v = v + 0.5 * h * k1v, f(u + 0.5 * h * k1u)
            k3u, k3v = v + 0.5 * h * k2v, f(u + 0.5 * h * k2u)
            k4u, k4v = v + h * k3v, f(u + h * k3u)
            u += h * (k1u + 2 * k2u + 2 * k3u + k4u) / 6.0
            v += h * (k1v + 2 * k2v + 2 * k3v + k4v) / 6.0
        return u, v
    lo, hi = 0.0, 50.0 * DA
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        if EA * end(mid)[1] < P:
            lo = mid
        else:
            hi = mid
    return end(0.5 * (lo + hi))[0]

def main():
    pipelay, work = sys.argv[1:3]
    fails = 0

    def check(ok, what):
        nonlocal fails
        fails += not ok
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    # ---- 1. axial
    L, nel = 200.0, 100
    laid = os.path.join(work, "friction_laid_straight")
    shape(laid, [(L * i / nel, L * i / nel, 0.0, ZREST, 1.0, 0.0) for i in range(nel + 1)])
    cap = MUA * W * L
    fric = "{axial: %g, lateral: %g}" % (MUA, MUL)
    for frac in (0.5, 0.99, 1.01):
        P = frac * cap
        y = os.path.join(work, "friction_axial_%g.yaml" % frac)
        out = os.path.join(work, "friction_axial_%g" % frac)
        model(y, "axial pull %g of the capacity" % frac, L, nel, fric,
              "{position: [0, 0, %.12g], fixed: [rx]}" % ZREST,
              "{position: [%g, 0, %.12g], force: [%.12g, 0, 0]}" % (L, ZREST, P))
        p = run(pipelay, y, out, laid)
        if frac < 1.0:
            if p.returncode:
                check(False, "axial pull %.2f of mu_a w L: exit %d %s" % (frac, p.returncode, p.stderr[-500:]))
                continue
            n = nodes(out)
            uL = float(n[-1]["x_m"]) - L
            ref = axial_reference(P, L)
            check(abs(uL / ref - 1.0) <= 0.02, "axial pull %.2f of mu_a w L = %.1f kN holds: end moves %.3f mm, "
                  "boundary-value problem %.3f mm (2 %%)" % (frac, P / 1e3, uL * 1e3, ref * 1e3))
        else:
            import re
            m = re.search(r"mu_a N L = ([0-9.eE+-]+) N", p.stderr)
            got = float(m.group(1)) if m else float("nan")
            check(p.returncode == 3 and "slides on the seabed" in p.stderr and abs(got / cap - 1.0) <= 1e-3,
                  "axial pull 1.01 of mu_a w L: exit %d, slides, capacity reported %.1f N against mu_a w L = %.1f N "
                  "(0.1 %%)" % (p.returncode, got, cap))

    # ---- 2. lateral breakout under a current
    capl = MUL * W
    for frac in (0.5, 0.99, 1.01):
        U = math.sqrt(frac * capl / (0.5 * RHO * 1.0 * D))
        y = os.path.join(work, "friction_lateral_%g.yaml" % frac)
        out = os.path.join(work, "friction_lateral_%g" % frac)
        model(y, "lateral current %g of the capacity" % frac, L, nel, fric,
              "{position: [0, 0, %.12g], fixed: [rx]}" % ZREST, "{position: [%g, 0, %.12g]}" % (L, ZREST),
              "current: {profile: uniform, speed: %.12g, direction: 90}\n" % U)
        p = run(pipelay, y, out, laid)
        if frac < 1.0:
            if p.returncode:
                check(False, "lateral load %.2f of mu_l w: exit %d %s" % (frac, p.returncode, p.stderr[-500:]))
                continue
            n = nodes(out)
            ymid = float(n[nel // 2]["y_m"])
            ref = lateral_slip(frac)
            check(abs(ymid / ref - 1.0) <= 0.01, "lateral load %.2f of mu_l w holds: moves %.4f m sideways, "
                  "delta_l ((1 - eps) r + eps atanh(r)), r = q / mu_l w: %.4f m (1 %%)" % (frac, ymid, ref))
            mob = json.load(open(os.path.join(out, "summary.json"))).get("friction_mobilised", float("nan"))
            check(abs(mob - frac) <= 2e-3, "summary.json friction_mobilised %.4f against q / (mu_l w) = %.2f (2e-3)"
                  % (mob, frac))
        else:
            check(p.returncode == 3 and "slides on the seabed" in p.stderr,
                  "lateral load 1.01 of mu_l w: exit %d, slides" % p.returncode)

    # ---- 4. in time: the anchors as states (solver/line_dynamics.c, DynFriction)
    dyn = "analysis:\n  type: dynamic\n  dynamic: {duration: %g, output_interval: 0.5}\noutput:\n  points:\n    - {name: mid, arc_length: 100}\n"
    # 4a. the top end drawn along the pipe at 0.1 m/s (from t = 2 s to 22 s): the pipe slides,
    # held back by its full axial friction, mu_a w L tanh(4) (the law's sliding force)
    pull = os.path.join(work, "friction_pull.csv")
    with open(pull, "w") as f:
        f.write("t,x,y,z\n")
        for t in range(0, 31):
            f.write("%d,%.6f,0,0\n" % (t, 0.1 * min(max(t - 2, 0), 20)))
    y = os.path.join(work, "friction_pull.yaml")
    out = os.path.join(work, "friction_pull")
    model(y, "axial slide in time", L, nel, fric, "{position: [0, 0, %.12g], fixed: [rx]}" % ZREST,
          "{position: [%g, 0, %.12g], motion: {type: timeseries, file: %s, interpolation: cubic}}" % (L, ZREST, pull),
          dyn % 30.0)
    p = run(pipelay, y, out, laid)
    if p.returncode:
        check(False, "axial slide in time: exit %d %s" % (p.returncode, p.stderr[-600:]))
    else:
        top = list(csv.DictReader(open(os.path.join(out, "timeseries_top.csv"))))
        Tsl = [float(r["effective_tension_N"]) for r in top if 8.0 <= float(r["t_s"]) <= 20.0]
        mean = sum(Tsl) / len(Tsl)
        # the top element's tension (at its middle) carries the friction of all but half of it
        ref = cap * math.tanh(4.0) * (1.0 - 0.5 / nel)
        check(abs(mean / ref - 1.0) <= 1e-3 and max(Tsl) - min(Tsl) <= 1e-3 * ref,
              "axial slide in time: the top element's tension while sliding %.1f N (spread %.1f N) against "
              "mu_a w (L - L_e/2) tanh(4) = %.1f N (0.1 %%)" % (mean, max(Tsl) - min(Tsl), ref))
        mid = list(csv.DictReader(open(os.path.join(out, "timeseries_mid.csv"))))
        moved = float(mid[-1]["x_m"]) - 100.0
        check(abs(moved - 2.0) <= 0.05, "the pipe's middle slid %.3f m with its end's 2 m (5 cm: the slips)" % moved)
    # 4b. a current across the pipe ramped in from t = 1 s over 4 s: at 1.5 mu_l w the pipe
    # slides at the velocity where the drag of the relative flow equals the friction,
    # v = U - sqrt(mu_l w tanh(4) / (rho C_d D / 2)); at 0.8 mu_l w it settles at the statics'
    # lateral slip at r = 0.8, delta_l ((1 - eps) 0.8 + eps atanh(0.8))
    for frac, dur in ((1.5, 20.0), (0.8, 40.0)):
        U = math.sqrt(frac * capl / (0.5 * RHO * 1.0 * D))
        y = os.path.join(work, "friction_current_%g.yaml" % frac)
        out = os.path.join(work, "friction_current_%g" % frac)
        model(y, "lateral current in time %g" % frac, L, nel, fric, "{position: [0, 0, %.12g], fixed: [rx]}" % ZREST,
              "{position: [%g, 0, %.12g]}" % (L, ZREST),
              "current: {profile: uniform, speed: %.12g, direction: 90, start_time: 1, ramp_time: 4}\n" % U
              + dyn % dur)
        p = run(pipelay, y, out, laid)
        if p.returncode:
            check(False, "lateral current %.1f mu_l w in time: exit %d %s" % (frac, p.returncode, p.stderr[-600:]))
            continue
        mid = list(csv.DictReader(open(os.path.join(out, "timeseries_mid.csv"))))
        if frac > 1.0:
            a = [r for r in mid if abs(float(r["t_s"]) - 12.0) < 1e-9][0]
            b = mid[-1]
            v = (float(b["y_m"]) - float(a["y_m"])) / (float(b["t_s"]) - float(a["t_s"]))
            ref = U - math.sqrt(capl * math.tanh(4.0) / (0.5 * RHO * 1.0 * D))
            check(abs(v / ref - 1.0) <= 0.01, "lateral current 1.5 mu_l w in time: slides at %.4f m/s against the "
                  "drag-friction balance %.4f m/s (1 %%)" % (v, ref))
        else:
            yf = float(mid[-1]["y_m"])
            ref = lateral_slip(frac)
            check(abs(yf / ref - 1.0) <= 0.01, "lateral current 0.8 mu_l w in time: holds at %.4f m against "
                  "delta_l ((1 - eps) 0.8 + eps atanh(0.8)) = %.4f m (1 %%)" % (yf, ref))
    # ---- 5. the same on the system core's path for models of lines: (scripts/one_line_as_lines.py)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
    from one_line_as_lines import as_lines
    for tag, csvname in (("friction_axial_0.99", "static.csv"), ("friction_pull", "timeseries_top.csv")):
        src = os.path.join(work, tag + ".yaml")
        lm = os.path.join(work, tag + "_lines.yaml")
        as_lines(src, lm)
        out1, out2 = os.path.join(work, tag), os.path.join(work, tag + "_lines")
        p = run(pipelay, lm, out2, laid)
        if p.returncode:
            check(False, "%s as a model of lines: exit %d %s" % (tag, p.returncode, p.stderr[-400:]))
            continue
        a = list(csv.DictReader(open(os.path.join(out1, csvname))))
        b = list(csv.DictReader(open(os.path.join(out2, "line_pipe", csvname))))
        worst = max(abs(float(x["effective_tension_N"]) - float(y["effective_tension_N"])) for x, y in zip(a, b))
        scale = max(abs(float(x["effective_tension_N"])) for x in a)
        check(len(a) == len(b) and worst <= 1e-8 * scale, "%s as a model of lines (the system core's statics and run): "
              "%s's tension within %.2e of the one-line run's (1e-8)" % (tag, csvname, worst / scale))
    print("%d failed" % fails)
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
