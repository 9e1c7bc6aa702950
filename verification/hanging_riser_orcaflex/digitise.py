#!/usr/bin/env python3
"""Digitises the top-tension curves of FRyDoM's figure time_series_top_tension_surge.png (the
Low & Langley hanging riser, top surged 10 m at 27 s; OrcaFlex dotted red, DeeplinesWind
dashed green, FRyDoM solid blue) into reference_surge.csv, and prints the source's own spread:
the RMS difference of DeeplinesWind and FRyDoM from OrcaFlex over the steady cycles, as a
fraction of OrcaFlex's range, and their maxima and minima.

The figure: FRyDoM (github.com/srmainwaring/frydom, GPL-3.0), commit 902d4166,
docs/theory/src/benchmark/_static/bench_Cables/hanging_cable/time_series_top_tension_surge.png.
Its axes were read off its grid lines: t = 0 s at pixel column 140 and 80 s at 758; 52 kN at
pixel row 97 and 42 kN at row 398 (one pixel: 0.129 s, 33 N). Each curve is the mean row of
its colour's pixels in a column; columns without pixels of a colour (the dotted line's gaps)
are left out. Run once by hand (PIL, numpy); nothing runs it at build or test time.

usage: digitise.py FIGURE.png
"""
import sys
import numpy as np
from PIL import Image


def curves(path):
    im = np.array(Image.open(path).convert("RGB")).astype(int)
    r, g, b = im[..., 0], im[..., 1], im[..., 2]
    masks = {"orcaflex": (r > 200) & (g < 80) & (b < 80),
             "deeplines": (g > 100) & (r < 60) & (b < 60),
             "frydom": (b > 150) & (r < 80) & (g > 80) & (g < 160)}
    out = {}
    for name, mk in masks.items():
        t, tension = [], []
        for x in range(141, 757):
            ys = np.nonzero(mk[60:420, x])[0] + 60
            if len(ys):
                t.append((x - 140) * 80.0 / (758 - 140))
                tension.append(52000.0 - (ys.mean() - 97) * 10000.0 / (398 - 97))
        out[name] = (np.array(t), np.array(tension))
    return out


def main():
    c = curves(sys.argv[1])
    t, ref = c["orcaflex"]
    with open("reference_surge.csv", "w") as f:
        f.write("# The top tension of the Low & Langley hanging riser under a 10 m, 27 s surge of its top,\n"
                "# OrcaFlex (Low & Langley, OMAE 2006), digitised from FRyDoM's figure by digitise.py\n"
                "# (FRyDoM commit 902d4166, docs/theory/src/benchmark/_static/bench_Cables/hanging_cable/\n"
                "# time_series_top_tension_surge.png); reading error about 35 N.\n"
                "t_s,top_tension_N\n")
        for a, b in zip(t, ref):
            f.write("%.3f,%.0f\n" % (a, b))
    w = (t >= 27) & (t <= 79)
    span = ref[w].max() - ref[w].min()
    print("OrcaFlex over 27-79 s: max %.0f N, min %.0f N" % (ref[w].max(), ref[w].min()))
    for name in ("deeplines", "frydom"):
        tt, y = c[name]
        yi = np.interp(t[w], tt, y)
        print("%s: RMS difference %.2f %% of the range, max %.0f N (%+.2f %%), min %.0f N (%+.2f %%)" % (
            name, 100 * np.sqrt(np.mean((yi - ref[w]) ** 2)) / span, yi.max(),
            100 * (yi.max() / ref[w].max() - 1), yi.min(), 100 * (yi.min() / ref[w].min() - 1)))


if __name__ == "__main__":
    main()
