#!/usr/bin/env python3
"""make_reference.py - the reference of the verification case lines_buoy, run once by hand
(python3 make_reference.py); writes reference.csv, lower_shape.csv and upper_shape.csv.

Problem (buoy.yaml): a cable (EA = 5.0e8 N, perfectly flexible, submerged weight per
unstretched length w = (100 - 1025 pi 0.1^2/4) g, g = 9.80665 m/s^2) in two lines joined at a
free buoy: "lower", 200 m, from a pin at (0, 0, -250) m to the buoy; "upper", 250 m, from the
buoy to a pin at (300, 0, -20) m. The buoy: 5000 kg displacing 30 m^3 of water (1025 kg/m^3),
net upward force B = (1025 x 30 - 5000) g. All in the plane y = 0; no seabed contact.

Each line an elastic catenary with its own arc length s from its first end (lower: the anchor;
upper: the buoy), the horizontal tension H (the same in both: no horizontal load on the buoy)
and the vertical force V(s) = V0 + w s:
    X(H, V0, s) = H/w (asinh((V0 + w s)/H) - asinh(V0/H)) + H s/EA,
    Z(H, V0, s) = (T(s) - T(0))/w + (V0 s + w s^2/2)/EA,   T = sqrt(H^2 + V^2).
The buoy's vertical balance gives the upper line's V0: V2 = V1 + w L1 - B (the lower line pulls
it down with V1 + w L1, the upper line up with V2, the buoyancy up with B). Unknowns H and V1
(the lower line's vertical force at the anchor) from the upper pin's position:
    X(H, V1, L1) + X(H, V2, L2) = 300,   -250 + Z(H, V1, L1) + Z(H, V2, L2) = -20,
by Newton with central-difference derivatives to round-off (the residual is printed).

Written: reference.csv (name, value): H_N, buoy_x_m, buoy_z_m, lower_anchor_tension_N,
lower_buoy_tension_N, upper_buoy_tension_N, upper_top_tension_N, lower_anchor_vertical_N,
upper_top_vertical_N; lower_shape.csv and upper_shape.csv (S_m, x_m, z_m) every 10 m of each
line's unstretched length from its first end (pipelay's S: bottom = the first end).
"""
import math

G, RHO, EA = 9.80665, 1025.0, 5.0e8
W = (100.0 - RHO * math.pi * 0.01 / 4) * G
L1, L2 = 200.0, 250.0
B = (RHO * 30.0 - 5000.0) * G
A, TOP = (0.0, -250.0), (300.0, -20.0)


def X(H, V0, s):
    return H / W * (math.asinh((V0 + W * s) / H) - math.asinh(V0 / H)) + H * s / EA


def Z(H, V0, s):
    return (math.hypot(H, V0 + W * s) - math.hypot(H, V0)) / W + (V0 * s + W * s * s / 2) / EA


def residual(H, V1):
    V2 = V1 + W * L1 - B
    return (A[0] + X(H, V1, L1) + X(H, V2, L2) - TOP[0], A[1] + Z(H, V1, L1) + Z(H, V2, L2) - TOP[1])


def write(name, header, rows):
    with open(name, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join(v if isinstance(v, str) else "%.17g" % v for v in r) + "\n")


if __name__ == "__main__":
    H, V1 = 1.0e5, -1.0e5
    for it in range(100):
        r = residual(H, V1)
        hH, hV = 1e-4 * abs(H), 1e-4 * max(abs(V1), 1.0)
        a = [(residual(H + hH, V1)[i] - residual(H - hH, V1)[i]) / (2 * hH) for i in range(2)]
        b = [(residual(H, V1 + hV)[i] - residual(H, V1 - hV)[i]) / (2 * hV) for i in range(2)]
        det = a[0] * b[1] - a[1] * b[0]
        dH = -(r[0] * b[1] - r[1] * b[0]) / det
        dV = -(a[0] * r[1] - a[1] * r[0]) / det
        step = 1.0
        while H + step * dH <= 0:
            step *= 0.5
        H, V1 = H + step * dH, V1 + step * dV
        if abs(dH) < 1e-13 * H and abs(dV) < 1e-13 * max(abs(V1), 1.0):
            break
    r = residual(H, V1)
    V2 = V1 + W * L1 - B
    bx, bz = A[0] + X(H, V1, L1), A[1] + Z(H, V1, L1)
    print("w = %.10g N/m, B = %.10g N; H = %.12g N, V1 = %.12g N, V2 = %.12g N; buoy (%.9f, %.9f) m; "
          "residual (%.2e, %.2e) m after %d iterations" % (W, B, H, V1, V2, bx, bz, r[0], r[1], it + 1))
    T = lambda V: math.hypot(H, V)
    write("reference.csv", "name,value", [
        ("H_N", H), ("buoy_x_m", bx), ("buoy_z_m", bz),
        ("lower_anchor_tension_N", T(V1)), ("lower_buoy_tension_N", T(V1 + W * L1)),
        ("upper_buoy_tension_N", T(V2)), ("upper_top_tension_N", T(V2 + W * L2)),
        ("lower_anchor_vertical_N", V1), ("upper_top_vertical_N", V2 + W * L2)])
    write("lower_shape.csv", "S_m,x_m,z_m", [(10.0 * k, A[0] + X(H, V1, 10.0 * k), A[1] + Z(H, V1, 10.0 * k))
                                            for k in range(21)])
    write("upper_shape.csv", "S_m,x_m,z_m", [(10.0 * k, bx + X(H, V2, 10.0 * k), bz + Z(H, V2, 10.0 * k))
                                            for k in range(26)])
