#!/usr/bin/env python3
"""make_reference.py - the models and the reference of the verification case oc3_turbine,
run once by hand (python3 make_reference.py): writes the model files *.yaml and the
reference files *.csv beside it, and prints the derived values.

The floating wind turbine of Grindheim et al. 2023 as three rigid bodies on joints: the
platform with the tower, the nacelle, and the rotor (hub and blades). Masses and inertias:
Grindheim et al. 2023, Table 2 ("Structural data Jonkman (2010)", ../shared/papers):
  platform 746.6e4 kg, CM 89.92 m below the still water line (SWL), roll and pitch inertia
    4.23e9, yaw 1.64e8 kg m^2 about its CM; its top 10 m above the SWL (130 m long, 120 m draft);
  tower 250.0e3 kg, 77.6 m long from the platform's top (tower top TT = 87.6 m above the SWL),
    CM 43.4 m above the SWL, J_xx = J_yy = 1.3e8, J_zz = 1.6e6 kg m^2;
  nacelle 240.0e3 kg, CM 1.75 m above the tower top and 1.9 m downwind of the yaw axis,
    J_xx 8.7e5, J_yy 1.7e6, J_zz 1.7e6 kg m^2 (about its CM, taken as principal);
  hub 57.0e3 kg, CM 1.96 m above the tower top and 5.02 m upwind of the yaw axis, 116.0e3
    kg m^2 about the spin axis, 58.0e3 across; blades 53.3e3 kg, 3.5e7 kg m^2 about the spin
    axis, 1.8e7 across (taken at the hub's centre).
The rotor (hub + blades) is one body: 110 300 kg, I_a = 35.116e6 kg m^2 about the shaft,
I_t = 18.058e6 kg m^2 across it, its CM at the hub's centre on the shaft. The shaft is tilted
5 deg (NREL 5-MW): its downwind direction a = (cos 5, 0, -sin 5) (the upwind hub is higher);
the rotor's body x axis is a (initial orientation: pitch 5 deg). Wind along +x.

The platform's hydrodynamics are those of verification/oc3_hywind (its make_reference.py
derives them): the waterplane area 33.1831 m^2, the displacement rho V0 = 8 229 939.43 kg, the
metacentric height GM = 15.945116 m of the whole turbine (centre of gravity 77.999858 m below
the SWL), the added mass by strip theory and OC3's linear damping about that centre of
gravity, the crowfoot's yaw spring 98.34 MN m/rad, and the hull's strips for Morison drag
(C_d 0.6). Without the mooring lines (a model of bodies only: their dynamics are
verification/oc3_hywind's), a linear spring of 42.5 kN/m in surge and sway on O_b stands in
for them (oc3_hywind's offset curve: 125 kN moves the moored spar 2.94 m) and the platform
floats with its centre of gravity at the design height (heave_equilibrium: the lines' mean
vertical pull taken as part of the hydrostatic balance). The weights are in that balance (no
body has weight: true), as in oc3_hywind. O_b of the platform is the whole turbine's centre
of gravity, so that the restoring, damping and added mass act about the same point as in the
one-body model.

Models written:
  still.yaml     the three bodies, the nacelle on a fixed joint (yaw bearing locked, as in
                 Grindheim's cases), the rotor on a revolute joint about the shaft, not
                 spinning; released from a pitch of 10 deg about the SWL point on the axis
                 (Grindheim section 3.2, load case 1.4e), 100 s, with the hull's drag;
  rigid.yaml     one rigid body of the same total mass (8 066 300 kg), centre of gravity and
                 inertia tensor about it (printed below), the same loads, the same release;
  spin.yaml      still.yaml's bodies with the rotor spinning at 12.1 rpm (rated), released from
                 a pitch of 2 deg about O_b, without the hull's (quadratic) drag, 120 s: the
                 gyroscopic case;
  energy.yaml    spin.yaml with the hull's drag and a thrust of 800 kN along the shaft on the
                 rotor (a body-frame load at the hub), ramped in over 20 s, from a pitch of
                 10 deg, 200 s: work in, energy stored, energy dissipated;
  shaft.yaml     the platform held by a fixed joint to the ground, the rotor spinning at
                 12.1 rpm with its weight (g = 9.80665 m/s^2), 20 s: the shaft's reaction;
  unbalanced.yaml shaft.yaml without weight and with the rotor's centre of gravity 0.05 m off
                 the shaft (a mass imbalance), 20 s.

References written:
  gyro_linear.csv  t_s, roll_deg, pitch_deg, yaw_deg: the linearised equations of spin.yaml
    about O_b, derived by hand: with the rotor's absolute spin about the shaft constant
    (a frictionless bearing and an axisymmetric rotor: the shaft passes no moment along a), the
    rotor adds I_t (1 - a a^T) to the system's rotational inertia and its spin's angular
    momentum h = I_a Omega a, whose direction turns with the platform: dh/dt = w x h. So
        M q'' + (D + G) q' + K q = 0,   G's rotational block -S(h) (S(h) w = h x w),
    q = (x, y, z, roll, pitch, yaw) of O_b; M = the three bodies' rigid mass matrix about O_b
    less I_a a a^T, plus the added mass; D the linear damping; K = diag(k_s, k_s,
    rho g A_wp, rho g V0 GM, rho g V0 GM, K_yaw). The yaw row: I_zz psi'' + K_yaw psi = h_x
    theta' + ... : a pitch oscillation theta' drives the yaw with the moment I_a Omega theta'
    (cos 5 deg of it about z). Integrated by classical RK4 at 1 ms (the differences between
    2 ms and 1 ms are printed: RK4's error at 1 ms is 16 times smaller than that).
  shaft_reaction.csv  t_s, force_x_N .. moment_z_Nm: the shaft's force and moment (about the
    joint point P, on the shaft 5.02 m downwind of the hub's centre, on the tower's axis) on
    the rotor in a steady spin with its weight: F = m_r g e_z, M_P = (r_G - P) x F (constant).
  unbalanced_reaction.csv  the same for the unbalanced rotor without weight: its centre of
    gravity turns on a circle of radius e = 0.05 m about the shaft,
    e(t) = e (cos(Omega t) e_y + sin(Omega t) (a x e_y)), so F(t) = -m_r Omega^2 e(t) and, with
    H_G = I_a Omega a constant (principal axes along the shaft), M_P(t) = (r_G(t) - P) x F(t).
"""
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
G, RHO = 9.80665, 1025.0
TT = 87.6
TILT = math.radians(5.0)
OMEGA = 12.1 * 2 * math.pi / 60  # [rad/s] rated rotor speed of the NREL 5-MW
A_SHAFT = (math.cos(TILT), 0.0, -math.sin(TILT))

