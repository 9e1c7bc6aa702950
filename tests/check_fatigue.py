#!/usr/bin/env python3
"""The fatigue a dynamic run writes (fatigue.csv, summary.json's "fatigue", output/fatigue.c)
against the run's own time series and against the closed form of a narrow-banded Gaussian stress.

tests/models/riser_fatigue.yaml: a top-tensioned riser in a JONSWAP sea of peak enhancement 7
(a narrow spectrum) with Hs 1 m under a 0.5 m/s current, 2400 s, S-N curve D in free corrosion
(one slope, m = 3, log a = 11.687), 16 angles, 10 % of a year; its lower 60 m (the bottom and
mid points) with their own curve F (log a = 11.378) and SCF 1.3. The current exceeds the waves'
particle velocities, so Morison's drag is nearly linear in them and the bending stress near the
surface is Gaussian and narrow-banded (a regular wave would give a sinusoidal stress, whose
ranges are all alike, not Rayleigh-distributed, and a JONSWAP sea of gamma 3.3 a broader band).
1. Every row of fatigue.csv is recomputed here from its time series: the stress
   sigma = N/A + (M2 sin theta - M3 cos theta) r_o / I of the pipe's wall, an independent
   rainflow count (ASTM E1049-85 5.4.4) and Miner's sum with N = a (SCF S)^-3 (the section's
   curve and SCF, or the block's), to 1e-6; the per-year
   damage is damage x exposure / T and the life its inverse; summary.json's fatigue is the
   largest row.
2. At the largest row's fibre (angle 90 or 270 deg: bending in the sea's plane) the stress is
   Gaussian (kurtosis 3 within 0.2) and narrow-banded (at most 1.5 peaks per mean up-crossing),
   and the damage is the closed form D = nu0 T (2 sqrt 2 sigma)^m Gamma(1 + m/2) / a of its
   standard deviation sigma and up-crossing rate nu0 within 5 %.
3. The same run without the fatigue: block (and the sections' own curve and SCF) writes no
   fatigue.csv and every other file byte for byte the same, summary.json too but for its
   fatigue, its list of files, the model's path and the wall-clock times.
4. A model of lines (tests/models/system_three_lines.yaml with pipe sections, one line's SCF
   3 (its ranges, up to 75 MPa, either side of the knee), a point on another, curve E in air
   (two slopes): a row per angle for each line's ends
   and the point, from its line_NAME folder, each recomputed from its series to 1e-6.
"""
import csv, json, math, os, subprocess, sys
import numpy as np
import yaml

pipelay, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks

checks = Checks(pipelay, work)
check = checks.check


def run(model, out):
    """Runs the model file into out (quiet, no plots): True, or False after a FAIL line."""
    p = subprocess.run([pipelay, "run", model, "--output", out, "--quiet", "--no-plots"], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "%s runs (exit %d) %s" % (os.path.basename(model), p.returncode, p.stderr[-400:]))
    return p.returncode == 0


def rainflow(x):
    """ASTM E1049-85 5.4.4 on the reversals of x: [(range, count)]."""
    r = [x[0]]
    for v in x[1:]:
        if v == r[-1]:
            continue
        if len(r) >= 2 and (r[-1] - r[-2]) * (v - r[-1]) > 0:
            r[-1] = v
        else:
            r.append(v)
    out, s = [], []
    for v in r:
        s.append(v)
        while len(s) >= 3:
            X, Y = abs(s[-1] - s[-2]), abs(s[-2] - s[-3])
            if X < Y:
                break
            if len(s) == 3:
                out.append((Y, 0.5))
                s.pop(0)
            else:
                out.append((Y, 1.0))
                del s[-3:-1]
    out += [(abs(s[i + 1] - s[i]), 0.5) for i in range(len(s) - 1)]
    return out


model = os.path.join(src, "tests", "models", "riser_fatigue.yaml")
out = os.path.join(work, "riser_fatigue_out")
if not run(model, out):
    sys.exit(1)
spec = yaml.safe_load(open(model))
secs, F = spec["line"]["sections"], spec["fatigue"]
sec = secs[0]
t0, exposure = spec["output"]["statistics_start"], F["exposure"]
do, wt = sec["outer_diameter"], sec["wall_thickness"]
di = do - 2 * wt
A, I = math.pi / 4 * (do ** 2 - di ** 2), math.pi / 64 * (do ** 4 - di ** 4)
m, loga = 3.0, {"D": 11.687, "F": 11.378}  # DNV-RP-C203 (2016) table 2-4; the wall is thinner than 25 mm

