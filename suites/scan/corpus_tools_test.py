#!/usr/bin/env python3
"""The corpus tools' handling of what they are given (tools/corpus/): a malformed manifest and a filter that
matches nothing are usage errors (exit 2, one line, no traceback), a cache without the wheels is a skip (77), and
the CI set is the wheels the manifest marks. Run: corpus_tools_test.py REPO [ARCHBENCH] (the build's archbench;
check_corpus.py's default when not given)"""
import json
import os
import subprocess
import sys
import shutil
import tempfile
import unittest

REPO = sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../..")
ARCHBENCH = sys.argv.pop(1) if len(sys.argv) > 1 else None
TOOLS = os.path.join(REPO, "tools", "corpus")
sys.path.insert(0, TOOLS)
import fetch_corpus  # noqa: E402


def run(tool, *args):
    if tool == "check_corpus.py" and ARCHBENCH:  # it checks that archbench exists before anything else
        args = ("--archbench", ARCHBENCH) + args
    return subprocess.run([sys.executable, os.path.join(TOOLS, tool)] + list(args), capture_output=True, text=True)


class CorpusTools(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir, ignore_errors=True)

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_a_malformed_manifest_is_a_usage_error(self):
        for text in ("{bad", "[]", '{"devices": [], "wheels": 3}'):
            path = self.write("m.json", text)
            for tool, args in (("check_corpus.py", ["--no-download"]), ("fetch_corpus.py", ["--verify"])):
                p = run(tool, "--manifest", path, *args)
                self.assertEqual(p.returncode, 2, (tool, text, p.stderr))
                self.assertNotIn("Traceback", p.stderr)
                self.assertIn("manifest", p.stderr)

    def test_a_filter_that_matches_nothing_is_a_usage_error(self):
        p = run("check_corpus.py", "--only", "no-such-package", "--no-download")
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("no wheel matches", p.stderr)

    def test_missing_wheels_without_download_skip(self):
        p = run("check_corpus.py", "--ci", "--no-download", "--cache", os.path.join(self.dir, "empty"))
        self.assertEqual(p.returncode, 77, p.stdout + p.stderr)

    def test_the_ci_set_is_what_the_manifest_marks(self):
        wheels = fetch_corpus.load_manifest(os.path.join(TOOLS, "wheels.json"))["wheels"]
        ci = fetch_corpus.select(wheels, [], ci=True)
        self.assertEqual([w["filename"] for w in ci], [w["filename"] for w in wheels if w.get("ci")])
        self.assertTrue(0 < len(ci) < len(wheels))
        self.assertLess(sum(w["size"] for w in ci), 200e6)  # what .ci/run downloads
        self.assertTrue(all(len(w["sha256"]) == 64 and w["expected"] for w in wheels))


if __name__ == "__main__":
    unittest.main(verbosity=1)
