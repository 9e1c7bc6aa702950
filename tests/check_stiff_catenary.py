#!/usr/bin/env python3
"""check_stiff_catenary.py - a nearly inextensible line converges with the default static
settings and hangs as the elastic catenary.

Model: tests/models/stiff_catenary.yaml (EA = 7.51e12 N, 1000 m of 30 kg/m line between two
pinned points, 500 elements of 2 m). With EA/L_e = 3.8e12 N/m a node 900 m from the origin
(position resolution 1.1e-13 m) cannot be balanced better than about 0.4 N, so the
automatic absolute tolerance (1e-9 of 1e-6 EA = 7.5e-3 N) cannot be met: the static solver
must recognise the residual's resolution (solver/static.c, ResidualResolution) and stop there.
Reference: the elastic catenary between the two ends (Irvine 1981, "Cable structures",
eq 2.47; tests/catenary.py solves it for H and V0), an analytic solution, with the line's
w = (m - rho_w pi d_o^2/4) g: the top's horizontal force H, its vertical force V0 + w L and
its tension sqrt(H^2 + (V0 + w L)^2).
Checked, with default settings (no solver option given):
  the run converges (exit 0, summary converged; the final residual is printed);
  top tension and top horizontal tension within 1e-5 (relative) of the catenary's (the
      500-element discretisation and EI stay below 5e-6: measured 2-3e-6);
  the top's vertical force sqrt(T^2 - H^2) within 1e-5 of V0 + w L.
Usage: check_stiff_catenary.py PIPELAY MODELS_DIR WORKDIR
"""
import json, math, os, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catenary  # noqa: E402

pipelay, models, work = sys.argv[1:4]
os.makedirs(work, exist_ok=True)
L, m, d, EA, rho, g = 1000.0, 30.0, 0.12, 7.51e12, 1025.0, 9.80665
A, B = [0.0, 0.0, -800.0], [900.0, 0.0, -500.0]
TOL = 1e-5
failures = 0


def check(ok, what):
    global failures
    print(("PASS " if ok else "FAIL ") + what)
    failures += 0 if ok else 1


out = os.path.join(work, "stiff_catenary")
p = subprocess.run([pipelay, "run", os.path.join(models, "stiff_catenary.yaml"), "--output", out, "--no-plots",
                    "--quiet"], capture_output=True, text=True)
try:
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
except (OSError, ValueError):
    s = {}
w = (m - rho * math.pi * d * d / 4) * g
fres = s.get("final_residual_norm_N", float("nan"))
check(p.returncode == 0 and s.get("converged") is True,
      "converges with default settings (exit %d; %s Newton iterations, strategy %s, %s PTC steps; final residual "
      "%.3g N of a weight %.6g N)" % (p.returncode, s.get("newton_iterations"), s.get("static_strategy"),
                                      s.get("ptc_steps"), fres, w * L))
if not s.get("converged"):
    print(p.stdout + p.stderr)
    sys.exit(1)
H, V0, TA, TB = catenary.solve(A, B, L, w, EA)
T, Hc = s["top_tension_N"], s["top_horizontal_tension_N"]
V = math.sqrt(max(T * T - Hc * Hc, 0.0))
for what, got, ref in (("top tension", T, TB), ("top horizontal tension", Hc, H), ("top vertical force", V, V0 + w * L)):
    e = got / ref - 1
    check(abs(e) <= TOL, "%s %.9g N against the elastic catenary's %.9g N (%+.2e, tolerance %g)" % (what, got, ref, e, TOL))
print("%d failed" % failures)
sys.exit(1 if failures else 0)
