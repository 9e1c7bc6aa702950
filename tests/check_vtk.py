#!/usr/bin/env python3
"""check_vtk.py - reads the ParaView files of a pipelay run with VTK's own reader and
compares them with the CSV files of the same run.

usage: check_vtk.py RUN_DIR [--outer-diameter D]

The .vtu files are read with vtkXMLUnstructuredGridReader (python3-vtk9), an
implementation independent of pipelay's writer; the .pvd collections are plain XML (VTK
has no reader for them outside ParaView) and are parsed with xml.etree.

RUN_DIR/static.pvd (a static run, and the static start of a dynamic one): exactly one
data set at t = 0; the line's point count equals the rows of static.csv; the positions
and every point-data array equal the columns of the same name in static.csv (t2, t3
against t2_x..t3_z) to 1e-12 relative (the values are written in binary from the doubles
that static.csv prints with 17 digits, so they agree exactly); radius_m = outer_diameter_m
/ 2 and outer_diameter_m = D when --outer-diameter is given; one poly line through all
points in order; the field TimeValue equals the .pvd time.

RUN_DIR/dynamic.pvd (a dynamic run): strictly increasing times, every file listed exists
and every dynamic_*.vtu in RUN_DIR/vtk is listed; every line has the node count and arc
lengths S_m of static.csv; the top node (last point) of the last output equals the last
row of timeseries_top.csv (time and position to 1e-12 relative, 1e-9 m absolute floor).
Extra blocks (pvd part > 0) must read back with points and cells.

Quiet on success; one line per failure and exit status 1.
"""
import csv
import glob
import math
import os
import sys
import xml.etree.ElementTree as ET

try:
    import vtk
except ImportError:
    print("check_vtk: the Python module vtk is missing (Debian: apt-get install python3-vtk9); "
          "run with /usr/bin/python3", file=sys.stderr)
    sys.exit(1)

LINE_ARRAYS = {
    "S_m": 1, "outer_diameter_m": 1, "radius_m": 1, "effective_tension_N": 1,
    "shear_force_2_N": 1, "shear_force_3_N": 1, "torque_Nm": 1, "bending_moment_2_Nm": 1,
    "bending_moment_3_Nm": 1, "curvature_1pm": 1, "axial_strain": 1, "seabed_force_Npm": 1,
    "t2": 3, "t3": 3,
}
VTK_POLY_LINE = 4
failures = []


def fail(msg):
    failures.append(msg)


def close(a, b, rel=1e-12, floor=0.0):
    return a == b or abs(a - b) <= max(rel * max(abs(a), abs(b)), floor)


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header = rows[0]
    cols = {name: [float(r[k]) for r in rows[1:]] for k, name in enumerate(header)}
    return header, cols, len(rows) - 1


def read_pvd(path):
    root = ET.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        fail(f"{path}: not a VTK collection")
        return []
    out = []
    for ds in root.find("Collection").findall("DataSet"):
        out.append((float(ds.get("timestep")), int(ds.get("part", "0")), ds.get("file")))
    return out


def read_vtu(path):
    errors = []
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.AddObserver("ErrorEvent", lambda obj, ev: errors.append(ev))
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if errors or grid is None:
        fail(f"{path}: VTK could not read it")
        return None
    return grid


def array_values(grid, name, ncomp, path):
    a = grid.GetPointData().GetArray(name)
    if a is None:
        fail(f"{path}: point-data array {name} missing")
        return None
    if a.GetNumberOfComponents() != ncomp or a.GetNumberOfTuples() != grid.GetNumberOfPoints():
        fail(f"{path}: {name} has {a.GetNumberOfComponents()} components x {a.GetNumberOfTuples()} "
             f"tuples, want {ncomp} x {grid.GetNumberOfPoints()}")
        return None
    return [a.GetTuple(i) for i in range(a.GetNumberOfTuples())]


def check_line(grid, path, t, nrows, outer_diameter):
    """Structure common to static and dynamic lines; returns {array: tuples} or None."""
    n = grid.GetNumberOfPoints()
    if n != nrows:
        fail(f"{path}: {n} points, static.csv has {nrows} rows")
        return None
    if grid.GetNumberOfCells() != 1 or grid.GetCellType(0) != VTK_POLY_LINE:
        fail(f"{path}: want one poly line cell")
    else:
        ids = grid.GetCell(0).GetPointIds()
        if ids.GetNumberOfIds() != n or any(ids.GetId(i) != i for i in range(n)):
            fail(f"{path}: the poly line does not run through the points in order")
    tv = grid.GetFieldData().GetArray("TimeValue")
    if tv is None or not close(tv.GetTuple1(0), t):
        fail(f"{path}: field TimeValue missing or not the .pvd time {t}")
    arrays = {}
    for name, ncomp in LINE_ARRAYS.items():
        v = array_values(grid, name, ncomp, path)
        if v is None:
            return None
        arrays[name] = v
    for i in range(n):
        d, r = arrays["outer_diameter_m"][i][0], arrays["radius_m"][i][0]
        if not (d > 0 and r == 0.5 * d):
            fail(f"{path}: point {i}: outer_diameter_m {d}, radius_m {r}")
            return None
        if outer_diameter is not None and not close(d, outer_diameter):
            fail(f"{path}: point {i}: outer_diameter_m {d}, want {outer_diameter}")
            return None
    return arrays


