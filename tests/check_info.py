#!/usr/bin/env python3
"""check_info.py - "pipelay info" on the default case against Table 5.2 of the Saefstroem
thesis (Jensen et al., A nonlinear PDE formulation for offshore vessel pipeline
installation), and its handling of bad input.

usage: check_info.py PIPELAY EXAMPLES_DIR BAD_MODEL

Reference (Table 5.2, 30-inch pipe, d_o = 0.762 m, WT = 0.033 m, steel E = 206 GPa,
G = 79.231 GPa): EA = 1.5569e10 N, EI = 1.0364e9 N m^2 (EI2 and EI3), GJ = 7.9720e8 N m^2,
m_p = 593.2818 kg/m, all to 0.1%; the submerged weight w = (m_p - rho_w pi d_o^2/4) g
computed here from m_p = 593.2818 kg/m, rho_w = 1025 kg/m^3, d_o = 0.762 m,
g = 9.80665 m/s^2, to 0.1%. Also: 740 nodes, 739 elements, water depth 900 m; --set is
honoured (mesh.elements=100 gives 101 nodes); the sea of examples/riser_regular_wave.yaml
(an Airy wave of H = 4 m: m0 = a^2/2 = 2 m^2, one component) and, by --set, a JONSWAP sea of
Hs = 4 m (150 components, 4 sqrt(m0) within 0.3 % of Hs: DNV's m0 is 0.24 % above Hs^2/16, the
synthesis range leaves 0.1 % out); a bad model gives the same message and exit status 2 as
"pipelay run". Quiet on success; one line per failure, exit status 1.
"""
import math
import os
import re
import subprocess
import sys


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def value(text, label):
    """The number after 'label' on its line (first occurrence), or None."""
    m = re.search(r"^\s+" + re.escape(label) + r"\s+([-+0-9.eE]+)(\s|$)", text, re.M)
    return float(m.group(1)) if m else None


def main(argv):
    if len(argv) != 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    pipelay, examples, bad = argv[1:]
    model = os.path.join(examples, "jlay_900m.yaml")
    failures = []
    rc, out, err = run([pipelay, "info", model])
    if rc != 0:
        print(f"check_info: FAIL pipelay info {model} exited {rc}: {err.strip()}", file=sys.stderr)
        return 1
    m_p, rho_w, d_o, g = 593.2818, 1025.0, 0.762, 9.80665
    w = (m_p - rho_w * math.pi * d_o ** 2 / 4) * g
    want = {
        "EA": (1.5569e10, 1e-3), "EI2": (1.0364e9, 1e-3), "EI3": (1.0364e9, 1e-3),
        "GJ": (7.9720e8, 1e-3), "mass per length m_p": (m_p, 1e-3),
        "submerged weight w": (w, 1e-3), "outer diameter d_o": (d_o, 1e-12),
        "water depth": (900.0, 1e-12), "nodes": (740, 0), "elements": (739, 0),
    }
    for label, (ref, tol) in want.items():
        got = value(out, label)
        if got is None:
            failures.append(f"pipelay info prints no '{label}'")
        elif abs(got - ref) > tol * abs(ref):
            failures.append(f"{label}: got {got:.8g}, want {ref:.8g} within {tol:g} relative")
    rc, out, err = run([pipelay, "info", model, "--set", "mesh.elements=100"])
    if rc != 0 or value(out, "nodes") != 101:
        failures.append(f"pipelay info --set mesh.elements=100: status {rc}, nodes {value(out, 'nodes')}, want 101")
    # the sea: an Airy wave of H = 4 m has m0 = a^2/2 = 2 m^2 exactly; a JONSWAP sea of Hs = 4 m
    # (gamma 3.3) realises DNV's m0, 0.24 % above Hs^2/16 less the 0.1 % outside its range
    riser = os.path.join(examples, "riser_regular_wave.yaml")
    rc, out, err = run([pipelay, "info", riser])
    m = re.search(r"realised sea\s+(\d+) linear components, m0 ([-+0-9.eE]+) m\^2", out)
    if rc != 0 or not m or int(m.group(1)) != 1 or abs(float(m.group(2)) - 2.0) > 1e-12:
        failures.append(f"pipelay info {riser}: status {rc}, realised sea {m.groups() if m else None}, want 1 component, m0 2")
    rc, out, err = run([pipelay, "info", riser, "--set",
                        "waves.trains=[{kind: jonswap, hs: 4, tp: 10, gamma: 3.3, n_components: 150, seed: 5}]"])
    m = re.search(r"realised sea\s+(\d+) linear components, m0 ([-+0-9.eE]+) m\^2, Hs = 4 sqrt\(m0\) ([-+0-9.eE]+) m", out)
    if rc != 0 or not m or int(m.group(1)) != 150 or abs(float(m.group(3)) / 4.0 - 1.0) > 3e-3:
        failures.append(f"pipelay info JONSWAP Hs 4 m: status {rc}, realised sea {m.groups() if m else None}, "
                        "want 150 components and 4 sqrt(m0) within 0.3 % of 4 m")
    rc_info, _, err_info = run([pipelay, "info", bad])
    rc_run, _, err_run = run([pipelay, "run", bad, "--output", "check_info_bad_out"])
    if rc_info != 2 or rc_run != 2 or err_info != err_run or not err_info.strip():
        failures.append(f"bad model {bad}: info gives status {rc_info} '{err_info.strip()}', "
                        f"run gives status {rc_run} '{err_run.strip()}'")
    for msg in failures:
        print(f"check_info: FAIL {msg}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
