#!/usr/bin/env python3
"""Pay-out and pay-in at a fixed hang-off (issue 17, item 1; docs/design-laying.md section 3:
the variable-length top element, split and merged).

The 30-inch J-lay of examples/jlay_900m.yaml (900 m of water, 1500 m of pipe on 99
elements of 15.15 m, drag C_dn = 1) with its top held at the static hang-off point
(972.0567 m, 0, 0). In time the tensioner pays pipe out at 0.05 m/s (from t = 10 s, a 20 s
C^2 ramp, 460 s: 22 m, one split) or in at 0.025 m/s (310 s: 7.25 m): slow enough for the
line to pass through the static configuration of each length. Checked at five times each
against static solves of the line with that length (line.length = 1500 + s(t), the same
hang-off point, 99 elements):
- the top end's load (the hang-off's reaction, |top_load|) against the static top tension,
  and the bottom end's tension, within 0.5 % (the issue's tolerance; measured within 0.05 %
  and 0.2 %), while they change by 3 % and 13 % over the pay-out: a wrong top-element
  length, mass or weight is seen;
- touchdown.csv: the touchdown point within a quarter element (3.8 m) of the
  static one, which moves 52 m over the pay-out, and the layback within 0.5 %;
- summary.json's paid_out_m equals s(T) (1e-9 m) and line_length_m = 1500 + s(T);
- energy: without drag, energy.csv's balance (total - total(0) - the pay-out's work, the
  tensioner's -T s' and what the paid-out pipe carries in) closes within 1e-3 of that work,
  across the split (measured 6.5e-5 of 33 MJ; the seabed springs' energy, outside the total,
  is ~1e-4 of it);
- long pay-out (0.05 m/s, 69 m: four splits, 104 nodes) and pay-in (0.05 m/s, 29 m: two
  merges, 98 nodes): the number of splits and merges the bounds predict (the top element
  is split past 2 l_ref, merged under l_ref / 2), the top load and bottom tension against
  static solves at three and two times (0.5 %), and no impulse at a remesh: the top load's
  second difference over the 1 s outputs at each within 5e-3 of the load (measured 0.7 kN
  and 6.7 kN against 1.4 MN; the naive split, the new node on the old element's chord,
  put 2.5 MN out of balance on it);
- tension control: the hang-off drifts 10 m away over 20 minutes; the tensioner (sampled
  every 1 s, gain 1e-6 m/s/N, lag 10 s, its load cell filtered over 20 s) pays out to hold
  the set tension on a line of 165 elements of 9.09 m, whose top element is split once as
  it does: its paid-out length and the tension follow the quasi-static closed loop (the same
  sampled, filtered controller on T - T_set = K_x x - K_s s, with K_x and K_s from static
  solves) within 2 % and 5 % of their peaks, the tension stays within 0.35 of the
  uncontrolled rise K_x x, and the rate is positive (paying out) while the hang-off moves
  away. Under a slow surge oscillation of the hang-off (5 m, 1800 s period) the same controller
  follows the quasi-static closed loop (paid-out length, tension and rate within 3 %, 5 % and
  5 % of their peaks: the rate's sign and lag) and holds the tension within the closed loop's
  band (5 %), 84 % of the uncontrolled K_x a (the loop's time constant 1/(k K_s), 374 s, is
  a fifth of the period).

usage: check_payout.py PIPELAY WORKDIR
"""
import csv, json, math, os, subprocess, sys

MODEL = """name: lowering by pay-out at a fixed hang-off
environment: {water_depth: 900, water_density: 1025, gravity: 9.80665}
line:
  length: %.9f
  sections:
    - outer_diameter: 0.762
      wall_thickness: 0.033
      material: {youngs_modulus: 206e9, shear_modulus: 7.9231e10, density: 7850}
      hydrodynamics: {drag_normal: 1.0}
seabed: {model: nonlinear}
mesh: {elements: 99}
ends:
  bottom: {position: [0, 0, -899.71425], orientation: [0, 0, 0], fixed: all}
  top:
    position: [972.0567065, 0, 0]
    fixed: [x, y, z]
%s"""

