#!/usr/bin/env python3
"""The design: block in a run: its files against the formulas, and the run unchanged by it.

Usage: check_design_run.py PIPELAY EXAMPLES_DIR SCHEMA WORKDIR

1. The static J-lay (examples/jlay_900m.yaml) with and without a design: block (set on the
   command line): static.csv and static_elements.csv are bit-identical (the block is output
   only). From the run's own static.csv, every row of design.csv is recomputed here: the
   pressures, T_tw = T_e + p_i A_i - p_e A_e, the thin-wall and Lame hoop stresses, von Mises at
   the four fibres, and the DNV-ST-F101 utilisations with the hand formulas of check_dnv_hand.py
   (gamma_C 1.07 from S = 250 to 400 m, given as 40 zones); all to 1e-9 relative. summary.json's governing utilisation is the
   largest of design.csv's, and summary.json conforms to docs/summary-schema.json. A thinner
   wall (D/t2 above 45) draws the validity warning.
2. The riser in a regular wave (examples/riser_regular_wave.yaml, 800 kg/m^3 contents), 3 s:
   the internal pressure's hydrostatic column in design.csv; design_envelope.csv's largest
   utilisation at each node at least its static value (t = 0 is an output: there the
   environmental parts are zero) and the summary's governing value its largest.
3. The same riser as a model of lines: (scripts/one_line_as_lines.py): line_pipe/design.csv and
   design_envelope.csv, and the governing utilisation and its place and time in the line's
   summary object, equal to the one-line run's to 1e-6 (the two runs integrate the same
   equations with the same steps, not bit for bit).
"""
import csv
import json
import math
import os
import subprocess
import sys

exe, examples, schema_path, work = sys.argv[1:5]
src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "check_dnv_hand.py")).read()
ns = {"__name__": "hand"}
exec(src.replace("\nmain()\n", "\n"), ns)  # the hand formulas, without running its main
hand = ns["hand"]

G, RHO_W = 9.80665, 1025.0
fails = 0


def fail(msg):
    global fails
    print("FAIL " + msg)
    fails += 1


def close(a, b, tol, what):
    if not abs(a - b) <= tol * max(abs(b), 1.0):
        fail(f"{what}: {a!r} vs {b!r}")


def rows(path):
    with open(path) as f:
        return [{k: float(v) if v not in ("", "nan") else math.nan for k, v in r.items()} for r in csv.DictReader(f)]


def run(model, out, sets):
    args = [exe, "run", os.path.join(examples, model), "--output", out, "--quiet", "--no-plots"]
    for s in sets:
        args += ["--set", s]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


DESIGN = ["design.internal_pressure=20e6", "design.internal_pressure_level=-900", "design.dnv_f101.smys=450e6",
          "design.dnv_f101.smts=535e6", "design.dnv_f101.safety_class=low", "design.dnv_f101.fabrication=uoe",
          "design.dnv_f101.yield_derating=10e6", "design.dnv_f101.corrosion_allowance=0.001",
          # gamma_C 1.07 from S = 250 to 400 m, given as 40 abutting zones (no cap on their count)
          "design.dnv_f101.zones=[%s]" % ", ".join("{from: %.10g, to: %.10g, condition_factor: 1.07}"
                                                   % (250 + 3.75 * k, 250 + 3.75 * (k + 1)) for k in range(40))]

# ---- 1. static J-lay ------------------------------------------------------------------------
a, b = os.path.join(work, "plain"), os.path.join(work, "design")
run("jlay_900m.yaml", a, [])
run("jlay_900m.yaml", b, DESIGN)
for f in ("static.csv", "static_elements.csv"):
    if open(os.path.join(a, f), "rb").read() != open(os.path.join(b, f), "rb").read():
        fail(f"{f} differs with the design: block")
D, t, E, G_mod = 0.762, 0.033, 206e9, 7.9231e10
nu = E / (2 * G_mod) - 1
ro, ri = D / 2, D / 2 - t
A, Ai, Ae = math.pi * (ro ** 2 - ri ** 2), math.pi * ri ** 2, math.pi * ro ** 2
I = math.pi / 4 * (ro ** 4 - ri ** 4)
st, de = rows(os.path.join(b, "static.csv")), rows(os.path.join(b, "design.csv"))
assert len(st) == len(de) > 100
best = -1.0
for s, d in zip(st, de):
    z = s["z_m"]
    pi, pe = 20e6 + 0.0 * G * (-900 - z), RHO_W * G * max(-z, 0.0)
    close(d["internal_pressure_Pa"], pi, 1e-12, "p_i")
    close(d["external_pressure_Pa"], pe, 1e-12, "p_e")
    Te = s["effective_tension_N"]
    close(d["true_wall_tension_N"], Te + pi * Ai - pe * Ae, 1e-12 * (pi * Ai + pe * Ae) / max(abs(Te), 1.0),
          "T_tw = T_e + p_i A_i - p_e A_e")
    close(d["hoop_stress_thin_Pa"], (pi - pe) * D / (2 * t), 1e-12, "thin-wall hoop")
    den = ro ** 2 - ri ** 2
    close(d["hoop_stress_inner_Pa"], (pi * (ro ** 2 + ri ** 2) - 2 * pe * ro ** 2) / den, 1e-12, "Lame inner")
    close(d["hoop_stress_outer_Pa"], (2 * pi * ri ** 2 - pe * (ro ** 2 + ri ** 2)) / den, 1e-12, "Lame outer")
    M = math.hypot(s["bending_moment_2_Nm"], s["bending_moment_3_Nm"])
    Ttw = Te + pi * Ai - pe * Ae
    for r, sh, sr, col in ((ri, (pi * (ro ** 2 + ri ** 2) - 2 * pe * ro ** 2) / den, -pi, "von_mises_inner_Pa"),
                           (ro, (2 * pi * ri ** 2 - pe * (ro ** 2 + ri ** 2)) / den, -pe, "von_mises_outer_Pa")):
        tau = s["torque_Nm"] * r / (2 * I)
        vm = max(math.sqrt(sa ** 2 + sh ** 2 + sr ** 2 - sa * sh - sh * sr - sr * sa + 3 * tau ** 2)
                 for sa in (Ttw / A + M * r / I, Ttw / A - M * r / I))
        close(d[col], vm, 1e-9, col)
    eps = abs(s["curvature_1pm"]) * D / 2 + abs(s["axial_strain"])
    gC = 1.07 if 250 <= s["S_m"] <= 400 else 1.0
    close(d["gamma_C"], gC, 0, "gamma_C")
    util = -1.0
    for comb, (gF, gE) in (("a", (1.2, 0.7)), ("b", (1.1, 1.3))):
        h = hand(dict(D=D, t=t, E=E, nu=nu, smys=450e6, smts=535e6, cls=0, fab=2, suppU=0, fytemp=10e6, futemp=0.0,
                      tcorr=0.001, f0=0.005, alpha_h=0.93, MF=M, ME=0.0, SF=Te, SE=0.0, eF=eps, eE=0.0, pi=pi, pe=pe,
                      gF=gF, gE=gE, gC=gC))
        close(d["lcc_" + comb], h["lcc"], 1e-9, "lcc_" + comb)
        close(d["dcc_" + comb], h["dcc"], 1e-9, "dcc_" + comb)
        util = max(util, h["lcc"], h["dcc"])
    close(d["utilisation"], util, 1e-9, "utilisation")
    best = max(best, d["utilisation"])
