#!/usr/bin/env python3
"""check_dp_sec44.py - the section 4.4 DP scenario (examples/dp_sec44.yaml), PD and PID.

Runs pipelay with the PD gains (eqs 4.46-4.47) and with the PID gains (4.48-4.50) and checks
what Figs 4.3 and 4.4 of the Saefstroem thesis show:
  PD:  the vessel settles at a steady offset from the reference (the bias of Fig 4.3): the
       horizontal offset changes by less than 1% of itself over the last 50 s, and it is the
       offset at which the controller's force balances the loads: in the global frame,
       Kp (x - x_ref) and Kp (y - y_ref) equal the horizontal loads of pipe and environment
       (thrust + pipe + environment = 0) within 2% of the environmental force;
  PID: the offset at 200 s is below 5% of the PD bias (Fig 4.4: the integral action removes
       the bias).
Usage: check_dp_sec44.py PIPELAY EXAMPLE OUTDIR
"""
import csv, math, os, subprocess, sys

pipelay, example, out = sys.argv[1:4]
PD = ["--set", "vessel.dp.kp=[0.5e6,0.5e6,0,0,0,0]", "--set", "vessel.dp.kd=[0.4e7,0.4e7,0,0,0,0]",
      "--set", "vessel.dp.ki=[0,0,0,0,0,0]"]
failures = 0


def check(ok, what):
    global failures
    print(("PASS " if ok else "FAIL ") + what)
    failures += 0 if ok else 1


def run(name, extra):
    d = os.path.join(out, name)
    r = subprocess.run([pipelay, "run", example, "--output", d, "--no-plots", "--quiet"] + extra,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        sys.exit(f"FAIL {name}: pipelay exited with {r.returncode}")
    with open(os.path.join(d, "timeseries_vessel.csv")) as f:
        rows = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
    return rows


def at(rows, t):
    return min(rows, key=lambda r: abs(r["t_s"] - t))


pd = run("pd", PD)
pid = run("pid", [])
pd200, pd150, pid200 = at(pd, 200), at(pd, 150), at(pid, 200)
bias = pd200["offset_m"]
print(f"PD: offset {pd150['offset_m']:.4f} m at 150 s, {bias:.4f} m at 200 s "
      f"(x {pd200['x_m'] - pd200['x_ref_m']:+.4f} m, y {pd200['y_m'] - pd200['y_ref_m']:+.4f} m)")
print(f"PID: offset {pid200['offset_m']:.4f} m at 200 s = {100 * pid200['offset_m'] / bias:.2f}% of the PD bias")
check(bias > 0.5, "PD leaves a bias (offset > 0.5 m)")
check(abs(bias - pd150["offset_m"]) < 0.01 * bias, "PD offset steady over the last 50 s (1%)")
# global horizontal balance at 200 s: R (thrust + pipe) + environment = 0
yaw, pitch, roll = (math.radians(pd200[k]) for k in ("yaw_deg", "pitch_deg", "roll_deg"))
cz, sz, cy, sy, cx, sx = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch), math.cos(roll), math.sin(roll)
R = [[cz * cy, cz * sy * sx - sz * cx, cz * sy * cx + sz * sx],
     [sz * cy, sz * sy * sx + cz * cx, sz * sy * cx - cz * sx]]
thrust = [pd200["thrust_surge_N"], pd200["thrust_sway_N"], 0.0]
pipe = [pd200["pipe_surge_N"], pd200["pipe_sway_N"], pd200["pipe_heave_N"]]
env = [0.0, 6.0e5]
for i, axis in enumerate("xy"):
    th = sum(R[i][k] * thrust[k] for k in range(3))
    pl = sum(R[i][k] * pipe[k] for k in range(3))
    print(f"PD balance {axis}: thrust {th:.1f} N, pipe {pl:.1f} N, environment {env[i]:.1f} N")
    check(abs(th + pl + env[i]) < 0.02 * 6.0e5, f"PD: thrust balances pipe and environment in {axis} (2% of w)")
check(pid200["offset_m"] < 0.05 * bias, "PID: offset at 200 s below 5% of the PD bias")
sys.exit(1 if failures else 0)