# hydrodynamics of verification/oc3_hywind (about the whole's centre of gravity)
AWP, DISPL, GM = 33.1831, 8229939.43, 15.945116
ADDED = [[8229939.4, 0, 0, 0, 131137521, 0], [0, 8229939.4, 0, -131137521, 0, 0],
         [0, 0, 141891.4, 0, 0, 0], [0, -131137521, 0, 1.1350570e10, 0, 0],
         [131137521, 0, 0, 0, 1.1350570e10, 0], [0, 0, 0, 0, 0, 0]]
DAMP = [[1.0e5, 0, 0, 0, 0, 0], [0, 1.0e5, 0, 0, 0, 0], [0, 0, 1.3e5, 0, 0, 0],
        [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1.3e7]]
K_YAW = 98.34e6
K_SURGE = 42.5e3
THRUST = 8.0e5


def matmul(A, B):
    return [[sum(A[i][k] * B[k][j] for k in range(len(B))) for j in range(len(B[0]))] for i in range(len(A))]


def transpose(A):
    return [list(r) for r in zip(*A)]


def roty(t):
    c, s = math.cos(t), math.sin(t)
    return [[c, 0, s], [0, 1, 0], [-s, 0, c]]


def mv(A, v):
    return [sum(A[i][k] * v[k] for k in range(3)) for i in range(3)]


def cross(a, b):
    return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


# the bodies: mass, centre of gravity (global, design pose), inertia about it (global axes)
m_pf, z_pf = 746.6e4, -89.92
m_tw, z_tw = 250.0e3, 43.4
M_P = m_pf + m_tw
Z_P = (m_pf * z_pf + m_tw * z_tw) / M_P
I_P = [[4.23e9 + m_pf * (z_pf - Z_P) ** 2 + 1.3e8 + m_tw * (z_tw - Z_P) ** 2, 0, 0],
       [0, 4.23e9 + m_pf * (z_pf - Z_P) ** 2 + 1.3e8 + m_tw * (z_tw - Z_P) ** 2, 0],
       [0, 0, 1.64e8 + 1.6e6]]
