#!/usr/bin/env python3
"""check_system_dynamic.py - the dynamics of several lines, points and bodies (issue 14;
solver/system_dynamic.c) through `pipelay run`, against physics.

  bounce     tests/models/system_bounce.yaml: a clump of M = 10 000 kg on 100 m of vertical
             cable (EA = 1e8 N, m = 50 kg/m) released upwards from its static equilibrium. The
             axial vibration of a uniform rod fixed at one end with a tip mass: beta tan(beta) =
             m L / M, omega = beta sqrt(EA/m) / L (period 0.68010 s). The clump's period from
             the downward zero crossings of its vertical velocity within 0.5 % (the lumped
             masses of 2 m elements and the 5 ms output sampling budget for it).
  added_mass the bounce with the clump given a volume of 2 m^3 and an added-mass coefficient of 1
             (2050 kg of added mass): its period with M = 12 050 kg in beta tan(beta) = m L / M,
             within 0.5 % (without the added mass it is 8 % shorter).
  drag       the same clump at rest in a uniform current of 1 m/s with a drag area CdA = 2 m^2
             (the cable without drag): the force on the fixed top is the drag 1/2 rho CdA U^2 =
             1025 N in x (1e-9) plus the weights in z; the clump's position equals the elastic
             catenary of the cable with that horizontal force (x within 1e-4 of its 0.874 m
             offset, z within 1e-6 m); run for 1 s it stays there (1e-6 m): the drag is the same
             term in statics and dynamics. As a static analysis with the current ramped in over
             10 s the top carries the same drag (statics take the current settled).
  joints     tests/models/system_joint_fixed.yaml (static): a chain from a 10 t frame welded to
             the ground (fixed joint) down to an anchor: the joint's force and moment balance the
             frame's weight at its centre of gravity and the chain's pull at its body point
             (1e-9 of the weights), by hand from the chain's end force.
             tests/models/system_joint_hinge.yaml: a 5 t arm on a revolute joint (y axis) with a
             60 m cable to a 2 t clump. Static: the hinge carries (m_arm + m_clump) g + w L
             vertically and nothing horizontally (1e-9). Dynamic, 10 s from the clump moving at
             0.5 m/s, no drag: the total energy within 0.5 % of the largest kinetic energy, the
             hinge point (2 m above the arm's O_b) stays within 1e-6 m (the GGL projection holds
             it to Newton's tolerance: 1.3e-9 m), the motion stays in the x-z plane (1e-9).
  dp         tests/models/system_dp.yaml: a 6000 t vessel on a 400 m riser holds station by DP
             (PID, on from the start) against a 150 kN load at 30 deg. Static: with integral
             action it sits on its reference (x, y within 1e-9 m, yaw 1e-9 deg), and in the global
             frame its thrust (body frame, turned by its pitch) balances the load and the riser's
             pull horizontally (1e-9 of the load); run for 20 s from there it stays (1e-6 m).
             With the controller started at 10 s, 5 s of dynamics: the thrusters hold the static
             thrust until then, so the ship stays (1e-6 m).
  energy     tests/models/system_bodies.yaml: a cable between two bodies on springs and roll /
             pitch restoring, pinned 2 m below their origins, west body released with a
             velocity and a spin; no drag, no damping: the total energy of energy.csv (kinetic of
             nodes and bodies, strain, submerged weight, springs and restoring) stays within 1 %
             of the initial kinetic energy over 20 s (BDF2 at rtol 1e-7; a wrong sign or a
             missing term of the line-body transfer changes it by more than the kinetic energy).
             The drift is BDF2's damping of the cable's axial modes (about 180 rad/s) that the
             steps do not resolve, not a term of the model: it hardly changes with rtol (30, 28,
             24 J at 1e-6, 1e-7, 1e-8) and falls with the step, so
  resolved   the same for 4 s at rtol 1e-8 with steps of at most 1 ms: |E - E0| within 0.05 %
             of the initial kinetic energy (measured 0.022 %; 0.13 % without the step limit).
  passivity  the same with Morison drag C_dn = 1.2 on the cable: the total energy never rises
             between two outputs by more than 1e-4 of the initial kinetic energy, and it falls by
             more than 20 % of it (drag only dissipates, eq 5.77).
  rest       tests/models/system_lazy_s.yaml: the lazy-S of verification/lines_buoy run for 20 s
             from its static equilibrium with nothing moving it: the buoy moves less than 1e-6 m
             and the kinetic energy stays below 1e-6 J (statics and dynamics are one residual);
             summary.json says "analysis": "dynamic_lines", completed, and its end tensions
             equal the static ones within 1e-6. --restart on its folder with another rtol is
             refused (exit 2: the model differs) and changes no file (check_system_restart.py
             checks the restart itself).
  moored     tests/models/system_moored.yaml: a buoy on three catenary mooring lines (seabed
             contact) with hydrostatic restoring only, pushed by 50 kN in x: the lines restore
             its surge, sway and yaw (no DOF held); the lines' pull on the buoy balances the load
             (x within 1e-6 of it, y and z-moment zero), the two lines symmetric about x carry equal
             tensions (1e-9), the buoy moves downwind with no sway or yaw (1e-6 m, 1e-6 deg); run
             for 5 s from that equilibrium under the same load it stays there (1e-6 m): the
             static equilibrium is one of the dynamics, surge included.
  ranks      (with MPIEXEC) system_three_lines.yaml (three lines, two bodies, a clump) for 2 s
             on 1, 2 and 3 MPI ranks: a run of one model is computed by rank 0 alone
             (app/pipelay.c says why), so every end tension and force, the clump's position and
             the bodies' poses of the statics, and every column of energy.csv,
             timeseries_west.csv, timeseries_point_clump.csv and timeseries_lines.csv, equal one
             rank's to the bit (the statics' to 1e-8 of the largest of their kind, as when they
             were distributed).
Usage: check_system_dynamic.py PIPELAY MODELS_DIR WORKDIR [MPIEXEC]
"""
import csv, json, math, os, subprocess, sys

