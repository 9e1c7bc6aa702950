#!/usr/bin/env python3
"""The statistics a dynamic run writes (statistics.csv and summary.json's "statistics",
output/statistics.c) against the time series it wrote and against linear wave theory.

1. examples/riser_regular_wave.yaml (a 4 m, 10 s Airy wave, 40 s): the elevation at the riser
   (waves.csv eta_top_m) has the mean 0, the standard deviation a / sqrt 2 = sqrt 2 m (four
   whole periods: the trapezoidal rule is exact for a sinusoid over whole periods) to 1e-9 and
   the zero up-crossing period 10 s to 1e-6; a regular sea gets no most probable maxima.
2. tests/models/riser_jonswap.yaml (the riser in a JONSWAP sea, Hs 4 m, Tp 10 s, 600 s,
   statistics from t = 100 s): every column of every time series is recomputed here from its
   file by the definitions (numpy: the trapezoidal mean and variance over t >= 100 s, the
   extremes, Tz from linearly interpolated up-crossings, the Rayleigh MPM mean + std sqrt(2 ln N)
   with N = T/Tz and 10800 s/Tz), to 1e-9 of the column's scale; summary.json holds the same
   numbers (statistics.csv has 10 significant digits). A linear sea's elevation is Gaussian: the Weibull shape fitted to its peaks' upper
   half is 2 within 15 % and its most probable maximum over 3 h the Rayleigh one within 10 %;
   its spectrum (spectra.csv) integrates to its variance within 5 % (Welch weighs the record's
   segments by its Hann windows, the variance every sample alike: 3.9 % apart here) and its
   moments give its counted Tz (Rice's formula, Tz = sqrt(m0/m2)) within 10 % (m2 weighs the
   spectrum's tail, synthesised to 6 omega_p, where a 500 s record's estimate is noisy: 5.0 %).
"""
import csv, json, math, os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks

pipelay, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
checks = Checks(pipelay, work)
check = checks.check


def run(model, name):
    """The model file run into WORK/NAME (checks.run: its text copied there): the folder or None."""
    return checks.run(name, open(model).read())


def table(path):
    rows = [r for r in csv.reader(open(path)) if r and not r[0].startswith("#")]
    return rows[0], rows[1:]


def num(s):
    return float(s) if s != "" else float("nan")


def stats(t, x, t0):
    k = t >= t0
    t, x = t[k], x[k]
    T = t[-1] - t[0]
    mu = np.trapz(x, t) / T
    sd = math.sqrt(np.trapz((x - mu) ** 2, t) / T)
    d = x - mu
    up = [t[i] + (t[i + 1] - t[i]) * (-d[i]) / (d[i + 1] - d[i]) for i in range(len(d) - 1) if d[i] < 0 <= d[i + 1]]
    tz = (up[-1] - up[0]) / (len(up) - 1) if len(up) > 1 else float("nan")
    return mu, sd, x.min(), x.max(), tz, T


# 1. a regular wave
out = run(os.path.join(src, "examples", "riser_regular_wave.yaml"), "statistics_regular")
if out:
    s = json.load(open(os.path.join(out, "summary.json")))["statistics"]
    e = s["series"]["waves.csv"]["eta_top_m"]
    check(abs(e["mean"]) <= 1e-9, "regular wave: mean elevation %.3g m (0)" % e["mean"])
    check(abs(e["std"] / math.sqrt(2.0) - 1.0) <= 1e-9, "regular wave: std %.12g m = a/sqrt 2 = sqrt 2 m" % e["std"])
    check(abs(e["tz_s"] / 10.0 - 1.0) <= 1e-6, "regular wave: Tz %.9g s = the period 10 s" % e["tz_s"])
    check(not s["irregular_sea"] and "mpm_max_3h" not in e, "regular wave: no most probable maxima")

