#!/usr/bin/env python3
"""check_lines_ranks.py - a model of several lines (points, bodies) gives the same static
equilibrium on 2 and 3 MPI ranks as on one (issue 14): every number of summary.json's lines,
points and bodies, and every column of each line's static.csv, within 1e-8 of its scale: the
largest magnitude, in the one-rank run, of the quantities of its unit (its key's suffix: _N,
_Nm, _m, ...; so that a shear force of a few newtons in a cable is measured against its
tensions, as round-off in it is); 1 for a unit whose quantities all vanish.
usage: check_lines_ranks.py PIPELAY MPIEXEC WORKDIR MODEL.yaml [MODEL.yaml ...]
Quiet on success apart from one line per model; exit 1 on a difference.
"""
import csv, json, os, subprocess, sys

pipelay, mpiexec, work = sys.argv[1:4]
models = sys.argv[4:]
os.makedirs(work, exist_ok=True)
env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
failures = []


def run(model, ranks, out):
    cmd = ([pipelay] if ranks == 1 else mpiexec.split() + ["-n", str(ranks), pipelay])
    cmd += ["run", model, "--output", out, "--quiet", "--no-plots"]
    r = subprocess.run(cmd, env=env, cwd=work, capture_output=True, text=True)
    if r.returncode:
        failures.append(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.strip()[:300]}")
    return os.path.join(work, out)


def numbers(obj, prefix=""):
    """Flattens the numbers of a JSON object: {path: value}."""
    out = {}
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.update(numbers(v, f"{prefix}{k}."))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.update(numbers(v, f"{prefix}{i}."))
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        out[prefix[:-1]] = float(obj)
    return out


def unit(key):
    """The unit suffix of a key (force_from_lines_N.2 -> N)."""
    base = ".".join(p for p in key.split(".") if not p.isdigit()).split(".")[-1]
    return base.rsplit("_", 1)[-1] if "_" in base else base


def table(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


for model in models:
    name = os.path.splitext(os.path.basename(model))[0]
    one = run(model, 1, f"{name}_r1")
    worst = 0.0
    for k in (2, 3):
        other = run(model, k, f"{name}_r{k}")
        if failures:
            break
        with open(os.path.join(one, "summary.json")) as f:
            a = json.load(f)
        with open(os.path.join(other, "summary.json")) as f:
            b = json.load(f)
        for part in ("lines", "points", "bodies"):
            na, nb = numbers(a.get(part, {})), numbers(b.get(part, {}))
            scale = {}
            for key, v in na.items():
                scale[unit(key)] = max(scale.get(unit(key), 0.0), abs(v))
            for key, v in na.items():
                sc = scale[unit(key)]
                d = abs(v - nb.get(key, float("nan"))) / (sc if sc > 0 else 1.0)
                worst = max(worst, d) if d == d else float("inf")
                if not d <= 1e-8:
                    failures.append(f"{name}, {k} ranks: {part}.{key} = {nb.get(key)} against {v} on one rank")
        for line in sorted(a.get("lines", {})):
            ta = table(os.path.join(one, f"line_{line}", "static.csv"))
            tb = table(os.path.join(other, f"line_{line}", "static.csv"))
            scale = {}
            for col, va in ta.items():
                scale[unit(col)] = max(scale.get(unit(col), 0.0), max(abs(x) for x in va))
            for col, va in ta.items():
                sc = scale[unit(col)]
                d = max(abs(x - y) for x, y in zip(va, tb[col])) / (sc if sc > 0 else 1.0)
                worst = max(worst, d)
                if not d <= 1e-8:
                    failures.append(f"{name}, {k} ranks: line {line}, static.csv {col}: {d:.3g} of its scale")
    print(f"check_lines_ranks: {name}: 2 and 3 ranks against one, largest difference {worst:.2e} of the scale")

for msg in failures:
    print(f"check_lines_ranks: FAIL {msg}", file=sys.stderr)
sys.exit(1 if failures else 0)