def s_of(t, rate, t0=10.0, T=20.0):
    if t <= t0:
        return 0.0
    tau = t - t0
    if tau < T:
        r = tau / T
        return rate * T * (2.5 * r ** 4 - 3 * r ** 5 + r ** 6)
    return rate * (0.5 * T + tau - T)

def run(pipelay, path, out):
    return subprocess.run([pipelay, "run", path, "--output", out, "--quiet", "--no-plots"],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

def main():
    pipelay, work = sys.argv[1:3]
    fails = 0

    def check(ok, what):
        nonlocal fails
        fails += not ok
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    for name, rate, T, times in (("out", 0.05, 460.0, (60, 150, 250, 350, 460)),
                                 ("in", -0.025, 310.0, (60, 120, 180, 250, 310))):
        dyn = os.path.join(work, "payout_%s.yaml" % name)
        with open(dyn, "w") as f:
            f.write(MODEL % (1500.0, "    payout: {rate: %g, start_time: 10, ramp_time: 20}\nanalysis:\n  type: "
                             "dynamic\n  dynamic: {duration: %g, output_interval: 1}\n" % (rate, T)))
        out = os.path.join(work, "payout_%s" % name)
        p = run(pipelay, dyn, out)
        if p.returncode:
            check(False, "pay-%s run: exit %d %s" % (name, p.returncode, p.stderr[-500:]))
            continue
        top = {round(float(r["t_s"]), 6): r for r in csv.DictReader(open(os.path.join(out, "timeseries_top.csv")))}
        tdp = {round(float(r["t_s"]), 6): r for r in csv.DictReader(open(os.path.join(out, "touchdown.csv")))}
        bot = {round(float(r["t_s"]), 6): r for r in csv.DictReader(open(os.path.join(out, "timeseries_bottom.csv")))}
        first_top = first_bot = None
        for tk in times:
            s = s_of(tk, rate)
            st = os.path.join(work, "payout_%s_static_%d" % (name, tk))
            sy = st + ".yaml"
            with open(sy, "w") as f:
                f.write(MODEL % (1500.0 + s, ""))
            q = run(pipelay, sy, st)
            if q.returncode:
                check(False, "static solve at L = %.3f m: exit %d" % (1500 + s, q.returncode))
                continue
            Ts = json.load(open(os.path.join(st, "summary.json")))["top_tension_N"]
            Tbs = float(list(csv.DictReader(open(os.path.join(st, "static.csv"))))[0]["effective_tension_N"])
            r, rb = top[float(tk)], bot[float(tk)]
            Td = math.sqrt(sum(float(r["top_load_%s_N" % c]) ** 2 for c in "xyz"))
            Tbd = float(rb["effective_tension_N"])
            first_top = first_top or Ts
            first_bot = first_bot or Tbs
            sm_st = json.load(open(os.path.join(st, "summary.json")))
            Sd, Ld = float(tdp[float(tk)]["touchdown_arc_length_m"]), float(tdp[float(tk)]["layback_m"])
            check(abs(Sd - sm_st["touchdown_arc_length_m"]) <= 0.25 * 1500.0 / 99 and
                  abs(Ld / sm_st["layback_m"] - 1) <= 5e-3,
                  "pay-%s, t = %d s: touchdown at S = %.2f m against the static %.2f m (a quarter element), layback "
                  "%.2f m against %.2f m (0.5 %%)" % (name, tk, Sd, sm_st["touchdown_arc_length_m"], Ld,
                                                     sm_st["layback_m"]))
            check(abs(Td / Ts - 1) <= 5e-3 and abs(Tbd / Tbs - 1) <= 5e-3,
                  "pay-%s, t = %d s, paid %+.3f m: top load %.1f kN against the static %.1f kN (%+.2e), bottom "
                  "tension %.1f kN against %.1f kN (%+.2e) (0.5 %%)" % (name, tk, s, Td / 1e3, Ts / 1e3, Td / Ts - 1,
                                                                      Tbd / 1e3, Tbs / 1e3, Tbd / Tbs - 1))
        print("     over the pay-%s the static top tension changes by %+.1f %%, the bottom's by %+.1f %%"
              % (name, 100 * (Ts / first_top - 1), 100 * (Tbs / first_bot - 1)))
        sm = json.load(open(os.path.join(out, "summary.json")))
        sT = s_of(T, rate)
        check(abs(sm.get("paid_out_m", float("nan")) - sT) <= 1e-9 and abs(sm.get("line_length_m", 0) - 1500 - sT) <= 1e-9,
              "summary paid_out_m %.6f m, line_length_m %.6f m against s(T) = %.6f m" % (
                  sm.get("paid_out_m", float("nan")), sm.get("line_length_m", float("nan")), sT))

    # the energy balance with pay-out: without drag the line's energy changes by the work the
    # pay-out brings in (the tensioner's -T s' and what the paid-out pipe carries)
    dyn = os.path.join(work, "payout_energy.yaml")
    with open(dyn, "w") as f:
        f.write((MODEL % (1500.0, "    payout: {rate: 0.05, start_time: 10, ramp_time: 20}\nanalysis:\n  type: "
                          "dynamic\n  dynamic: {duration: 460, output_interval: 1}\n"))
                .replace("drag_normal: 1.0", "drag_normal: 0.0"))
    out = os.path.join(work, "payout_energy")
    p = run(pipelay, dyn, out)
    if p.returncode:
        check(False, "pay-out energy run: exit %d %s" % (p.returncode, p.stderr[-400:]))
    else:
        rows = list(csv.DictReader(open(os.path.join(out, "energy.csv"))))
        W = float(rows[-1]["work_payout_J"])
        worst = max(abs(float(r["balance_J"])) for r in rows)
        check(abs(W) > 1e7 and worst <= 1e-3 * abs(W),
              "energy with pay-out (no drag): the balance total - total(0) - work closes to %.0f J of the %.4g J the "
              "pay-out brought in (%.1e; 1e-3)" % (worst, W, worst / abs(W)))
    # ... to the integration's tolerance: the pay-out's power is the rate times dE/dl, whose
    # strain part is the top element's tension, known to EA times the position tolerance over
    # the element (atol_strain); with the position tolerances ten times tighter the balance of
    # the ramp (the first 60 s) drops more than tenfold
    bal = []
    for tight in (False, True):
        name = "payout_energy_%s" % ("tight" if tight else "default")
        dyn = os.path.join(work, name + ".yaml")
        with open(dyn, "w") as f:
            f.write((MODEL % (1500.0, "    payout: {rate: 0.05, start_time: 10, ramp_time: 20}\nanalysis:\n  type: "
                              "dynamic\n  dynamic: {duration: 60, output_interval: 1%s}\n"
                              % (", rtol: 1.0e-6, atol_position: 1.0e-6, atol_strain: 5.0e-8" if tight else "")))
                    .replace("drag_normal: 1.0", "drag_normal: 0.0"))
        p = run(pipelay, dyn, os.path.join(work, name))
        if p.returncode:
            check(False, "%s run: exit %d %s" % (name, p.returncode, p.stderr[-400:]))
            continue
        rows = list(csv.DictReader(open(os.path.join(work, name, "energy.csv"))))
        bal.append((max(abs(float(r["balance_J"])) for r in rows), abs(float(rows[-1]["work_payout_J"]))))
    if len(bal) == 2:
        check(bal[1][0] <= 0.1 * bal[0][0] and bal[1][0] <= 1e-5 * bal[1][1],
              "the pay-out's energy balance closes to the integration's tolerance: %.0f J of %.4g J over the ramp at "
              "the default tolerances, %.1f J with the position tolerances ten times tighter (a tenth, and 1e-5 of "
              "the work)" % (bal[0][0], bal[0][1], bal[1][0]))

    # long pay-out and pay-in: the top element is split as it grows past 2 l_ref (a node
    # inserted l_ref above the last material node) and merged into the one below under
    # l_ref / 2: the line passes through the static configurations of each length, with the
    # node count of the splits and merges, and without an impulse at each remesh (the top
    # load's jump across it, less its trend, against the load)
    l0 = 1500.0 / 99
    for name, rate, T, times, nodes in (("lower", 0.05, 1400.0, (400, 900, 1400), 104),
                                        ("raise", -0.05, 600.0, (300, 600), 98)):
        dyn = os.path.join(work, "payout_%s.yaml" % name)
        with open(dyn, "w") as f:
            f.write(MODEL % (1500.0, "    payout: {rate: %g, start_time: 10, ramp_time: 20}\nanalysis:\n  type: "
                             "dynamic\n  dynamic: {duration: %g, output_interval: 1}\n" % (rate, T)))
        out = os.path.join(work, "payout_%s" % name)
        p = run(pipelay, dyn, out)
        if p.returncode:
            check(False, "%s run: exit %d %s" % (name, p.returncode, p.stderr[-500:]))
            continue
        sm = json.load(open(os.path.join(out, "summary.json")))
        sT = s_of(T, rate)
        # splits at s = k l0 (the top element l0 + s reaches 2 l0, 3 l0 ...); merges at
        # s = -l0/2, -3 l0/2, ... (the top element l0 + s + k l0 reaches l0/2)
        expect = int(math.floor(sT / l0)) if rate > 0 else int(math.floor((-sT - 0.5 * l0) / l0)) + 1
        check(sm.get("payout_remeshes") == expect and sm.get("line_nodes") == 100 + (expect if rate > 0 else -expect),
              "%s by %.2f m: %s top elements %s (expected %d), %s nodes (expected %d)"
              % (name, abs(sT), sm.get("payout_remeshes"), "split" if rate > 0 else "merged", expect,
                 sm.get("line_nodes"), nodes))
        top = {round(float(r["t_s"]), 6): r for r in csv.DictReader(open(os.path.join(out, "timeseries_top.csv")))}
        bot = {round(float(r["t_s"]), 6): r for r in csv.DictReader(open(os.path.join(out, "timeseries_bottom.csv")))}
        for tk in times:
            s = s_of(tk, rate)
            st = os.path.join(work, "payout_%s_static_%d" % (name, tk))
            with open(st + ".yaml", "w") as f:
                f.write(MODEL % (1500.0 + s, ""))
            q = run(pipelay, st + ".yaml", st)
            if q.returncode:
                check(False, "static solve at L = %.3f m: exit %d" % (1500 + s, q.returncode))
                continue
            Ts = json.load(open(os.path.join(st, "summary.json")))["top_tension_N"]
            Tbs = float(list(csv.DictReader(open(os.path.join(st, "static.csv"))))[0]["effective_tension_N"])
            Td = math.sqrt(sum(float(top[float(tk)]["top_load_%s_N" % c]) ** 2 for c in "xyz"))
            Tbd = float(bot[float(tk)]["effective_tension_N"])
            check(abs(Td / Ts - 1) <= 5e-3 and abs(Tbd / Tbs - 1) <= 5e-3,
                  "%s, t = %d s, paid %+.3f m: top load %.1f kN against the static %.1f kN (%+.2e), bottom tension "
                  "%.1f kN against %.1f kN (%+.2e) (0.5 %%)" % (name, tk, s, Td / 1e3, Ts / 1e3, Td / Ts - 1,
                                                               Tbd / 1e3, Tbs / 1e3, Tbd / Tbs - 1))
        # the remesh times from the prescribed s(t); the top load's second difference over the
        # outputs around each against its largest away from them (after the ramp)
        load = {}
        for t, r in top.items():
            load[int(round(t))] = math.sqrt(sum(float(r["top_load_%s_N" % c]) ** 2 for c in "xyz"))
        d2 = {t: abs(load[t + 1] - 2 * load[t] + load[t - 1]) for t in range(41, int(T))}
        hits = []
        for k in range(1, expect + 1):
            sk = k * l0 if rate > 0 else -(k - 0.5) * l0
            tk = 10 + 10 + sk / rate  # past the ramp: s = rate (t - 20)
            hits += [int(tk) + j for j in (0, 1)]
        near = max(d2[t] for t in hits if t in d2)
        away = sorted(v for t, v in d2.items() if all(abs(t - h) > 3 for h in hits))
        check(near <= 5e-3 * load[int(T)],
              "%s: the top load's second difference over the outputs at the remeshes %.0f N, within 5e-3 of the "
              "%.0f kN load (elsewhere: median %.0f N, largest %.0f N; the point on the old element's chord instead "
              "of its strain-keeping point put 2.5 MN on the new node)"
              % (name, near, load[int(T)] / 1e3, away[len(away) // 2], away[-1]))
        # the energy across the remeshes: the balance closes with the pay-out's work (its power
        # integrated over the integrator's steps, the jump at each remesh kept out) and remesh_J, the
        # energy the remeshes themselves changed (the new node's interpolated state and its local
        # rebalance), which is small against the energy the pay-out moves: no spurious impulse
        en = list(csv.DictReader(open(os.path.join(out, "energy.csv"))))
        W = abs(float(en[-1]["work_payout_J"]))
        worst = max(abs(float(r["balance_J"])) for r in en)
        rem = float(en[-1]["remesh_J"])
        check(W > 1e7 and worst <= 1e-3 * W and abs(rem) <= 1e-5 * W,
              "%s: the energy balance closes to %.0f J of the %.4g J the pay-out moved (%.1e; 1e-3) across %d "
              "remeshes, which changed the energy by %+.0f J (%.1e of it; 1e-5)"
              % (name, worst, W, worst / W if W else float("nan"), expect, rem, abs(rem) / W if W else float("nan")))
    # tension control: the hang-off drifts 10 m away from the anchor (t = 300 to 1500 s, a cubic
    # time series); the tensioner (set tension the static top tension, gain 1e-6 m/s/N, lag
    # 10 s, sampled every 1 s) pays out to hold it. Reference: the same sampled controller on
    # the quasi-static line, T - T_set = K_x x(t) - K_s s(t), with the line's stiffnesses to
    # the hang-off's position and to its length from static solves here (central differences,
    # 1 m), integrated here with x(t) the run's own hang-off path.
    def static_top(x, L):
        sy = os.path.join(work, "tension_static.yaml")
        with open(sy, "w") as f:
            f.write((MODEL % (L, "")).replace("position: [972.0567065, 0, 0]", "position: [%.9f, 0, 0]" % x))
        q = run(pipelay, sy, os.path.join(work, "tension_static"))
        return json.load(open(os.path.join(work, "tension_static", "summary.json")))["top_tension_N"] if not q.returncode else float("nan")
    X0 = 972.0567065
    Tset = static_top(X0, 1500.0)
    Kx = (static_top(X0 + 1, 1500.0) - static_top(X0 - 1, 1500.0)) / 2.0
    Ks = -(static_top(X0, 1501.0) - static_top(X0, 1499.0)) / 2.0
    drift = os.path.join(work, "tension_drift.csv")
    with open(drift, "w") as f:
        f.write("t,x,y,z\n0,0,0,0\n300,0,0,0\n900,5,0,0\n1500,10,0,0\n4000,10,0,0\n")
    k, R, tau, dtc, tf = 1e-6, 0.5, 10.0, 1.0, 20.0
    cases = (("drift", "    motion: {type: timeseries, file: %s, interpolation: cubic}\n" % drift, 4000.0, 165),
             ("surge", "    motion: {type: harmonic, ramp_time: 600, dofs: {x: {amplitude: 5, period: 1800}}}\n",
              4200.0, 99))
    for name, motion, T, ne in cases:
        dyn = os.path.join(work, "tension_%s.yaml" % name)
        with open(dyn, "w") as f:
            f.write((MODEL % (1500.0, motion + "    payout: {tension: %.9g, gain: %g, max_rate: %g, lag: %g, interval: %g, "
                              "filter: %g}\nanalysis:\n  type: dynamic\n  dynamic: {duration: %g, output_interval: 5}\n"
                              % (Tset, k, R, tau, dtc, tf, T))).replace("elements: 99", "elements: %d" % ne))
        out = os.path.join(work, "tension_%s" % name)
        p = run(pipelay, dyn, out)
        if p.returncode:
            check(False, "tension control run (%s): exit %d %s" % (name, p.returncode, p.stderr[-500:]))
            continue
        top = list(csv.DictReader(open(os.path.join(out, "timeseries_top.csv"))))
        pay = list(csv.DictReader(open(os.path.join(out, "payout.csv"))))
        tt = [float(r["t_s"]) for r in top]
        xx = [float(r["x_m"]) - X0 for r in top]

        def xof(t):
            i = min(int(t / 5.0), len(tt) - 2)
            f = (t - tt[i]) / (tt[i + 1] - tt[i])
            return xx[i] + f * (xx[i + 1] - xx[i])
        s = r = rc = 0.0
        ef = None  # the load cell's low-pass of T - T_set (backward Euler over the sample)
        model = {}
        sub = 20
        h = dtc / sub
        for step in range(int(T / h) + 1):
            t = step * h
            if step % sub == 0:
                err = Kx * xof(t) - Ks * s
                if step % (5 * sub) == 0:
                    model[int(round(t))] = (s, err, r)
                if step > 0:
                    ef = err if ef is None else ef + dtc / (tf + dtc) * (err - ef)
                    rc = R * math.tanh(k * ef / R)
            ex = math.exp(-h / tau)
            s, r = s + rc * h + (r - rc) * tau * (1 - ex), rc + (r - rc) * ex
        es = eT = er = 0.0
        peak_s = max(abs(v[0]) for v in model.values())
        peak_T = max(abs(v[1]) for v in model.values())
        peak_r = max(abs(v[2]) for v in model.values())
        seen_T = 0.0
        drifting = []
        for row in pay:
            t = int(round(float(row["t_s"])))
            ms, mT, mr = model[t]
            e = float(row["top_load_N"]) - Tset
            es, eT, seen_T = max(es, abs(float(row["paid_out_m"]) - ms)), max(eT, abs(e - mT)), max(seen_T, abs(e))
            er = max(er, abs(float(row["rate_m_per_s"]) - mr))
            if 600 <= t <= 1500:
                drifting.append(float(row["rate_m_per_s"]))
        what = "a 10 m drift" if name == "drift" else "a 5 m surge oscillation of 1800 s"
        tol_s = 0.02 if name == "drift" else 0.03  # the oscillating catenary's drag, outside the quasi-static loop
        check(es <= tol_s * peak_s and eT <= 0.05 * peak_T and er <= 0.05 * peak_r,
              "tension control under %s: paid out within %.3f m of the quasi-static closed loop (peak %.2f m; %g %%), "
              "tension within %.0f N of it (peak %.0f N; 5 %%), rate within %.2e m/s (peak %.2e m/s; 5 %%: its sign "
              "and lag); K_x %.0f N/m, K_s %.0f N/m" % (what, es, peak_s, 100 * tol_s, eT, peak_T, er, peak_r, Kx, Ks))
        if name == "drift":
            nsplit = json.load(open(os.path.join(out, "summary.json"))).get("payout_remeshes")
            check(nsplit == 1, "tension control on 165 elements of 9.09 m: the top element split once as it paid "
                  "out past 9.09 m (%s)" % nsplit)
            check(seen_T <= 0.35 * Kx * 10.0 and min(drifting) > 0.0,
                  "the tensioner holds the tension within %.0f N of the set one where the uncontrolled line rises by "
                  "K_x x = %.0f N, paying out (rate %.4f to %.4f m/s) while the hang-off drifts away"
                  % (seen_T, Kx * 10.0, min(drifting), max(drifting)))
        else:
            check(seen_T <= 1.05 * peak_T and peak_T < 0.9 * Kx * 5.0,
                  "under the surge the tension stays within %.0f N of the set one: the closed loop's band %.0f N (5 %%), "
                  "below the uncontrolled K_x a = %.0f N" % (seen_T, peak_T, Kx * 5.0))
    print("%d failed" % fails)
    return 1 if fails else 0

if __name__ == "__main__":
    sys.exit(main())
