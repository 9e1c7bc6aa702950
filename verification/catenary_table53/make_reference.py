#!/usr/bin/env python3
# make_reference.py - writes the reference data of the case catenary_table53 (run once by
# hand; the outputs are committed, nothing runs this at build or test time):
#   table53.csv       Table 5.3 of the Saefstroem thesis (2009), copied: hang-off angle and
#                     layback of the catenary and of the thesis's pipe model with EI = 0
#   catenary_H*.csv   the natural catenary's shape (Fig. 5.4), closed form: a line of
#                     submerged weight w = (m_p - rho_w pi d_o^2/4) g = 1234.11 N/m (Tables
#                     5.1, 5.2) under horizontal tension H touches the seabed tangentially
#                     at the arc length L - s from the bottom end (x = 0), s = sqrt(h^2 +
#                     2 a h), a = H/w, h = 899.619 m (the top at z = 0 above the centreline's
#                     contact plane, z = -900 + d_o/2 - w/k, k = 1e9 N/m^2); on the seabed
#                     x = S, z = -h; above it, with sigma = S - (L - s),
#                     x = (L - s) + a asinh(sigma/a), z = -h + a (sqrt(1 + (sigma/a)^2) - 1),
#                     curvature = a / (a^2 + sigma^2) (inextensible, EI = 0).
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
L, d_o, m_p, rho_w, g, k = 1500.0, 0.762, 593.2818, 1025.0, 9.80665, 1.0e9
w = (m_p - rho_w * math.pi / 4 * d_o ** 2) * g
h = 0.0 - (-900.0 + d_o / 2 - w / k)

with open(os.path.join(HERE, "table53.csv"), "w") as f:
    f.write("# Table 5.3 of the Saefstroem thesis (NTNU 2009, Chapter 5 = Jensen et al., Ocean\n"
            "# Engineering): static J-lay, 30 in pipe, 900 m water, without bending stiffness.\n"
            "# *_catenary: the natural catenary; *_pipe_EI0: the thesis's pipe model with EI = 0.\n"
            "H_kN,hang_off_catenary_deg,layback_catenary_m,hang_off_pipe_EI0_deg,layback_pipe_EI0_m\n"
            "200,81.22,415.25,81.22,412.25\n"
            "400,74.64,649.41,74.64,645.10\n"
            "800,65.24,982.24,65.24,975.51\n")

for H in (200e3, 400e3, 800e3):
    a = H / w
    s = math.sqrt(h * h + 2 * a * h)
    laid = L - s
    with open(os.path.join(HERE, "catenary_H%d.csv" % round(H / 1e3)), "w") as f:
        f.write("# The natural catenary, H = %g kN (closed form; see make_reference.py): w = %.6f N/m,\n"
                "# a = H/w = %.6f m, h = %.9f m, suspended length s = %.6f m, layback %.6f m,\n"
                "# hang-off angle %.6f deg.\n" % (H / 1e3, w, a, h, s, a * math.asinh(s / a),
                                                  math.degrees(math.atan(s / a))))
        f.write("S_m,x_m,z_m,curvature_1pm\n")
        n = 300
        for i in range(n + 1):
            S = L * i / n
            if S <= laid:
                x, z, kap = S, -h, 0.0
            else:
                sig = S - laid
                x = laid + a * math.asinh(sig / a)
                z = -h + a * (math.sqrt(1 + (sig / a) ** 2) - 1)
                kap = a / (a * a + sig * sig)
            f.write("%.6f,%.9f,%.9f,%.9e\n" % (S, x, z, kap))
