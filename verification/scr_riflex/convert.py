#!/usr/bin/env python3
# convert.py - turns the SIMA/RIFLEX output of the steel catenary riser (scr_riflex.csv,
# copied unchanged from SINTEF's Muscade.jl examples/SCR.csv, commit 08f46e21; see
# README_riflex_data.md) into the files this case uses. Run once by hand when the source
# data change; its outputs are committed, and nothing runs it at build or test time:
#
#   python3 convert.py        (in this folder)
#
# Writes
#   reference_static.csv      the first row (t = 0.1 s, the static state): name,value,unit
#   reference_timeseries.csv  t_s and the three result columns, renamed, SI units
#   top_motion.csv            the prescribed top motion for pipelay (ends.top.motion file):
#                             header t,x,y,z, offsets from the static position in the
#                             global frame. RIFLEX's x displacement has the opposite sign
#                             to the global x (a growing RIFLEX x moves the top towards the
#                             bottom end), so x = -(X(t) - X(t1)); z = Z(t) - Z(t1); y = 0;
#                             t1 = 0.1 s is the first row. A row t = 0 with zero offsets is
#                             put in front (RIFLEX's first stored step is t = 0.1 s).
#   top_motion_c1.csv         the same motion for the case's diagnostic run: the Catmull-Rom
#                             spline through the 0.1 s samples (C1: no velocity jumps), written
#                             every 0.01 s. pipelay interpolates a time series linearly, so
#                             top_motion.csv changes the top's velocity abruptly every 0.1 s;
#                             the diagnostic run shows what that does to the axial force.
import csv
import os
import shlex

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = (500.0, 3.1)  # the static top position (x, z) [m], README_riflex_data.md
SOURCE = "SINTEF Muscade.jl examples/SCR.csv (commit 08f46e21), SIMA/RIFLEX; copied as scr_riflex.csv"


def main():
    rows = []
    with open(os.path.join(HERE, "scr_riflex.csv")) as f:
        header = shlex.split(f.readline())
        for line in f:
            if line.strip():
                rows.append([float(v) for v in line.split()])
    col = {name: k for k, name in enumerate(header)}
    t = col["x"]
    kap = col["Curvature about local y-axis, end 1"]
    mom = col["Mom. about local y-axis, end 1"]
    axf = col["Axial force"]
    dx = col["Displacement in x - direction"]
    dz = col["Displacement in z - direction"]
    first = rows[0]

    with open(os.path.join(HERE, "reference_static.csv"), "w", newline="") as f:
        f.write("# Static state of the SCR: the first row (t = 0.1 s) of the SIMA/RIFLEX output.\n")
        f.write("# Source: %s. Written by convert.py.\n" % SOURCE)
        f.write("# curvature and moment: element 64 (from the seabed end), its end 1, S = 330 m;\n")
        f.write("# axial force: the top element.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["name", "value", "unit"])
        w.writerow(["axial_force_top", repr(first[axf]), "N"])
        w.writerow(["curvature_el64_end1", repr(first[kap]), "1/m"])
        w.writerow(["bending_moment_el64_end1", repr(first[mom]), "N m"])

    with open(os.path.join(HERE, "reference_timeseries.csv"), "w", newline="") as f:
        f.write("# Time series of the SCR under the prescribed top motion, SIMA/RIFLEX.\n")
        f.write("# Source: %s. Written by convert.py.\n" % SOURCE)
        f.write("# axial_force_top_N: the top element; curvature/bending moment: element 64, end 1\n")
        f.write("# (S = 330 m); top_dx_m, top_dz_m: the prescribed top motion in the global frame,\n")
        f.write("# offsets from the first row (x with its sign turned: see convert.py); top_x_m, top_z_m:\n")
        f.write("# the top's position, the publisher's static top (500, 0, 3.1) plus these offsets.\n")
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["t_s", "axial_force_top_N", "curvature_el64_end1_1pm",
                    "bending_moment_el64_end1_Nm", "top_dx_m", "top_dz_m", "top_x_m", "top_z_m"])
        for r in rows:
            ddx, ddz = -(r[dx] - first[dx]) + 0.0, r[dz] - first[dz]
            w.writerow(["%.4f" % r[t], repr(r[axf]), repr(r[kap]), repr(r[mom]),
                        repr(ddx), repr(ddz), repr(TOP[0] + ddx), repr(TOP[1] + ddz)])

    with open(os.path.join(HERE, "top_motion.csv"), "w", newline="") as f:
        f.write("# Prescribed top motion of the SCR (offsets from the static position, global\n")
        f.write("# frame, m), from the SIMA/RIFLEX displacement columns. Source: %s.\n" % SOURCE)
        f.write("# Written by convert.py: x = -(X - X(0.1 s)), z = Z - Z(0.1 s), y = 0.\n")
        f.write("t,x,y,z\n")
        f.write("0,0,0,0\n")
        for r in rows:
            f.write("%.4f,%r,0,%r\n" % (r[t], -(r[dx] - first[dx]) + 0.0, r[dz] - first[dz]))

    # the C1 spline (Catmull-Rom) through the samples t1 .. tn (uniform 0.1 s), every 0.01 s
    ts = [r[t] for r in rows]
    ox = [-(r[dx] - first[dx]) + 0.0 for r in rows]
    oz = [r[dz] - first[dz] for r in rows]
    h = 0.1

    def spline(p, i, u):
        p0, p1 = p[max(i - 1, 0)], p[i]
        p2, p3 = p[min(i + 1, len(p) - 1)], p[min(i + 2, len(p) - 1)]
        return 0.5 * (2 * p1 + (p2 - p0) * u + (2 * p0 - 5 * p1 + 4 * p2 - p3) * u * u
                      + (3 * p1 - p0 - 3 * p2 + p3) * u ** 3)

    with open(os.path.join(HERE, "top_motion_c1.csv"), "w", newline="") as f:
        f.write("# Prescribed top motion of the SCR, as top_motion.csv but along the Catmull-Rom spline\n")
        f.write("# through its 0.1 s samples (C1), every 0.01 s (diagnostic run; see convert.py).\n")
        f.write("# Source: %s.\n" % SOURCE)
        f.write("t,x,y,z\n")
        f.write("0,0,0,0\n")
        n = int(round((ts[-1] - ts[0]) / 0.01))
        for k in range(n + 1):
            tt = ts[0] + 0.01 * k
            i = min(int((tt - ts[0]) / h + 1e-9), len(ts) - 2)
            u = (tt - (ts[0] + h * i)) / h
            f.write("%.4f,%.6f,0,%.6f\n" % (tt, spline(ox, i, u) + 0.0, spline(oz, i, u) + 0.0))


if __name__ == "__main__":
    main()
