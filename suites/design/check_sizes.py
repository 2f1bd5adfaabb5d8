#!/usr/bin/env python3
"""Sizes a newcomer can read (docs/design.md, "Where to change what"): no source file over 500 lines outside
kernels/ and the tests, and no function over 150 lines outside kernels/. Lines are counted as the editor shows
them; functions are found by lizard (a well-kept multi-language function parser, PyPI `lizard`), whose length is
the function's lines from its signature to its closing brace. Without lizard the function rule cannot be checked:
exit 77, which ctest reports as skipped with this message.
Usage: check_sizes.py SOURCE_DIR"""
import os
import sys

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 150
SOURCE_ENDINGS = (".cpp", ".hpp", ".h", ".cc", ".py", ".sh", ".cmake")
FILE_RULE_DIRS = ["harness", "tools", "ci", ".ci"]  # kernels/ and suites/ (the tests) are exempt
FUNCTION_RULE_DIRS = ["harness", "tools", "ci", "suites"]


def sources(root, dirs, endings):
    for d in dirs:
        for folder, subdirs, files in os.walk(os.path.join(root, d)):
            subdirs[:] = [s for s in subdirs if not s.startswith((".", "build"))]
            for f in files:
                if f.endswith(endings) or (d == ".ci" and "." not in f):
                    yield os.path.join(folder, f)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    problems = []
    for path in sources(root, FILE_RULE_DIRS, SOURCE_ENDINGS):
        with open(path, encoding="utf-8", errors="replace") as f:
            n = sum(1 for _ in f)
        if n > MAX_FILE_LINES:
            problems.append("%s: %d lines (at most %d outside kernels/ and the tests)"
                            % (os.path.relpath(path, root), n, MAX_FILE_LINES))
    try:
        import lizard
    except ImportError:
        print("check_sizes.py: files checked (%d problem(s)); functions not checked: no lizard "
              "(python3 -m pip install lizard)" % len(problems))
        for p in problems:
            print("check_sizes.py: " + p)
        sys.exit(1 if problems else 77)
    for path in sources(root, FUNCTION_RULE_DIRS, (".cpp", ".hpp", ".h", ".cc", ".py")):
        for fn in lizard.analyze_file(path).function_list:
            if fn.length > MAX_FUNCTION_LINES:
                problems.append("%s:%d: %s is %d lines (at most %d outside kernels/)"
                                % (os.path.relpath(path, root), fn.start_line, fn.name, fn.length,
                                   MAX_FUNCTION_LINES))
    for p in problems:
        print("check_sizes.py: " + p)
    if problems:
        sys.exit(1)
    print("check_sizes.py: OK: no file over %d lines outside kernels/ and the tests, no function over %d lines "
          "outside kernels/" % (MAX_FILE_LINES, MAX_FUNCTION_LINES))


if __name__ == "__main__":
    main()
