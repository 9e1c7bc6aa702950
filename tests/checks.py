"""The checkers' common parts (tests/check_*.py): PASS/FAIL lines counted, and a model run by
pipelay into a work folder."""
import os, subprocess


class Checks:
    def __init__(self, pipelay, work):
        self.pipelay, self.work, self.fails = pipelay, work, 0

    def check(self, ok, what):
        """Prints PASS or FAIL and the sentence that says what was measured against what."""
        self.fails += not ok
        print("%s %s" % ("PASS" if ok else "FAIL", what))

    def run(self, name, text):
        """Writes WORK/NAME.yaml and runs it into WORK/NAME (quiet, no plots): the folder, or None
        after a FAIL line with the exit status and the end of stderr."""
        path = os.path.join(self.work, name + ".yaml")
        with open(path, "w") as f:
            f.write(text)
        out = os.path.join(self.work, name)
        p = subprocess.run([self.pipelay, "run", path, "--output", out, "--quiet", "--no-plots"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode:
            self.check(False, "%s: exit %d %s" % (name, p.returncode, p.stderr[-600:]))
            return None
        return out


def command(args):
    """Runs args: (exit status, stdout, stderr)."""
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def series(d):
    """Every time-series file below the run folder d (timeseries*.csv, the lines' folders
    included): relative path -> path."""
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            if f.startswith("timeseries") and f.endswith(".csv"):
                out[os.path.relpath(os.path.join(root, f), d)] = os.path.join(root, f)
    return out


def numeric_table(path):
    """A CSV file of numbers: its header and its rows as floats."""
    import csv
    with open(path) as f:
        rows = list(csv.reader(f))
    return rows[0], [[float(v) for v in r] for r in rows[1:]]


def column_difference(head, a, b):
    """The largest difference of rows b from rows a in any column, over that column's largest
    magnitude in a (columns that are zero throughout skipped), and the column's name."""
    worst, where = 0.0, ""
    for k, col in enumerate(head):
        scale = max(abs(r[k]) for r in a)
        if scale:
            d = max(abs(x[k] - y[k]) for x, y in zip(a, b)) / scale
            if d > worst:
                worst, where = d, col
    return worst, where
