#!/usr/bin/env python3
# make_reference.py - the closed form of hanging.yaml for the "pipelay compare" test (run once
# by hand; the outputs are committed). A vertical pipe, clamped at (0, 0, -200) and pulled up
# at its free top by F, carries the effective tension T(S) = F - w (L - S) and stretches to
# z(S) = -200 + S + ((F - w L) S + w S^2/2) / EA, x = y = 0 (w the submerged weight per length).
# The reference points S = 6, 13.5, ..., 88.5 lie between the run's nodes (every 5 m), away
# from the end elements (whose node value is the element's midpoint value), and the columns
# are in another order than in static.csv:
#   reference.csv        z_m, effective_tension_N, S_m, x_m (comma-separated)
#   reference_blank.txt  the same, blank-separated with quoted names
#   reference_wrong.csv  the same with the tension 1% too high: compare must fail
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
L, EA, F, g = 100.0, 1.0e8, 1.0e5, 9.81
w = (100.0 - 1025.0 * math.pi * 0.2 ** 2 / 4) * g
S = [6 + 7.5 * k for k in range(12)]


def rows(scale):
    for s in S:
        T = F - w * (L - s)
        z = -200 + s + ((F - w * L) * s + w * s * s / 2) / EA
        yield z, T * scale, s, 0.0


head = "# hanging.yaml in closed form (make_reference.py): w = %.9f N/m\n" % w
with open(os.path.join(HERE, "reference.csv"), "w") as f:
    f.write(head + "z_m,effective_tension_N,S_m,x_m\n")
    for r in rows(1.0):
        f.write("%.12f,%.9f,%g,%g\n" % r)
with open(os.path.join(HERE, "reference_blank.txt"), "w") as f:
    f.write(head + '"z_m"  "effective_tension_N"  "S_m"  "x_m"\n')
    for r in rows(1.0):
        f.write("%.12f  %.9f  %g  %g\n" % r)
with open(os.path.join(HERE, "reference_wrong.csv"), "w") as f:
    f.write(head.replace("closed form", "closed form, tension 1% too high") + "z_m,effective_tension_N,S_m,x_m\n")
    for r in rows(1.01):
        f.write("%.12f,%.9f,%g,%g\n" % r)