M_N, C_N = 240.0e3, [1.9, 0.0, TT + 1.75]
I_N = [[8.7e5, 0, 0], [0, 1.7e6, 0], [0, 0, 1.7e6]]
M_R, C_R = 57.0e3 + 53.3e3, [-5.02, 0.0, TT + 1.96]
IA, IT = 116.0e3 + 3.5e7, 58.0e3 + 1.8e7
I_R_BODY = [[IA, 0, 0], [0, IT, 0], [0, 0, IT]]
I_R = matmul(matmul(roty(TILT), I_R_BODY), transpose(roty(TILT)))  # global axes
BODIES = [("platform", M_P, [0.0, 0.0, Z_P], I_P), ("nacelle", M_N, C_N, I_N), ("rotor", M_R, C_R, I_R)]
M_TOT = sum(b[1] for b in BODIES)
CG = [sum(b[1] * b[2][i] for b in BODIES) / M_TOT for i in range(3)]
ZG_OC3 = -77.999858  # oc3_hywind's centre of gravity (its parts' horizontal offsets neglected there)


def parallel(m, d):
    """m (|d|^2 1 - d d^T): the inertia of a point mass m at d"""
    dd = sum(x * x for x in d)
    return [[m * ((dd if i == j else 0.0) - d[i] * d[j]) for j in range(3)] for i in range(3)]


def inertia_about(p, bodies):
    out = [[0.0] * 3 for _ in range(3)]
    for _, m, c, I in bodies:
        P = parallel(m, [c[i] - p[i] for i in range(3)])
        for i in range(3):
            for j in range(3):
                out[i][j] += I[i][j] + P[i][j]
    return out


I_TOT = inertia_about(CG, BODIES)
# P: the revolute joint's point on the shaft, on the tower's axis (x = 0)
P_SHAFT = [C_R[0] + (0.0 - C_R[0]), 0.0, C_R[2] - (0.0 - C_R[0]) * math.tan(TILT)]
NACELLE_JOINT = [0.0, 0.0, TT]


def fmt(v):
    return "%.15g" % v


def vec(v):
    return "[" + ", ".join(fmt(x) for x in v) + "]"


def mat(A):
    return "[" + ", ".join(vec(r) for r in A) + "]"


HULL_BODY_Z = [(10.0, -4.0, 6.5, None), (-4.0, -12.0, 6.5, 9.4), (-12.0, -120.0, 9.4, None)]


def hull_yaml(o_z):
    rows = []
    for top, bot, d, db in HULL_BODY_Z:
        s = "      - {top: %s, bottom: %s, diameter: %s" % (fmt(top - o_z), fmt(bot - o_z), fmt(d))
        if db:
            s += ", diameter_bottom: %s" % fmt(db)
        rows.append(s + ", drag_normal: 0.6}")
    return "\n".join(rows)


def hydro_yaml(o_z, hull):
    """the platform's loads (about O_b at the centre of gravity, height o_z)"""
    s = ("    added_mass: %s   # [kg, kg m, kg m^2] oc3_hywind (strip theory)\n" % mat(ADDED) +
         "    linear_damping: %s   # [N s/m, N m s/rad] OC3's additional damping\n" % mat(DAMP) +
         "    restoring: {waterplane_area: %s, heave_equilibrium: %s, displacement: %s, gm_transverse: %s, "
         "gm_longitudinal: %s}   # [m^2, m, kg, m, m]\n" % (fmt(AWP), fmt(o_z), fmt(DISPL), fmt(GM), fmt(GM)) +
         "    yaw_spring: {stiffness: %s}   # [N m/rad] the crowfoot\n" % fmt(K_YAW) +
         "    spring: {stiffness: [[%s, 0, 0], [0, %s, 0], [0, 0, 0]], anchor: %s}   # [N/m, m] the moorings' surge "
         "stiffness\n" % (fmt(K_SURGE), fmt(K_SURGE), vec([CG[0], 0.0, o_z])))
    if hull:
        s += "    hull:   # Morison drag, C_d 0.6 (oc3_hywind)\n" + hull_yaml(o_z) + "\n"
    return s


