#!/usr/bin/env python3
"""pipelay sweep and pipelay run solve the same static analysis: each case of a sweep equals the
run of the model with the case's value given by --set, to 1e-9 of each quantity's peak over the
cases
(a pose's components: of the peak of the translations' or the rotations' vector).

  1. examples/dp_sec44.yaml as a static analysis (its analysis block made static; the vessel
     with DP finds its equilibrium with the pipe): the sweep of current.surface_speed over 0.4,
     0.8 and 1.2 m/s against three runs. Every quantity of sweep.csv's rows that the run's
     summary.json has (top tension and its horizontal part, hang-off angle, layback, touchdown,
     the largest moment, strains, tension and curvature), and the vessel's static pose
     (summary.json's vessel_static.eta_m_deg) of the case's folder against the run's. The sweep's
     later cases start from the previous case's shape, the runs from the model's start: the
     same equilibrium from two starts.
  2. verification/oc3_hywind/oc3_hywind.yaml (lines: with a body): the surge load on the spar
     over 0, 0.5 and 1 MN against three runs: the spar's pose and every line end's tension.
usage: check_sweep_run.py PIPELAY SOURCE_DIR WORKDIR
"""
import csv, json, os, re, shutil, subprocess, sys

TOL = 1e-9
failures = 0


def check(ok, what):
    global failures
    print("%s: %s" % ("PASS" if ok else "FAIL", what))
    failures += 0 if ok else 1


def table(path):
    with open(path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def call(args):
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode:
        print(" ".join(args) + "\n" + p.stdout)
    return p.returncode


def group(q):
    """A pose's components are held to the peak of their vector (the translations' or the
    rotations'), as a force's to its magnitude: a yaw that is zero but for rounding has no peak
    of its own."""
    m = re.match(r"^(.*)(eta\[[0-2]\]|_[xyz]_m)$", q)
    if m:
        return m.group(1) + " translation"
    m = re.match(r"^(.*)(eta\[[3-5]\]|_(roll|pitch|yaw)_deg)$", q)
    return m.group(1) + " rotation" if m else q


def compare(name, pairs):
    """pairs: {quantity: [(sweep value, run value) per case]}; each within TOL of its peak (of
    its group's, group())."""
    worst, where = 0.0, ""
    gpeak = {}
    for q, vals in pairs.items():
        g = group(q)
        gpeak[g] = max([gpeak.get(g, 0.0)] + [max(abs(a), abs(b)) for a, b in vals])
    for q, vals in pairs.items():
        peak = gpeak[group(q)]
        for i, (a, b) in enumerate(vals):
            e = abs(a - b) / peak if peak > 0 else abs(a - b)
            if e > worst:
                worst, where = e, "%s, case %d" % (q, i)
    check(worst <= TOL, "%s: sweep equals run to %.1e of each quantity's peak (worst %.2e: %s)"
          % (name, TOL, worst, where))


def main():
    pipelay, src, work = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    # 1. the DP vessel model as a static analysis
    text = open(os.path.join(src, "examples", "dp_sec44.yaml")).read()
    static = re.sub(r"analysis:\n  type: dynamic\n  dynamic:\n(    .*\n)+", "analysis:\n  type: static\n", text)
    check(static != text, "dp_sec44.yaml's analysis block made static")
    model = os.path.join(work, "dp_static.yaml")
    open(model, "w").write(static)
    values = [0.4, 0.8, 1.2]
    sw = os.path.join(work, "dp_sweep")
    rc = call([pipelay, "sweep", model, "--vary", "current.surface_speed=" + ",".join(map(str, values)),
               "--output", sw, "--quiet", "--no-plots"])
    check(rc == 0, "dp_sec44 static: the sweep exits 0")
    rows = table(os.path.join(sw, "sweep.csv")) if rc == 0 else []
    pairs = {}
    for i, v in enumerate(values):
        out = os.path.join(work, "dp_run_%d" % i)
        if call([pipelay, "run", model, "--set", "current.surface_speed=%r" % v, "--output", out, "--quiet",
                 "--no-plots"]):
            check(False, "dp_sec44 static: the run at %g m/s exits 0" % v)
            continue
        run = json.load(open(os.path.join(out, "summary.json")))
        case = json.load(open(os.path.join(sw, "case_%03d" % i, "summary.json")))
        if i >= len(rows):
            continue
        for q, x in rows[i].items():
            if q in run and isinstance(run[q], (int, float)) and q not in ("wall_time_s", "newton_iterations"):
                pairs.setdefault(q, []).append((x, float(run[q])))
        for k, (a, b) in enumerate(zip(case["vessel_static"]["eta_m_deg"], run["vessel_static"]["eta_m_deg"])):
            pairs.setdefault("vessel eta[%d]" % k, []).append((a, b))
    check(len(pairs) >= 10 and all(len(p) == len(values) for p in pairs.values()),
          "dp_sec44 static: %d quantities compared in every case" % len(pairs))
    compare("dp_sec44 static", pairs)

    # 2. a system of lines on a body
    model = os.path.join(src, "verification", "oc3_hywind", "oc3_hywind.yaml")
    values = [0.0, 5e5, 1e6]
    key = "bodies[0].environment_load.force[0]"
    sw = os.path.join(work, "oc3_sweep")
    rc = call([pipelay, "sweep", model, "--vary", key + "=" + ",".join(map(str, values)), "--output", sw, "--quiet",
               "--no-plots"])
    check(rc == 0, "oc3_hywind: the sweep exits 0")
    rows = table(os.path.join(sw, "sweep.csv")) if rc == 0 else []
    pairs = {}
    for i, v in enumerate(values):
        out = os.path.join(work, "oc3_run_%d" % i)
        if call([pipelay, "run", model, "--set", "%s=%r" % (key, v), "--output", out, "--quiet", "--no-plots"]):
            check(False, "oc3_hywind: the run at %g N exits 0" % v)
            continue
        run = json.load(open(os.path.join(out, "summary.json")))
        if i >= len(rows):
            continue
        for b, body in run["bodies"].items():
            for k, u in enumerate(("x_m", "y_m", "z_m", "roll_deg", "pitch_deg", "yaw_deg")):
                pairs.setdefault(b + "_" + u, []).append((rows[i][b + "_" + u], body["eta_m_deg"][k]))
        for l, line in run["lines"].items():
            for end in ("bottom", "top"):
                q = "%s_%s_tension_N" % (l, end)
                pairs.setdefault(q, []).append((rows[i][q], line[end]["tension_N"]))
    check(len(pairs) == 12 and all(len(p) == len(values) for p in pairs.values()),
          "oc3_hywind: %d quantities compared in every case" % len(pairs))
    compare("oc3_hywind", pairs)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
