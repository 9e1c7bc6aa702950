#!/usr/bin/env python3
"""make_reference.py - the reference of the verification case oc3_hywind, run once by hand
(python3 make_reference.py); prints the model's derived values and writes reference.csv.

The OC3 Hywind spar (Jonkman 2010, "Definition of the Floating System for Phase IV of OC3",
NREL/TP-500-47535) on its three catenary mooring lines, statics in still water.

Masses and heights (Grindheim et al. 2023, Table 2, "Structural data Jonkman (2010)", in
../shared/papers): platform 746.6e4 kg with its centre of mass 89.92 m below the still water
line (SWL), overall length 130 m and draft 120 m (so its top is 10 m above the SWL); tower
250.0e3 kg, 77.6 m long from the platform's top (its top 87.6 m above the SWL), centre of mass
43.4 m above the SWL; nacelle 240.0e3 kg, 1.75 m above the tower top; hub 57.0e3 kg, 1.96 m
above the tower top; blades 53.3e3 kg (three), taken at the hub's centre. The centres of mass
of the nacelle (1.9 m downwind of the yaw axis) and the hub (5.02 m upwind) put the whole
centre of mass 0.012 m upwind of the axis: neglected, so that the system is symmetric.

Hull (Jonkman 2010, section 3.1, the platform's geometry): a cylinder of 6.5 m diameter from
10 m above to 4 m below the SWL, a cone to 9.4 m diameter at 12 m below, a cylinder of 9.4 m
down to the 120 m draft. Its displaced volume is computed here from that geometry (8029.2 m^3;
the report gives 8029.21 m^3), the waterplane area A_wp = pi 6.5^2/4.

Mooring lines (the issue's data from Jonkman 2010, Table 3-3 in the report's numbering as
quoted in the issue): water depth 320 m; anchors on a radius of 853.87 m at the seabed;
fairleads on a radius of 5.2 m, 70 m below the SWL; unstretched length 902.2 m; diameter
0.09 m; mass 77.7066 kg/m; EA = 384.243e6 N; three lines 120 deg apart. Submerged weight per
unstretched length w = (77.7066 - rho pi 0.09^2/4) g = 698.094 N/m (the report's 698.094).

Statics, by symmetry the platform only heaves: each line is an elastic catenary with a part
laid on a rigid frictionless seabed (no friction: the seabed force is normal only),
horizontal tension H and vertical fairlead force V, over the span X = 853.87 - 5.2 m and the
height h = 320 - 70 + dz of the fairlead above the anchor:
    X = L - V/w + (H/w) asinh(V/H) + H L/EA
    h = (H/w) (sqrt(1 + (V/H)^2) - 1) + V^2/(2 EA w)
(the laid length L - V/w > 0; the suspended part's stretch (H L_s + ...) and the laid part's
H L_b/EA together give H L/EA). The platform floats freely at dz0 above its design draft,
where its buoyancy rho g (V0 - A_wp dz0) equals its weight M g; with the lines it sinks to dz
with rho g A_wp (dz0 - dz) = 3 V(dz) (the hand force balance in heave). Solved by Newton on
(H, V) inside a bisection on dz, to round-off. Under a large offset the upwind line lifts off
its anchor (no laid part: V > w L); it is then the elastic catenary between two suspended
ends, X = (H/w)(asinh(V/H) - asinh(V_a/H)) + H L/EA, h = (H/w)(sqrt(1 + (V/H)^2) -
sqrt(1 + (V_a/H)^2)) + (V L - w L^2/2)/EA with V_a = V - w L.

Surge offset curve (below): a steady load F in +x at O_b from 0 to 1.5 MN; the platform's
surge, height and pitch and the fairlead tensions at each (offset_curve.csv), and in
reference.csv those of the case's runs at 250 kN, 500 kN and 1 MN (surge_250kN_m, z_..._m,
pitch_..._deg, line1_tension_..._N of the upwind line along -x, line2_tension_..._N).

The hull in a current (below): a uniform current of 1 m/s along +x on the hull's strips
(Morison drag, C_d = 0.6, as pipelay's PlVesselHullLoad: the velocity normal to the tilted
axis, strips wet by their centre), the lines without drag, in the same surge-heave-pitch
equilibrium: surge_current_m, pitch_current_deg, line1_tension_current_N,
line2_tension_current_N in reference.csv.

Natural periods (below): FAST's, 1/f of the frequencies Jonkman (2010) lists, as
surge_period_s, heave_period_s, pitch_period_s, yaw_period_s in reference.csv.

The model's added mass (oc3_hywind.yaml) is printed here too: strip theory over the hull.

Written: reference.csv (name, value): heave_m (dz, the platform's vertical displacement from
its design draft), z_m (O_b's height at equilibrium, z_G + dz), lines_vertical_N (the three
lines' vertical load on the platform, -3 V), fairlead_tension_N, fairlead_vertical_N, H_N, laid_length_m,
anchor_tension_N (= H: no friction, the laid part carries H).
"""
import math

