#!/usr/bin/env python3
"""pipelay decay: natural periods and damping ratios from a free decay (issue 16, item 4).

1. A synthetic decay: a body time series whose pitch is x(t) = 3 + 10 exp(-zeta w_n t)
   cos(w_d t) (deg; zeta = 0.05, damped period T_d = 30 s, sampled every 0.1 s; the other DOFs
   still): the damped cosine's extremes lie exactly T_d/2 apart and swings a period apart fall
   by exp(2 pi zeta / sqrt(1 - zeta^2)), so every cycle's period must be T_d within 1e-5 and its
   damping ratio 0.05 within 1e-4 relative (what is left is the parabolic refinement of the
   extremes between samples); the constant offset 3 deg must not matter; the still DOFs report
   no decay; decay_b.json, decay_b_pitch.csv and the plot are written.
2. The physics: tests/models/damped_oscillator.yaml, a 10 t body on a 100 kN/m spring with a
   linear damper of zeta = 0.05, released 1 m from rest, run by pipelay: the surge decay's
   period equals 2 pi / (w_n sqrt(1 - zeta^2)) = 1.989405 s within 1e-4 and its damping ratio
   0.05 within 1e-3 relative, cycle by cycle.
3. Bad input: a directory without a body's time series, an unknown DOF, --dof for a DOF that
   does not decay (exit 3) each give one message and their exit status.
4. Complete cycles and decays only, on synthetic records of the damped cosine of 1. sampled
   every 0.1 s: the record to 300 s (the reference), cut mid-cycle at 292 s, and cut there
   with its last row repeated under the next time (a record that stops on a plateau, as the
   runs of bodies on lines wrote their last row): each gives the reference's cycles up to the
   cut (the last one with its four extremes inside), mean period 30 s and damping ratio 0.05
   within 1e-3 relative. A pure cosine (amplitude 10 deg, no damping) and the same cut
   mid-cycle are reported as not a decay ("quality": "no_decay" and the fitted logarithmic
   decrement in decay_b.json; exit 3 for --dof pitch), the damped one as a decay.
5. The command in the header of examples/oc3_hywind.yaml: its run (shortened to 300 s by
   --set analysis.dynamic.duration=300, no plots) and then its `pipelay decay` line, as
   written, exit 0 and report the platform's pitch cycles (about 30 s).

usage: check_decay.py PIPELAY MODELS_DIR WORKDIR [EXAMPLES_DIR]
"""
import csv, json, math, os, shutil, subprocess, sys

HEADER = ("t_s,x_m,y_m,z_m,roll_deg,pitch_deg,yaw_deg,surge_velocity_mps,sway_velocity_mps,heave_velocity_mps,"
          "roll_rate_degps,pitch_rate_degps,yaw_rate_degps,x_ref_m,y_ref_m,yaw_ref_deg,offset_m,"
          "thrust_surge_N,thrust_sway_N,thrust_yaw_Nm,pipe_surge_N,pipe_sway_N,pipe_heave_N,pipe_roll_Nm,"
          "pipe_pitch_Nm,pipe_yaw_Nm,hang_off_x_m,hang_off_y_m,hang_off_z_m")