rows = [r for r in csv.reader(open(os.path.join(out, "fatigue.csv"))) if r and not r[0].startswith("#")]
head, rows = rows[0], rows[1:]
col = {k: i for i, k in enumerate(head)}
check(len(rows) == 4 * F["angles"], "fatigue.csv: 4 points (bottom, top, mid, upper) x 16 angles (%d rows)" % len(rows))
worst, errs, series = None, [], {}
for r in rows:
    f = r[col["file"]]
    if f not in series:
        series[f] = np.genfromtxt(os.path.join(out, f), delimiter=",", names=True)
    d = series[f]
    k = d["t_s"] >= t0
    th = math.radians(float(r[col["angle_deg"]]))
    own = float(r[col["arc_length_m"]]) < secs[0]["length"]
    curve, scf = (secs[0]["sn_curve"], secs[0]["scf"]) if own else (F["sn_curve"], F.get("scf", 1.0))
    if r[col["sn_curve"]] != curve or float(r[col["scf"]]) != scf:
        errs.append(1.0)
        print("row %s: curve %s, SCF %s, want %s, %s" % (r[:4], r[col["sn_curve"]], r[col["scf"]], curve, scf))
    sig = d["effective_tension_N"][k] / A + (d["bending_moment_2_Nm"][k] * math.sin(th) -
                                             d["bending_moment_3_Nm"][k] * math.cos(th)) * do / 2 / I
    D = sum(c * (1e-6 * scf * s) ** m / 10 ** loga[curve] for s, c in rainflow(list(sig)))
    T = d["t_s"][k][-1] - d["t_s"][k][0]
    got = float(r[col["damage"]])
    errs.append(abs(got - D) / D if D > 1e-30 else abs(got))
    Dy = float(r[col["damage_per_year"]])
    errs.append(abs(Dy - got * exposure / T) / (got * exposure / T) if got > 1e-30 else abs(Dy))
    errs.append(abs(float(r[col["life_years"]]) * Dy - 1.0))
    if worst is None or got > worst[0]:
        worst = (got, r, sig, T)
check(max(errs) < 1e-6, "every row's curve, SCF, damage, damage per year and life recomputed from its series "
      "(worst %.2g)" % max(errs))
check(worst[1][col["sn_curve"]] == F["sn_curve"], "the largest damage is in the upper section (curve %s)" % F["sn_curve"])

D, r, sig, T = worst
summ = json.load(open(os.path.join(out, "summary.json")))
fs = summ.get("fatigue", {})
check(fs.get("file") == r[col["file"]] and abs(fs.get("angle_deg", -1) - float(r[col["angle_deg"]])) < 1e-9 and
      abs(fs.get("max_damage", 0) - D) <= 1e-9 * D, "summary.json fatigue: the largest row (%s, %s deg)" %
      (r[col["file"]], r[col["angle_deg"]]))
check(fs.get("life_years") is not None and abs(fs["life_years"] * fs["max_damage_per_year"] - 1) < 1e-9,
      "summary.json fatigue: life = 1 / damage per year")

x = sig - sig.mean()
sd = x.std()
nu0 = np.sum((x[:-1] < 0) & (x[1:] >= 0)) / T
peaks = np.sum((x[1:-1] > x[:-2]) & (x[1:-1] >= x[2:]))
kurt = np.mean(x ** 4) / sd ** 4
ratio = peaks / (nu0 * T)
check(abs(kurt - 3) < 0.2, "the largest row's stress is Gaussian: kurtosis %.3f" % kurt)
check(ratio <= 1.5, "the largest row's stress is narrow-banded: %.3f peaks per up-crossing" % ratio)
Dc = nu0 * T * (2 * math.sqrt(2) * 1e-6 * sd) ** m * math.gamma(1 + m / 2) / 10 ** loga[F["sn_curve"]]
check(abs(D / Dc - 1) < 0.05, "Miner damage %.5g against the narrow-band closed form %.5g (%+.2f %%, 5 %% allowed; "
      "sigma %.4g MPa, nu0 %.4g Hz)" % (D, Dc, 100 * (D / Dc - 1), sd * 1e-6, nu0))

# 3. without the block: no fatigue file, the rest unchanged
plain = dict(spec)
del plain["fatigue"]
for sc in plain["line"]["sections"]:
    sc.pop("sn_curve", None), sc.pop("scf", None)