G, RHO = 9.80665, 1025.0
DEPTH, R_ANCHOR, R_FAIR, Z_FAIR = 320.0, 853.87, 5.2, -70.0
Z_ANCHOR = -DEPTH + 3 * 0.09 / 8  # the model's anchors: the line's axis 3d/8 above the seabed (d/8 penetration)
L, D, MASS_L, EA = 902.2, 0.09, 77.7066, 384.243e6
W = (MASS_L - RHO * math.pi * D * D / 4) * G

# masses [kg] and heights of their centres above the SWL [m] (Table 2)
TOWER_TOP = 10.0 + 77.6
PARTS = [("platform", 746.6e4, -89.92), ("tower", 250.0e3, 43.4), ("nacelle", 240.0e3, TOWER_TOP + 1.75),
         ("hub", 57.0e3, TOWER_TOP + 1.96), ("blades", 53.3e3, TOWER_TOP + 1.96)]
M = sum(m for _, m, _ in PARTS)
ZG = sum(m * z for _, m, z in PARTS) / M


def frustum(d1, d2, h):
    """volume and depth of the centroid below its top of a cone frustum (diameters d1 top, d2 bottom)"""
    r1, r2 = d1 / 2, d2 / 2
    v = math.pi * h / 3 * (r1 * r1 + r1 * r2 + r2 * r2)
    c = h * (r1 * r1 + 2 * r1 * r2 + 3 * r2 * r2) / (4 * (r1 * r1 + r1 * r2 + r2 * r2))
    return v, c


pieces = [(math.pi * 6.5 ** 2 / 4 * 4.0, -2.0)]
vf, cf = frustum(6.5, 9.4, 8.0)
pieces.append((vf, -4.0 - cf))
pieces.append((math.pi * 9.4 ** 2 / 4 * 108.0, -66.0))
V0 = sum(v for v, _ in pieces)
ZB = sum(v * z for v, z in pieces) / V0
AWP = math.pi * 6.5 ** 2 / 4
DZ0 = (RHO * V0 - M) / (RHO * AWP)  # free floating: above the design draft


def catenary_residual(H, V, X, h):
    """span and height residuals of the elastic catenary with horizontal tension H and fairlead
    vertical force V: with a laid part (V <= w L) or lifted off the anchor (V > w L, the anchor
    then pulled up by V - w L)"""
    if V <= W * L:
        f1 = L - V / W + H / W * math.asinh(V / H) + H * L / EA - X
        f2 = H / W * (math.sqrt(1 + (V / H) ** 2) - 1) + V * V / (2 * EA * W) - h
    else:
        Va = V - W * L
        f1 = H / W * (math.asinh(V / H) - math.asinh(Va / H)) + H * L / EA - X
        f2 = H / W * (math.sqrt(1 + (V / H) ** 2) - math.sqrt(1 + (Va / H) ** 2)) + (V * L - W * L * L / 2) / EA - h
    return f1, f2