def pose(R, c, p):
    """p turned by R about c"""
    return [c[i] + sum(R[i][k] * (p[k] - c[k]) for k in range(3)) for i in range(3)]


def three_body_yaml(name, title, pitch_deg, about, spin, hull, thrust, duration, dt, grounded=False,
                    weight=False, imbalance=0.0):
    R = roty(math.radians(pitch_deg))
    o = pose(R, about, CG)
    cp = pose(R, about, [0.0, 0.0, Z_P])
    rn = pose(R, about, C_N)
    rr = pose(R, about, C_R)
    pj = pose(R, about, P_SHAFT)
    nj = pose(R, about, NACELLE_JOINT)
    axis = mv(R, A_SHAFT)
    # the platform's centre of gravity from its O_b, in its body axes (= global at pitch 0)
    rg = mv(transpose(R), [cp[i] - o[i] for i in range(3)])
    lines = ["# %s - %s (verification/oc3_turbine; written by make_reference.py)" % (name, title),
             "name: %s" % title,
             "environment: {water_depth: 320, water_density: 1025, gravity: 9.80665}   # [m, kg/m^3, m/s^2]",
             "bodies:",
             "  - name: platform   # platform and tower (Table 2); O_b the whole turbine's centre of gravity",
             "    mass: %s   # [kg]" % fmt(M_P),
             "    centre_of_gravity: %s   # [m] body frame from O_b" % vec(rg),
             "    inertia: %s   # [kg m^2] about its centre of gravity" % mat(I_P)]
    if not grounded:
        lines.append(hydro_yaml(CG[2], hull).rstrip("\n"))
    lines += ["    initial: {position: %s, orientation: [0, %s, 0]}   # [m, deg]" % (vec(o), fmt(pitch_deg)),
              "  - name: nacelle",
              "    mass: %s   # [kg]" % fmt(M_N),
              "    inertia: %s   # [kg m^2] about its centre of gravity (O_b)" % mat(I_N),
              "    initial: {position: %s, orientation: [0, %s, 0]}" % (vec(rn), fmt(pitch_deg)),
              "  - name: rotor   # hub and blades; body x along the shaft (downwind)",
              "    mass: %s   # [kg]" % fmt(M_R),
              "    inertia: %s   # [kg m^2] about its centre of gravity, body axes" % mat(I_R_BODY)]
    if imbalance:
        lines.append("    centre_of_gravity: [0, %s, 0]   # [m] a mass imbalance off the shaft" % fmt(imbalance))
    if weight:
        lines.append("    weight: true")
    lines.append("    norm_rate: 10   # [1/s] spinning at 1.27 rad/s")
    lines.append("    initial: {position: %s, orientation: [0, %s, 0], angular_velocity: [%s, 0, 0]}   # [m, deg, deg/s]"
                 % (vec(rr), fmt(pitch_deg + 5.0), fmt(math.degrees(spin))))
    if thrust:
        lines.append("    environment_load: {frame: body, force: [%s, 0, 0], ramp_time: 20}   # [N, s] the rotor's "
                     "thrust along the shaft" % fmt(thrust))
    lines += ["joints:",
              "  - {name: yaw_bearing, type: fixed, bodies: [nacelle, platform], point: %s}   # locked" % vec(nj),
              "  - {name: shaft, type: revolute, bodies: [rotor, nacelle], point: %s, axis: %s}" % (vec(pj), vec(axis))]
    if grounded:
        lines.append("  - {name: foundation, type: fixed, bodies: [platform, ground], point: %s}" % vec(o))
    lines += analysis_yaml(duration, dt, name)
    return "\n".join(lines) + "\n"


def analysis_yaml(duration, dt, name):
    return ["analysis:",
            "  type: dynamic",
            "  dynamic: {duration: %s, output_interval: %s, rtol: 1.0e-10, atol_position: 1.0e-9, "
            "atol_rotation: 1.0e-10, atol_velocity: 1.0e-9, atol_angular_velocity: 1.0e-9, atol_reaction: 1, max_order: 5}" % (fmt(duration), fmt(dt)),
            "output: {directory: %s_out, vtk_interval: 10}" % name]


