#!/usr/bin/env python3
"""Compares every file of `archbench scan --json` with cuobjdump: per-target SASS (--list-elf) and
PTX (--list-ptx) counts must be equal. Files inside wheels or images are skipped (cuobjdump needs a
file on disk). Usage: scan_vs_cuobjdump.py SCAN.json [CUOBJDUMP] [JOBS]
Prints one line per file and a total; exit 0 when every compared file is equal."""
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys


def counts(cuobjdump, path, kind):
    out = subprocess.run([cuobjdump, "--list-elf" if kind == "ELF" else "--list-ptx", path],
                         capture_output=True, text=True, errors="replace").stdout
    pattern = re.compile(r"^%s file\s+\d+: .*\.(sm_\d+[af]?)\.%s$" % (kind, "cubin" if kind == "ELF" else "ptx"))
    c = collections.Counter()
    for line in out.splitlines():
        m = pattern.match(line.strip())
        if m:
            c[m.group(1)] += 1
    return c


def compare(cuobjdump, f):
    path = f["path"] if os.path.isabs(f["path"]) else os.path.join(f["source"], f["path"])
    ours_elf, ours_ptx = collections.Counter(), collections.Counter()
    for name, n in f["sass"].items():
        ours_elf[re.sub(r"f$", "", name)] += n  # cuobjdump prints `f` cubins without the `f`
    for name, n in f["ptx"].items():
        ours_ptx[name.replace("compute_", "sm_")] += n
    theirs_elf, theirs_ptx = counts(cuobjdump, path, "ELF"), counts(cuobjdump, path, "PTX")
    diffs = []
    for kind, ours, theirs in (("ELF", ours_elf, theirs_elf), ("PTX", ours_ptx, theirs_ptx)):
        for t in sorted(set(ours) | set(theirs)):
            if ours[t] != theirs[t]:
                diffs.append("%s %s: archbench %d, cuobjdump %d" % (kind, t, ours[t], theirs[t]))
    return path, sum(ours_elf.values()) + sum(ours_ptx.values()), diffs


def main():
    scan = json.load(open(sys.argv[1]))
    cuobjdump = sys.argv[2] if len(sys.argv) > 2 else "cuobjdump"
    jobs = int(sys.argv[3]) if len(sys.argv) > 3 else os.cpu_count()
    files = [f for p in scan["packages"] for f in p["files"]]
    on_disk = [f for f in files if os.path.isfile(f["path"] if os.path.isabs(f["path"]) else os.path.join(f["source"], f["path"]))]
    equal = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for path, entries, diffs in pool.map(lambda f: compare(cuobjdump, f), on_disk):
            print("%s %s (%d entries)" % ("equal    " if not diffs else "DIFFERENT", path, entries))
            for d in diffs:
                print("    " + d)
            equal += not diffs
    print("%d of %d files equal to cuobjdump (%d inside archives not compared)" % (equal, len(on_disk), len(files) - len(on_disk)))
    return 0 if equal == len(on_disk) and on_disk else 1


if __name__ == "__main__":
    sys.exit(main())
