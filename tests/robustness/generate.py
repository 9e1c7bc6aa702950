#!/usr/bin/env python3
"""The static robustness suite (issue 12): writes models/*.yaml and manifest.json beside this
file, deterministic (no random numbers). Every model is run with pipelay's DEFAULT solver
settings (no analysis block but the type) by check.py. The families:

  jlay        J-lay: bottom clamped on the seabed along +x, top at the sea surface held in y
              and z, pulled by a horizontal lay tension H (x free); pipes 6-36 in (API 5L
              sizes, steel E = 207 GPa, G = 79.6 GPa, 7850 kg/m^3, empty), depths 50-3000 m,
              H from a catenary radius of 28 m at touchdown (about the lowest that keeps a
              12-inch pipe off a kink: 10 kN) to 3 MN, element lengths 0.1-20 m;
  misaligned  J-lays whose bottom end is clamped 1, 5 and 10 deg off the lay direction (3-D);
  lazy_wave   riser, buoyancy section (buoyant: true), riser, from a clamp on the seabed to a
              hang-off point;
  suspended   a line between two pinned points clear of the seabed (mooring legs, jumpers):
              EA 1e7-1e12 N, chords 70-99.5 % of the length (slack to nearly taut);
  riser       near-vertical risers: pinned on the seabed (torsion held), the top held in x
              and y at 0-5 % of the depth from above the bottom, pulled up by 1.2-2 times the
              line's weight.
The line length of a J-lay is its catenary's suspended length plus 30 % (at least 100 m)
laid on the seabed. Pipe data: outer diameter and wall thickness of API 5L line pipe.
"""
import json, math, os

HERE = os.path.dirname(os.path.abspath(__file__))
RHO, G = 1025.0, 9.80665
E, GMOD, RHO_S = 207e9, 7.96e10, 7850.0
PIPES = {  # inch: (outer diameter m, wall m), API 5L
    6: (0.1683, 0.0071), 10: (0.2731, 0.0127), 12: (0.3239, 0.0159), 20: (0.5080, 0.0206),
    30: (0.7620, 0.0330), 36: (0.9144, 0.0318),
}


def pipe_props(inch):
    d, t = PIPES[inch]
    A = math.pi / 4 * (d * d - (d - 2 * t) ** 2)
    I = math.pi / 64 * (d ** 4 - (d - 2 * t) ** 4)
    m = RHO_S * A
    return {"d": d, "t": t, "EA": E * A, "EI": E * I, "m": m, "w": (m - RHO * math.pi * d * d / 4) * G}


def yaml_pipe_section(inch, length=None, buoyant=False, d=None, t=None, rho=RHO_S):
    dd, tt = PIPES[inch] if d is None else (d, t)
    s = "    - {%souter_diameter: %.6g, wall_thickness: %.6g,\n" % ("length: %.10g, " % length if length else "", dd, tt)
    s += "       material: {youngs_modulus: %.6g, shear_modulus: %.6g, density: %.6g}%s}\n" % (
        E, GMOD, rho, ", buoyant: true" if buoyant else "")
    return s


cases = []


def add(name, kind, yaml, man):
    man.update({"name": name, "kind": kind})
    cases.append((name, yaml, man))