def rigid_yaml(pitch_deg, about, duration, dt):
    R = roty(math.radians(pitch_deg))
    o = pose(R, about, CG)
    lines = ["# rigid - the turbine as one rigid body (verification/oc3_turbine; written by make_reference.py)",
             "name: OC3 turbine as one rigid body",
             "environment: {water_depth: 320, water_density: 1025, gravity: 9.80665}",
             "bodies:",
             "  - name: platform   # the three bodies' total mass and inertia; O_b at their centre of gravity",
             "    mass: %s   # [kg]" % fmt(M_TOT),
             "    inertia: %s   # [kg m^2] about the centre of gravity, body axes" % mat(I_TOT),
             hydro_yaml(CG[2], True).rstrip("\n"),
             "    initial: {position: %s, orientation: [0, %s, 0]}   # [m, deg]" % (vec(o), fmt(pitch_deg))]
    lines += analysis_yaml(duration, dt, "rigid")
    return "\n".join(lines) + "\n"


# ---- the linearised gyroscopic reference -------------------------------------------------
def rigid_mass_about(o, bodies):
    """6x6 M_RB about o: [m 1, -m S(r_g); m S(r_g), I_o] summed over the bodies"""
    M = [[0.0] * 6 for _ in range(6)]
    for _, m, c, I in bodies:
        r = [c[i] - o[i] for i in range(3)]
        S = [[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]]
        P = parallel(m, r)
        for i in range(3):
            M[i][i] += m
            for j in range(3):
                M[i][3 + j] += -m * S[i][j]
                M[3 + i][j] += m * S[i][j]
                M[3 + i][3 + j] += I[i][j] + P[i][j]
    return M


def solve(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(M[i][k]))
        M[k], M[p] = M[p], M[k]
        for i in range(k + 1, n):
            f = M[i][k] / M[k][k]
            for j in range(k, n + 1):
                M[i][j] -= f * M[k][j]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (M[i][n] - sum(M[i][j] * x[j] for j in range(i + 1, n))) / M[i][i]
    return x


def gyro_linear(theta0, T, h):
    M = rigid_mass_about(CG, BODIES)
    for i in range(3):
        for j in range(3):
            M[3 + i][3 + j] -= IA * A_SHAFT[i] * A_SHAFT[j]
    for i in range(6):
        for j in range(6):
            M[i][j] += ADDED[i][j]
    hv = [IA * OMEGA * a for a in A_SHAFT]
    Sh = [[0, -hv[2], hv[1]], [hv[2], 0, -hv[0]], [-hv[1], hv[0], 0]]
    C = [row[:] for row in DAMP]
    for i in range(3):
        for j in range(3):
            C[3 + i][3 + j] += -Sh[i][j]
    K = [K_SURGE, K_SURGE, RHO * G * AWP, DISPL * G * GM, DISPL * G * GM, K_YAW]
    # M^-1 once (columns)
    Minv = transpose([solve(M, [1.0 if i == j else 0.0 for i in range(6)]) for j in range(6)])

    def rate(s):
        q, v = s[:6], s[6:]
        f = [-sum(C[i][j] * v[j] for j in range(6)) - K[i] * q[i] for i in range(6)]
        return v + [sum(Minv[i][j] * f[j] for j in range(6)) for i in range(6)]

    s = [0.0] * 12
    s[4] = theta0
    out = [(0.0, s[:])]
    n = int(round(T / h))
    every = int(round(0.1 / h))
    for k in range(1, n + 1):
        k1 = rate(s)
        k2 = rate([s[i] + 0.5 * h * k1[i] for i in range(12)])
        k3 = rate([s[i] + 0.5 * h * k2[i] for i in range(12)])
        k4 = rate([s[i] + h * k3[i] for i in range(12)])
        s = [s[i] + h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]) for i in range(12)]
        if k % every == 0:
            out.append((k * h, s[:]))
    return out


def write(name, text):
    with open(os.path.join(HERE, name), "w") as f:
        f.write(text)


