#!/usr/bin/env python3
"""check_body_excitation.py - a freely floating body driven by tabulated first-order wave
excitation (vessel.excitation) in a regular Airy wave, without mooring: the steady heave equals
the frequency-domain response of the linear heave equation
    (M + A) z'' + B z' + C z = Re{a X e^{i omega t}},   z = Re{a X e^{i omega t} / (C - omega^2 (M + A) + i omega B)},
M the mass, A the (frequency-independent) added mass, B the linear (radiation) damping,
C = rho g A_wp the heave restoring, X the tabulated heave force RAO (N/m, a phase lag), a the
wave amplitude; the crest at the body at t = 0. The run ramps the sea in over 20 s
(waves.ramp_time); the transient decays as exp(-zeta omega_n t) (zeta = 0.15), and the last five
wave periods are fitted by least squares with z0 + c cos(omega t) + s sin(omega t). Checked: the
amplitude within 1 % and the phase within 1 deg, at two wave periods (below and above the heave
resonance) and two headings of the body (the table's heading relative to the body).
Usage: check_body_excitation.py PIPELAY WORKDIR
"""
import cmath, math, os, subprocess, sys
import numpy as np

pipelay, work = sys.argv[1:3]
os.makedirs(work, exist_ok=True)
rho, g = 1025.0, 9.81
M, A, Awp = 1.0e6, 0.8e6, 200.0
C = rho * g * Awp
wn = math.sqrt(C / (M + A))
B = 2 * 0.15 * wn * (M + A)
X_amp, X_lag = 1.5e6, 25.0  # [N/m], [deg]
amp = 1.2                   # [m] wave amplitude

# the force table: heave only, the same at every heading and period (no interpolation error)
table = os.path.join(work, "heave_force.csv")
with open(table, "w") as f:
    f.write("heading,period,dof,amplitude,phase\n")
    for h in (0, 90, 180, 270):
        for T in (3, 30):
            f.write(f"{h},{T},heave,{X_amp},{X_lag}\n")

failures = 0
for T, yaw in ((8.0, 0.0), (5.0, 30.0)):
    w = 2 * math.pi / T
    model = f"""
environment: {{water_depth: 200, water_density: {rho}, gravity: {g}}}
waves:
  ramp_time: 20
  trains:
    - {{kind: airy, amplitude: {amp}, period: {T}, heading: {yaw}}}
vessel:
  name: floating box
  mass: {M}
  radii_of_gyration: [6, 12, 12]
  added_mass: [[{A}, 0, 0, 0, 0, 0], [0, {A}, 0, 0, 0, 0], [0, 0, {A}, 0, 0, 0], [0, 0, 0, 3.0e7, 0, 0], [0, 0, 0, 0, 1.2e8, 0], [0, 0, 0, 0, 0, 1.2e8]]
  linear_damping: [[1.0e5, 0, 0, 0, 0, 0], [0, 1.0e5, 0, 0, 0, 0], [0, 0, {B}, 0, 0, 0], [0, 0, 0, 1.0e7, 0, 0], [0, 0, 0, 0, 1.0e7, 0], [0, 0, 0, 0, 0, 1.0e7]]
  restoring: {{waterplane_area: {Awp}, heave_equilibrium: -2}}
  initial: {{position: [0, 0, -2], orientation: [0, 0, {yaw}]}}
  excitation: {{file: {table}, heading: towards, phase: lag, origin: [0, 0, 0]}}
analysis: {{type: dynamic, dynamic: {{duration: 140, output_interval: 0.05, rtol: 1.0e-7}}}}
"""
    path = os.path.join(work, f"float_{int(T)}.yaml")
    with open(path, "w") as f:
        f.write(model)
    out = os.path.join(work, f"float_{int(T)}_out")
    r = subprocess.run([pipelay, "run", path, "--output", out, "--quiet", "--no-plots"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        print(r.stdout)
        sys.exit(f"FAIL: pipelay run {path} exited {r.returncode}")
    d = np.genfromtxt(os.path.join(out, "timeseries_vessel.csv"), delimiter=",", names=True)
    sel = d["t_s"] >= 140 - 5 * T - 1e-9
    t, z = d["t_s"][sel], d["z_m"][sel]
    G = np.column_stack([np.ones_like(t), np.cos(w * t), np.sin(w * t)])
    c = np.linalg.lstsq(G, z, rcond=None)[0]
    got = complex(c[1], -c[2])  # z - z0 = Re{got e^{i w t}}
    want = amp * X_amp * cmath.exp(-1j * math.radians(X_lag)) / (C - w * w * (M + A) + 1j * w * B)
    rel = abs(abs(got) - abs(want)) / abs(want)
    dph = math.degrees(cmath.phase(got / want))
    ok = rel <= 0.01 and abs(dph) <= 1.0
    failures += not ok
    print(f"{'ok' if ok else 'FAIL'} T = {T} s, body heading {yaw} deg: heave amplitude {abs(got):.6f} m, "
          f"frequency domain {abs(want):.6f} m ({100 * rel:.3f} %), phase {dph:+.3f} deg (1 %, 1 deg)")
sys.exit(1 if failures else 0)
