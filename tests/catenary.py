"""catenary.py - the elastic catenary of a perfectly flexible line between two points (for the
checks of tests/ and verification/; no pipelay output is used).

A line of unstretched length L, axial stiffness EA [N] and submerged weight w [N/m] per
unstretched length hangs in still water between A (its first end, s = 0) and B (s = L), in the
vertical plane through them. With the horizontal tension H (constant) and the vertical force
V(s) = V0 + w s (V0 at A, positive upwards along the line), T = sqrt(H^2 + V^2) and each ds
stretched to (1 + T/EA) ds (Irvine 1981, "Cable structures", eq 2.47):
    X(H, V0, s) = H/w (asinh((V0 + w s)/H) - asinh(V0/H)) + H s/EA,
    Z(H, V0, s) = (T(s) - T(0))/w + (V0 s + w s^2/2)/EA.
solve(A, B, L, w, EA) finds H and V0 with X(L) = |B - A| horizontally and Z(L) = z_B - z_A by
Newton with central-difference derivatives (backtracking on H > 0) to round-off.
"""
import math


def X(H, V0, s, w, EA):
    return H / w * (math.asinh((V0 + w * s) / H) - math.asinh(V0 / H)) + H * s / EA


def Z(H, V0, s, w, EA):
    return (math.hypot(H, V0 + w * s) - math.hypot(H, V0)) / w + (V0 * s + w * s * s / 2) / EA


def solve(A, B, L, w, EA):
    """(H, V0, T_A, T_B) [N] of the line from A to B (3-vectors, z up): T_A = sqrt(H^2 + V0^2),
    T_B = sqrt(H^2 + (V0 + w L)^2)."""
    span = math.hypot(B[0] - A[0], B[1] - A[1])
    rise = B[2] - A[2]

    def res(H, V0):
        return X(H, V0, L, w, EA) - span, Z(H, V0, L, w, EA) - rise

    H, V0 = max(w * L, 1.0), -0.5 * w * L
    for _ in range(200):
        r = res(H, V0)
        hH, hV = 1e-6 * H, 1e-6 * max(abs(V0), w * L)
        a = [(res(H + hH, V0)[i] - res(H - hH, V0)[i]) / (2 * hH) for i in range(2)]
        b = [(res(H, V0 + hV)[i] - res(H, V0 - hV)[i]) / (2 * hV) for i in range(2)]
        det = a[0] * b[1] - a[1] * b[0]
        dH = -(r[0] * b[1] - r[1] * b[0]) / det
        dV = -(a[0] * r[1] - a[1] * r[0]) / det
        step = 1.0
        while H + step * dH <= 0.0:
            step *= 0.5
        H, V0 = H + step * dH, V0 + step * dV
        if abs(dH) <= 1e-13 * H and abs(dV) <= 1e-13 * max(abs(V0), w * L):
            break
    return H, V0, math.hypot(H, V0), math.hypot(H, V0 + w * L)


def solve_seabed(A, B, L, w, EA):
    """The same line with A on a flat frictionless seabed through A (the anchor): where the free
    catenary of solve() would pass below A (V0 < 0) the line lies on the seabed from A to the
    touchdown point, a length Lb stretched by H/EA at the horizontal tension H, and hangs from
    there (V = 0 at the touchdown) to B: with s = L - Lb,
        X(H, 0, s) + Lb (1 + H/EA) = |B - A| horizontally,  Z(H, 0, s) = z_B - z_A.
    Returns (H, V0, T_A, T_B, Lb) [N, N, N, N, m]: V0 = 0 and T_A = H when some of it lies on
    the seabed; solve()'s values and Lb = 0 when none does."""
    H, V0, TA, TB = solve(A, B, L, w, EA)
    if V0 >= 0.0:
        return H, V0, TA, TB, 0.0
    span = math.hypot(B[0] - A[0], B[1] - A[1])
    rise = B[2] - A[2]

    def res(H, Lb):
        s = L - Lb
        return X(H, 0.0, s, w, EA) + Lb * (1.0 + H / EA) - span, Z(H, 0.0, s, w, EA) - rise

    Lb = 0.5 * L
    for _ in range(200):
        r = res(H, Lb)
        hH, hL = 1e-6 * H, 1e-6 * L
        a = [(res(H + hH, Lb)[i] - res(H - hH, Lb)[i]) / (2 * hH) for i in range(2)]
        b = [(res(H, Lb + hL)[i] - res(H, Lb - hL)[i]) / (2 * hL) for i in range(2)]
        det = a[0] * b[1] - a[1] * b[0]
        dH = -(r[0] * b[1] - r[1] * b[0]) / det
        dL = -(a[0] * r[1] - a[1] * r[0]) / det
        step = 1.0
        while H + step * dH <= 0.0 or not (0.0 <= Lb + step * dL < L):
            step *= 0.5
        H, Lb = H + step * dH, Lb + step * dL
        if abs(dH) <= 1e-13 * H and abs(dL) <= 1e-13 * L:
            break
    return H, 0.0, H, math.hypot(H, w * (L - Lb)), Lb
