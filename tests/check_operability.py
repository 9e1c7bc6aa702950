#!/usr/bin/env python3
"""pipelay operability on examples/operability/jlay12_operability.yaml (a 12-inch J-lay from a
vessel on its RAOs, 48 nodes), shortened to 40 s of sea (the ramp 20 s, the fatigue window
the last 20 s): 8 sea states, Hs 1 and 4 m x Tp 7 and 10 s x headings 0 and 90 deg, with
occurrences.

1. Two MPI ranks give byte-identical cases.csv, allowable.csv, operability.csv and
   fatigue_per_year.csv to one rank (each case on one rank alone, from its own static start).
2. The tables against their definitions, recomputed here from the cases' own files:
   - each case's criteria are its run's summary.json extremes (max_top_tension_N,
     min_effective_tension_N, max_fibre_strain, design.dnv_f101.max_utilisation), exactly;
   - fatigue_per_year.csv's every row is the hand sum over the cases of damage (the case's
     fatigue.csv row) / window (its summary.json fatigue.duration_s) x occurrence x 31557600 s,
     to 1e-12;
   - the allowable Hs: every case at or below its (Tp, heading)'s allowable Hs passes every
     limit, the case at first_failing_hs_m fails one; the interpolated allowable lies between
     the two;
   - operability.csv's total: the occurrence of the operable cases over the whole, by hand.
3. Restart: with one case's operability_case.json removed, a rerun solves that case alone
   (operability.json: 7 skipped as done; the others' files untouched) and writes the same tables
   byte for byte. A changed limit (--set operability.max_top_tension=1) solves nothing again
   (the limits are not in a case's fingerprint) and every case then fails: allowable Hs 0. A
   changed design: block (SMYS 440 MPa) solves every case again (their utilisations depend on it).
4. DNV's LCC validity: the pipe given SMYS 100 MPa (S_p a quarter of X65's, and the sea state
   Hs 4 m) reports max_lcc_axial_ratio >= 0.4 with lcc_valid 0 in cases.csv and a warning on
   stderr, and the case's summary.json says lcc_valid false.
5. A sea state with hs -1 is refused: exit 2, the table's FILE:LINE:COL and the column.

usage: check_operability.py PIPELAY MPIEXEC EXAMPLES WORKDIR
"""
import csv, json, os, shlex, shutil, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import Checks, command as run

TABLES = ("cases.csv", "allowable.csv", "operability.csv", "fatigue_per_year.csv")
SHORT = ["--set", "analysis.dynamic.duration=40", "--set", "operability.n_components=40", "--quiet", "--no-plots"]


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(l for l in f if not l.startswith("#")))


def num(x):
    return float(x) if x not in ("", None) else float("nan")


