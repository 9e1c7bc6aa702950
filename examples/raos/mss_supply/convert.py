#!/usr/bin/env python3
"""Converts the MSS supply vessel's VERES motion transfer functions (input.re1) into
pipelay's RAO table (supply_raos.csv; the format: include/pipelay/rao.h, docs/model-file.md).

input.re1 (VERES 4.02, ShipX export; read as MSS's HYDRO/utils/readdata/read_veres_TF.m reads it):
header lines 7-10 hold rho, g; Lpp, B, T; LCG, VCG; then the numbers of speeds, headings,
frequencies and DOFs; per speed one line (speed, sinkage, trim, x and z of the motion point),
then per heading [deg] and frequency [rad/s] six rows "DOF Re Im" (translations m/m,
rotations rad/m).

VERES's frame and conventions, as the file's own long-wave rows show them (T = 60 s): axes
x aft, y starboard, z up (MSS turns them to x forward with T = diag(-1, 1, -1, -1, 1, -1)); the
heading is the waves' direction of travel from +x towards +y (heading 0: travelling aft, head
seas; surge -> -i, pitch -> +i k, at 90 sway -> -i: the motions of a body following the
surface of Re{a e^{i(omega t - k.x)}}); the response is Re{H e^{i omega t}}, a phase lead.
pipelay's body axes (x forward, y port, z up) are VERES's turned half a turn about z: surge,
sway, roll and pitch change sign, heave and yaw do not, and the direction of travel turns by
180 deg. VERES gives headings 0-180; the hull is symmetric port-starboard, so heading 360 - b
is heading b mirrored (sway, roll and yaw change sign), in VERES's axes before the turn.

Output: headings 0, 10, ..., 350 deg (direction of travel, towards), periods 2 pi/omega [s],
amplitude (m/m, rad/m) and phase lead [deg]: raos.heading towards, raos.phase lead,
raos.rotations rad.
"""
import cmath
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_re1(path):
    lines = open(path).read().split('\n')
    nvel, nhead, nfreq, ndof = (int(v) for v in lines[9].split())
    if nvel != 1 or ndof != 6:
        sys.exit(f'{path}: expected 1 speed and 6 DOFs, found {nvel} and {ndof}')
    i = 11  # line 11 is the speed line
    raos = {}
    for _ in range(nhead):
        head = float(lines[i]); i += 1
        for _ in range(nfreq):
            w = float(lines[i]); i += 1
            h = [0j] * 6
            for _ in range(6):
                dof, re, im = lines[i].split(); i += 1
                h[int(dof) - 1] = complex(float(re), float(im))
            raos[(head, w)] = h
    return raos


def main():
    raos = read_re1(os.path.join(HERE, 'input.re1'))
    mirror = (1, -1, 1, -1, 1, -1)  # y -> -y in VERES's axes
    turn = (-1, -1, 1, -1, -1, 1)   # VERES's axes to pipelay's: half a turn about z
    full = {}
    for (head, w), h in raos.items():
        full[(head % 360.0, w)] = h
        if 0.0 < head < 180.0:
            full[((360.0 - head) % 360.0, w)] = [s * x for s, x in zip(mirror, h)]
    names = ('surge', 'sway', 'heave', 'roll', 'pitch', 'yaw')
    rows = []
    for (head, w), h in full.items():
        ours = ((head + 180.0) % 360.0)
        for j in range(6):
            z = turn[j] * h[j]
            rows.append((ours, 2.0 * math.pi / w, j, abs(z), math.degrees(cmath.phase(z)) if abs(z) > 0 else 0.0))
    rows.sort(key=lambda r: (r[0], r[1], r[2]))
    out = os.path.join(HERE, 'supply_raos.csv')
    with open(out, 'w') as f:
        f.write('# MSS supply vessel (VERES 4.02, Lpp 82.8 m, B 19.2 m, T 6.0 m), speed 0: from\n'
                '# cybergalactic/MSS HYDRO/vessels_shipx/supply/input.re1 (MIT licence, LICENSE here)\n'
                '# by convert.py. Body axes x forward, y port, z up; RAO origin 5.386 m aft of Lpp/2 on\n'
                '# the centreline at the waterline. heading: towards (direction of travel from +x towards\n'
                '# +y), phase: lead, rotations: rad per m of wave amplitude.\n')
        f.write('heading,period,dof,amplitude,phase\n')
        for hd, T, j, a, p in rows:
            f.write(f'{hd:.0f},{T:.8g},{names[j]},{a:.8g},{p:.6f}\n')
    print(f'{out}: {len(rows)} rows')


if __name__ == '__main__':
    main()