def catenary(X, h):
    """(H, V) of the elastic catenary over the span X and the height h, by Newton (central
    differences) from a slack guess"""
    H, V = 0.5 * W * X, W * h * 1.2
    for _ in range(200):
        f1, f2 = catenary_residual(H, V, X, h)
        eh, ev = 1e-6 * H, 1e-6 * V
        a = [(p - m) / (2 * e) for p, m, e in zip(catenary_residual(H + eh, V, X, h), catenary_residual(H - eh, V, X, h), (eh, eh))]
        b = [(p - m) / (2 * e) for p, m, e in zip(catenary_residual(H, V + ev, X, h), catenary_residual(H, V - ev, X, h), (ev, ev))]
        det = a[0] * b[1] - b[0] * a[1]
        dH = (f1 * b[1] - f2 * b[0]) / det
        dV = (a[0] * f2 - a[1] * f1) / det
        scale = min(1.0, 0.5 * H / abs(dH)) if dH else 1.0  # keep H > 0
        H, V = H - scale * dH, V - scale * dV
        if abs(dH) < 1e-13 * H and abs(dV) < 1e-13 * abs(V):
            break
    return H, V


X = R_ANCHOR - R_FAIR


def imbalance(dz):
    H, V = catenary(X, Z_FAIR + dz - Z_ANCHOR)
    return RHO * G * AWP * (DZ0 - dz) - 3 * V


lo, hi = -5.0, DZ0
for _ in range(200):
    mid = 0.5 * (lo + hi)
    if imbalance(mid) > 0:
        lo = mid
    else:
        hi = mid
dz = 0.5 * (lo + hi)
H, V = catenary(X, Z_FAIR + dz - Z_ANCHOR)
laid = L - V / W
# the rigid whole's inertia about its centre of mass (Table 2's own inertias, J_xx about the
# shaft / roll axis, plus m dz^2; the parts' horizontal offsets neglected as above)
J = {"platform": (4.23e9, 4.23e9, 1.64e8), "tower": (1.3e8, 1.3e8, 1.6e6), "nacelle": (8.7e5, 1.7e6, 1.7e6),
     "hub": (116.0e3, 58.0e3, 58.0e3), "blades": (3.5e7, 1.8e7, 1.8e7)}
I = [sum(J[n][k] + (m * (z - ZG) ** 2 if k < 2 else 0.0) for n, m, z in PARTS) for k in range(3)]
IWP = math.pi * 6.5 ** 4 / 64
GM = IWP / V0 + ZB - ZG  # BM + (z_B - z_G): pitch and roll restoring rho g V0 GM about the centre of mass
print(f"inertia about the centre of mass [kg m^2]: {I[0]:.6e} {I[1]:.6e} {I[2]:.6e}; GM = {GM:.6f} m; "
      f"rho V0 = {RHO * V0:.3f} kg; z_G = {ZG:.6f} m; O_b floats freely at z = {ZG + DZ0:.6f} m; "
      f"fairlead z in the body frame {Z_FAIR - ZG:.6f} m; anchor z {Z_ANCHOR} m")
# added mass A(infinity) about O_b by strip theory (C_a = 1 across the hull's sections, 2000
# strips each) and the keel disc in heave ((4/3) rho R^3, one face of Lamb's disc)
A11 = A15 = A55 = 0.0
for zt, zb, dt, db in ((0.0, -4.0, 6.5, 6.5), (-4.0, -12.0, 6.5, 9.4), (-12.0, -120.0, 9.4, 9.4)):
    hs = (zt - zb) / 2000
    for k in range(2000):
        zs = zt - (k + 0.5) * hs
        ds = dt + (db - dt) * (zt - zs) / (zt - zb)
        ms = RHO * math.pi * ds * ds / 4 * hs
        A11 += ms
        A15 += ms * (zs - ZG)
        A55 += ms * (zs - ZG) ** 2
print(f"added mass about O_b: A11 = A22 = {A11:.1f} kg, A15 = -A24 = {A15:.0f} kg m, A44 = A55 = {A55:.6e} kg m^2, "
      f"A33 = {4.0 / 3.0 * RHO * 4.7 ** 3:.1f} kg")
print(f"total mass M = {M:.1f} kg, centre of mass z_G = {ZG:.4f} m (SWL), displaced volume V0 = {V0:.3f} m^3, "
      f"centre of buoyancy z_B = {ZB:.4f} m, A_wp = {AWP:.4f} m^2")
print(f"w = {W:.4f} N/m; free floating {DZ0:.4f} m above the design draft; moored: dz = {dz:.6f} m, "
      f"H = {H:.3f} N, V = {V:.3f} N, T = {math.hypot(H, V):.3f} N, laid length {laid:.4f} m")

