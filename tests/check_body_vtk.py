#!/usr/bin/env python3
"""check_body_vtk.py - the ParaView frames of a model without a line, read back with VTK's
own reader (python3-vtk9, independent of pipelay's writer).

usage: check_body_vtk.py RUN_DIR [--every N] [--box BODY m Ix Iy Iz]

RUN_DIR/dynamic.pvd lists one vtk/bodies_NNNNNN.vtu per N rows of the bodies' time series
(rows 0, N, 2N, ... and the last: output.vtk_interval = N output intervals; N = 1 without
--every), at the same times (1e-12), every file existing. Each frame holds one hexahedron (VTK cell type
12) per body, in the order of summary.json's bodies, with point data body_index; the box's
centre (the mean of its 8 corners) equals O_b of the body's time series row (x_m, y_m,
z_m) to 1e-9 m; its edges are at right angles (1e-9 of their length) and keep their
lengths in every frame (1e-9): a rigid box moving with the body. With --box BODY m Ix Iy Iz
(the body's mass and principal moments of inertia about O_b, from its model) the edges of
BODY's box are those of the uniform box with that mass and inertia, L_x^2 = 6 (I_y + I_z -
I_x)/m and its permutations (sorted, to 1e-9 relative).
Quiet on success; one line per failure and exit status 1.
"""
import csv, json, math, os, sys
import xml.etree.ElementTree as ET
import vtk

run = sys.argv[1]
args = sys.argv[2:]
every = 1
if args[:1] == ["--every"]:
    every = int(args[1])
    args = args[2:]
box = None
if len(args) == 6 and args[0] == "--box":
    m, ix, iy, iz = (float(v) for v in args[2:6])
    box = (args[1], sorted(math.sqrt(6 * (a + b - c) / m) for a, b, c in ((iy, iz, ix), (ix, iz, iy), (ix, iy, iz))))
failures = []
with open(os.path.join(run, "summary.json")) as f:
    bodies = list(json.load(f)["dynamic"]["bodies"])
series = {}
for b in bodies:
    with open(os.path.join(run, f"timeseries_{b}.csv")) as f:
        rows = list(csv.DictReader(f))
        series[b] = [r for k, r in enumerate(rows) if k % every == 0 or k == len(rows) - 1]
sets = ET.parse(os.path.join(run, "dynamic.pvd")).getroot().findall("./Collection/DataSet")
if len(sets) != len(series[bodies[0]]):
    failures.append(f"dynamic.pvd lists {len(sets)} frames, the time series have {len(series[bodies[0]])} rows")
first_edges = None
for k, ds in enumerate(sets[: len(series[bodies[0]])]):
    t = float(ds.get("timestep"))
    path = os.path.join(run, ds.get("file"))
    if not os.path.isfile(path):
        failures.append(f"{path}: missing")
        continue
    if abs(t - float(series[bodies[0]][k]["t_s"])) > 1e-12 * max(1.0, abs(t)):
        failures.append(f"frame {k}: time {t} against {series[bodies[0]][k]['t_s']}")
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    if g.GetNumberOfCells() != len(bodies):
        failures.append(f"{path}: {g.GetNumberOfCells()} cells for {len(bodies)} bodies")
        continue
    edges = []
    for c, b in enumerate(bodies):
        cell = g.GetCell(c)
        if cell.GetCellType() != 12:
            failures.append(f"{path}: cell {c} of type {cell.GetCellType()}, not a hexahedron (12)")
            continue
        p = [g.GetPoint(cell.GetPointId(i)) for i in range(8)]
        centre = [sum(q[i] for q in p) / 8 for i in range(3)]
        row = series[b][k]
        d = max(abs(centre[i] - float(row[("x_m", "y_m", "z_m")[i]])) for i in range(3))
        if d > 1e-9:
            failures.append(f"{path}: body {b}'s box centred {d:.3g} m from O_b")
        e = [[p[j][i] - p[0][i] for i in range(3)] for j in (1, 3, 4)]  # the three edges at corner 0
        lens = [math.sqrt(sum(x * x for x in v)) for v in e]
        for a in range(3):
            for bb in range(a + 1, 3):
                dot = sum(e[a][i] * e[bb][i] for i in range(3))
                if abs(dot) > 1e-9 * lens[a] * lens[bb]:
                    failures.append(f"{path}: body {b}'s box edges {a}, {bb} not at right angles")
        edges.append(lens)
        if box and b == box[0] and k == 0:
            got = sorted(lens)
            if any(abs(x - y) > 1e-9 * max(y, 1e-12) for x, y in zip(got, box[1])):
                failures.append(f"{path}: body {b}'s box edges {got} m, not {box[1]} m (its mass and inertia)")
    if first_edges is None:
        first_edges = edges
    elif any(abs(x - y) > 1e-9 * max(1.0, y) for ea, eb in zip(edges, first_edges) for x, y in zip(ea, eb)):
        failures.append(f"{path}: a box changed its size")
for msg in failures[:20]:
    print(f"check_body_vtk: FAIL {msg}", file=sys.stderr)
sys.exit(1 if failures else 0)
