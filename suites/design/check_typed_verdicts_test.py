#!/usr/bin/env python3
"""check_typed_verdicts.py must fail on a string comparison of a verdict, a change, a dtype or an impl, and pass
the same tree without it: a copy of the enum headers plus one file, checked both ways.
Usage: check_typed_verdicts_test.py SOURCE_DIR   (exit 0 = pass)"""
import os
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import check_typed_verdicts  # noqa: E402  (its TABLES say which headers to copy)

failures = []
with tempfile.TemporaryDirectory(prefix="archbench-typed-") as tree:
    for header in check_typed_verdicts.TABLES:
        os.makedirs(os.path.join(tree, os.path.dirname(header)), exist_ok=True)
        shutil.copy(os.path.join(root, header), os.path.join(tree, header))
    os.makedirs(os.path.join(tree, "harness", "report"), exist_ok=True)
    probe = os.path.join(tree, "harness", "report", "probe.cpp")
    cases = {
        'if (r.image.label == "sass") return;': True,      # an image verdict
        'if (c.change != "slower") return;': True,         # a change
        'if ("bf16" == name) return;': True,               # a dtype, literal first
        'bool own = r.impl == "own";': True,               # an impl
        'if (r.impl == Impl::Own) return;': False,         # typed
        '// was: if (status == "sass")': False,            # a comment
        'std::string s = "sass";': False,                  # a name written, not compared
        'if (name == "sassy") return;': False,             # not a name of the tables
    }
    for line, flagged in cases.items():
        with open(probe, "w") as f:
            f.write(line + "\n")
        rc = subprocess.run([sys.executable, os.path.join(here, "check_typed_verdicts.py"), tree],
                            capture_output=True, text=True).returncode
        if (rc == 1) != flagged:
            failures.append(f"{line!r}: exit {rc}, want {'1' if flagged else '0'}")
for f in failures:
    print("FAIL:", f)
print("check_typed_verdicts.py:", "FAILED" if failures else "flags what it should, passes the rest")
sys.exit(1 if failures else 0)
