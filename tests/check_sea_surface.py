#!/usr/bin/env python3
"""check_sea_surface.py - the sea surface in the ParaView files of a run in waves
(output/sea_surface.c, PlVtkSeriesAddSea), read with VTK's own reader.

examples/riser_regular_wave.yaml (a 4 m, 10 s Airy wave travelling along +x with phase 90 deg in
100 m of water, g = 9.80665), 3 s with a frame every second:
1. every frame time of dynamic.pvd lists a part "sea" whose file exists (4 frames);
2. each sea grid is 101 x 101 points joined by 100 x 100 quadrilaterals (VTK_QUAD), and covers
   the riser's plan position (0, 0) with at least 20 m of sea on every side;
3. at every point z = elevation_m = a cos(k x cos b + k y sin b - omega t + phi), linear theory
   computed here (k from omega^2 = g k tanh kh by Newton), within 1e-9 m;
and the same riser without waves (calm) writes no sea file and no sea part.

usage: check_sea_surface.py PIPELAY EXAMPLES_DIR WORKDIR
"""
import math, os, subprocess, sys
import xml.etree.ElementTree as ET
from checks import Checks

try:
    import vtk
    from vtk.util.numpy_support import vtk_to_numpy
except ImportError:
    sys.exit("check_sea_surface: the Python module vtk is missing (python3-vtk9); run with /usr/bin/python3")
import numpy as np

G, DEPTH, A, T, BETA, PHI = 9.80665, 100.0, 2.0, 10.0, 0.0, math.radians(90.0)


def wave_number(omega):
    k = omega * omega / G
    for _ in range(60):
        f = G * k * math.tanh(k * DEPTH) - omega * omega
        k -= f / (G * math.tanh(k * DEPTH) + G * k * DEPTH / math.cosh(k * DEPTH) ** 2)
    return k


def parts(run):
    root = ET.parse(os.path.join(run, "dynamic.pvd")).getroot()
    return [(float(d.get("timestep")), d.get("name"), d.get("file")) for d in root.iter("DataSet")]


def main():
    pipelay, examples, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    c = Checks(pipelay, work)
    run = os.path.join(work, "sea_surface")
    model = os.path.join(examples, "riser_regular_wave.yaml")
    p = subprocess.run([pipelay, "run", model, "--output", run, "--quiet", "--no-plots",
                        "--set", "analysis.dynamic.duration=3"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    c.check(p.returncode == 0, "the riser in the regular wave runs (exit %d) %s" % (p.returncode, p.stdout[-400:]))
    if p.returncode:
        sys.exit(1)
    entries = parts(run)
    times = sorted({t for t, _, _ in entries})
    seas = [(t, f) for t, n, f in entries if n == "sea"]
    c.check(len(times) == 4 and [t for t, _ in seas] == times and
            all(os.path.exists(os.path.join(run, f)) for _, f in seas),
            "every frame time (%s) lists a sea part whose file exists" % times)
    omega = 2.0 * math.pi / T
    k = wave_number(omega)
    worst, shape_ok, cover_ok = 0.0, True, True
    for t, f in seas:
        r = vtk.vtkXMLUnstructuredGridReader()
        r.SetFileName(os.path.join(run, f))
        r.Update()
        grid = r.GetOutput()
        pts = vtk_to_numpy(grid.GetPoints().GetData())
        eta = vtk_to_numpy(grid.GetPointData().GetArray("elevation_m"))
        types = {grid.GetCellType(i) for i in range(grid.GetNumberOfCells())}
        shape_ok &= len(pts) == 101 * 101 and grid.GetNumberOfCells() == 100 * 100 and types == {9}
        cover_ok &= pts[:, 0].min() <= -20.0 and pts[:, 0].max() >= 20.0 and pts[:, 1].min() <= -20.0 and \
            pts[:, 1].max() >= 20.0
        want = A * np.cos(k * (pts[:, 0] * math.cos(BETA) + pts[:, 1] * math.sin(BETA)) - omega * t + PHI)
        worst = max(worst, float(np.abs(eta - want).max()), float(np.abs(pts[:, 2] - want).max()))
    c.check(shape_ok, "each sea grid: 101 x 101 points, 100 x 100 quadrilaterals")
    c.check(cover_ok, "each sea grid covers the riser at (0, 0) with at least 20 m on every side")
    c.check(worst <= 1e-9, "z and elevation_m equal Airy's a cos(k x - omega t + phi) at every point: %.2e m (1e-9)"
            % worst)
    with open(model) as fh:
        text = fh.read()
    start = text.index("\nwaves:")
    end = text.index("\nmesh:")
    calm = c.run("sea_surface_calm", (text[:start] + text[end:]).replace("duration: 40", "duration: 2"))
    if calm:
        names = {n for _, n, _ in parts(calm)}
        files = [f for f in os.listdir(os.path.join(calm, "vtk")) if f.endswith("_sea.vtu")]
        c.check("sea" not in names and not files, "a calm run writes no sea surface (%d files)" % len(files))
    sys.exit(1 if c.fails else 0)


if __name__ == "__main__":
    main()