def jlay(inch, depth, H, el, yaw=0.0):
    p = pipe_props(inch)
    a = H / p["w"]
    s = math.sqrt(depth * depth + 2 * a * depth)
    L = s + max(0.3 * s, 100.0)
    el = max(el, L / 4000.0)  # at most 4000 elements
    zb = -depth + p["d"] / 2 - p["d"] / 8  # resting at d/8 penetration (eq. 5.38)
    name = "jlay_%02din_%04dm_H%07.0fN_el%g" % (inch, depth, H, el) + ("_yaw%g" % yaw if yaw else "")
    y = "# %s (tests/robustness/generate.py)\n" % name
    y += "environment: {water_depth: %g, water_density: %g, gravity: %g}\n" % (depth, RHO, G)
    y += "line:\n  length: %.10g\n  sections:\n" % L + yaml_pipe_section(inch)
    y += "seabed: {model: nonlinear}\nmesh: {target_length: %.10g}\n" % el
    y += "ends:\n  bottom: {position: [0, 0, %.10g], orientation: [0, 0, %g], fixed: all}\n" % (zb, yaw)
    y += "  top: {position: [~, 0, 0], fixed: [y, z], force: [%.10g, 0, 0]}\n" % H
    man = {"planar": yaw == 0.0, "depth": depth, "rho": RHO, "g": G, "seabed": "nonlinear", "H": H,
           "bottom": [0, 0, zb], "top": [None, 0, 0.0], "bottom_clamped": True, "element_length": el,
           "sections": [{"length": L, "EI": p["EI"], "EA": p["EA"], "d": p["d"], "m": p["m"]}], "pipe_inch": inch}
    if yaw:
        man["aligned_twin"] = name.split("_yaw")[0]
    add(name, "misaligned" if yaw else "jlay", y, man)


# J-lays: (inch, depths, tensions), element lengths cycling through the list
EL = [0.1, 0.5, 2, 5, 10, 20]
k = 0
for inch, depths, Hs in [(6, [50, 1000], None), (12, [50, 300, 1500, 3000], None), (20, [300, 1500], None),
                         (30, [900, 3000], None), (36, [300, 1500], None)]:
    w = pipe_props(inch)["w"]
    for depth in depths:
        for H in [28 * w, 10 * 28 * w if inch < 30 else 400e3, 3e6 if inch >= 20 else 1e6 if inch == 12 else 3e5]:
            H = round(H, -2)
            el = EL[k % len(EL)]
            if depth >= 1000 and el < 2:
                el = 2.0
            jlay(inch, depth, H, el)
            k += 1
# misaligned bottoms (3-D) and their aligned twins
for inch, depth, H in [(12, 1500, 100e3), (30, 900, 400e3)]:
    jlay(inch, depth, H, 5.0)
    for yaw in (1, 5, 10):
        jlay(inch, depth, H, 5.0, yaw)

# lazy waves: a 10-inch riser, a buoyancy section (the riser with buoyancy modules: 0.45 m
# outside, 100 kg/m, so that it lifts about three times the riser's weight), the riser
for depth, X in [(1000, 1500), (1500, 2100), (2000, 2700)]:
    p = pipe_props(10)
    L1, L2, L3 = 1.0 * depth, 0.3 * depth, 0.95 * depth
    L = L1 + L2 + L3
    zb = -depth + p["d"] / 2 - p["d"] / 8
    name = "lazy_wave_%04dm" % depth
    dB, mB = 0.45, 100.0
    y = "# %s (tests/robustness/generate.py)\n" % name
    y += "environment: {water_depth: %g, water_density: %g, gravity: %g}\n" % (depth, RHO, G)
    y += "line:\n  length: %.10g\n  sections:\n" % L
    y += yaml_pipe_section(10, L1)
    y += ("    - {length: %.10g, outer_diameter: %g, EA: %.10g, GA: %.10g, GJ: %.10g, EI: %.10g, mass_per_length: %g,\n"
          "       buoyant: true}\n" % (L2, dB, p["EA"], p["EA"] / 3, p["EI"] * 0.77, p["EI"], mB))
    y += yaml_pipe_section(10, L3)
    y += "seabed: {model: nonlinear}\nmesh: {target_length: 5}\n"
    y += "ends:\n  bottom: {position: [0, 0, %.10g], fixed: all}\n" % zb
    y += "  top: {position: [%.10g, 0, -20], fixed: [x, y, z]}\n" % X
    secs = [{"length": L1, "EI": p["EI"], "EA": p["EA"], "d": p["d"], "m": p["m"]},
            {"length": L2, "EI": p["EI"], "EA": p["EA"], "d": dB, "m": mB},
            {"length": L3, "EI": p["EI"], "EA": p["EA"], "d": p["d"], "m": p["m"]}]
    add(name, "lazy_wave", y, {"planar": True, "depth": depth, "rho": RHO, "g": G, "seabed": "nonlinear",
                               "bottom": [0, 0, zb], "top": [X, 0, -20.0], "bottom_clamped": True,
                               "sections": secs, "element_length": 5})