summary = json.load(open(os.path.join(b, "summary.json")))
close(summary["design"]["dnv_f101"]["max_utilisation"], best, 0, "summary's governing utilisation")
try:
    import jsonschema
    jsonschema.validate(summary, json.load(open(schema_path)))
except ImportError:
    fail("python3-jsonschema missing")
except jsonschema.ValidationError as e:
    fail(f"summary.json of the design run: {e.message}")

# the validity warning: D/t2 = 0.762/0.015 = 50.8 > 45 (contents keep the thinner pipe down)
r = subprocess.run([exe, "info", os.path.join(examples, "jlay_900m.yaml"), "--set", "line.sections[0].wall_thickness=0.015",
                    "--set", "line.sections[0].contents_density=1000"] + sum((["--set", d] for d in DESIGN[2:4]), []),
                   capture_output=True, text=True)
if r.returncode != 0 or "design.dnv_f101: warning: section 0 has D/t2 = 50.8, above 45" not in r.stderr:
    fail(f"no D/t2 warning: {r.stderr.strip()!r}")

# ---- 2. dynamic riser -----------------------------------------------------------------------
c = os.path.join(work, "riser")
run("riser_regular_wave.yaml", c, ["analysis.dynamic.duration=3", "design.internal_pressure=5e6",
                                   "design.internal_pressure_level=0", "design.dnv_f101.smys=450e6",
                                   "design.dnv_f101.smts=535e6"])
de, env = rows(os.path.join(c, "design.csv")), rows(os.path.join(c, "design_envelope.csv"))
for d in de:
    close(d["internal_pressure_Pa"], 5e6 + 800 * G * (0 - d["z_m"]), 1e-12, "p_i with the contents' column")
for d, e in zip(de, env):
    if not e["max_utilisation"] >= d["utilisation"]:
        fail(f"envelope below the static utilisation at S = {d['S_m']}")
summary = json.load(open(os.path.join(c, "summary.json")))
close(summary["design"]["dnv_f101"]["max_utilisation"], max(e["max_utilisation"] for e in env), 0,
      "dynamic summary's governing utilisation")
close(summary["static_design"]["dnv_f101"]["max_utilisation"], max(d["utilisation"] for d in de), 0,
      "static_design's governing utilisation")
try:
    jsonschema.validate(summary, json.load(open(schema_path)))
except jsonschema.ValidationError as e:
    fail(f"summary.json of the dynamic design run: {e.message}")

# ---- 3. the riser as a model of lines: ------------------------------------------------------
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from one_line_as_lines import as_lines  # noqa: E402
import yaml  # noqa: E402
src = os.path.join(work, "riser_design.yaml")
with open(os.path.join(examples, "riser_regular_wave.yaml")) as f:
    model = yaml.safe_load(f)
model["design"] = {"internal_pressure": 5e6, "internal_pressure_level": 0, "dnv_f101": {"smys": 450e6, "smts": 535e6}}
model["analysis"]["dynamic"]["duration"] = 3
with open(src, "w") as f:
    yaml.safe_dump(model, f)
lines_model = os.path.join(work, "riser_lines.yaml")
as_lines(src, lines_model)
dl = os.path.join(work, "riser_lines")
subprocess.run([exe, "run", lines_model, "--output", dl, "--quiet", "--no-plots"], check=True, stdout=subprocess.DEVNULL)
for f in ("design.csv", "design_envelope.csv"):
    if not os.path.exists(os.path.join(dl, "line_pipe", f)):
        fail(f"line_pipe/{f} missing")
gl = json.load(open(os.path.join(dl, "summary.json")))["dynamic"]["lines"]["pipe"]["design"]["dnv_f101"]
g1 = summary["design"]["dnv_f101"]
close(gl["max_utilisation"], g1["max_utilisation"], 1e-6, "lines: governing utilisation")
close(gl["S_m"], g1["S_m"], 0, "lines: governing node")
close(gl["t_s"], g1["t_s"], 0, "lines: governing time")
sys.exit(1 if fails else 0)
