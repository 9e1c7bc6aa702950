#!/usr/bin/env python3
"""DNV-ST-F101 local buckling: hand computation of every term, compared with materials/design.c.

Usage: check_dnv_hand.py TEST_DESIGN

The formulas are written out here from the standard (DNV-OS-F101 2007 equation numbers, as
materials/design.c cites them); the collapse pressure is found by bisection on its cubic, not by
the closed form the C code uses. Each case is fed to `test_design terms`, and every term it prints
must agree with the hand value to 1e-6 (relative; 1e-12 absolute for terms that are zero).

The cases: an S-lay overbend under tension (combinations a and b, with a dynamic part), a sagbend
in 100 m of water (external overpressure), a laid pipe with internal pressure (below and above
2/3 of the burst pressure). The worked example of the reference notes (computed there with a
separate script, rounded to 3-4 digits) is checked with the hand formulas too.
"""
import json
import math
import subprocess
import sys

G = 9.80665
RHO_W = 1025.0
GAMMA_M = 1.15
GAMMA_SC = [1.04, 1.14, 1.26]     # Table 5-5, low / medium / high
GAMMA_EPS = [2.0, 2.5, 3.3]       # Table 5-8
ALPHA_FAB = [1.0, 0.93, 0.85]     # Table 5-7, seamless / UO-TRB-ERW / UOE


def hand(c):
    D, t2 = c["D"], c["t"] - c["tcorr"]
    aU = 1.0 if c["suppU"] else 0.96
    fy = (c["smys"] - c["fytemp"]) * aU                        # Eq. 5.5
    fu = (c["smts"] - c["futemp"]) * aU                        # Eq. 5.6
    Mp = fy * (D - t2) ** 2 * t2                               # Eq. 5.21
    Sp = fy * math.pi * (D - t2) * t2                          # Eq. 5.20
    fcb = min(fy, fu / 1.15)                                   # Eq. 5.9
    pb = 2 * t2 / (D - t2) * fcb * 2 / math.sqrt(3)            # Eq. 5.8
    pel = 2 * c["E"] * (t2 / D) ** 3 / (1 - c["nu"] ** 2)      # Eq. 5.11
    pp = fy * ALPHA_FAB[c["fab"]] * 2 * t2 / D                 # Eq. 5.12
    f0 = max(c["f0"], 0.005)

    def cubic(p):                                              # Eq. 5.10
        return (p - pel) * (p * p - pp * pp) - p * pel * pp * f0 * D / t2
    lo, hi = 0.0, min(pel, pp)
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if cubic(mid) > 0:
            lo = mid
        else:
            hi = mid
    pc = 0.5 * (lo + hi)
    Dt = D / t2
    beta = 0.5 if Dt < 15 else (60 - Dt) / 90 if Dt <= 60 else 0.0   # Eq. 5.24
    ac = (1 - beta) + beta * fu / fy                                   # Eq. 5.22
    agw = 1.0 if Dt <= 20 else 0.6 if Dt >= 60 else 1 - 0.4 * (Dt - 20) / 40
    gF, gE, gC = c["gF"], c["gE"], c["gC"]
    MSd = c["MF"] * gF * gC + c["ME"] * gE                     # Eq. 4.5
    SSd = c["SF"] * gF * gC + c["SE"] * gE                     # Eq. 4.7
    eSd = c["eF"] * gF * gC + c["eE"] * gE
    pi, pe = c["pi"], c["pe"]
    ratio = (pi - pe) / pb
    ap = 1 - beta if ratio < 2 / 3 else 1 - 3 * beta * (1 - ratio)   # Eq. 5.23
    gmsc = GAMMA_M * GAMMA_SC[c["cls"]]
    m_term = gmsc * abs(MSd) / (ac * Mp)
    s_term = (gmsc * SSd / (ac * Sp)) ** 2
    geps = GAMMA_EPS[c["cls"]]
    ah = c["alpha_h"]
    if pi >= pe:
        p_term = (ap * (pi - pe) / (ac * pb)) ** 2                    # Eq. 5.19
        ec = 0.78 * (t2 / D - 0.01) * (1 + 5.75 * (pi - pe) / pb) * ah ** -1.5 * agw   # Eq. 5.30
        dcc = abs(eSd) / (ec / geps)                                   # Eq. 5.29
    else:
        p_term = (gmsc * (pe - pi) / pc) ** 2                          # Eq. 5.28
        ec = 0.78 * (t2 / D - 0.01) * ah ** -1.5 * agw
        dcc = (abs(eSd) / (ec / geps)) ** 0.8 + (pe - pi) / (pc / gmsc)
    return {"f_y": fy, "f_u": fu, "M_p": Mp, "S_p": Sp, "p_b": pb, "p_el": pel, "p_p": pp, "p_c": pc,
            "beta": beta, "alpha_c": ac, "alpha_gw": agw, "alpha_p": ap, "M_Sd": MSd, "S_Sd": SSd,
            "eps_Sd": eSd, "lcc_moment": m_term, "lcc_axial": s_term, "lcc_pressure": p_term,
            "lcc": (m_term + s_term) ** 2 + p_term, "eps_c": ec, "dcc": dcc}