def main():
    pipelay, mpiexec, examples, work = sys.argv[1:5]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    c = Checks(pipelay, work)
    model = os.path.join(examples, "operability", "jlay12_operability.yaml")
    table = os.path.join(work, "sea_states.csv")
    states = [(hs, tp, hd) for hd in (0, 90) for tp in (7, 10) for hs in (1, 4)]
    occ = [0.05 + 0.01 * i for i in range(len(states))]
    with open(table, "w") as f:
        f.write("# the test's sea states\nhs,tp,heading,probability\n")
        for (hs, tp, hd), p in zip(states, occ):
            f.write("%g,%g,%g,%g\n" % (hs, tp, hd, p))
    one, two = os.path.join(work, "one"), os.path.join(work, "two")
    rc, out, err = run([pipelay, "operability", model, "--sea-states", table, "--output", one] + SHORT)
    c.check(rc == 0, "1 rank: exit %d %s" % (rc, err[-400:]))
    rc, out, err = run(shlex.split(mpiexec) + ["-n", "2", pipelay, "operability", model, "--sea-states", table,
                                               "--output", two] + SHORT)
    c.check(rc == 0, "2 ranks: exit %d %s" % (rc, err[-400:]))
    for t in TABLES:
        a, b = os.path.join(one, t), os.path.join(two, t)
        same = os.path.exists(a) and os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()
        c.check(same, "%s: 2 ranks byte-identical to 1 rank" % t)

    # 2. the tables against their definitions
    cases = rows(os.path.join(one, "cases.csv"))
    c.check(len(cases) == 8 and all(r["completed"] == "1" for r in cases), "8 cases, every run completed")
    worst = 0.0
    for i, r in enumerate(cases):
        s = json.load(open(os.path.join(one, "case_%03d" % i, "summary.json")))
        want = (s["max_top_tension_N"], s["min_effective_tension_N"], s["max_fibre_strain"],
                s["design"]["dnv_f101"]["max_utilisation"])
        got = tuple(num(r[k]) for k in ("max_top_tension_N", "min_effective_tension_N", "max_fibre_strain",
                                        "max_utilisation"))
        worst = max(worst, max(abs(g - w) for g, w in zip(got, want)))
    c.check(worst == 0.0, "each case's criteria are its run's summary.json extremes exactly (worst %.3g)" % worst)
    fy = rows(os.path.join(one, "fatigue_per_year.csv"))
    per_case = []
    for i in range(8):
        s = json.load(open(os.path.join(one, "case_%03d" % i, "summary.json")))
        per_case.append((rows(os.path.join(one, "case_%03d" % i, "fatigue.csv")), s["fatigue"]["duration_s"]))
    rel = 0.0
    for k, r in enumerate(fy):
        hand = sum(float(fr[k]["damage"]) / T * p * 31557600.0 for (fr, T), p in zip(per_case, occ))
        rel = max(rel, abs(float(r["damage_per_year"]) - hand) / max(hand, 1e-300))
    c.check(len(fy) == len(per_case[0][0]) and len(fy) > 0 and rel <= 1e-12,
            "fatigue_per_year.csv: %d rows equal the hand sum over the cases to %.1e (<= 1e-12)" % (len(fy), rel))
    limits = json.load(open(os.path.join(one, "operability.json")))["limits"]

    def passes(r):
        ok = r["completed"] == "1"
        for k, v in limits.items():
            if v is None:
                continue
            x = num(r[k])
            ok = ok and (x >= v if k.startswith("min_") else x <= v)
        return ok
    allow = rows(os.path.join(one, "allowable.csv"))
    good = len(allow) == 4
    for a in allow:
        grp = [r for r in cases if num(r["tp_s"]) == num(a["tp_s"]) and num(r["heading_deg"]) == num(a["heading_deg"])]
        ah, ff, ai = num(a["allowable_hs_m"]), num(a["first_failing_hs_m"]), num(a["allowable_hs_interpolated_m"])
        good = good and all(passes(r) for r in grp if num(r["hs_m"]) <= ah)
        if a["bounded"] == "1":
            good = good and any(not passes(r) for r in grp if num(r["hs_m"]) == ff) and ah <= ai <= ff
    nfail = sum(a["bounded"] == "1" for a in allow)
    c.check(good and 0 < nfail, "allowable.csv: every case up to the allowable Hs passes, the first failing one "
            "fails, interpolated between (%d of 4 groups bounded)" % nfail)
    op = rows(os.path.join(one, "operability.csv"))
    total = [r for r in op if r["heading_deg"] == "all"]
    hand = 100.0 * sum(p for r, p in zip(cases, occ) if r["operable"] == "1") / sum(occ)
    c.check(len(total) == 1 and abs(num(total[0]["operability_percent"]) - hand) <= 1e-12 * 100,
            "operability.csv: %s %% operable, the hand sum %.6g %%" % (total[0]["operability_percent"] if total else None, hand))

    # 3. restart
    before = {t: open(os.path.join(one, t), "rb").read() for t in TABLES}
    mtimes = {i: os.stat(os.path.join(one, "case_%03d" % i, "summary.json")).st_mtime_ns for i in range(8)}
    os.remove(os.path.join(one, "case_003", "operability_case.json"))
    rc, out, err = run([pipelay, "operability", model, "--sea-states", table, "--output", one] + SHORT)
    j = json.load(open(os.path.join(one, "operability.json")))
    untouched = all(os.stat(os.path.join(one, "case_%03d" % i, "summary.json")).st_mtime_ns == mtimes[i]
                    for i in range(8) if i != 3)
    c.check(rc == 0 and j["skipped_as_done"] == 7 and untouched and
            os.stat(os.path.join(one, "case_003", "summary.json")).st_mtime_ns != mtimes[3],
            "restart: 7 cases found done (%s), case 3 solved again, the others' files untouched" % j["skipped_as_done"])
    c.check(all(open(os.path.join(one, t), "rb").read() == before[t] for t in TABLES),
            "restart: the same tables byte for byte")
    rc, out, err = run([pipelay, "operability", model, "--sea-states", table, "--output", one,
                        "--set", "operability.max_top_tension=1"] + SHORT)
    j = json.load(open(os.path.join(one, "operability.json")))
    allow = rows(os.path.join(one, "allowable.csv"))
    c.check(rc == 0 and j["skipped_as_done"] == 8 and all(num(a["allowable_hs_m"]) == 0 for a in allow),
            "a changed limit: nothing solved again (%s skipped), every allowable Hs 0" % j["skipped_as_done"])
    rc, out, err = run([pipelay, "operability", model, "--sea-states", table, "--output", one,
                        "--set", "design.dnv_f101.smys=440e6"] + SHORT)
    j = json.load(open(os.path.join(one, "operability.json")))
    c.check(rc == 0 and j["skipped_as_done"] == 0, "a changed design: block: every case solved again (%s skipped)"
            % j["skipped_as_done"])

    # 4. the LCC's validity
    t1 = os.path.join(work, "one_state.csv")
    with open(t1, "w") as f:
        f.write("hs,tp,heading\n4,10,90\n")
    lcc = os.path.join(work, "lcc")
    rc, out, err = run([pipelay, "operability", model, "--sea-states", t1, "--output", lcc, "--set",
                        "design.dnv_f101.smys=100e6", "--set", "design.dnv_f101.smts=150e6"] + SHORT)
    r = rows(os.path.join(lcc, "cases.csv")) if rc in (0,) else []
    s = json.load(open(os.path.join(lcc, "case_000", "summary.json"))) if r else {}
    c.check(len(r) == 1 and num(r[0]["max_lcc_axial_ratio"]) >= 0.4 and r[0]["lcc_valid"] == "0"
            and "LCC validity" in err and s["design"]["dnv_f101"]["lcc_valid"] is False,
            "SMYS 100 MPa: |S_Sd|/S_p %s >= 0.4 flagged (cases.csv, summary.json, stderr)"
            % (r[0]["max_lcc_axial_ratio"] if r else None))

    # 5. bad input
    bad = os.path.join(work, "bad.csv")
    with open(bad, "w") as f:
        f.write("# a comment\nhs,tp,heading\n2,8,0\n-1,8,0\n")
    rc, out, err = run([pipelay, "operability", model, "--sea-states", bad, "--output", os.path.join(work, "bad")]
                       + SHORT)
    c.check(rc == 2 and (bad + ":4:1: hs") in err and len(err.strip().splitlines()) == 1,
            "hs -1: exit %d (want 2), stderr %r" % (rc, err.strip()[:200]))
    print("%d failure(s)" % c.fails)
    return 1 if c.fails else 0


if __name__ == "__main__":
    sys.exit(main())
