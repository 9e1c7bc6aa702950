#!/usr/bin/env python3
"""check_slay.py - S-lay over a stinger's rollers (elements/roller.c, solver/roller.c,
solver/slay_output.c) against closed forms and invariants. The pipe: 12.75 in x 15.9 mm bare
steel, E = 207 GPa, rho_s = 7850, rho_w = 1025 (reference notes, section 3: w = 356.25 N/m,
EI = 3.7865e7 N m^2, EA = 3.1847e9 N, recomputed here).

  overbend  a continuous stinger of radius R = 60, 100, 150 m (a roller every 2 m along 50 m of
            arc; the pipe held horizontal at the arc's start by the tensioner, 500 kN, and clamped
            along the arc's tangent at its end): along the supported length away from its ends (5 m)
            every element's outer-fibre strain kappa d_o/2 + gamma_1 equals D/(2R) + T/EA
            within 1 % (T its effective tension), and its curvature 1/R within 1 %.
  sagbend   the pipe's span from the stinger's tip to the seabed against the natural catenary
            (a = H/w through the tip at height h above the pipe's rest on the seabed; the
            closed forms are first held to the notes' table for H = 100, 150, 200 kN, h = 90
            m): with EI 1e-4 of the pipe's (the bending length sqrt(EI/H) 0.16 m, small against
            the 290 m span) and a stiff seabed (the pipe rests 3.6e-5 m in), the layback from
            the tip to the touchdown point, the departure angle past the tip, the tension at the
            tip H + w h, the largest curvature w/H and moment EI w/H at touchdown within 0.5 %,
            with H the span's horizontal tension from the run.
  balance   a pipe wholly under water between the tensioner and a pinned end (no seabed) over
            7 rollers: the rollers' reactions and the ends' pulls on their supports sum to the
            pipe's weight w L within 1e-9 of the top tension (the statics' tolerance); the rollers
            the pipe lifts off carry exactly nothing; summary.json's stinger object conforms to
            docs/summary-schema.json's "stinger".
  motion    examples/slay_100m_motion.yaml: the rollers' loads start at the statics', swing as
            the stinger moves with the firing line, and energy.csv balances with the rollers'
            work (below 1e-3 of it at rtol 1e-6, and falling with the tolerance).
Usage: check_slay.py PIPELAY WORKDIR SCHEMA
"""
import csv, json, math, os, subprocess, sys
from checks import Checks

pipelay, work, schema_path = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
C = Checks(pipelay, work)

D, t, E, G, rho_s, rho_w, g = 0.32385, 0.0159, 207e9, 7.96e10, 7850.0, 1025.0, 9.80665
A = math.pi / 4 * (D ** 2 - (D - 2 * t) ** 2)
I = math.pi / 64 * (D ** 4 - (D - 2 * t) ** 4)
EA, EI = E * A, E * I
w = (rho_s * A - rho_w * math.pi * D ** 2 / 4) * g
C.check(abs(w / 356.25 - 1) < 1e-3 and abs(EI / 3.7865e7 - 1) < 1e-3 and abs(EA / 3.1847e9 - 1) < 1e-3,
        "the pipe of the notes: w = %.2f N/m, EI = %.5g N m^2, EA = %.5g N (within 0.1 %%: the notes round D to "
        "0.3239 m)" % (w, EI, EA))
PIPE = ("{outer_diameter: %.10g, wall_thickness: %.10g, material: {youngs_modulus: %.10g, shear_modulus: %.10g, "
        "density: %.10g}}" % (D, t, E, G, rho_s))


