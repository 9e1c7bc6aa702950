#!/usr/bin/env python3
"""check_lines_statics.py - the statics of several lines, points and bodies (solver/lines.c)
through `pipelay run` with default settings, against physics.

Cases (each a model file with --set overrides; every one must converge):
  system      tests/models/system_static.yaml: the kSystem of tests/test_system_dynamic.c (a
              clump on an anchored line, a riser to a moored float body, a tail to a fixed point;
              6/5/3 elements of about 20 m; a current); the clump starts 50 m from its rest on the
              seabed and the float yaws about 146 deg to face its riser.
  coarse      the same with 3 elements per line;   fine   with 60/60/30 (about 2 m).
  lifted      the clump made a buoy (1500 kg, 2 m^3: 5.4 kN net lift) that lifts the bottom line
              off the seabed, in still water.
  lazy_s_3, lazy_s_200   verification/lines_buoy/buoy.yaml (a buoy between two lines) with 3
              and 200 elements per line; the buoy starts 46 m from its equilibrium; with 200 (1 and
              1.25 m elements) both lines are checked as simple catenaries (3 elements of 67-83 m
              are a polygon 11 % off the catenary's tensions: only its balance is checked).
Checked, from summary.json, the line CSVs and the model's own data (never from an expected
value of pipelay's output):
  equilibrium of every free point: the lines' pull on it (each attached end's force on its
      support) plus its net weight (mass - rho_w volume) g vanishes within 1e-6 of the sum of the
      magnitudes of those forces;
  equilibrium of every body: force and moment about O_b of its lines' pull (at R a, R from the
      reported zyx Euler angles), its spring -K (r - r_a), its heave restoring
      -A_wp rho_w g (z - z_eq) e3 and its roll/pitch restoring -R m_V g (r~ x k)
      (elements/vessel.c, eq 5.62-5.63) within 1e-6 of the sum of the magnitudes;
  end tensions of each line marked a simple catenary (suspended: every node above the seabed;
      still water) against the elastic catenary between its two end positions
      (tests/catenary.py) within 0.1 % (the rods' bending stiffness EI = 1e3 N m^2 and the
      1-1.25 m elements' chords separate them: measured 2.9e-5).
Usage: check_lines_statics.py PIPELAY MODELS_DIR WORKDIR
"""
import csv, json, math, os, subprocess, sys
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catenary  # noqa: E402

pipelay, models, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
failures = 0
EL3 = ["lines[%d].mesh.elements=3" % i for i in range(3)]
EL200 = ["lines[%d].mesh.elements=200" % i for i in range(2)]
FINE = ["lines[0].mesh.elements=60", "lines[1].mesh.elements=60", "lines[2].mesh.elements=30"]
LAZY_S = os.path.join("..", "..", "verification", "lines_buoy", "buoy.yaml")
CASES = [  # name, model (in MODELS_DIR), overrides, simple catenaries, their tension tolerance
    ("system", "system_static.yaml", [], [], 0),
    ("coarse", "system_static.yaml", EL3, [], 0),
    ("fine", "system_static.yaml", FINE, [], 0),
    ("lifted", "system_static.yaml", ["points[0].mass=1500", "points[0].volume=2.0", "current.speed=0"], [], 0),
    ("lazy_s_3", LAZY_S, EL3[:2], [], 0),
    ("lazy_s_200", LAZY_S, EL200, ["lower", "upper"], 1e-3),
]


def check(ok, what):
    global failures
    print(("PASS " if ok else "FAIL ") + what)
    failures += 0 if ok else 1


def numbers(node):
    """The model with every scalar that reads as a number a float (YAML 1.1 reads 4.0e4 as text)."""
    if isinstance(node, dict):
        return {k: numbers(v) for k, v in node.items()}
    if isinstance(node, list):
        return [numbers(v) for v in node]
    if isinstance(node, str):
        try:
            return float(node)
        except ValueError:
            return node
    return node


def override(model, text):
    """Applies one KEY=VALUE override (as --set does) to the model's dictionary."""
    path, value = text.split("=", 1)
    node, keys = model, []
    for part in path.split("."):
        name, _, rest = part.partition("[")
        keys.append(name)
        if rest:
            keys.append(int(rest.rstrip("]")))
    for k in keys[:-1]:
        node = node.setdefault(k, {}) if isinstance(k, str) else node[k]
    node[keys[-1]] = yaml.safe_load(value)


def rot_zyx(roll, pitch, yaw):
    cr, sr, cp, sp, cy, sy = (math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch), math.cos(yaw),
                              math.sin(yaw))
    return [[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr]]


def mv(R, v):
    return [sum(R[i][j] * v[j] for j in range(3)) for i in range(3)]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def balance(terms):
    """|sum of the vectors| and the sum of their magnitudes."""
    total = [sum(t[c] for t in terms) for c in range(3)]
    return math.sqrt(sum(x * x for x in total)), sum(math.sqrt(sum(x * x for x in t)) for t in terms)


