#!/usr/bin/env python3
"""Verdicts, changes, dtypes and implementation kinds are compared as types (docs/design.md, "Where to change what"):
no `==` or `!=` between a value and the string name of one of those enums anywhere in harness/, kernels/ or
tools/archbench/. Names live only in their enum's table (enum_names); JSON, text and HTML writers spell them
through it. The names are read from the tables themselves, so a new enumerator is covered without editing this.
Usage: check_typed_verdicts.py SOURCE_DIR"""
import os
import re
import sys

# The tables whose names must never be compared as strings: {header: [table variable, ...]}.
TABLES = {
    "harness/arch/image_outcome.hpp": ["kImageOutcomes"],
    "harness/result/worker_fault.hpp": ["kWorkerFaults"],
    "harness/baseline/compare.hpp": ["kChanges"],
    "harness/ops/dtype.hpp": ["kDTypes"],
    "harness/ops/impl.hpp": ["kImpls"],
}
SCANNED = ["harness", "kernels", "tools/archbench"]
# The same spelling with another meaning: (file, literal) -> what it is there.
OTHER_MEANINGS = {
    ("harness/arch/arch_list.cpp", "native"): "CMake's CMAKE_CUDA_ARCHITECTURES=native, parsed from the user's list",
}
COMPARISON = re.compile(r'(?:[=!]=\s*"([a-z0-9][a-z0-9-]*)")|(?:"([a-z0-9][a-z0-9-]*)"\s*[=!]=)')


def table_names(root):
    names = {}
    for header, tables in TABLES.items():
        text = open(os.path.join(root, header)).read()
        for table in tables:
            m = re.search(re.escape(table) + r"\s*=\s*enum_names<[^>]+>\((.*?)\);", text, re.S)
            if not m:
                sys.exit("check_typed_verdicts.py: no table %s in %s (update TABLES)" % (table, header))
            for name in re.findall(r'"([^"]*)"', m.group(1)):
                if name:
                    names.setdefault(name, "%s (%s)" % (table, header))
    return names


def main():
    root = sys.argv[1]
    names = table_names(root)
    problems = []
    for top in SCANNED:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp", ".cu", ".cuh", ".h")):
                    continue
                path = os.path.join(dirpath, f)
                for lineno, line in enumerate(open(path, errors="replace"), 1):
                    code = line.split("//", 1)[0]
                    for m in COMPARISON.finditer(code):
                        literal = m.group(1) or m.group(2)
                        rel = os.path.relpath(path, root)
                        if literal in names and (rel, literal) not in OTHER_MEANINGS:
                            problems.append("%s:%d compares with \"%s\", a name of %s: compare the enum" %
                                            (rel, lineno, literal, names[literal]))
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("%d names of %d tables: none compared as a string" % (len(names), sum(len(t) for t in TABLES.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