def rows(path):
    with open(path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def model(name, length, zones, bottom, top_force, stinger, depth=100.0, section=PIPE, seabed="", mesh=None, top_x=None):
    return """name: %s
environment: {water_depth: %.10g, water_density: %.10g, gravity: %.10g}
%slines:
  - name: pipe
    line: {length: %.10g, sections: [%s]}
    mesh: %s
    ends:
      bottom: %s
      top: {position: [%s, 0, 5], orientation: [0, 0, 0], fixed: [y, z, rx, ry, rz], force: [%.10g, 0, 0]}
stinger: %s
""" % (name, depth, rho_w, g, seabed, length, section, mesh or "{target_length: 2.0, zones: [%s]}" % zones, bottom,
       "~" if top_x is None else "%.10g" % top_x, top_force, stinger)


# ---- overbend on a continuous stinger ----
AWAY = 5.0  # [m] off the supported length's ends: the clamps' and the first and last rollers'
            # disturbances (the rollers' foundation k_f = k/2 m: (EI/k_f)^(1/4) = 1.4 m)


def overbend(R):
    """A pipe held by the tensioner (500 kN) at the arc's start, horizontal, over rollers every 2 m
    along 50 m of arc, clamped at the arc's end along its tangent (the pipe's natural shape is
    the arc: without the rollers it would pull straight)."""
    arc, x0, T = 50.0, 400.0, 500e3
    th = arc / R
    end = (x0 - R * math.sin(th), 5.0 - R * (1 - math.cos(th)))
    text = model("overbend R %g" % R, arc, "", "{position: [%.10g, 0, %.10g], orientation: [0, %.10g, 0], fixed: all}"
                 % (end[0], end[1], -math.degrees(th)), T,
                 "{radius: %.10g, start: [%.10g, 0, 5], stations: [%s]}" % (R, x0, ", ".join("%g" % (1 + 2 * k) for k in range(25))),
                 depth=200.0, mesh="{target_length: 0.5}", top_x=x0)
    out = C.run("overbend_%g" % R, text)
    if not out:
        return
    els = rows(os.path.join(out, "line_pipe", "static_elements.csv"))
    cx, cz = x0, 5.0 - R  # the arc's centre: station s at angle s/R from the vertical above it
    worst_e = worst_k = worst_r = 0.0
    n = 0
    for e in els:
        s = -math.atan2(e["x_m"] - cx, e["z_m"] - cz) * R
        if not (AWAY <= s <= arc - AWAY):
            continue
        n += 1
        worst_r = max(worst_r, abs(math.hypot(e["x_m"] - cx, e["z_m"] - cz) - R))
        eps = e["curvature_1pm"] * D / 2 + e["axial_strain"]
        want = D / (2 * R) + e["effective_tension_N"] / EA
        worst_e = max(worst_e, abs(eps / want - 1))
        worst_k = max(worst_k, abs(e["curvature_1pm"] * R - 1))
    C.check(n > 70 and worst_e <= 0.01,
            "overbend R = %g m: %d elements' strain kappa D/2 + gamma_1 within %.3f %% of D/(2R) + T/EA (D/(2R) = "
            "%.4f %%; 1 %%)" % (R, n, 100 * worst_e, 100 * D / (2 * R)))
    C.check(n > 70 and worst_k <= 0.01, "overbend R = %g m: curvature within %.3f %% of 1/R (1 %%)" % (R, 100 * worst_k))
    # the elements' midpoints lie on the chords, R (1 - cos(0.25/R)) inside the arc, and the pipe
    # sinks into the rollers by the roller load T (2 m)/R over the contact stiffness
    sink = 2.0 * T / R / (1e-3 * EA / D) + R * (1 - math.cos(0.25 / R))
    C.check(n > 70 and worst_r <= sink + 1e-3, "overbend R = %g m: the pipe's centreline on the arc of radius R within %.2f mm "
            "(the rollers' compliance and the chords: %.2f mm, + 1 mm)" % (R, 1e3 * worst_r, 1e3 * sink))


for R in (60.0, 100.0, 150.0):
    overbend(R)


# ---- the sagbend: the natural catenary from the stinger's tip ----
def catenary(H, h):
    """The natural catenary from a point h above its vertex at horizontal tension H: a, the
    layback to the vertex, the suspended length, the angle there [deg], the tension there."""
    a = H / w
    return a, a * math.acosh(1 + h / a), math.sqrt(h * h + 2 * a * h), math.degrees(math.atan(math.sqrt(h * h + 2 * a * h) / a)), H + w * h


TABLE = {100e3: (280.70, 219.17, 242.13, 40.781, 132.06e3, 3.563e-3, 134.9e3),  # the notes, h = 90 m
         150e3: (421.05, 270.62, 289.64, 34.524, 182.06e3, 2.375e-3, 89.9e3),
         200e3: (561.40, 313.79, 330.38, 30.477, 232.06e3, 1.781e-3, 67.5e3)}
worst = 0.0
for H, row in TABLE.items():
    mine = catenary(H, 90.0) + (w / H, EI * w / H)
    worst = max(worst, max(abs(m / r - 1) for m, r in zip(mine, row)))
C.check(worst < 2e-3, "the closed forms reproduce the notes' table for H = 100, 150, 200 kN, h = 90 m (within %.3f %%; "
        "0.2 %%: the notes' rounding of D)" % (100 * worst))

EI_S = 2e-3 * EI  # the sagbend's pipe: bending length sqrt(EI/H) 0.71 m at 150 kN
SAG_SECTION = ("{outer_diameter: %.10g, EA: %.10g, EI: %.10g, GJ: %.10g, mass_per_length: %.10g}"
               % (D, EA, EI_S, 2e-3 * G * 2 * I, rho_s * A))
K_SEABED = 1e7  # [N/m^2]: the pipe rests w/k = 3.6e-5 m in: its touchdown is 0.2 m from the vertex


def sagbend(H):
    theta = TABLE[H][3]
    R, arc = 100.0, 48.0
    start_angle = theta - 3.0 - math.degrees(arc / R)  # the tip 3 deg flatter: the pipe bends over it
    t0 = math.radians(start_angle)
    x0, z0 = 0.0, 5.0
    th = t0 + arc / R
    tip = (x0 - R * (math.sin(th) - math.sin(t0)), z0 - R * (math.cos(t0) - math.cos(th)))
    zrest = -100 + D / 2 - w / K_SEABED
    a, layback, span, _, _ = catenary(H, tip[1] - zrest)
    length = 10 + arc + span + 60
    top = (x0 + 10 * math.cos(t0), z0 + 10 * math.sin(t0))
    text = model("sagbend H %g" % H, length, "", "{position: [%.10g, 0, %.10g], fixed: all}" % (tip[0] - layback - 60, zrest),
                 H + w * (top[1] - zrest), "{radius: %.10g, start: [%.10g, 0, %.10g], start_angle: %.10g, spacing: 8, count: 7}"
                 % (R, x0, z0, start_angle), section=SAG_SECTION, seabed="seabed: {model: linear, stiffness: %g}\n" % K_SEABED,
                 mesh="{target_length: 1.0}", top_x=None)
    text = text.replace("top: {position: [~, 0, 5], orientation: [0, 0, 0]",
                        "top: {position: [~, 0, %.10g], orientation: [0, %.10g, 0]" % (top[1], -start_angle))
    out = C.run("sagbend_%g" % (H / 1e3), text)
    if not out:
        return
    st = json.load(open(os.path.join(out, "summary.json")))["stinger"]
    nodes = rows(os.path.join(out, "line_pipe", "static.csv"))
    els = rows(os.path.join(out, "line_pipe", "static_elements.csv"))
    tipx = st["rollers"][-1]["top_m"]
    ht = tipx[2] - zrest
    # the span's horizontal tension from the run: the elements between the tip and the seabed
    span_els = [e for e in els if zrest + 5 < e["z_m"] < tipx[2] - 5]
    Hs = []
    for i in range(1, len(nodes)):
        zA, zB = nodes[i - 1]["z_m"], nodes[i]["z_m"]
        if zrest + 5 < 0.5 * (zA + zB) < tipx[2] - 5:
            dx, dz = nodes[i]["x_m"] - nodes[i - 1]["x_m"], zB - zA
            Hs.append(els[i - 1]["effective_tension_N"] * abs(dx) / math.hypot(dx, dz))
    Hfe = sum(Hs) / len(Hs)
    a, lay, span, ang, Ttip = catenary(Hfe, ht)
    C.check(max(Hs) - min(Hs) <= 1e-3 * Hfe, "sagbend H %g kN: the span's horizontal tension is constant (%.6g to %.6g N, "
            "0.1 %%)" % (H / 1e3, min(Hs), max(Hs)))
    # the departure angle past the tip: the first element 5 m past it (7 bending lengths: the pipe
    # bends over the tip's roller from the stinger's slope to the catenary's), against the
    # catenary's slope at that element's height
    past = max(i for i in range(1, len(nodes)) if nodes[i]["x_m"] < tipx[0] - 5.0)
    dx, dz = nodes[past]["x_m"] - nodes[past - 1]["x_m"], nodes[past]["z_m"] - nodes[past - 1]["z_m"]
    ang_fe = math.degrees(math.atan2(abs(dz), abs(dx)))
    zm = 0.5 * (nodes[past]["z_m"] + nodes[past - 1]["z_m"]) - zrest
    ang_cat = math.degrees(math.atan(math.sqrt((1 + zm / a) ** 2 - 1)))
    kmax = max(e["curvature_1pm"] for e in span_els + [e for e in els if e["z_m"] < zrest + 5])
    mmax = max(math.hypot(e["bending_moment_2_Nm"], e["bending_moment_3_Nm"]) for e in els if e["z_m"] < zrest + 5)
    tip_el = min(els, key=lambda e: math.hypot(e["x_m"] - tipx[0], e["z_m"] - tipx[2]))
    for what, fe, cat in (("layback", st["layback_m"], lay), ("departure angle", ang_fe, ang_cat),
                          ("tip tension", tip_el["effective_tension_N"], Ttip), ("touchdown curvature", kmax, w / Hfe),
                          ("touchdown moment", mmax, EI_S * w / Hfe)):
        C.check(abs(fe / cat - 1) <= 5e-3, "sagbend H %g kN (h %.2f m, H from the run %.5g N): %s %.6g against the catenary's "
                "%.6g (%.3f %%; 0.5 %%)" % (H / 1e3, ht, Hfe, what, fe, cat, 100 * abs(fe / cat - 1)))


for H in sorted(TABLE):
    sagbend(H)


# ---- the balance of the rollers' reactions, the ends' supports and the weight ----
def balance():
    """A pipe wholly under water (no splash zone: its weight is w L) from the tensioner at z = -5 m
    over 7 rollers to a pinned bottom end 60 m below and 300 m away, no seabed: the pull of its
    ends on their supports and its load on the rollers carry its weight, w L downwards, and
    nothing else; the pipe leaves the stinger flatter than its last rollers, which it lifts off."""
    L = 420.0
    text = model("balance", L, "{from: 300, to: 420, target_length: 1.0}", "{position: [150, 0, -65], fixed: [x, y, z]}",
                 400e3, "{radius: 100, start: [500, 0, -5], spacing: 8, count: 7}", seabed="seabed: {model: none}\n")
    text = text.replace("top: {position: [~, 0, 5]", "top: {position: [~, 0, -5]")
    out = C.run("balance", text)
    if not out:
        return
    sm = json.load(open(os.path.join(out, "summary.json")))
    st, ln = sm["stinger"], sm["lines"]["pipe"]
    total = [ln["bottom"]["force_on_support_N"][c] + ln["top"]["force_on_support_N"][c] +
             sum(r["reaction_vector_N"][c] for r in st["rollers"]) for c in range(3)]
    W, T = w * L, ln["top"]["tension_N"]
    err = max(abs(total[0]), abs(total[1]), abs(total[2] + W)) / T
    C.check(err <= 1e-9, "balance: the ends' pull on their supports and the rollers' reactions sum to the pipe's weight %.6g N "
            "within %.2e of the top tension %.6g N (1e-9, the statics' tolerance): (%.6g, %.6g, %.6g) N"
            % (W, err, T, total[0], total[1], total[2]))
    pressed = [r for r in st["rollers"] if r["in_contact"]]
    free = [r for r in st["rollers"] if not r["in_contact"]]
    C.check(len(pressed) >= 3 and all(r["reaction_N"] > 0 for r in pressed),
            "balance: %d rollers carry the pipe (%s kN)" % (len(pressed), ", ".join("%.1f" % (r["reaction_N"] / 1e3) for r in pressed)))
    C.check(len(free) >= 1 and all(r["gap_m"] > 0 and r["reaction_N"] == 0.0 and r["reaction_vector_N"] == [0, 0, 0] for r in free),
            "balance: the %d rollers the pipe lifts off (gaps %s m) carry exactly nothing"
            % (len(free), ", ".join("%.3f" % r["gap_m"] for r in free)))
    # the same with the rollers' reach cut to 1 cm: the start shape hangs below the stinger, out of
    # reach, and the statics must say so (not report the pipe through the stinger as converged)
    path = os.path.join(work, "balance_reach.yaml")
    with open(path, "w") as f:
        f.write(text.replace("count: 7}", "count: 7, reach: 0.01}"))
    p = subprocess.run([pipelay, "run", path, "--output", os.path.join(work, "balance_reach"), "--quiet", "--no-plots"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    C.check(p.returncode == 3 and "under the stinger's roller" in p.stderr,
            "balance: a line under the rollers out of their reach is no equilibrium (exit %d: %s)"
            % (p.returncode, p.stderr.strip()[-160:]))
    try:
        import jsonschema
        schema = json.load(open(schema_path))
        sub = dict(schema["properties"]["stinger"], **{"$defs": schema["$defs"]})
        errs = list(jsonschema.Draft202012Validator(sub).iter_errors(st))
        C.check(not errs, "balance: summary.json's stinger object conforms to docs/summary-schema.json%s"
                % ("" if not errs else ": " + errs[0].message))
    except ImportError:
        C.check(False, "the Python module jsonschema is missing (run with /usr/bin/python3)")


balance()


# ---- in time: the stinger moving with the firing line ----
def motion():
    """examples/slay_100m_motion.yaml (heave and pitch at the firing line, the stinger moving with
    it) at tightened tolerances: its first row of timeseries_rollers.csv is the static
    equilibrium's reactions (1e-6 of the largest), the rollers' loads change as the stinger moves,
    and energy.csv's balance with the rollers' work closes: below 1e-3 of the rollers' work, and
    lower at rtol 1e-6 than at 1e-5 (the integration's error, not a missing term)."""
    ex = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "slay_100m_motion.yaml")
    res = {}
    for rt in ("1e-5", "1e-6"):
        out = os.path.join(work, "motion_" + rt)
        p = subprocess.run([pipelay, "run", ex, "--output", out, "--quiet", "--no-plots", "--set",
                            "analysis.dynamic.rtol=" + rt, "--set", "analysis.dynamic.atol_position=1e-7"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            C.check(False, "motion rtol %s: exit %d %s" % (rt, p.returncode, p.stderr[-600:]))
            return
        en = rows(os.path.join(out, "energy.csv"))
        res[rt] = (max(abs(x["balance_J"]) for x in en), max(abs(x["work_rollers_J"]) for x in en))
    st = json.load(open(os.path.join(out, "summary.json")))["stinger"]["rollers"]
    ts = rows(os.path.join(out, "timeseries_rollers.csv"))
    big = max(r["reaction_N"] for r in st)
    d0 = max(abs(ts[0]["roller%d_reaction_N" % (k + 1)] - r["reaction_N"]) for k, r in enumerate(st))
    C.check(d0 <= 1e-6 * big, "motion: the rollers' loads at t = 0 are the statics' (%.2e N of %.4g N; 1e-6)" % (d0, big))
    swing = max(max(x["roller%d_reaction_N" % k] for x in ts) - min(x["roller%d_reaction_N" % k] for x in ts)
                for k in range(1, len(st) + 1))
    C.check(swing > 0.2 * big, "motion: the rollers' loads swing by up to %.4g N as the stinger heaves and pitches" % swing)
    (b5, w5), (b6, w6) = res["1e-5"], res["1e-6"]
    C.check(b6 <= 1e-3 * w6 and b6 < 0.5 * b5, "motion: energy.csv balances with the rollers' work %.4g J: %.4g J at rtol "
            "1e-6 (1e-3 of it), %.4g J at 1e-5" % (w6, b6, b5))


motion()

sys.exit(1 if C.fails else 0)
