#!/usr/bin/env python3
"""check_docs_keys.py - docs/model-file.md's key tables agree with the schema table (issue 14,
item 2).

The schema (models/schema_table.c) is the one place that owns each key's unit, default and
range; `pipelay info --keys --markdown` prints it. This reads the key tables of
docs/model-file.md ("| key | unit | default | rule |" under a heading or label that names the
block, as tests/check_docs_defaults.py does, which checks the defaults' values against the
loader) and checks, for every documented row:
  - the key is in the schema at that block (ends' keys at ends.*.KEY);
  - its documented default or requirement begins with the schema's (ignoring case and
    backticks): "required", "1025", "`nonlinear`", "required for `linear`", ...;
  - its unit, with the parenthesised remarks removed, begins with the schema's unit;
and, for every schema row, that the docs document it in a table, unless it is listed in
PROSE below with the place that documents it. Exit 1 on any difference, with one line each.
Usage: check_docs_keys.py PIPELAY DOCS_MODEL_FILE
"""
import re, subprocess, sys

pipelay, doc = sys.argv[1:3]

# schema rows the docs describe in prose rather than in a key table (with where)
PROSE = {
    "ends.*.point": "docs: `lines` and `points` (an end attached to a point)",
    "ends.*.body": "docs: `lines` and `points` (an end attached to a body)",
    "ends.*.at": "docs: `lines` and `points` (the body point of an end)",
    "vessel.dp.reference.radius": "docs: vessel.dp.reference, circle bullet",
    "vessel.dp.reference.period": "docs: vessel.dp.reference, circle bullet",
    "vessel.dp.reference.ramp_up": "docs: vessel.dp.reference, circle bullet",
    "vessel.dp.reference.hold": "docs: vessel.dp.reference, circle bullet",
    "vessel.dp.reference.ramp_down": "docs: vessel.dp.reference, circle bullet",
    "vessel.dp.reference.direction": "docs: vessel.dp.reference, circle bullet",
    "ends.bottom": "docs: `ends` (both ends take the keys of its table)",
    "ends.top": "docs: `ends` (both ends take the keys of its table)",
    "bodies[*]": "docs: Bodies and joints without a line (the keys of vessel)",
    "bodies[*].name": "docs: Bodies and joints without a line",
    "lines[*].name": "docs: `lines` and `points` (each item has a name)",
    "lines[*].line": "docs: `lines` and `points` (the keys of line)",
    "lines[*].mesh": "docs: `lines` and `points` (the keys of mesh)",
    "lines[*].ends": "docs: `lines` and `points` (the keys of ends)",
}


def norm(text):
    return re.sub(r"\s+", " ", text.replace("`", "").strip().lower())


def unit_of(text):
    """A unit column without its remarks: 'N/m (x, y, z), N m/rad (roll)' -> 'n/m, n m/rad'."""
    return norm(re.sub(r" \([^)]*\)", "", text))


out = subprocess.run([pipelay, "info", "--keys", "--markdown"], stdout=subprocess.PIPE, text=True, check=True).stdout
schema = {}
parent = None
for line in out.splitlines():
    h = re.match(r"^### `(.*)`$", line)
    if h:
        parent = "" if h.group(1) == "(top level)" else h.group(1)
        continue
    r = re.match(r"^\| `([^`]+)` \| ([^|]*) \| ([^|]*) \| ([^|]*) \|", line)
    if r and parent is not None:
        path = f"{parent}.{r.group(1)}" if parent else r.group(1)
        schema[path] = {"type": r.group(2).strip(), "unit": r.group(3).strip(), "default": r.group(4).strip()}
if len(schema) < 150:
    print(f"FAIL: pipelay info --keys --markdown printed only {len(schema)} keys")
    sys.exit(1)


def schema_path(block, key):
    block = block.replace("[i]", "[*]").replace("[0]", "[*]")
    for cand in (f"{block}.{key}", f"{block}.*.{key}"):
        if cand in schema:
            return cand
    return None


def is_mapping(path):
    k = schema.get(path.replace("[i]", "[*]"))
    return k is not None and k["type"].startswith("mapping")


failures, documented, rows = [], set(), 0
block = heading = None
temp = in_table = False  # block set by an "items:" label: for the next table only
with open(doc) as f:
    for line in f:
        is_row = line.lstrip().startswith("|")
        if in_table and not is_row and temp:
            block, temp = heading, False
        in_table = is_row
        h = re.match(r"^#{3,4} .*?`([a-z_.\[\]*]+)`\s*$", line)
        if h:
            heading = block = h.group(1)
            continue
        if line.startswith("### ") or line.startswith("#### "):
            heading = block = None
            continue
        items = re.match(r"^`([a-z_]+):` items:", line) or re.search(r"`([a-z_]+):` lists the", line)
        if items:
            block, temp = items.group(1) + "[*]", True
            continue
        full = re.match(r"^`([a-z_]+(?:\.[a-z0-9_]+)+)`[ :]", line)
        if full and is_mapping(full.group(1)):
            block = full.group(1)
            continue
        lab = re.match(r"^(?:`([a-z0-9_.\[\]*<>]+)`:\s*$|\*\*`([a-z_.\[\]*]+)`\*\*)", line)
        if lab and heading:
            name = lab.group(1) or lab.group(2)
            path = name if "." in name else f"{heading}.{name}"
            block = path if ("<" in path or is_mapping(path) or "[" in path) else heading
            continue
        if line.startswith("**") and heading:
            block = heading
            continue
        m = re.match(r"^\s*\| `([A-Za-z_0-9]+)`(?:, `([A-Za-z_0-9]+)`)? \| ([^|]*) \| ([^|]*) \|", line)
        if not m or not block or "<" in block:
            continue
        for key in filter(None, (m.group(1), m.group(2))):
            path = schema_path(block, key)
            rows += 1
            if not path:
                failures.append(f"{block}.{key}: documented, but not in the schema")
                continue
            documented.add(path)
            k = schema[path]
            d, want = norm(m.group(4)), norm(k["default"])
            if not (d.startswith(want) and (len(d) == len(want) or not d[len(want)].isalnum())):
                failures.append(f"{path}: the docs' default '{m.group(4).strip()}' does not begin with the "
                                f"schema's '{k['default']}'")
            if k["unit"] != "-" and not unit_of(m.group(3)).startswith(norm(k["unit"])):
                failures.append(f"{path}: the docs' unit '{m.group(3).strip()}' is not the schema's '{k['unit']}'")

for path, k in schema.items():
    if "." not in path and "[" not in path:
        continue  # the top level: its own table of blocks
    if ".dofs." in path:
        continue  # dofs.<dof>: one table for x, y, z, rx, ry, rz
    if path not in documented and path not in PROSE:
        failures.append(f"{path}: in the schema, but in no key table of the docs")
for f in failures:
    print("FAIL " + f)
print(f"{rows} documented keys checked against the {len(schema)} rows of the schema; {len(failures)} differ")
sys.exit(1 if failures else 0)