# ---- the surge offset curve: a steady horizontal load F in +x at O_b ----------------------
# Unknowns: surge x, O_b's height z, pitch theta (about +y, R = R_y(theta)); by symmetry no
# sway, roll or yaw. Line k: fairlead f_k = O_b + R a_k (a_k its body point), anchor A_k; its
# elastic catenary over the horizontal span |A_k - f_k|_xy and the height f_kz - A_kz gives
# H_k (towards the anchor) and V_k (down) on the body. The body's own loads as pipelay's vessel
# model has them (elements/vessel.c): heave A_wp rho g (z - z_eq), and the moment
# m_V g (r x k) with k = R^T e3, r = (GM_L k_1, GM_T k_2, 0), which for a pitch theta is
# m_V g GM sin(theta) cos(theta) about y. Equilibrium: sum_k F_k + F e_x - (0, 0, A_wp rho g
# (z - z_eq)) = 0 and sum_k (f_k - O_b) x F_k . e_y = m_V g GM sin(theta) cos(theta); Newton
# with a central-difference Jacobian, to 1e-6 N.
ANG = (180.0, 60.0, 300.0)
Z_EQ = ZG + DZ0
MV = RHO * V0


# the hull's strips (oc3_hywind.yaml, body z = global z - Z_G at the design position): top,
# bottom, diameters, C_d; cut as pipelay cuts them (models/loader_bodies.c: at most 1 m)
HULL = ((10.0 - ZG, -4.0 - ZG, 6.5, 6.5), (-4.0 - ZG, -12.0 - ZG, 6.5, 9.4), (-12.0 - ZG, -120.0 - ZG, 9.4, 9.4))
HULL_CD = 0.6
STRIPS = []
for top, bottom, d0, d1 in HULL:
    ns = math.ceil((top - bottom) / 1.0 - 1e-9)
    ls = (top - bottom) / ns
    for k in range(ns):
        zs = top - (k + 0.5) * ls
        STRIPS.append((zs, ls, d0 + (d1 - d0) * (top - zs) / (top - bottom)))


def loads(x, z, th, F, U=0.0):
    c, s = math.cos(th), math.sin(th)
    fx = F
    fz = -RHO * G * AWP * (z - Z_EQ)
    my = 0.0
    # the hull's drag in a uniform current U along +x (PlVesselHullLoad): the axis t = (s, 0, c),
    # u_n = U c (c, 0, -s), f = rho/2 C_d D l |u_n|_e u_n on the wet strips
    for zs, ls, ds in STRIPS if U else ():
        rx, rz = s * zs, c * zs
        if z + rz >= 0.0:
            continue
        un = (U * c * c, -U * c * s)
        mag = math.sqrt(un[0] ** 2 + un[1] ** 2 + 1e-8)
        k = 0.5 * RHO * HULL_CD * ds * ls * mag
        fxs, fzs = k * un[0], k * un[1]
        fx += fxs
        fz += fzs
        my += rz * fxs - rx * fzs
    T = []
    for a in ANG:
        ca, sa = math.cos(math.radians(a)), math.sin(math.radians(a))
        ax, ay, az = R_FAIR * ca, R_FAIR * sa, Z_FAIR - ZG
        rx, rz = c * ax + s * az, -s * ax + c * az  # R_y(theta) a
        fxk, fyk, fzk = x + rx, ay, z + rz
        dx, dy = R_ANCHOR * ca - fxk, R_ANCHOR * sa - fyk
        span = math.hypot(dx, dy)
        H, Vk = catenary(span, fzk - Z_ANCHOR)
        Fx, Fz = H * dx / span, -Vk
        fx += Fx
        fz += Fz
        my += rz * Fx - rx * Fz  # (r x F)_y = r_z F_x - r_x F_z
        T.append(math.hypot(H, Vk))
    my -= MV * G * GM * math.sin(th) * math.cos(th)
    return (fx, fz, my), T