def run(cmd, cwd=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def rows(path):
    with open(path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def main():
    pipelay, models, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fails, npass = [], [0]

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        if ok:
            npass[0] += 1
        else:
            fails.append(what)

    # 1. synthetic
    syn = os.path.join(work, "synthetic")
    os.makedirs(syn)
    zeta, Td = 0.05, 30.0
    wd = 2 * math.pi / Td
    wn = wd / math.sqrt(1 - zeta * zeta)
    ncols = len(HEADER.split(","))
    with open(os.path.join(syn, "timeseries_b.csv"), "w") as f:
        f.write(HEADER + "\n")
        for k in range(3001):
            t = 0.1 * k
            x = 3 + 10 * math.exp(-zeta * wn * t) * math.cos(wd * t)
            vals = [t] + [0.0] * (ncols - 1)
            vals[5] = x
            f.write(",".join("%.12g" % v for v in vals) + "\n")
    rc, out, err = run([pipelay, "decay", syn])
    check(rc == 0, "synthetic: exit 0 (got %d: %s)" % (rc, err.strip()))
    cyc = rows(os.path.join(syn, "decay_b_pitch.csv")) if rc == 0 else []
    check(len(cyc) >= 8, "synthetic: at least 8 cycles (got %d)" % len(cyc))
    if cyc:
        ep = max(abs(c["period_s"] - Td) / Td for c in cyc)
        ez = max(abs(c["damping_ratio"] - zeta) / zeta for c in cyc)
        check(ep <= 1e-5, "synthetic: every period T_d within 1e-5 (largest %.2g)" % ep)
        check(ez <= 1e-4, "synthetic: every damping ratio 0.05 within 1e-4 (largest %.2g)" % ez)
        f = lambda t: 3 + 10 * math.exp(-zeta * wn * t) * math.cos(wd * t)
        t0 = cyc[0]["t_s"]
        check(abs(cyc[0]["amplitude_deg"] - 0.5 * abs(f(t0) - f(t0 + Td / 2))) < 1e-6,
              "synthetic: the first amplitude is half the first swing (%.6f deg)" % cyc[0]["amplitude_deg"])
    js = json.load(open(os.path.join(syn, "decay_b.json"))) if rc == 0 else {"dofs": {}}
    check(set(js["dofs"]) == {"pitch"}, "synthetic: only pitch decays (%s)" % sorted(js["dofs"]))
    check(os.path.exists(os.path.join(syn, "plots", "decay_b_pitch.png")), "synthetic: the plot is drawn")
    # 2. physics
    phy = os.path.join(work, "oscillator")
    rc, out, err = run([pipelay, "run", os.path.join(models, "damped_oscillator.yaml"), "--output", phy, "--quiet",
                        "--no-plots"])
    check(rc == 0, "oscillator: the run exits 0 (%s)" % err.strip()[:200])
    rc, out, err = run([pipelay, "decay", phy, "--dof", "surge", "--no-plots"])
    check(rc == 0, "oscillator: decay exits 0 (%s)" % err.strip()[:200])
    if rc == 0:
        cyc = rows(os.path.join(phy, "decay_block_surge.csv"))
        T = 2 * math.pi / (math.sqrt(1e5 / 1e4) * math.sqrt(1 - 0.05 ** 2))
        ep = max(abs(c["period_s"] - T) / T for c in cyc)
        ez = max(abs(c["damping_ratio"] - 0.05) / 0.05 for c in cyc)
        check(len(cyc) >= 8, "oscillator: at least 8 cycles (%d)" % len(cyc))
        check(ep <= 1e-4, "oscillator: period %.6f s within 1e-4 of %.6f s (largest %.2g)" % (cyc[0]["period_s"], T, ep))
        check(ez <= 1e-3, "oscillator: damping ratio within 1e-3 of 0.05 (largest %.2g)" % ez)
    # 3. bad input
    rc, out, err = run([pipelay, "decay", work])
    check(rc == 2 and "no body's time series" in err, "no body: exit 2 with a message (%d)" % rc)
    rc, out, err = run([pipelay, "decay", syn, "--dof", "swing"])
    check(rc == 2 and "--dof 'swing'" in err, "unknown DOF: exit 2 (%d)" % rc)
    rc, out, err = run([pipelay, "decay", syn, "--dof", "yaw", "--no-plots"])
    check(rc == 3 and "no decay" in out, "a still DOF asked for: exit 3 (%d)" % rc)
    # 4. complete cycles, and a decay at all
    def record(name, f, tend, repeat_last=False):
        d = os.path.join(work, name)
        os.makedirs(d)
        with open(os.path.join(d, "timeseries_b.csv"), "w") as o:
            o.write(HEADER + "\n")
            rws = []
            for k in range(int(round(tend / 0.1)) + 1):
                vals = [0.1 * k] + [0.0] * (ncols - 1)
                vals[5] = f(0.1 * k)
                rws.append(vals)
            if repeat_last:
                rws.append([rws[-1][0] + 0.1] + rws[-1][1:])
            for vals in rws:
                o.write(",".join("%.12g" % v for v in vals) + "\n")
        rc, out, err = run([pipelay, "decay", d, "--dof", "pitch", "--no-plots"])
        js = json.load(open(os.path.join(d, "decay_b.json"))) if rc in (0, 3) else {"dofs": {}}
        return rc, out, js["dofs"].get("pitch", {}), (rows(os.path.join(d, "decay_b_pitch.csv"))
                                                        if "pitch" in js["dofs"] else [])
    damped = lambda t: 3 + 10 * math.exp(-zeta * wn * t) * math.cos(wd * t)
    rc, out, ref, cref = record("full", damped, 300.0)
    check(rc == 0 and ref.get("quality") == "decay", "complete record: a decay, exit 0 (%d, %s)" % (rc, ref.get("quality")))
    for name, rep in (("mid_cycle", False), ("mid_cycle_repeated", True)):
        rc, out, js, cyc = record(name, damped, 292.0, rep)
        want = [c for c in cref if c["t_s"] + 1.5 * Td < 292.0]  # its fourth extreme inside the record
        check(rc == 0 and len(cyc) == len(want),
              "%s: exit 0 and the %d complete cycles (%d, exit %d)" % (name, len(want), len(cyc), rc))
        ok = rc == 0 and abs(js["mean_period_s"] - Td) / Td <= 1e-3 and \
            abs(js["mean_damping_ratio"] - zeta) / zeta <= 1e-3 and \
            all(abs(c["damping_ratio"] - zeta) / zeta <= 1e-3 for c in cyc)
        check(ok, "%s: mean period %.6g s (30), damping ratio %.6g (0.05; each cycle within 1e-3)"
              % (name, js.get("mean_period_s", float("nan")), js.get("mean_damping_ratio", float("nan"))))
    for name, tend in (("sine", 300.0), ("sine_mid_cycle", 292.0)):
        rc, out, js, cyc = record(name, lambda t: 10 * math.cos(wd * t), tend)
        check(rc == 3 and "not a decay" in out and js.get("quality") == "no_decay" and "log_decrement" in js,
              "%s: not a decay (exit %d, quality %s, printed: %s)" % (name, rc, js.get("quality"), out.strip()[-160:]))
    # 5. the OC3 example's header commands
    if len(sys.argv) > 4:
        examples = sys.argv[4]
        head = []
        for line in open(os.path.join(examples, "oc3_hywind.yaml")):
            if not line.startswith("#"):
                break
            head.append(line[1:].strip())
        text = " ".join(head)
        cmds = [c.split(" for ")[0].split(" (")[0].strip(" ,.;")
                for c in text.replace("then ", "\n").replace("Run: ", "\n").split("\n") if c.startswith("build/pipelay")]
        runc = [c for c in cmds if c.startswith("build/pipelay run")]
        decc = [c for c in cmds if c.startswith("build/pipelay decay")]
        check(len(runc) == 1 and len(decc) == 1, "oc3_hywind.yaml's header: a run and a decay command (%s)" % cmds)
        if len(runc) == 1 and len(decc) == 1:
            root = os.path.dirname(os.path.abspath(examples))
            ex = os.path.join(work, "oc3_header")
            os.makedirs(ex)
            argv = lambda c: [pipelay] + [os.path.join(root, a) if a.startswith("examples/") else a
                                          for a in c.split()[1:]]
            rc, out, err = run(argv(runc[0]) + ["--set", "analysis.dynamic.duration=300", "--quiet", "--no-plots"], cwd=ex)
            check(rc == 0, "oc3 header: `%s` (300 s) exits 0 (%d: %s)" % (runc[0], rc, err.strip()[-200:]))
            rc, out, err = run(argv(decc[0]), cwd=ex)
            check(rc == 0 and "pitch" in out and "cycles" in out,
                  "oc3 header: `%s` exits 0 with the pitch cycles (%d: %s)" % (decc[0], rc, (out + err).strip()[-300:]))
    print("check_decay: %d passed, %d failed" % (npass[0], len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
