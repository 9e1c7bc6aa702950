#!/usr/bin/env python3
"""examples/oc3_hywind.yaml: the OC3 floating turbine (three bodies on joints, three moorings)
converges and its static joint reactions carry the weights (issue 16; the statics of bodies
in joints, solver/system_static.c).

1. The example's static start (its dynamic run cut to 2 s): the whole system's Newton
   converges; each joint's force on its first body, against the hand force balance: the yaw
   bearing carries the nacelle and the rotor, (m_n + m_r) g = 350 300 kg x g, the shaft the
   rotor, m_r g = 110 300 kg x g (relative 1e-9); each joint's moment about its point against
   -sum m_i g (x_i - P_x) over the bodies it carries (their centres of gravity from the
   summary's poses; 1e-6 of m g times the 5 m arm); the moorings' horizontal forces on the
   platform cancel (1e-6 of a fairlead tension) and the spar sits at its design draft
   (within 0.025 m, as verification/oc3_hywind).
2. The example as a static analysis, where the rotor's 800 kN thrust acts settled: converges
   (a joined assembly far from its start: 18 m downwind); the moorings' horizontal pull on the
   platform balances the thrust's horizontal part, 800 kN cos(5 deg + pitch) along the tilted
   shaft (relative 1e-8); the platform moves and pitches downwind.

usage: check_oc3_example.py PIPELAY EXAMPLES WORKDIR
"""
import json, math, os, shutil, subprocess, sys

G = 9.80665


def main():
    pipelay, examples, work = sys.argv[1:4]
    model = os.path.join(examples, "oc3_hywind.yaml")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    fails, npass = [], [0]

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        if ok:
            npass[0] += 1
        else:
            fails.append(what)

    out1 = os.path.join(work, "start")
    p = subprocess.run([pipelay, "run", model, "--set", "analysis.dynamic.duration=2", "--set",
                        "analysis.dynamic.output_interval=0.5", "--output", out1, "--quiet", "--no-plots"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    check(p.returncode == 0, "the example's start and 2 s run exit 0 (%d: %s)" % (p.returncode, p.stderr[-300:]))
    if p.returncode == 0:
        s = json.load(open(os.path.join(out1, "summary.json")))
        check(s["converged"], "the whole system converged")
        j, b = s["joints"], s["bodies"]
        mn, mr = 240000.0, 110300.0
        fb, fs = j["yaw_bearing"]["force_N"][2], j["shaft"]["force_N"][2]
        check(abs(fb - (mn + mr) * G) <= 1e-9 * (mn + mr) * G, "yaw bearing carries the nacelle and rotor: %.3f N "
              "against %.3f N" % (fb, (mn + mr) * G))
        check(abs(fs - mr * G) <= 1e-9 * mr * G, "shaft carries the rotor: %.3f N against %.3f N" % (fs, mr * G))
        xn, xr = b["nacelle"]["eta_m_deg"][0], b["rotor"]["eta_m_deg"][0]
        pb, ps = j["yaw_bearing"]["point_m"][0], j["shaft"]["point_m"][0]
        mb = -(mn * G * (xn - pb) + mr * G * (xr - pb))
        ms = -mr * G * (xr - ps)
        tol = 1e-6 * mr * G * 5.0
        check(abs(j["yaw_bearing"]["moment_Nm"][1] - mb) <= tol, "yaw bearing moment %.2f N m against %.2f N m" %
              (j["yaw_bearing"]["moment_Nm"][1], mb))
        check(abs(j["shaft"]["moment_Nm"][1] - ms) <= tol, "shaft moment %.2f N m against %.2f N m" %
              (j["shaft"]["moment_Nm"][1], ms))
        fx = sum(s["lines"][l]["top"]["force_on_support_N"][0] for l in ("line1", "line2", "line3"))
        t1 = s["lines"]["line1"]["top"]["tension_N"]
        check(abs(fx) <= 1e-6 * t1, "the moorings' horizontal forces cancel (%.3g N)" % fx)
        check(abs(b["platform"]["eta_m_deg"][2] + 77.999858) <= 0.025, "the spar at its design draft (z %.4f m)" %
              b["platform"]["eta_m_deg"][2])
    out2 = os.path.join(work, "thrust")
    p = subprocess.run([pipelay, "run", model, "--set", "analysis={type: static}", "--set", "output={directory: x}",
                        "--set", "bodies[2].initial={position: [-5.02, 0, 89.56], orientation: [0, 5, 0]}",
                        "--output", out2, "--quiet", "--no-plots"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    check(p.returncode == 0, "static under the settled 800 kN thrust exits 0 (%d: %s)" % (p.returncode, p.stderr[-300:]))
    if p.returncode == 0:
        s = json.load(open(os.path.join(out2, "summary.json")))
        check(s["converged"], "the whole system converged under thrust")
        fx = sum(s["lines"][l]["top"]["force_on_support_N"][0] for l in ("line1", "line2", "line3"))
        # the thrust acts along the shaft, tilted 5 deg and pitched with the platform: its
        # horizontal part 800 kN cos(5 deg + pitch); the lines pull back
        e = s["bodies"]["platform"]["eta_m_deg"]
        th = 8.0e5 * math.cos(math.radians(5.0 + e[4]))
        check(abs(fx + th) <= 1e-8 * 8.0e5, "the moorings' pull %.3f N balances the thrust's horizontal part %.3f N" %
              (fx, th))
        check(e[0] > 10.0 and e[4] > 0.0, "downwind offset %.3f m and pitch %.3f deg" % (e[0], e[4]))
    print("check_oc3_example: %d passed, %d failed" % (npass[0], len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