def offset(F, guess, U=0.0):
    u = list(guess)
    for _ in range(60):
        r, _ = loads(*u, F, U)
        if max(abs(r[0]), abs(r[1]), abs(r[2]) / 10) < 1e-6:
            break
        J = [[0.0] * 3 for _ in range(3)]
        for j, h in enumerate((1e-4, 1e-4, 1e-7)):
            up, um = list(u), list(u)
            up[j] += h
            um[j] -= h
            rp, _ = loads(*up, F, U)
            rm, _ = loads(*um, F, U)
            for i in range(3):
                J[i][j] = (rp[i] - rm[i]) / (2 * h)
        # solve J du = -r (3 x 3, Cramer)
        def det(m):
            return (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
                    + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
        d = det(J)
        du = []
        for j in range(3):
            m = [row[:] for row in J]
            for i in range(3):
                m[i][j] = -r[i]
            du.append(det(m) / d)
        u = [u[i] + du[i] for i in range(3)]
    r, T = loads(*u, F, U)
    return u, T, r


OFFSET_LOADS = tuple(1.25e5 * k for k in range(13))  # 0 to 1.5 MN
CHECKED = {2.5e5: "250kN", 5.0e5: "500kN", 1.0e6: "1MN"}  # the loads of the case's offset runs
offsets = []
u = (0.0, ZG, 0.0)
for F in OFFSET_LOADS:
    u, T, r = offset(F, u)
    offsets.append((F, u, T))
    print(f"F = {F:9.0f} N: surge {u[0]:.6f} m, z {u[1]:.6f} m, pitch {math.degrees(u[2]):.6f} deg, fairlead tensions "
          f"{T[0]:.1f} {T[1]:.1f} {T[2]:.1f} N (residual {max(abs(v) for v in r):.1e})")
# ---- the hull in a uniform current of 1 m/s along +x (the lines without drag) ------------
CURRENT = 1.0
u_cur, T_cur, r_cur = offset(0.0, (0.0, ZG, 0.0), CURRENT)
print(f"current {CURRENT} m/s: surge {u_cur[0]:.6f} m, z {u_cur[1]:.6f} m, pitch {math.degrees(u_cur[2]):.6f} deg, "
      f"fairlead tensions {T_cur[0]:.1f} {T_cur[1]:.1f} N (residual {max(abs(v) for v in r_cur):.1e})")

with open("offset_curve.csv", "w") as f:
    f.write("load_N,surge_m,z_m,pitch_deg,line1_tension_N,line2_tension_N,line3_tension_N\n")
    for F, u, T in offsets:
        f.write(f"{F:.17g},{u[0]:.17g},{u[1]:.17g},{math.degrees(u[2]):.17g},{T[0]:.17g},{T[1]:.17g},{T[2]:.17g}\n")

# ---- natural periods: FAST's free decays of OC3-Hywind ------------------------------------
# Jonkman (2010), the system's natural frequencies from FAST's free-decay simulations: surge
# 0.0080 Hz, heave 0.0324 Hz, pitch 0.0343 Hz, yaw 0.1210 Hz. The report is not in
# ../shared; these are its values as they are widely quoted (e.g. by the OC3 Phase IV
# comparisons), not checked here against the report's page.
PUBLISHED_HZ = {"surge": 0.0080, "heave": 0.0324, "pitch": 0.0343, "yaw": 0.1210}

with open("reference.csv", "w") as f:
    f.write("name,value\n")
    for name, value in (("heave_m", dz), ("z_m", ZG + dz), ("lines_vertical_N", -3 * V),
                        ("fairlead_tension_N", math.hypot(H, V)), ("fairlead_vertical_N", V), ("H_N", H),
                        ("laid_length_m", laid), ("anchor_tension_N", H)):
        f.write(f"{name},{value:.17g}\n")
    for F, u, T in offsets:
        if F in CHECKED:
            tag = CHECKED[F]
            for name, value in ((f"surge_{tag}_m", u[0]), (f"z_{tag}_m", u[1]), (f"pitch_{tag}_deg", math.degrees(u[2])),
                                (f"line1_tension_{tag}_N", T[0]), (f"line2_tension_{tag}_N", T[1])):
                f.write(f"{name},{value:.17g}\n")
    for name, value in (("surge_current_m", u_cur[0]), ("pitch_current_deg", math.degrees(u_cur[2])),
                        ("line1_tension_current_N", T_cur[0]), ("line2_tension_current_N", T_cur[1])):
        f.write(f"{name},{value:.17g}\n")
    for dof, hz in PUBLISHED_HZ.items():
        f.write(f"{dof}_period_s,{1.0 / hz:.17g}\n")
