#!/usr/bin/env python3
"""The direction of dependencies between harness folders (docs/design.md, "Modules"): every
#include "harness/<module>/..." in harness/<other>/ must be an edge this table allows, every folder
of harness/ must be in the table, and harness/ never includes kernels/ or tools/. The table has no
cycle (checked too), so neither can the code.
Usage: check_layers.py SOURCE_DIR"""
import os
import re
import sys

# module -> the modules it may include. Lower layers first; an edge only ever points down.
ALLOWED = {
    "util": set(),
    "vendor": {"util"},  # the CUDA libraries: cuBLAS and cuDNN status checks, the cuDNN backend API, their loading
    "arch": {"util"},
    "binary": {"arch", "util"},
    "manifest": {"arch"},
    "device": {"arch", "util"},
    "ops": {"arch", "vendor", "util"},
    "result": {"device", "manifest", "arch", "ops", "util"},  # of arch and ops, only value types (NARROW)
    "baseline": {"result", "util"},
    "run": {"result", "ops", "binary", "arch", "device", "manifest", "vendor", "util"},
    "report": {"baseline", "result", "framework", "util"},
    "stack": {"binary", "arch", "util"},
    "framework": {"ops", "binary", "arch", "util"},
    "history": {"report", "baseline", "result", "util"},
    "doctor": {"stack", "result", "framework", "binary", "arch", "device", "manifest", "util"},
}

# Edges allowed for some headers only: result names an operator's dtype, implementation kind and
# check result, and nothing else of ops (no tensors, no CUDA); of arch, the image vocabulary alone.
NARROW = {("result", "ops"): {"dtype.hpp", "impl.hpp", "check_result.hpp"}, ("result", "arch"): {"image_outcome.hpp"}}

INCLUDE = re.compile(r'^\s*#\s*include\s+"((?:harness|kernels|tools|suites)/[^"]+)"')


def has_cycle(graph):
    state = {}

    def visit(n):
        if state.get(n) == 1:
            return True
        if state.get(n) == 2:
            return False
        state[n] = 1
        if any(visit(m) for m in graph.get(n, ())):
            return True
        state[n] = 2
        return False

    return any(visit(n) for n in graph)


def main():
    root = sys.argv[1]
    harness = os.path.join(root, "harness")
    problems = []
    if has_cycle(ALLOWED):
        problems.append("the table in check_layers.py has a cycle")
    for module in sorted(os.listdir(harness)):
        if not os.path.isdir(os.path.join(harness, module)):
            continue
        if module not in ALLOWED:
            problems.append("harness/%s/ is not in the table (add it, with what it may include, here and in docs/design.md)" % module)
            continue
        for dirpath, _, files in os.walk(os.path.join(harness, module)):
            for name in sorted(files):
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                with open(path, errors="replace") as f:
                    for lineno, line in enumerate(f, 1):
                        m = INCLUDE.match(line)
                        if not m:
                            continue
                        parts = m.group(1).split("/")
                        if parts[0] != "harness":
                            problems.append("%s:%d includes %s: harness/ never includes %s/" % (rel, lineno, m.group(1), parts[0]))
                        elif parts[1] != module and parts[1] not in ALLOWED[module]:
                            problems.append("%s:%d includes %s: harness/%s/ may not depend on harness/%s/" %
                                            (rel, lineno, m.group(1), module, parts[1]))
                        elif (module, parts[1]) in NARROW and parts[-1] not in NARROW[(module, parts[1])]:
                            problems.append("%s:%d includes %s: harness/%s/ may include only %s of harness/%s/" %
                                            (rel, lineno, m.group(1), module,
                                             ", ".join(sorted(NARROW[(module, parts[1])])), parts[1]))
    for p in problems:
        print("FAIL: " + p)
    if problems:
        return 1
    print("harness: %d modules, every include points down the table" % len(ALLOWED))
    return 0


if __name__ == "__main__":
    sys.exit(main())