def check_static(run, pvd, outer_diameter):
    entries = read_pvd(pvd)
    lines = [e for e in entries if e[1] == 0]
    if len(lines) != 1 or lines[0][0] != 0.0:
        fail(f"{pvd}: want one data set of the line at t = 0, got {lines}")
        return
    _, cols, nrows = read_csv(os.path.join(run, "static.csv"))
    path = os.path.join(run, lines[0][2])
    grid = read_vtu(path)
    if grid is None:
        return
    arrays = check_line(grid, path, 0.0, nrows, outer_diameter)
    if arrays is None:
        return
    nbad = 0
    for i in range(nrows):
        p = grid.GetPoint(i)
        want = {"x_m": p[0], "y_m": p[1], "z_m": p[2]}
        for name, ncomp in LINE_ARRAYS.items():
            if name in ("outer_diameter_m", "radius_m"):
                continue
            if ncomp == 1:
                want[name] = arrays[name][i][0]
            else:
                for c, axis in enumerate("xyz"):
                    want[f"{name}_{axis}"] = arrays[name][i][c]
        for col, v in want.items():
            if not close(v, cols[col][i]):
                if nbad < 5:
                    fail(f"{path}: node {i}: {col} = {v!r}, static.csv has {cols[col][i]!r}")
                nbad += 1
    if nbad > 5:
        fail(f"{path}: {nbad} values differ from static.csv in all")


def check_extra_blocks(run, entries):
    for t, part, rel in entries:
        if part == 0:
            continue
        path = os.path.join(run, rel)
        grid = read_vtu(path)
        if grid is not None and (grid.GetNumberOfPoints() == 0 or grid.GetNumberOfCells() == 0):
            fail(f"{path}: block (part {part}) has no points or no cells")
        if grid is not None:
            tv = grid.GetFieldData().GetArray("TimeValue")
            if tv is None or not close(tv.GetTuple1(0), t):
                fail(f"{path}: field TimeValue missing or not the .pvd time {t}")


def check_dynamic(run, pvd, outer_diameter):
    entries = read_pvd(pvd)
    lines = [e for e in entries if e[1] == 0]
    if not lines:
        fail(f"{pvd}: no data set of the line")
        return
    times = [e[0] for e in lines]
    if any(b <= a for a, b in zip(times, times[1:])):
        fail(f"{pvd}: times not strictly increasing")
    listed = {os.path.normpath(os.path.join(run, e[2])) for e in entries}
    for f in glob.glob(os.path.join(run, "vtk", "dynamic_*.vtu")):
        if os.path.normpath(f) not in listed:
            fail(f"{f}: not listed in {pvd} (stale file of an earlier run?)")
    for f in listed:
        if not os.path.isfile(f):
            fail(f"{pvd}: lists {f}, which does not exist")
            return
    _, cols, nrows = read_csv(os.path.join(run, "static.csv"))
    last = None
    for t, _, rel in lines:
        path = os.path.join(run, rel)
        grid = read_vtu(path)
        if grid is None:
            return
        arrays = check_line(grid, path, t, nrows, outer_diameter)
        if arrays is None:
            return
        if any(not close(arrays["S_m"][i][0], cols["S_m"][i]) for i in range(nrows)):
            fail(f"{path}: S_m differs from static.csv")
        last = (t, grid.GetPoint(nrows - 1), path)
    check_extra_blocks(run, entries)
    top = os.path.join(run, "timeseries_top.csv")
    if not os.path.isfile(top):
        fail(f"{top}: missing")
        return
    _, ts, nts = read_csv(top)
    t, p, path = last
    row = {k: v[nts - 1] for k, v in ts.items()}
    if not close(row["t_s"], t, 1e-12, 1e-12):
        fail(f"{top}: last time {row['t_s']!r} s, last .pvd time {t!r} s")
    for c, axis in enumerate("xyz"):
        if not close(p[c], row[f"{axis}_m"], 1e-12, 1e-9):
            fail(f"{path}: top node {axis} = {p[c]!r} m, timeseries_top.csv has {row[axis + '_m']!r} m")


def main(argv):
    if len(argv) not in (2, 4) or (len(argv) == 4 and argv[2] != "--outer-diameter"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    run = argv[1]
    outer_diameter = float(argv[3]) if len(argv) == 4 else None
    found = False
    for name, check in (("static.pvd", check_static), ("dynamic.pvd", check_dynamic)):
        pvd = os.path.join(run, name)
        if os.path.isfile(pvd):
            found = True
            check(run, pvd, outer_diameter)
    if not found:
        fail(f"{run}: neither static.pvd nor dynamic.pvd")
    for msg in failures:
        print(f"check_vtk: FAIL {msg}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