for name, model_file, sets, simple, tol in CASES:
    out = os.path.join(work, name)
    cmd = [pipelay, "run", os.path.join(models, model_file), "--output", out, "--no-plots", "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    with open(os.path.join(models, model_file)) as f:
        model = yaml.safe_load(f)
    for s in sets:
        override(model, s)
    model = numbers(model)
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summ = json.load(f)
    except OSError:
        summ = {}
    check(p.returncode == 0 and summ.get("converged") is True,
          f"{name}: converges with default settings (exit {p.returncode}; {summ.get('newton_iterations')} iterations, "
          f"{summ.get('line_re_solves')} line re-solves, {summ.get('rejected_steps')} rejected steps, imbalance "
          f"{summ.get('point_imbalance_relative', float('nan')):.2g}) {summ.get('failure', '')}")
    if not summ.get("converged"):
        print(p.stdout + p.stderr)
        continue
    env = model["environment"]
    rho, g = env["water_density"], env["gravity"]
    ends = {}  # master name -> list of (line, end, force on the support)
    for lname, line in summ["lines"].items():
        for end in ("bottom", "top"):
            ends.setdefault(line[end]["attached_to"], []).append((lname, end, line[end]["force_on_support_N"]))
    # ---- free points ----
    for pt in model.get("points", []):
        if pt.get("fixed"):
            continue
        W = (pt.get("mass", 0.0) - rho * pt.get("volume", 0.0)) * g
        err, scale = balance([e[2] for e in ends[pt["name"]]] + [[0.0, 0.0, -W]])
        check(err <= 1e-6 * scale, f"{name}: point {pt['name']} in equilibrium: |sum of forces| {err:.3g} N of "
                                   f"{scale:.6g} N ({err / scale:.2g})")
    # ---- bodies ----
    for body in model.get("bodies", []):
        eta = summ["bodies"][body["name"]]["eta_m_deg"]
        r = eta[:3]
        R = rot_zyx(*[math.radians(a) for a in eta[3:]])
        forces, moments = [], []
        line_by_name = {ln["name"]: ln for ln in model["lines"]}
        for lname, end, f in ends[body["name"]]:
            at = line_by_name[lname]["ends"][end].get("at", [0.0, 0.0, 0.0])
            forces.append(f)
            moments.append(cross(mv(R, at), f))
        spring = body.get("spring")
        if spring:
            K, ra = spring["stiffness"], spring.get("anchor", body["initial"]["position"])
            forces.append([-sum(K[i][j] * (r[j] - ra[j]) for j in range(3)) for i in range(3)])
        rest = body.get("restoring")
        if rest:
            forces.append([0.0, 0.0, -rest.get("waterplane_area", 0.0) * rho * g * (r[2] - rest["heave_equilibrium"])])
            k = [R[2][0], R[2][1], R[2][2]]  # R^T e3
            rt = [rest.get("gm_longitudinal", 0.0) * k[0], rest.get("gm_transverse", 0.0) * k[1], 0.0]
            mb = [rest.get("displacement", 0.0) * g * c for c in cross(rt, k)]
            moments.append([-c for c in mv(R, mb)])
        check(not body.get("weight") and not body.get("environment_load"), f"{name}: body {body['name']} has no "
              "weight or environment load of its own (the check leaves them out)")
        ef, sf = balance(forces)
        em, sm = balance(moments)
        check(ef <= 1e-6 * sf and em <= 1e-6 * max(sm, 1e-300),
              f"{name}: body {body['name']} in equilibrium: force {ef:.3g} N of {sf:.6g} N, moment about O_b "
              f"{em:.3g} N m of {sm:.6g} N m (yaw {eta[5]:.2f} deg)")
    # ---- simple catenaries ----
    depth = env["water_depth"]
    for line in model["lines"]:
        if line["name"] not in simple:
            continue
        with open(os.path.join(out, "line_" + line["name"], "static.csv")) as f:
            rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
        sec = line["line"]["sections"][0]
        d, L = sec["outer_diameter"], line["line"]["length"]
        w = (sec["mass_per_length"] - rho * math.pi * d * d / 4) * g
        A = [rows[0][c] for c in ("x_m", "y_m", "z_m")]
        B = [rows[-1][c] for c in ("x_m", "y_m", "z_m")]
        zlow = min(r_["z_m"] for r_ in rows)
        seabed = model.get("seabed", {}).get("model", "nonlinear") != "none"
        still = model.get("current", {}).get("speed", 0.0) == 0.0
        check(still and (not seabed or zlow > -depth + d), f"{name}: line {line['name']} suspended in still water "
              f"(lowest node {zlow:.3f} m, seabed {-depth} m)")
        H, V0, TA, TB = catenary.solve(A, B, L, w, sec["EA"])
        got = summ["lines"][line["name"]]
        ea = abs(got["bottom"]["tension_N"] / TA - 1)
        eb = abs(got["top"]["tension_N"] / TB - 1)
        check(max(ea, eb) <= tol, f"{name}: line {line['name']} end tensions against the elastic catenary between "
                                  f"its ends: {got['bottom']['tension_N']:.6g} / {TA:.6g} N, {got['top']['tension_N']:.6g}"
                                  f" / {TB:.6g} N ({max(ea, eb):.2g}, tolerance {tol:g})")

print(f"{failures} failed")
sys.exit(1 if failures else 0)
