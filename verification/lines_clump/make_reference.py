#!/usr/bin/env python3
"""make_reference.py - the reference of the verification case lines_clump, run once by hand
(python3 make_reference.py); writes reference.csv and right_shape.csv beside it.

Problem (clump.yaml): two identical lines, L = 120 m, EA = 5.0e8 N, perfectly flexible,
submerged weight per unstretched length w = (m - rho_w pi d^2/4) g with m = 100 kg/m,
d = 0.1 m, rho_w = 1025 kg/m^3, g = 9.80665 m/s^2, from ends pinned at (-100, 0, -50) and
(100, 0, -50) m to a free point carrying a clump of 2000 kg displacing 0.1 m^3: its net weight
Wc = (2000 - 1025 x 0.1) g. By symmetry the point sits at (0, 0, zJ) and each line pulls it up
by Wc/2 and sideways by H, the horizontal tension, constant along the line.

The elastic catenary (unstretched arc length s from the junction, s = 0, to the anchor,
s = L; V(s) = V0 + w s the vertical force, V0 = Wc/2; T = sqrt(H^2 + V^2); each ds stretched
to (1 + T/EA) ds):
    x(s) = H/w (asinh(V(s)/H) - asinh(V0/H)) + H s/EA,
    z(s) = (T(s) - T0)/w + (V0 s + w s^2/2)/EA.
H from x(L) = 100 m by bisection to round-off; zJ = -50 - z(L). The closed form is checked
against a Simpson integration of dx/ds = (H/T)(1 + T/EA), dz/ds = (V/T)(1 + T/EA), and the
whole system's vertical balance 2 V(L) = Wc + 2 w L is printed.

Written: reference.csv (name, value): H_N, junction_z_m, anchor_tension_N, anchor_vertical_N,
junction_tension_N, anchor_angle_deg (from the horizontal), junction_angle_deg,
stretched_length_m, clump_net_weight_N, w_N_per_m; right_shape.csv (S_m, x_m, z_m): the right
line in global coordinates at the unstretched arc length S from its anchor (S = 0, at
(100, -50)) to the junction (S = 120), every 5 m: pipelay's S for that line.
"""
import math

G, RHO = 9.80665, 1025.0
L, EA, M, D = 120.0, 5.0e8, 100.0, 0.1
W = (M - RHO * math.pi * D * D / 4) * G
WC = (2000.0 - RHO * 0.1) * G
V0 = WC / 2


def x_of(H, s):
    return H / W * (math.asinh((V0 + W * s) / H) - math.asinh(V0 / H)) + H * s / EA


def z_of(H, s):
    T, T0 = math.hypot(H, V0 + W * s), math.hypot(H, V0)
    return (T - T0) / W + (V0 * s + W * s * s / 2) / EA


def simpson(H, s, n=20000):
    h = s / n
    xs = zs = 0.0
    for i in range(n + 1):
        c = 1 if i in (0, n) else (4 if i % 2 else 2)
        V = V0 + W * i * h
        T = math.hypot(H, V)
        xs += c * H / T * (1 + T / EA)
        zs += c * V / T * (1 + T / EA)
    return xs * h / 3, zs * h / 3


def write(name, header, rows):
    with open(name, "w") as f:
        f.write(header + "\n")
        for r in rows:
            f.write(",".join(v if isinstance(v, str) else "%.17g" % v for v in r) + "\n")


if __name__ == "__main__":
    lo, hi = 1.0, 1.0e9
    for _ in range(300):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if x_of(mid, L) < 100.0 else (lo, mid)
    H = 0.5 * (lo + hi)
    zJ = -50.0 - z_of(H, L)
    VL = V0 + W * L
    TL, T0 = math.hypot(H, VL), math.hypot(H, V0)
    xs, zs = simpson(H, L)
    stretched = sum((1 + math.hypot(H, V0 + W * (i + 0.5) * L / 200000) / EA) * L / 200000 for i in range(200000))
    print("w = %.10g N/m, Wc = %.10g N, H = %.12g N, zJ = %.12g m, anchor tension %.12g N" % (W, WC, H, zJ, TL))
    print("closed form against Simpson: x %.3g m, z %.3g m" % (abs(xs - x_of(H, L)), abs(zs - z_of(H, L))))
    print("vertical balance 2 V(L) - (Wc + 2 w L) = %.3g N (of %.6g N)" % (2 * VL - (WC + 2 * W * L), 2 * VL))
    write("reference.csv", "name,value", [
        ("H_N", H), ("junction_z_m", zJ), ("anchor_tension_N", TL), ("anchor_vertical_N", VL),
        ("junction_tension_N", T0),
        ("anchor_angle_deg", math.degrees(math.atan2(VL, H))), ("junction_angle_deg", math.degrees(math.atan2(V0, H))),
        ("stretched_length_m", stretched), ("clump_net_weight_N", WC), ("w_N_per_m", W)])
    rows = []
    for k in range(25):
        S = 5.0 * k
        s = L - S  # from the junction
        rows.append((S, x_of(H, s), zJ + z_of(H, s)))
    write("right_shape.csv", "S_m,x_m,z_m", rows)