# 2. an irregular sea
out = run(os.path.join(src, "tests", "models", "riser_jonswap.yaml"), "statistics_jonswap")
if out:
    summ = json.load(open(os.path.join(out, "summary.json")))["statistics"]
    check(summ["start_s"] == 100 and summ["irregular_sea"], "JONSWAP: statistics from 100 s, irregular sea")
    head, rows = table(os.path.join(out, "statistics.csv"))
    col = {h: i for i, h in enumerate(head)}
    worst, n = 0.0, 0
    seen = set()
    for r in rows:
        f, c = r[col["file"]], r[col["column"]]
        seen.add(f)
        data = np.genfromtxt(os.path.join(out, f), delimiter=",", names=True)
        t, x = data["t_s"], data[c]
        mu, sd, lo, hi, tz, T = stats(t, x, 100.0)
        scale = max(abs(lo), abs(hi), sd, 1e-300)
        want = {"mean": mu, "std": sd, "min": lo, "max": hi, "tz_s": tz}
        if sd > 1e-9 * scale and math.isfinite(tz):
            for key, N in (("run", T / tz), ("3h", 10800.0 / tz)):
                want["mpm_max_%s_rayleigh" % key] = mu + sd * math.sqrt(2.0 * math.log(N))
                want["mpm_min_%s_rayleigh" % key] = mu - sd * math.sqrt(2.0 * math.log(N))
        js = summ["series"][f][c]
        for key, v in want.items():
            got = num(r[col[key]])
            err = (abs(got - v) / (scale if key != "tz_s" else v)) if math.isfinite(v) else (0.0 if not math.isfinite(got) else 1.0)
            worst = max(worst, err)
            if err > 1e-9:
                check(False, "JONSWAP: %s %s %s: %.12g against %.12g" % (f, c, key, got, v))
            jv = js[key[:-len("_rayleigh")]]["rayleigh"] if key.endswith("_rayleigh") else js[key]
            if jv is not None and math.isfinite(got) and abs(jv - got) > 1e-9 * (scale if key != "tz_s" else got):
                check(False, "JONSWAP: summary.json's %s %s %s %.12g against statistics.csv's %.12g" % (f, c, key, jv, got))
        n += 1
    check(worst <= 1e-9, "JONSWAP: %d columns' mean, std, extremes, Tz and Rayleigh MPMs as their definitions, "
                         "largest difference %.2g of the column's scale" % (n, worst))
    check({"waves.csv", "timeseries_top.csv", "timeseries_mid.csv", "timeseries_bottom.csv"} <= seen
          and "energy.csv" not in seen, "JONSWAP: every time series but energy.csv: %s" % sorted(seen))
    e = summ["series"]["waves.csv"]["eta_top_m"]
    r = [x for x in rows if x[col["file"]] == "waves.csv" and x[col["column"]] == "eta_top_m"][0]
    beta = num(r[col["weibull_shape_peaks"]])
    check(abs(beta / 2.0 - 1.0) <= 0.15, "JONSWAP: the elevation's peaks Rayleigh: Weibull shape %.3f (2)" % beta)
    ray, wei = e["mpm_max_3h"]["rayleigh"], e["mpm_max_3h"]["weibull"]
    check(abs(wei / ray - 1.0) <= 0.10, "JONSWAP: elevation MPM over 3 h, Weibull %.4g m against Rayleigh %.4g m" % (wei, ray))
    # spectra.csv: the elevation's spectrum integrates to its variance (Parseval) and its
    # moments give its zero up-crossing period (Rice: Tz = sqrt(m0 / m2))
    sh, sr = table(os.path.join(out, "spectra.csv"))
    sr = np.array(sr, dtype=float)
    f, S = sr[:, sh.index("f_Hz")], sr[:, sh.index("waves.csv:eta_top_m")]
    m0, m2 = np.trapz(S, f), np.trapz(S * f * f, f)
    check(abs(m0 / e["std"] ** 2 - 1.0) <= 0.05, "JONSWAP: the elevation's spectrum integrates to %.4f m^2, its "
                                                  "variance %.4f m^2 (5 %%)" % (m0, e["std"] ** 2))
    check(abs(math.sqrt(m0 / m2) / e["tz_s"] - 1.0) <= 0.10, "JONSWAP: sqrt(m0/m2) of the spectrum %.3f s against the "
                                                              "counted Tz %.3f s (10 %%)" % (math.sqrt(m0 / m2), e["tz_s"]))
sys.exit(1 if checks.fails else 0)
