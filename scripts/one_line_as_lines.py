#!/usr/bin/env python3
"""one_line_as_lines.py - a one-line model (line:, mesh:, ends:) rewritten as a model of one
line of lines: (lines: [{name, line, mesh, ends}]), which pipelay runs on the system core
(solver/lines.c, system_static.c, system_dynamic.c and the system's run driver) instead of
the one-line path. Output points get the line's name; time-series motion files are made
absolute. Used by tests/check_one_line_system.py.

  one_line_as_lines.py SRC DST [NAME]     (NAME default: pipe)
"""
import os
import sys

import yaml


def as_lines(src, dst, name="pipe", extra=None):
    with open(src) as f:
        m = yaml.safe_load(f)
    line = {"name": name, "line": m.pop("line"), "mesh": m.pop("mesh"), "ends": m.pop("ends")}
    m["lines"] = [line]
    out = m.setdefault("output", {})
    for pt in out.get("points", []):
        pt["line"] = name
    for k, v in (extra or {}).items():
        m[k] = v
    for e in line["ends"].values():
        mo = (e or {}).get("motion") or {}
        if "file" in mo:
            mo["file"] = os.path.join(os.path.dirname(os.path.abspath(src)), mo["file"])
    with open(dst, "w") as f:
        yaml.safe_dump(m, f, sort_keys=False)


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    as_lines(*sys.argv[1:])
