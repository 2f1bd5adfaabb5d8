#!/usr/bin/env python3
"""Compares `archbench inspect --json` per-target counts with `cuobjdump --list-elf/--list-ptx`.

cuobjdump names entries <file>.<N>.sm_<arch>[a|f].{cubin,ptx}; it prints `f` ELF entries without
the `f` (docs/reference/compat.md, "Fatbin and cubin layout") and PTX with the sm_ prefix. Exit 0
when the counts are equal."""
import collections
import json
import re
import sys


def cuobjdump_counts(path, kind):
    counts = collections.Counter()
    pattern = re.compile(r"^%s file\s+\d+: .*\.(sm_\d+[af]?)\.%s$" % (kind, "cubin" if kind == "ELF" else "ptx"))
    with open(path, errors="replace") as f:
        for line in f:
            m = pattern.match(line.strip())
            if m:
                counts[m.group(1)] += 1
    return counts


def main():
    inspect_json, elf_txt, ptx_txt = sys.argv[1:4]
    report = json.load(open(inspect_json))["files"][0]
    ours_elf, ours_ptx = collections.Counter(), collections.Counter()
    for name, n in report["sass"].items():
        ours_elf[re.sub(r"f$", "", name)] += n
    for name, n in report["ptx"].items():
        ours_ptx[name.split(" ")[0].replace("compute_", "sm_")] += n
    theirs_elf, theirs_ptx = cuobjdump_counts(elf_txt, "ELF"), cuobjdump_counts(ptx_txt, "PTX")
    ok = True
    for kind, ours, theirs in (("ELF", ours_elf, theirs_elf), ("PTX", ours_ptx, theirs_ptx)):
        same = ours == theirs
        ok &= same
        print("%s: %s (archbench %d entries, cuobjdump %d)" % (kind, "equal" if same else "DIFFERENT",
                                                               sum(ours.values()), sum(theirs.values())))
        if not same:
            for t in sorted(set(ours) | set(theirs)):
                if ours[t] != theirs[t]:
                    print("  %s: archbench %d, cuobjdump %d" % (t, ours[t], theirs[t]))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