def pipe():
    D, t, E = 0.32385, 0.0159, 207e9
    di = D - 2 * t
    A = math.pi / 4 * (D * D - di * di)
    I = math.pi / 64 * (D ** 4 - di ** 4)
    return D, t, E, E * A, E * I


def base(**kw):
    D, t, E, _, _ = pipe()
    c = dict(D=D, t=t, E=E, nu=0.3, smys=450e6, smts=535e6, cls=0, fab=0, suppU=0, fytemp=0.0, futemp=0.0,
             tcorr=0.0, f0=0.005, alpha_h=0.93, MF=0.0, ME=0.0, SF=0.0, SE=0.0, eF=0.0, eE=0.0, pi=0.0, pe=0.0,
             gF=1.2, gE=0.7, gC=1.0)
    c.update(kw)
    return c


def cases():
    D, t, E, EA, EI = pipe()
    out = []
    # overbend under tension: R = 100 m on the stinger, 5 m down, empty; a dynamic part on top
    R, S, z = 100.0, 182e3, -5.0
    MF, ME, SE = EI / R, 40e3, 25e3
    for comb, (gF, gE) in (("a", (1.2, 0.7)), ("b", (1.1, 1.3))):
        out.append(("overbend " + comb, base(MF=MF, ME=ME, SF=S, SE=SE, eF=D / (2 * R) + S / EA,
                                             eE=ME / EI * D / 2 + SE / EA, pe=RHO_W * G * -z, gF=gF, gE=gE, gC=0.8)))
    # sagbend in 100 m: external overpressure, medium class, UOE, derated for temperature
    MF, ME, S, SE = 89.9e3, -10e3, 150e3, 30e3
    out.append(("sagbend", base(cls=1, fab=2, fytemp=30e6, futemp=30e6, MF=MF, ME=ME, SF=S, SE=SE,
                                eF=MF / EI * D / 2 + S / EA, eE=ME / EI * D / 2 + SE / EA, pe=RHO_W * G * 100)))
    # laid pipe with internal pressure: 15 MPa at z = 0, contents 800 kg/m^3, at z = -100 m;
    # compressive effective force; high class, UO, corroded 1 mm, supplementary U, uneven seabed
    pi = 15e6 + 800 * G * 100
    out.append(("laid, internal pressure", base(cls=2, fab=1, suppU=1, tcorr=1e-3, f0=0.01, MF=20e3, SF=-300e3,
                                                eF=20e3 / EI * D / 2 + 300e3 / EA, pi=pi, pe=RHO_W * G * 100,
                                                gF=1.1, gE=1.3, gC=1.07)))
    out.append(("laid, internal pressure above 2/3 p_b", base(cls=2, MF=20e3, SF=-300e3, pi=45e6,
                                                             pe=RHO_W * G * 100, gC=1.07)))
    return out


def main():
    exe = sys.argv[1]
    cs = cases()
    keys = ["D", "t", "E", "nu", "smys", "smts", "cls", "fab", "suppU", "fytemp", "futemp", "tcorr", "f0",
            "alpha_h", "MF", "ME", "SF", "SE", "eF", "eE", "pi", "pe", "gF", "gE", "gC"]
    text = "".join(" ".join(repr(c[k]) for k in keys) + "\n" for _, c in cs)
    got = subprocess.run([exe, "terms"], input=text, capture_output=True, text=True, check=True).stdout
    fails = 0
    rows = [json.loads(line) for line in got.splitlines()]
    assert len(rows) == len(cs), f"{len(rows)} rows for {len(cs)} cases"
    for (name, c), row in zip(cs, rows):
        want = hand(c)
        for k, w in want.items():
            g = row[k]
            ok = abs(g - w) <= 1e-6 * abs(w) if w != 0 else abs(g) <= 1e-12
            if not ok:
                print(f"FAIL {name}: {k} = {g!r}, hand {w!r}")
                fails += 1
        print(f"{name}: LCC {want['lcc']:.6f}, DCC {want['dcc']:.6f} (C: {row['lcc']:.6f}, {row['dcc']:.6f})")
    # the reference notes' worked example (X65 low class, empty, 100 m of water), to 2e-3 relative:
    # the notes round to 3-4 digits, and their D is 12.75 in rounded to 0.3239 m (their M_p
    # 651.6 kN m and p_c 36.295 MPa come out with it; with 0.32385 m the sagbend's 0.0349 does)
    pe, D = 1.0055e6, 0.3239
    sag = hand(base(D=D, MF=89.9e3, SF=150e3, pe=pe))["lcc"]
    over = hand(base(D=D, MF=378.6e3, SF=182e3, pe=pe, gC=0.8))["lcc"]
    dcc_a = hand(base(D=D, eF=0.1677e-2, pe=pe, gC=0.8))["dcc"]
    dcc_b = hand(base(D=D, eF=0.1677e-2, pe=pe, gC=0.8, gF=1.1, gE=1.3))["dcc"]
    for name, g, w in (("sagbend LCC", sag, 0.0349), ("overbend LCC", over, 0.3815),
                       ("overbend DCC a", dcc_a, 0.1853), ("overbend DCC b", dcc_b, 0.1751)):
        print(f"reference example {name}: {g:.5f} (notes {w})")
        if abs(g - w) > 2e-3 * w:
            print(f"FAIL reference example {name}")
            fails += 1
    sys.exit(1 if fails else 0)


main()
