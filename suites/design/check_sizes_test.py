#!/usr/bin/env python3
"""check_sizes.py fails on a file over 500 lines and a function over 150 lines, and passes a tree without either.
Usage: check_sizes_test.py SOURCE_DIR"""
import os
import subprocess
import sys
import tempfile

check = os.path.join(sys.argv[1], "suites", "design", "check_sizes.py")
with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, "harness"))
    with open(os.path.join(root, "harness", "small.cpp"), "w") as f:
        f.write("int f() {\n" + "  int x = 1;\n" * 10 + "  return 0;\n}\n")
    ok = subprocess.run([sys.executable, check, root], capture_output=True, text=True)
    if ok.returncode == 77:
        print(ok.stdout.strip()); sys.exit(77)
    assert ok.returncode == 0, ok.stdout
    with open(os.path.join(root, "harness", "long.cpp"), "w") as f:
        f.write("int g() {\n" + "  int x = 1;\n" * 160 + "  return 0;\n}\n" + "// filler\n" * 400)
    bad = subprocess.run([sys.executable, check, root], capture_output=True, text=True)
    assert bad.returncode == 1, bad.stdout
    assert "harness/long.cpp: 563 lines" in bad.stdout, bad.stdout
    assert "harness/long.cpp:1: g is 163 lines" in bad.stdout, bad.stdout
print("check_sizes_test.py: OK")
