#!/usr/bin/env python3
"""check_summary_schema.py - validates a run's summary.json against docs/summary-schema.json.

usage: check_summary_schema.py SCHEMA SUMMARY_JSON

Checks that the schema is a valid JSON Schema (draft 2020-12), that SUMMARY_JSON conforms
to it, and that the schema is strict: it rejects the summary with a required key removed,
with an unknown key added, with converged = false but no failure text, and with a
failure text on a converged static run; it accepts the summary turned into a dynamic one
(analysis "dynamic" and every optional dynamic key). Uses python3-jsonschema (Debian).
Quiet on success; one line per failure and exit status 1.
"""
import copy
import json
import sys

try:
    import jsonschema
except ImportError:
    print("check_summary_schema: the Python module jsonschema is missing "
          "(Debian: apt-get install python3-jsonschema); run with /usr/bin/python3", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) != 3:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    with open(argv[2]) as f:
        summary = json.load(f)
    failures = []
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as e:
        print(f"check_summary_schema: FAIL {argv[1]} is not a valid schema: {e.message}", file=sys.stderr)
        return 1
    v = jsonschema.Draft202012Validator(schema)
    for e in v.iter_errors(summary):
        failures.append(f"{argv[2]}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}")

    def must_reject(doc, what):
        if v.is_valid(doc):
            failures.append(f"the schema accepts a summary {what}")

    bad = copy.deepcopy(summary)
    del bad["converged"]
    must_reject(bad, "without 'converged'")
    bad = copy.deepcopy(summary)
    del bad["input"]["model_file"]
    must_reject(bad, "without 'input.model_file'")
    bad = copy.deepcopy(summary)
    bad["bogus_key"] = 1
    must_reject(bad, "with an unknown key")
    bad = copy.deepcopy(summary)
    bad["newton_iterations"] = 1.5
    must_reject(bad, "with a fractional iteration count")
    bad = copy.deepcopy(summary)
    bad["converged"] = False
    bad.pop("failure", None)
    must_reject(bad, "that did not converge but has no 'failure'")
    bad = copy.deepcopy(summary)
    bad["converged"], bad["analysis"], bad["failure"] = True, "static", "x"
    must_reject(bad, "of a converged static run with a 'failure'")
    # a dynamic summary: the static start's results under static_*, the run's extrema plain
    static_keys = ["top_tension_N", "top_horizontal_tension_N", "hang_off_angle_deg", "layback_m",
                   "touchdown_arc_length_m", "max_bending_moment_Nm", "max_bending_moment_arc_length_m",
                   "max_axial_strain", "max_fibre_strain", "max_effective_tension_N", "max_curvature_1pm"]
    dyn = copy.deepcopy(summary)
    if dyn.get("analysis") == "static":
        for k in static_keys:
            dyn["static_" + k] = dyn.pop(k)
        dyn.update(analysis="dynamic", simulated_time_s=10.0, wall_time_s=2.5, real_time_factor=4.0,
                   steps=120, nonlinear_iterations=300, jacobian_evaluations=40, error_test_failures=3,
                   max_top_tension_N=1.6e6, max_top_tension_time_s=3.0, min_top_tension_N=1.4e6,
                   min_top_tension_time_s=5.0, max_bending_moment_Nm=2.8e6, max_bending_moment_arc_length_m=400.0,
                   max_bending_moment_time_s=4.0, max_effective_tension_N=1.6e6, min_effective_tension_N=-1e3,
                   max_curvature_1pm=3e-3, max_axial_strain=1e-4, max_fibre_strain=1e-3,
                   completed=True, duration_s=10.0, output_interval_s=0.1, static_wall_time_s=0.08,
                   nonlinear_failures=0, residual_evaluations=500, dynamic_failure="interrupted by a signal",
                   files=["summary.json"])
    if not v.is_valid(dyn):
        failures.append("the schema rejects a summary with the dynamic-analysis keys: "
                        + next(v.iter_errors(dyn)).message)
    bad = copy.deepcopy(dyn)
    if bad.get("analysis") == "dynamic":
        bad["top_tension_N"] = bad.pop("static_top_tension_N")
        must_reject(bad, "of a dynamic run with the static start's top tension under its plain name")
        bad = copy.deepcopy(dyn)
        del bad["completed"]
        must_reject(bad, "of a dynamic run without 'completed'")
    for msg in failures:
        print(f"check_summary_schema: FAIL {msg}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
