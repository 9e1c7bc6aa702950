#!/usr/bin/env python3
# make_reference.py - writes circle.csv, the closed-form roll-up of the case rollup (run once
# by hand; the output is committed). A rod clamped at (0, 0, -50) along +x under a dead end
# moment M about -y bends with the constant curvature kappa = M/EI = 2 pi / L into the
# circle x = R sin(S/R), z = -50 + R (1 - cos(S/R)), R = L/(2 pi); the bending moment is M
# everywhere and the internal force zero (the rod is inextensible and unsheared here).
import math
import os

L, EI = 10.0, 1.0e4
R = L / (2 * math.pi)
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "circle.csv"), "w") as f:
    f.write("# Cantilever roll-up, closed form (make_reference.py): L = 10 m, EI = 1e4 N m^2,\n"
            "# end moment 2 pi EI / L about -y, circle of radius L/(2 pi) in the x-z plane.\n")
    f.write("S_m,x_m,y_m,z_m,curvature_1pm,bending_moment_Nm\n")
    n = 80
    for i in range(n + 1):
        S = L * i / n
        f.write("%.6f,%.12f,0,%.12f,%.12f,%.9f\n" % (S, R * math.sin(S / R), -50 + R * (1 - math.cos(S / R)),
                                                    1 / R, EI / R))
