#!/usr/bin/env python3
"""make_reference.py - the reference of the verification case jlay_slope, run once by hand
(python3 make_reference.py): writes slope.yaml's derived numbers (printed) and reference.csv.

The natural catenary of verification/catenary_table53 (the 30-inch pipe of Tables 5.1-5.2,
900 m of water at x = 0, EI ~ 0, a rigid seabed, H = 400 kN at the top) laid onto a seabed that
rises at beta = 5 deg towards the vessel (+x): the plane z = -900 + x tan(beta), frictionless.

Closed form (inextensible; the pipe's axis in the plane parallel to the seabed at the rest
offset r = d_o/2 - w cos(beta)/k along its normal, the anchor at x_a on it). The laid part is
straight along the slope; on a frictionless plane its tension changes along it by the weight's
component, dT/ds = w sin(beta) going up-slope. The suspended part is a catenary a = H/w
(z = z_v + a cosh((x - x_v)/a)) that leaves the plane tangentially: at the touchdown its slope
is tan(beta), so u_TD = (x_TD - x_v)/a = asinh(tan beta) and the tension there H/cos(beta). With
s the laid length, x_TD = x_a + s cos(beta), z_TD = z_a + s sin(beta); the top at z = 0:
    cosh(u_top) = cosh(u_TD) - z_TD/a,      L - s = a (sinh(u_top) - tan(beta)),
solved for s by bisection (to round-off). Then the top tension T_top = H cosh(u_top), the
hang-off angle atan(sinh u_top) from the horizontal, the layback x_top - x_TD with
x_top = x_TD + a (u_top - u_TD), the anchor's tension H/cos(beta) - w sin(beta) s, and the
seabed's normal force on the laid pipe w cos(beta) per metre (the tension along the plane
takes the rest of the weight).
"""
import math

G, RHO = 9.80665, 1025.0
D_O, M_P, L = 0.762, 593.2818, 1500.0
K_SEABED = 1.0e9
H = 400e3
BETA = math.radians(5.0)
W = (M_P - RHO * math.pi / 4 * D_O ** 2) * G
A = H / W
N = (-math.sin(BETA), 0.0, math.cos(BETA))
REST = D_O / 2 - W * math.cos(BETA) / K_SEABED        # the axis above the plane
XA, ZA = REST * N[0], -900.0 + REST * N[2]           # the anchor: above (0, 0, -900) on the normal
U_TD = math.asinh(math.tan(BETA))


def residual(s):
    z_td = ZA + s * math.sin(BETA)
    u_top = math.acosh(math.cosh(U_TD) - z_td / A)
    return A * (math.sinh(u_top) - math.tan(BETA)) - (L - s), u_top


lo, hi = 0.0, L
for _ in range(200):
    mid = 0.5 * (lo + hi)
    if residual(mid)[0] < 0:  # the catenary to the surface is shorter than what is left: more laid
        lo = mid
    else:
        hi = mid
s = 0.5 * (lo + hi)
f, u_top = residual(s)
x_td = XA + s * math.cos(BETA)
x_top = x_td + A * (u_top - U_TD)
values = [
    ("laid_length_m", s, "m"),
    ("touchdown_x_m", x_td, "m"),
    ("top_x_m", x_top, "m"),
    ("top_tension_N", H * math.cosh(u_top), "N"),
    ("hang_off_angle_deg", math.degrees(math.atan(math.sinh(u_top))), "deg"),
    ("layback_m", x_top - x_td, "m"),
    ("anchor_tension_N", H / math.cos(BETA) - W * math.sin(BETA) * s, "N"),
    ("touchdown_tension_N", H / math.cos(BETA), "N"),
    ("normal_force_Npm", W * math.cos(BETA), "N/m"),
]
print("w = %.6f N/m, a = %.6f m, anchor (%.9f, 0, %.9f) m, residual %.2e m" % (W, A, XA, ZA, f))
for name, v, unit in values:
    print("%-22s %.9g %s" % (name, v, unit))
with open("reference.csv", "w") as out:
    out.write("# jlay_slope: the natural catenary laid onto a frictionless seabed rising at 5 deg\n"
              "# (make_reference.py: closed form, inextensible)\nname,value,unit\n")
    for name, v, unit in values:
        out.write("%s,%.12g,%s\n" % (name, v, unit))

# The same plane as a bathymetry grid (seabed.bathymetry, run "grid"): depths on a regular
# 25 m x 50 m grid covering the line with a margin; the bicubic interpolation with
# Catmull-Rom slopes reproduces a plane exactly, so the grid run must match the plane's.
with open("slope_grid.csv", "w") as out:
    out.write("# jlay_slope: the plane z = -900 + x tan(5 deg) as depths on a grid (make_reference.py)\n"
              "x,y,depth\n")
    for j in range(-2, 3):
        for i in range(-4, 57):
            x, y = 25.0 * i, 50.0 * j
            out.write("%.1f,%.1f,%.9f\n" % (x, y, 900.0 - x * math.tan(BETA)))

# A curved seabed for tests/check_bathymetry.py: the 5 deg plane with a 3 m deep, 80 m wide
# Gaussian dip at x = 200 m across the laid pipe and a 0.5 % cross-slope in y, on a 10 m grid.
with open("dip_grid.csv", "w") as out:
    out.write("# jlay_slope: the 5 deg plane with a Gaussian dip and a cross-slope (make_reference.py)\n"
              "x,y,depth\n")
    for j in range(-10, 11):
        for i in range(-10, 121):
            x, y = 10.0 * i, 10.0 * j
            z = -900.0 + x * math.tan(BETA) - 3.0 * math.exp(-((x - 200.0) / 80.0) ** 2) + 0.005 * y
            out.write("%.1f,%.1f,%.9f\n" % (x, y, -z))