# suspended lines between two pinned points, clear of the seabed
for EA in (1e7, 1e9, 1e10, 1e12):
    for frac in (0.7, 0.9, 0.98, 0.995):
        L, dz = 1000.0, 300.0
        chord = frac * L
        X = math.sqrt(chord * chord - dz * dz)
        d, m = 0.12, 30.0
        EI = min(1e4, EA * 1e-5)
        name = "suspended_EA%.0e_chord%.3f" % (EA, frac)
        y = "# %s (tests/robustness/generate.py)\n" % name
        y += "environment: {water_depth: 2000, water_density: %g, gravity: %g}\n" % (RHO, G)
        y += "line:\n  length: %g\n  sections:\n" % L
        y += "    - {outer_diameter: %g, EA: %.6g, GA: %.6g, GJ: %.6g, EI: %.6g, mass_per_length: %g}\n" % (
            d, EA, EA / 2, EI, EI, m)
        y += "seabed: {model: none}\nmesh: {target_length: %g}\n" % (5 if EA < 1e11 else 10)
        y += "ends:\n  bottom: {position: [0, 0, -800], fixed: [x, y, z, rx]}\n"
        y += "  top: {position: [%.10g, 0, -500], fixed: [x, y, z]}\n" % X
        add(name, "suspended", y, {"planar": True, "depth": 2000, "rho": RHO, "g": G, "seabed": "none",
                                   "bottom": [0, 0, -800.0], "top": [X, 0, -500.0], "bottom_clamped": False,
                                   "sections": [{"length": L, "EI": EI, "EA": EA, "d": d, "m": m}],
                                   "element_length": 5 if EA < 1e11 else 10})

# near-vertical risers pulled up at the top
for depth in (500, 1500):
    for off in (0.0, 0.02, 0.05):
        for f in (1.2, 2.0):
            p = pipe_props(12)
            L = depth
            W = p["w"] * L
            Fz = f * W
            X = off * depth
            zb = -depth + p["d"] / 2
            name = "riser_%04dm_off%.2f_F%.1fW" % (depth, off, f)
            y = "# %s (tests/robustness/generate.py)\n" % name
            y += "environment: {water_depth: %g, water_density: %g, gravity: %g}\n" % (depth, RHO, G)
            y += "line:\n  length: %g\n  sections:\n" % L + yaml_pipe_section(12)
            y += "seabed: {model: nonlinear}\nmesh: {target_length: 5}\n"
            y += "ends:\n  bottom: {position: [0, 0, %.10g], fixed: [x, y, z, rx]}\n" % zb
            y += "  top: {position: [%.10g, 0, ~], fixed: [x, y], force: [0, 0, %.10g]}\n" % (X, Fz)
            add(name, "riser", y, {"planar": True, "depth": depth, "rho": RHO, "g": G, "seabed": "nonlinear",
                                   "bottom": [0, 0, zb], "top": [X, 0, None], "bottom_clamped": False, "Fz": Fz,
                                   "sections": [{"length": L, "EI": p["EI"], "EA": p["EA"], "d": p["d"], "m": p["m"]}],
                                   "element_length": 5})

if __name__ == "__main__":
    os.makedirs(os.path.join(HERE, "models"), exist_ok=True)
    for name, y, _ in cases:
        with open(os.path.join(HERE, "models", name + ".yaml"), "w") as f:
            f.write(y)
    with open(os.path.join(HERE, "manifest.json"), "w") as f:
        json.dump([m for _, _, m in cases], f, indent=1)
    print("%d models" % len(cases))
