#!/usr/bin/env python3
# make_reference.py - the pin pulses of the case quaternion_euler (pulse3d.csv) and the
# static position of the rod's free end (reference.csv); run once by hand, the output is
# committed.
#
# The rod of pendulum3d.yaml (L = 2 m, EI = 2e5 N m^2, submerged weight w = (100 - 1025 pi
# 0.2^2/4) 9.81 N/m) hangs from a pin; a dead moment M = 665.1 N m about +y at its free end
# tilts it. Rigid, it settles where the weight's moment about the pin balances M:
# w L^2/2 sin(beta) = M, sin(beta) = 2 M/(w L^2) = 0.5, beta = 30 deg, the free end at
# x = -L sin(beta). Bending: along the rod (xi from the pin) the moment is
# M (1 - (L - xi)^2/L^2), so the deflection from the pin's tangent is
# v(xi) = (M/EI)(xi^3/(3 L) - xi^4/(12 L^2)), v(L) = M L^2/(4 EI), int_0^L v = M L^3/(15 EI);
# the moment balance fixes the integral of the horizontal offsets (int x dxi = M/w), so the
# chord turns back and the free end moves out by cos(beta) (v(L) - 2/L int v) =
# cos(beta) 7 M L^2/(60 EI) = 1.34 mm (small deflections; the stretch and shear of the rod,
# EA = 1e8 N, GA = 4e7 N, move it by about 0.03 mm).
#
# The pin then makes two horizontal sin^2 pulses of D = 0.3 m over tau = T/2 (T = 2.8395 s,
# the small-swing period): in x from t = h and in y a quarter period later (h = tau/40;
# still rows first and last, so that pipelay's cubic interpolation starts and ends with zero
# velocity). They leave the rod swinging in 3-D about its tilted rest (17 to 43 deg from the
# vertical in the x-z plane and up to 17 deg out of it).
import math
import os

here = os.path.dirname(os.path.abspath(__file__))
rho, g = 1025.0, 9.81
L, mu, J2, d, EI, M = 2.0, 100.0, 2.5, 0.2, 2.0e5, 665.1
w = (mu - rho * math.pi * d * d / 4) * g
I = mu * L**3 / 3 + J2 * L
T = 2 * math.pi / math.sqrt(w * L * L / 2 / I)
beta = math.asin(2 * M / (w * L * L))
x_tip = -(L * math.sin(beta) + math.cos(beta) * 7 * M * L * L / (60 * EI))

D, tau, n = 0.3, T / 2, 40
h = tau / n


def bump(t, t0):
    r = (t - t0) / tau
    v = D * math.sin(math.pi * r) ** 2 if 0 < r < 1 else 0.0
    return v if abs(v) > 1e-13 else 0.0


rows = n + 3 + int(math.ceil(T / 4 / h))
with open(os.path.join(here, "pulse3d.csv"), "w") as f:
    f.write("# pin pulses D sin^2(pi (t - t0)/tau), D = %g m, tau = T/2 = %.9g s: x from t0 = h, y from\n"
            "# t0 = h + T/4 (h = tau/40; make_reference.py)\nt,x,y,z\n" % (D, tau))
    for i in range(rows):
        t = i * h
        f.write("%.15g,%.15g,%.15g,0\n" % (t, bump(t, h), bump(t, h + T / 4)))
with open(os.path.join(here, "reference.csv"), "w") as f:
    f.write("# static state of pendulum3d.yaml (make_reference.py)\nname,value,unit\n")
    f.write("tilt,%.9g,deg\n" % math.degrees(beta))
    f.write("static_free_end_x,%.9g,m\n" % x_tip)
print("tilt %.6f deg, free end x %.6f m (rigid %.6f m), pulses over at %.4f s" %
      (math.degrees(beta), x_tip, -L * math.sin(beta), (rows - 1) * h))