def main():
    print("platform+tower: %.1f kg, CM z = %.6f m, I = %s" % (M_P, Z_P, I_P))
    print("total: %.1f kg, CG = %s" % (M_TOT, CG))
    print("inertia about the CG:", I_TOT)
    print("the shaft joint P =", P_SHAFT, " rotor I_a = %.6g, I_t = %.6g, Omega = %.6f rad/s" % (IA, IT, OMEGA))
    swl = [0.0, 0.0, 0.0]
    write("still.yaml", three_body_yaml("still", "OC3 turbine as three bodies, rotor still, pitch release 10 deg",
                                        10.0, swl, 0.0, True, 0.0, 100, 0.1))
    write("rigid.yaml", rigid_yaml(10.0, swl, 100, 0.1))
    write("spin.yaml", three_body_yaml("spin", "OC3 turbine as three bodies, rotor at 12.1 rpm, pitch release 2 deg",
                                       2.0, CG, OMEGA, False, 0.0, 120, 0.1))
    write("energy.yaml", three_body_yaml("energy", "OC3 turbine, rotor at 12.1 rpm, 800 kN thrust, hull drag",
                                         10.0, swl, OMEGA, True, THRUST, 200, 0.1))
    write("shaft.yaml", three_body_yaml("shaft", "OC3 turbine held at its foundation, rotor spinning with its weight",
                                        0.0, CG, OMEGA, False, 0.0, 20, 0.05, grounded=True, weight=True))
    write("unbalanced.yaml", three_body_yaml("unbalanced", "OC3 turbine held, unbalanced rotor spinning (no weight)",
                                             0.0, CG, OMEGA, False, 0.0, 20, 0.05, grounded=True, imbalance=0.05))
    # the gyroscopic reference
    th0 = math.radians(2.0)
    ref = gyro_linear(th0, 120.0, 1e-3)
    coarse = gyro_linear(th0, 120.0, 2e-3)
    d = max(abs(a[1][k] - b[1][k]) for a, b in zip(ref, coarse) for k in (3, 4, 5))
    print("gyro_linear: RK4 1 ms against 2 ms: largest angle difference %.3g rad" % d)
    print("gyro_linear: largest yaw %.6g deg, roll %.6g deg" % (max(abs(math.degrees(s[5])) for _, s in ref),
                                                               max(abs(math.degrees(s[3])) for _, s in ref)))
    with open(os.path.join(HERE, "gyro_linear.csv"), "w") as f:
        f.write("t_s,roll_deg,pitch_deg,yaw_deg\n")
        for t, s in ref:
            f.write("%.4f,%.12g,%.12g,%.12g\n" % (t, math.degrees(s[3]), math.degrees(s[4]), math.degrees(s[5])))
    # the shaft's reactions
    W = M_R * G
    rgp = [C_R[i] - P_SHAFT[i] for i in range(3)]
    Mw = cross(rgp, [0.0, 0.0, W])
    print("shaft, steady spin with weight: F = (0, 0, %.6f) N, M_P = %s N m" % (W, Mw))
    with open(os.path.join(HERE, "shaft_reaction.csv"), "w") as f:
        f.write("t_s,force_x_N,force_y_N,force_z_N,moment_x_Nm,moment_y_Nm,moment_z_Nm\n")
        for k in range(0, 401):
            f.write("%.4f,0,0,%.12g,%.12g,%.12g,%.12g\n" % (0.05 * k, W, Mw[0], Mw[1], Mw[2]))
    e = 0.05
    b2 = [0.0, 1.0, 0.0]
    b3 = cross(A_SHAFT, b2)
    with open(os.path.join(HERE, "unbalanced_reaction.csv"), "w") as f:
        f.write("t_s,force_x_N,force_y_N,force_z_N,moment_x_Nm,moment_y_Nm,moment_z_Nm\n")
        for k in range(0, 401):
            t = 0.05 * k
            ev = [e * (math.cos(OMEGA * t) * b2[i] + math.sin(OMEGA * t) * b3[i]) for i in range(3)]
            F = [-M_R * OMEGA ** 2 * x for x in ev]
            Mp = cross([C_R[i] + ev[i] - P_SHAFT[i] for i in range(3)], F)
            f.write("%.4f,%s\n" % (t, ",".join("%.12g" % x for x in F + Mp)))
    print("unbalanced: |F| = m e Omega^2 = %.6f N" % (M_R * e * OMEGA ** 2))


if __name__ == "__main__":
    main()
