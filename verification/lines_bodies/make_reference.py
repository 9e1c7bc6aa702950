#!/usr/bin/env python3
"""make_reference.py - the reference of the verification case lines_bodies, run once by hand
(python3 make_reference.py); writes reference.csv and span_shape.csv beside it.

Problem (bodies.yaml): a cable (EA = 5.0e8 N, perfectly flexible, submerged weight per
unstretched length w = (100 - 1025 pi 0.1^2/4) g, g = 9.80665 m/s^2) of L = 220 m slung
between two bodies, "west" and "east", hanging from their origins O_b. Each body is held by a
linear spring K = 1e5 N/m in x, y and z about its rest position (-100, 0, -50) and
(100, 0, -50) m; no weight of its own, no restoring in rotation (the cable's pull passes
through O_b, so no moment).

By symmetry the cable is a catenary with its lowest point at x = 0: horizontal tension H,
vertical force V = w L/2 at each end, which pull each body inwards by H/K and down by V/K.
The span between the bodies, 200 - 2 H/K, equals the elastic catenary's
    span(H) = 2 (H/w asinh(w L/(2 H)) + H L/(2 EA)),
solved for H by bisection to round-off. The shape from the lowest point (s' = S - L/2, S from
the west end): x = H/w asinh(w s'/H) + H s'/EA, z = z_low + (sqrt(H^2 + (w s')^2) - H)/w +
w s'^2/(2 EA), with z_low from the ends' height -50 - V/K.

Written: reference.csv (name, value): H_N, end_tension_N, end_vertical_N, west_x_m, west_z_m,
east_x_m, east_z_m, lowest_z_m; span_shape.csv (S_m, x_m, z_m) every 10 m from the west end.
"""
import math

G, RHO, EA, K, L = 9.80665, 1025.0, 5.0e8, 1.0e5, 220.0
W = (100.0 - RHO * math.pi * 0.01 / 4) * G
V = W * L / 2


def half_span(H):
    return H / W * math.asinh(W * L / (2 * H)) + H * L / (2 * EA)


def write(name, header, rows):
    with open(name, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join(v if isinstance(v, str) else "%.17g" % v for v in r) + "\n")


if __name__ == "__main__":
    lo, hi = 1.0, 1.0e9
    for _ in range(300):
        mid = 0.5 * (lo + hi)
        # too little tension: the cable hangs deep and spans less than the bodies' distance
        lo, hi = (mid, hi) if 2 * half_span(mid) < 200.0 - 2 * mid / K else (lo, mid)
    H = 0.5 * (lo + hi)
    T = math.hypot(H, V)
    z_end = -50.0 - V / K
    z_low = z_end - ((T - H) / W + W * (L / 2) ** 2 / (2 * EA))
    print("w = %.10g N/m, H = %.12g N, end tension %.12g N, bodies at x = +-%.9f m, z = %.9f m, lowest point %.9f m;"
          " span check %.2e m" % (W, H, T, 100 - H / K, z_end, z_low, 2 * half_span(H) - (200 - 2 * H / K)))
    write("reference.csv", "name,value", [
        ("H_N", H), ("end_tension_N", T), ("end_vertical_N", V), ("west_x_m", -100 + H / K), ("west_z_m", z_end),
        ("east_x_m", 100 - H / K), ("east_z_m", z_end), ("lowest_z_m", z_low)])
    rows = []
    for k in range(23):
        S = 10.0 * k
        sp = S - L / 2
        rows.append((S, H / W * math.asinh(W * sp / H) + H * sp / EA,
                     z_low + (math.hypot(H, W * sp) - H) / W + W * sp * sp / (2 * EA)))
    write("span_shape.csv", "S_m,x_m,z_m", rows)