pipelay, models, work = sys.argv[1:4]
mpiexec = sys.argv[4] if len(sys.argv) > 4 else None
os.makedirs(work, exist_ok=True)
failures = 0
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")


def check(ok, what):
    global failures
    print(("PASS " if ok else "FAIL ") + what)
    failures += 0 if ok else 1


def run(model, out, *sets, ranks=1):
    cmd = [pipelay] if ranks == 1 else mpiexec.split() + ["-n", str(ranks), pipelay]
    cmd += ["run", os.path.join(models, model), "--output", os.path.join(work, out), "--no-plots", "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        print(p.stdout + p.stderr)
    check(p.returncode == 0, f"{model} {' '.join(sets)} runs (exit {p.returncode})")
    return os.path.join(work, out)


def table(path):
    with open(path) as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def difference(da, db, files=("energy.csv", "timeseries_west.csv", "timeseries_lines.csv")):
    """The largest difference of two runs' series, each column over its largest value (columns
    whose values stay below 1e-2 in their unit, the yaw of a body that does not yaw or the sway
    velocity of a clump swinging in x, are noise)."""
    worst = 0.0
    for f in files:
        a, b = table(os.path.join(da, f)), table(os.path.join(db, f))
        check(len(a) == len(b), f"{f}: as many rows in {os.path.basename(db)} as in {os.path.basename(da)}")
        for col in a[0]:
            scale = max(abs(r[col]) for r in a)
            if scale > 1e-2:
                worst = max([worst] + [abs(x[col] - y[col]) / scale for x, y in zip(a, b)])
    return worst


def static_state(d):
    """The static results of a system run's summary.json: end forces, free points, bodies."""
    with open(os.path.join(d, "summary.json")) as f:
        s = json.load(f)
    forces = [v for ln in s["lines"].values() for e in ("bottom", "top")
              for v in [ln[e]["tension_N"]] + ln[e]["force_on_support_N"]]
    points = [v for p in s["points"].values() if not p["fixed"] for v in p["position_m"]]
    bodies = [v for b in s["bodies"].values() for v in b["eta_m_deg"]]
    return s, forces, points, bodies


def relative(a, b):
    scale = max(abs(v) for v in a) or 1.0
    return max(abs(x - y) for x, y in zip(a, b)) / scale


if mpiexec:
    model, files = "system_three_lines.yaml", ("energy.csv", "timeseries_west.csv", "timeseries_point_clump.csv",
                                               "timeseries_lines.csv")
    ref = run(model, "ranks1_tight", "analysis.dynamic.rtol=1e-8")
    d1 = run(model, "ranks1")
    e1 = difference(ref, d1, files)
    s1 = static_state(d1)
    print(f"ranks: 1 rank at rtol 1e-7 against rtol 1e-8: {e1:.3g} (the integration error)")
    for k in (2, 3):
        dk = run(model, f"ranks{k}", ranks=k)
        sk = static_state(dk)
        for i, what in ((1, "end tensions and forces"), (2, "clump position"), (3, "body poses")):
            r = relative(s1[i], sk[i])
            print(f"ranks: static {what}, {k} ranks against 1: {r:.3g}")
            check(r <= 1e-8, f"{k} ranks: static {what} equal one rank's to 1e-8")
        ek, e1k = difference(ref, dk, files), difference(d1, dk, files)
        print(f"ranks: {k} ranks against rtol 1e-8: {ek:.3g}; against 1 rank: {e1k:.3g}")
        check(e1k == 0.0, f"{k} ranks give one rank's answer to the bit")
    print(f"{failures} failed")
    sys.exit(1 if failures else 0)

# ---- bounce ----
d = run("system_bounce.yaml", "bounce")
rows = table(os.path.join(d, "timeseries_point_clump.csv"))
t = [r["t_s"] for r in rows]
v = [r["vz_mps"] for r in rows]
down = [t[i - 1] + (t[i] - t[i - 1]) * v[i - 1] / (v[i - 1] - v[i]) for i in range(1, len(v)) if v[i - 1] > 0 >= v[i]]
mu, EA, m, L = 50.0 * 100.0 / 10000.0, 1.0e8, 50.0, 100.0
beta = 0.6
for _ in range(50):
    beta -= (beta * math.tan(beta) - mu) / (math.tan(beta) + beta / math.cos(beta) ** 2)
T_exact = 2.0 * math.pi / (beta * math.sqrt(EA / m) / L)
T = (down[-1] - down[0]) / (len(down) - 1) if len(down) > 1 else float("nan")
print(f"bounce: {len(down)} periods measured, T = {T:.6f} s, exact {T_exact:.6f} s (beta = {beta:.6f}), "
      f"error {100 * (T / T_exact - 1):+.3f} %")
check(len(down) >= 6 and abs(T / T_exact - 1) <= 5e-3, "clump period within 0.5 % of the rod-with-tip-mass frequency")

# ---- the points' added mass and drag ----
d = run("system_bounce.yaml", "added_mass", "points[1].volume=2", "points[1].added_mass_coefficient=1")
rows = table(os.path.join(d, "timeseries_point_clump.csv"))
t = [r["t_s"] for r in rows]
v = [r["vz_mps"] for r in rows]
down = [t[i - 1] + (t[i] - t[i - 1]) * v[i - 1] / (v[i - 1] - v[i]) for i in range(1, len(v)) if v[i - 1] > 0 >= v[i]]
M = 10000.0 + 1.0 * 1025.0 * 2.0
beta = 0.6
for _ in range(50):
    beta -= (beta * math.tan(beta) - 50.0 * 100.0 / M) / (math.tan(beta) + beta / math.cos(beta) ** 2)
T_exact = 2.0 * math.pi / (beta * math.sqrt(1.0e8 / 50.0) / 100.0)
T = (down[-1] - down[0]) / (len(down) - 1) if len(down) > 1 else float("nan")
print(f"added_mass: T = {T:.6f} s, exact with M = {M:.0f} kg {T_exact:.6f} s, error {100 * (T / T_exact - 1):+.3f} %")
check(len(down) >= 6 and abs(T / T_exact - 1) <= 5e-3, "clump period with its added mass within 0.5 %")

rho, g, U, CdA = 1025.0, 9.80665, 1.0, 2.0
d = run("system_bounce.yaml", "drag", "current.profile=uniform", f"current.speed={U}", f"points[1].drag_area={CdA}",
        "points[1].velocity=[0,0,0]", "analysis.dynamic.duration=1")
with open(os.path.join(d, "summary.json")) as f:
    sm = json.load(f)
top = sm["lines"]["hanger"]["top"]["force_on_support_N"]
H = 0.5 * rho * CdA * U * U
w = 50.0 * g - rho * math.pi * 0.1 ** 2 / 4.0 * g   # the cable's submerged weight [N/m]
Vb, EA, L = 10000.0 * g, 1.0e8, 100.0             # the clump's weight, the cable
Vt = Vb + w * L
x = H * L / EA + (H / w) * (math.asinh(Vt / H) - math.asinh(Vb / H))
z = -10.0 - ((Vb * L + w * L * L / 2.0) / EA + (H / w) * (math.sqrt(1 + (Vt / H) ** 2) - math.sqrt(1 + (Vb / H) ** 2)))
pos = sm["points"]["clump"]["position_m"]
print(f"drag: force on the top {top} N, drag {H} N, weights {Vt:.6f} N; clump at {pos}, catenary ({x:.7f}, 0, {z:.7f})")
check(abs(top[0] - H) <= 1e-9 * H and abs(top[1]) <= 1e-9 * H and abs(-top[2] - Vt) <= 1e-9 * Vt,
      "the top carries the clump's drag 1/2 rho CdA U^2 and the weights (1e-9)")
check(abs(pos[0] - x) <= 1e-4 * x and abs(pos[2] - z) <= 1e-6, "the clump where the elastic catenary puts it")
rows = table(os.path.join(d, "timeseries_point_clump.csv"))
moved = max(math.dist((r["x_m"], r["y_m"], r["z_m"]), pos) for r in rows)
print(f"drag: the clump moves {moved:.3g} m in 1 s")
check(moved <= 1e-6, "the drag equilibrium is one of the dynamics (1e-6 m)")

# the same as a static analysis with the current ramped in over 10 s: statics take it settled
with open(os.path.join(models, "system_bounce.yaml")) as f:
    text = f.read()
static_model = os.path.join(work, "drag_static.yaml")
with open(static_model, "w") as f:
    f.write(text.replace("analysis: {type: dynamic, dynamic: {duration: 5, output_interval: 0.005, rtol: 1.0e-7}}",
                         "analysis: {type: static}")
            .replace("mass: 10000, velocity: [0, 0, 0.1]}", f"mass: 10000, drag_area: {CdA}}}")
            + f"current: {{profile: uniform, speed: {U}, start_time: 0, ramp_time: 10}}\n")
d = run(os.path.abspath(static_model), "drag_static")
with open(os.path.join(d, "summary.json")) as f:
    top = json.load(f)["lines"]["hanger"]["top"]["force_on_support_N"]
print(f"drag, static analysis, current ramped over 10 s: force on the top {top} N")
check(abs(top[0] - H) <= 1e-9 * H, "a static analysis takes the settled current's drag on the point (1e-9)")

# ---- joints with lines ----
def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


d = run("system_joint_fixed.yaml", "joint_fixed")
with open(os.path.join(d, "summary.json")) as f:
    sm = json.load(f)
jt, fl = sm["joints"]["weld"], sm["lines"]["chain"]["top"]["force_on_support_N"]
P, a, cg = jt["point_m"], [5.0, 0.0, -23.0], [1.0, 0.0, -19.5]   # the chain's body point, the centre of gravity
W = [0.0, 0.0, -1.0e4 * g]
fsum = [jt["force_N"][i] + fl[i] + W[i] for i in range(3)]
ma, mw = cross([a[i] - P[i] for i in range(3)], fl), cross([cg[i] - P[i] for i in range(3)], W)
msum = [jt["moment_Nm"][i] + ma[i] + mw[i] for i in range(3)]
scale = 1.0e4 * g + math.sqrt(sum(v * v for v in fl))
print(f"joints: weld force {jt['force_N']} N, moment {jt['moment_Nm']} N m; force balance {fsum}, moment balance {msum}")
check(jt["solved"] and max(abs(v) for v in fsum) <= 1e-9 * scale and max(abs(v) for v in msum) <= 1e-9 * scale * 5.0,
      "the weld carries the frame's weight and the chain's pull, force and moment (1e-9)")

d = run("system_joint_hinge.yaml", "joint_hinge")
with open(os.path.join(d, "summary.json")) as f:
    sm = json.load(f)
hf = sm["joints"]["hinge"]["force_N"]
w = 50.0 * g - rho * math.pi * 0.1 ** 2 / 4.0 * g
Fz = (5000.0 + 2000.0) * g + w * 60.0
print(f"joints: hinge force at rest {hf} N, by hand (0, 0, {Fz:.6f}) N")
check(abs(hf[2] - Fz) <= 1e-9 * Fz and abs(hf[0]) <= 1e-9 * Fz and abs(hf[1]) <= 1e-9 * Fz,
      "the hinge carries the arm, the clump and the cable's submerged weight (1e-9)")
E = table(os.path.join(d, "energy.csv"))
kmax = max(r["kinetic_J"] for r in E)
drift = max(abs(r["total_J"] - E[0]["total_J"]) for r in E)
gap = sm["dynamic"]["max_joint_gap_m"]
arm = table(os.path.join(d, "timeseries_arm.csv"))
clump = table(os.path.join(d, "timeseries_point_clump.csv"))
out_of_plane = max([abs(r["y_m"]) for r in arm + clump] + [abs(r["roll_deg"]) + abs(r["yaw_deg"]) for r in arm])
swing = max(abs(r["pitch_deg"]) for r in arm)
print(f"joints: hinge swing {swing:.3f} deg, energy drift {drift:.4g} J of {kmax:.4g} J kinetic ({100 * drift / kmax:.3f} %), "
      f"hinge gap {gap:.3g} m, out of plane {out_of_plane:.3g}")
check(swing > 0.5 and drift <= 5e-3 * kmax, "the hinged pendulum keeps its energy (0.5 % of the kinetic energy)")
check(gap <= 1e-6 and out_of_plane <= 1e-9, "the hinge holds its point (1e-6 m) and the motion stays in its plane (1e-9)")

# ---- a DP vessel on a riser ----
d = run("system_dp.yaml", "dp")
with open(os.path.join(d, "summary.json")) as f:
    sm = json.load(f)
eta = sm["bodies"]["ship"]["eta_m_deg"]
fl = sm["lines"]["riser"]["top"]["force_on_support_N"]
ship = table(os.path.join(d, "timeseries_ship.csv"))
th = math.radians(ship[0]["pitch_deg"])
Tx, Ty = ship[0]["thrust_surge_N"], ship[0]["thrust_sway_N"]
load = (1.299e5, 0.75e5)
bx, by = Tx * math.cos(th) + load[0] + fl[0], Ty + load[1] + fl[1]
print(f"dp: ship at {eta[:2]} m, yaw {eta[5]:.3g} deg; thrust ({Tx:.3f}, {Ty:.3f}) N; balance ({bx:.3g}, {by:.3g}) N")
check(abs(eta[0]) <= 1e-9 and abs(eta[1]) <= 1e-9 and abs(eta[5]) <= 1e-9, "DP with integral action holds the reference")
check(abs(bx) <= 1e-9 * 1.5e5 and abs(by) <= 1e-9 * 1.5e5, "the thrust balances the load and the riser's pull (1e-9)")
moved = max(math.hypot(r["x_m"] - ship[0]["x_m"], r["y_m"] - ship[0]["y_m"]) for r in ship)
print(f"dp: the ship moves {moved:.3g} m in 20 s")
check(moved <= 1e-6, "the DP equilibrium is one of the dynamics (1e-6 m)")
# the controller started at 10 s: before it the thrusters hold the static thrust (models/dp.c
# tau_hold), so the static equilibrium is still one of the dynamics (before the fix the ship,
# without thrust against the 150 kN load, drifted 0.108 m in 5 s)
d = run("system_dp.yaml", "dp_hold", "bodies[0].dp.start_time=10", "analysis.dynamic.duration=5")
ship = table(os.path.join(d, "timeseries_ship.csv"))
moved = max(math.hypot(r["x_m"] - ship[0]["x_m"], r["y_m"] - ship[0]["y_m"]) for r in ship)
print(f"dp: controller from 10 s: the ship moves {moved:.3g} m in 5 s, thrust ({ship[-1]['thrust_surge_N']:.6g}, "
      f"{ship[-1]['thrust_sway_N']:.6g}) N against the static ({ship[0]['thrust_surge_N']:.6g}, {ship[0]['thrust_sway_N']:.6g}) N")
check(moved <= 1e-6, "before the DP starts its thrusters hold the static thrust: the ship stays (1e-6 m)")

# ---- energy and passivity ----
for case, sets in (("energy", ()),
                   ("resolved", ("analysis.dynamic.rtol=1e-8", "analysis.dynamic.max_step=0.001",
                                 "analysis.dynamic.duration=4")),
                   ("passivity", ("lines[0].line.sections[0].hydrodynamics.drag_normal=1.2",))):
    d = run("system_bodies.yaml", case, *sets)
    rows = table(os.path.join(d, "energy.csv"))
    E = [r["total_J"] for r in rows]
    K0 = rows[0]["kinetic_J"]
    drift = max(abs(e - E[0]) for e in E)
    rise = max([0.0] + [E[i] - E[i - 1] for i in range(1, len(E))])
    print(f"{case}: {len(E)} outputs to t = {rows[-1]['t_s']:.3g} s, initial kinetic energy {K0:.6g} J, largest "
          f"|E - E0| {drift:.4g} J ({100 * drift / K0:.3f} %), largest rise between outputs {rise:.3g} J, "
          f"E(end) - E0 = {E[-1] - E[0]:.4g} J")
    if case == "energy":
        check(rows[-1]["t_s"] >= 20 - 1e-9 and drift <= 0.01 * K0, "energy conserved within 1 % of the kinetic energy")
        # the ParaView collection: the line and the bodies every output.vtk_interval (the
        # default 1 s: every 20th output of 0.05 s) and at the last output, each file there
        import re
        with open(os.path.join(d, "dynamic.pvd")) as f:
            sets = re.findall(r'timestep="([^"]+)"[^>]*name="([^"]+)" file="([^"]+)"', f.read())
        times = sorted({float(t) for t, _, _ in sets})
        every = round(1.0 / (rows[1]["t_s"] - rows[0]["t_s"]))
        want = [r["t_s"] for k, r in enumerate(rows) if k % every == 0 or k == len(rows) - 1]
        check(len(times) == len(want) and all(abs(a - b) <= 1e-9 for a, b in zip(times, want)) and
              len(sets) == 2 * len(want) and all(os.path.isfile(os.path.join(d, fn)) for _, _, fn in sets) and
              {n for _, n, _ in sets} == {"span", "bodies"},
              f"dynamic.pvd: the line and the bodies every {every} outputs (1 s) and at the last, {len(want)} "
              f"frames of {len(rows)} outputs, every file written")
    elif case == "resolved":
        check(rows[-1]["t_s"] >= 4 - 1e-9 and drift <= 5e-4 * K0,
              "energy conserved within 0.05 % of the kinetic energy with the axial modes resolved")
    else:
        check(rise <= 1e-4 * K0, "with drag the energy never rises (1e-4 of the kinetic energy)")
        check(E[0] - E[-1] >= 0.2 * K0, "with drag the energy falls by more than 20 % of the kinetic energy")

# ---- moored ----
d = run("system_moored.yaml", "moored")
with open(os.path.join(d, "summary.json")) as f:
    s = json.load(f)
b = s["bodies"]["buoy"]
pull = [sum(line["top"]["force_on_support_N"][c] for line in s["lines"].values()) for c in range(3)]
ten = {n: line["top"]["tension_N"] for n, line in s["lines"].items()}
eta = b["eta_m_deg"]
print(f"moored: buoy at ({eta[0]:.4f}, {eta[1]:.2e}, {eta[2]:.4f}) m, yaw {eta[5]:.2e} deg; the lines' pull on it "
      f"({pull[0]:.6f}, {pull[1]:.2e}) N; top tensions {', '.join(f'{k} {v:.1f} N' for k, v in ten.items())}; "
      f"held {b['held']}")
check(b["held"] == [] and abs(pull[0] + 5.0e4) <= 5e-2 and abs(pull[1]) <= 5e-2,
      "the lines hold the buoy against the load in x and y (1e-6 of it), no DOF held")
check(abs(ten["m2"] - ten["m3"]) <= 1e-9 * ten["m2"] and eta[0] > 1.0 and abs(eta[1]) <= 1e-6 and abs(eta[5]) <= 1e-6,
      "symmetric: equal tensions in m2 and m3, the buoy moves downwind without sway or yaw")
rows = table(os.path.join(d, "timeseries_buoy.csv"))
move = max(math.dist((r["x_m"], r["y_m"], r["z_m"]), (rows[0]["x_m"], rows[0]["y_m"], rows[0]["z_m"])) for r in rows)
print(f"moored: 5 s from the equilibrium under the load: the buoy moved at most {move:.3g} m")
check(rows[-1]["t_s"] >= 5 - 1e-9 and move <= 1e-6, "the moored equilibrium is one of the dynamics (1e-6 m)")

# ---- rest ----
d = run("system_lazy_s.yaml", "rest")
rows = table(os.path.join(d, "timeseries_point_buoy.csv"))
x0 = rows[0]
move = max(math.dist((r["x_m"], r["y_m"], r["z_m"]), (x0["x_m"], x0["y_m"], x0["z_m"])) for r in rows)
kin = max(r["kinetic_J"] for r in table(os.path.join(d, "energy.csv")))
print(f"rest: {len(rows)} outputs to t = {rows[-1]['t_s']:.3g} s, buoy moved at most {move:.3g} m, largest kinetic "
      f"energy {kin:.3g} J")
check(rows[-1]["t_s"] >= 20 - 1e-9 and move <= 1e-6, "the buoy stays at its static equilibrium (1e-6 m)")
check(kin <= 1e-6, "nothing moves (kinetic energy below 1e-6 J)")
with open(os.path.join(d, "summary.json")) as f:
    s = json.load(f)
check(s.get("analysis") == "dynamic_lines" and s.get("completed") is True, "summary: dynamic_lines, completed")
worst = 0.0
for name, line in s["lines"].items():
    for end in ("bottom", "top"):
        st = line[end]["tension_N"]
        dy = s["dynamic"]["lines"][name][end]
        worst = max(worst, abs(dy["max_tension_N"] - st) / st, abs(dy["min_tension_N"] - st) / st)
print(f"rest: the dynamic end tensions differ from the static ones by at most {worst:.3g} (relative)")
check(worst <= 1e-6, "the end tensions stay the static ones (1e-6)")
# --restart of a run of lines with another model is refused with exit 2, the folder untouched
# (the restart itself: check_system_restart.py)
before = {f: open(os.path.join(d, f), "rb").read() for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))}
p = subprocess.run([pipelay, "run", os.path.join(models, "system_lazy_s.yaml"), "--restart", d, "--no-plots",
                    "--set", "analysis.dynamic.rtol=1e-6"], capture_output=True, text=True, env=env)
after = {f: open(os.path.join(d, f), "rb").read() for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))}
check(p.returncode == 2 and "the model differs" in p.stderr and before == after,
      f"--restart of a model of lines with another rtol is refused (exit {p.returncode}), the folder as it was")

print(f"{failures} failed")
sys.exit(1 if failures else 0)
