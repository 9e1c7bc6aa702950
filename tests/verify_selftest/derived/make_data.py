#!/usr/bin/env python3
# make_data.py - writes the hand-made files of the self-test case "derived" (run once by hand;
# the output is committed). Every number the checks expect follows from these rows exactly
# (see case.yaml).
import os

here = os.path.dirname(os.path.abspath(__file__))


def write(path, header, rows, comment):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write("# " + comment + "\n" + header + "\n")
        for r in rows:
            f.write(",".join(repr(v) if isinstance(v, float) else str(v) for v in r) + "\n")


def tri(t):
    """triangle wave of period 2: -1 at phase 0, +1 at phase 1"""
    p = t % 2.0
    return -1.0 + 2.0 * p if p < 1.0 else 3.0 - 2.0 * p


# a triangle wave about 3, delayed by 0.1 s, sampled every 0.25 s over 4 periods: the
# samples' mean is 3 and the upward crossings of y - 3 are at t = 0.6, 2.6, 4.6, 6.6
write(os.path.join(here, "wave.csv"), "t_s,y",
      [(0.25 * k, 3.0 + tri(0.25 * k - 0.1)) for k in range(32)],
      "triangle wave, period 2 s, mean 3, delayed 0.1 s (make_data.py)")
# a falling record with two rises: drift 4 (at t = 3), max_rise 1.5 (1 -> 2.5), change -3
write(os.path.join(here, "record.csv"), "t_s,e",
      [(0.0, 5.0), (1.0, 3.0), (2.0, 4.0), (3.0, 1.0), (4.0, 2.5), (5.0, 2.0)],
      "a falling record with two rises (make_data.py)")
# prepared runs (the test copies prepared_runs/ into the report folder and runs verify --reuse):
# ref y = t; a = ref + 4; b = t + 2 sampled half-way between ref's times (interpolated onto
# them exactly, only t = 1..4 inside its range); c = ref + (7, 1, -1, 1, -1): RMS 1 over t = 1..4
runs = {
    "ref": (10, [(float(t), float(t)) for t in range(5)]),
    "a": (20, [(float(t), t + 4.0) for t in range(5)]),
    "b": (40, [(t + 0.5, t + 2.5) for t in range(5)]),
    "c": (80, [(float(t), t + d) for t, d in zip(range(5), (7.0, 1.0, -1.0, 1.0, -1.0))]),
}
for rid, (nodes, rows) in runs.items():
    d = os.path.join(here, "prepared_runs", rid)
    write(os.path.join(d, "timeseries.csv"), "t_s,value", rows, "prepared run %s (make_data.py)" % rid)
    with open(os.path.join(d, "summary.json"), "w") as f:
        f.write('{"input": {"nodes": %d}}\n' % nodes)
    with open(os.path.join(here, "prepared_runs", rid + ".status"), "w") as f:
        f.write("0 0.0\n")
# the RMS sequence of runs a, b, c against ref over t = 1..4, against their node counts
write(os.path.join(here, "sequence.csv"), "nodes,rms_difference", [(20, 4.0), (40, 2.0), (80, 1.0)],
      "RMS differences of runs a, b, c to run ref over t = 1..4 (make_data.py)")
