#!/usr/bin/env python3
"""check_readme_commands.py - every command in the README's ```sh blocks runs as written
(issue 13, item 10).

Takes each command of README.md's sh code blocks (backslash continuations joined, comments
dropped) that starts with build/pipelay or mpiexec, leaves out the usage lines (they name
placeholders: FILE, DIR, RESULT.csv, [--option], ...), and runs it in a scratch folder where build/,
examples/ and verification/ point at the project's, in README order (a later command may
read an earlier one's output, e.g. --start-from jlay_sweep/case_010). Every command must
exit with 0. The scripts/ commands are CI itself (.ci/run) and are not run again here.
Usage: check_readme_commands.py README.md PROJECT_DIR BUILD_DIR WORKDIR
"""
import os, re, shutil, subprocess, sys

readme, project, build, work = sys.argv[1:5]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
os.symlink(os.path.abspath(build), os.path.join(work, "build"))
for d in ("examples", "verification"):
    os.symlink(os.path.join(os.path.abspath(project), d), os.path.join(work, d))

commands, block, pending = [], False, ""
with open(readme) as f:
    for line in f:
        if line.startswith("```"):
            block = line.strip() == "```sh" and not block
            continue
        if not block:
            continue
        text = pending + line.rstrip("\n")
        if text.endswith("\\"):
            pending = text[:-1] + " "
            continue
        pending = ""
        cmd = re.sub(r"\s+#.*$", "", text).strip()
        if cmd.startswith(("build/pipelay", "mpiexec")) and not re.search(r"\bFILE\b|\bDIR\b|RESULT\.csv|\[--|\.\.\.", cmd):
            commands.append(cmd)

env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
failures = 0
for cmd in commands:
    r = subprocess.run(cmd, shell=True, cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    ok = r.returncode == 0
    failures += not ok
    print(f"{'PASS' if ok else 'FAIL'} (exit {r.returncode}) {cmd}")
    if not ok:
        print(r.stdout[-3000:])
print(f"{len(commands) - failures} of {len(commands)} README commands ran with exit status 0")
sys.exit(1 if failures or not commands else 0)