pm = os.path.join(work, "riser_nofatigue.yaml")
yaml.safe_dump(plain, open(pm, "w"))
out2 = os.path.join(work, "riser_nofatigue_out")
if run(pm, out2):
    check(not os.path.exists(os.path.join(out2, "fatigue.csv")), "without fatigue: no fatigue.csv")
    s2 = json.load(open(os.path.join(out2, "summary.json")))
    check("fatigue" not in s2, "without fatigue: no summary.json fatigue")
    diff = []
    for name in sorted(os.listdir(out2)):
        p1, p2 = os.path.join(out, name), os.path.join(out2, name)
        if os.path.isdir(p2) or name == "summary.json":
            continue
        if not os.path.exists(p1) or open(p1, "rb").read() != open(p2, "rb").read():
            diff.append(name)
    check(not diff, "without fatigue: every other file byte for byte the same (differ: %s)" % (diff or "none"))
    s1 = json.load(open(os.path.join(out, "summary.json")))
    own = ("fatigue", "files", "input", "wall_time_s", "static_wall_time_s", "real_time_factor")
    changed = sorted(k for k in set(s1) | set(s2) if k not in own and s1.get(k) != s2.get(k))
    check(not changed, "without fatigue: summary.json the same but its fatigue, files, input and wall times "
          "(differ: %s)" % (changed or "none"))

# 4. a model of lines (tests/models/system_three_lines.yaml with pipe sections, the west leg's
# SCF 3, a point on the east leg, curve E in air: two slopes, the knee at 10^7 cycles, its ranges
# up to 25 MPa, 75 MPa on the west leg, either side of the knee stress 46.78 MPa): a row
# for each line's ends and the point, in its line_NAME folder, each recomputed from its series
lm = yaml.safe_load(open(os.path.join(src, "tests", "models", "system_three_lines.yaml")))
for ln in lm["lines"]:
    for sc in ln["line"]["sections"]:
        for k in ("EA", "EI", "EI2", "EI3", "GJ", "GA", "mass_per_length", "rotary_inertia", "radius_of_gyration"):
            sc.pop(k, None)
        sc.update({"outer_diameter": 0.1, "wall_thickness": 0.01,
                   "material": {"youngs_modulus": 2e11, "poissons_ratio": 0.3, "density": 7850}})
lm["lines"][0]["line"]["sections"][0]["scf"] = 3.0
lm.setdefault("output", {})["points"] = [{"name": "midleg", "arc_length": 50, "line": lm["lines"][1]["name"]}]
lm["fatigue"] = {"sn_curve": "E", "environment": "air", "angles": 8}
lpath = os.path.join(work, "lines_fatigue.yaml")
yaml.safe_dump(lm, open(lpath, "w"))
lout = os.path.join(work, "lines_fatigue_out")
if run(lpath, lout):
    rows = [r for r in csv.reader(open(os.path.join(lout, "fatigue.csv"))) if r and not r[0].startswith("#")][1:]
    want = sorted("line_%s/timeseries_%s.csv" % (ln["name"], e) for ln in lm["lines"] for e in ("bottom", "top"))
    want = sorted(want + ["line_%s/timeseries_midleg.csv" % lm["lines"][1]["name"]])
    check(sorted(set(r[0] for r in rows)) == want and len(rows) == 8 * len(want),
          "lines: a row per angle for each line's ends and the point (%d rows)" % len(rows))
    do, wt = 0.1, 0.01
    di = do - 2 * wt
    A, I = math.pi / 4 * (do ** 2 - di ** 2), math.pi / 64 * (do ** 4 - di ** 4)
    m1, la1, m2, la2 = 3.0, 12.010, 5.0, 15.350  # curve E in air, table 2-1
    knee = 10 ** ((la1 - 7) / m1)
    errs = []
    for r in rows:
        scf = 3.0 if r[0].startswith("line_%s/" % lm["lines"][0]["name"]) else 1.0
        d = np.genfromtxt(os.path.join(lout, r[0]), delimiter=",", names=True)
        th = math.radians(float(r[5]))
        sig = d["effective_tension_N"] / A + (d["bending_moment_2_Nm"] * math.sin(th) -
                                              d["bending_moment_3_Nm"] * math.cos(th)) * do / 2 / I
        D = 0.0
        for s_, c in rainflow(list(sig)):
            S = 1e-6 * scf * s_
            if S > 0:
                D += c / 10 ** ((la1 - m1 * math.log10(S)) if S > knee else (la2 - m2 * math.log10(S)))
        errs.append(abs(float(r[6]) - D) / D if D > 0 else abs(float(r[6])))
        errs.append(0.0 if float(r[4]) == scf and r[3] == "E" else 1.0)
    check(max(errs) < 1e-6, "lines: every row's SCF and two-slope damage recomputed from its series (worst %.2g)"
          % max(errs))

print("check_fatigue: %s" % ("FAIL" if checks.fails else "all passed"))
sys.exit(1 if checks.fails else 0)
