#!/usr/bin/env python3
"""Check `archbench scan` against the real-wheel corpus of tools/corpus/wheels.json.

Usage: check_corpus.py --archbench build-ci/archbench [--cache DIR] [--only NAME...] [--ci] [--cuobjdump PATH]
                       [--markdown FILE] [--no-download]

Per wheel: `archbench scan WHEEL --device ... --json -`, its package verdict on every device of the manifest
against the `expected` table (derived from cuobjdump by expect.py, not from archbench), and every file's
per-target SASS and PTX counts against cuobjdump's (ci/scan_vs_cuobjdump.py's comparison; the files with
device code are extracted to a temporary directory; for a Windows DLL cuobjdump reads its `.nv_fatb`
section). Wheels missing from the cache are fetched first (fetch_corpus.py) unless --no-download.
One line per wheel on stdout (120 columns), progress on stderr.
Exit 0: every verdict and every file agree; 1: a mismatch; 2: usage; 77: skipped (wheels missing from the
cache that cannot be downloaded, or no cuobjdump).
"""
import argparse
import collections
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time

sys.dont_write_bytecode = True  # nothing written next to the sources
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(REPO, "ci"))
import corpus_facts  # noqa: E402
import expect  # noqa: E402
import fetch_corpus  # noqa: E402
import scan_vs_cuobjdump  # noqa: E402

SKIP = 77
SHORT = {"sass": "S", "ptx-jit": "J", "partial": "P", "needs-newer-driver": "D", "missing": "X",
         "jit-disabled": "Z", "absent": "-"}
LEGEND = "S sass, J ptx-jit, P partial, D needs-newer-driver, X missing, - not reported; got≠expected"


def snapshot(archbench, workdir):
    """A private copy of the archbench binary (a rebuild during the run must not mix two builds) and its
    version line."""
    copy = os.path.join(workdir, "archbench")
    shutil.copy2(archbench, copy)
    version = subprocess.run([copy, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    return copy, version[0] if version else "archbench (no version)"


def norm(name):
    """A distribution name compared loosely (PEP 503)."""
    return name.lower().replace("_", "-").replace(".", "-")


def run_scan(archbench, wheel_path, devices):
    """(scan JSON, seconds) of `archbench scan WHEEL --device ... --json -`."""
    cmd = [archbench, "scan", wheel_path, "--json", "-", "-q"]
    for d in devices:
        cmd += ["--device", d]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    try:
        return json.loads(proc.stdout), seconds
    except ValueError:
        raise RuntimeError("archbench scan exited %d without JSON: %s" % (proc.returncode, proc.stderr.strip()[-200:]))


def package_verdicts(scan, wheel):
    """{device label: verdict} of the wheel's package in a scan ("absent" where it is not reported)."""
    out = {}
    for device in scan["devices"]:
        found = [p for p in device["packages"] if norm(p["package"]) == norm(wheel["name"])]
        out[device["label"]] = found[0]["verdict"] if found else "absent"
    return out


def verdict_mismatches(got, expected):
    """["device: archbench X, expected Y"] for every device where they differ."""
    return ["%s: archbench %s, expected %s" % (d, got.get(d, "absent"), e)
            for d, e in expected.items() if got.get(d, "absent") != e]


def scanned_files(scan):
    """Every file archbench lists with device code, over all packages of the scan."""
    return [f for p in scan["packages"] for f in p["files"]]


def not_judged_paths(scan):
    """The files archbench lists as "not judged" (device code that defines no kernel)."""
    return {entry.split(": ", 1)[0] for entry in scan.get("not_judged", [])}


def facts_counts(facts_file):
    """Per-target counts from the per-container facts: cuobjdump's listing, and the entry headers of the
    containers on which cuobjdump gave up ("ELF"/"PTX" -> Counter of sm_NN, suffixes dropped)."""
    elf, ptx = collections.Counter(), collections.Counter()
    for c in facts_file["containers"]:
        if c.get("error") and c.get("headers"):
            entries = [(k.upper(), a) for k, a, _isa in c["headers"]]
        else:
            entries = [("ELF", a) for a in c["sass"]] + [("PTX", a) for a, _isa in c["ptx"]]
        for kind, arch in entries:
            (elf if kind == "ELF" else ptx)[arch.rstrip("af")] += 1
    return elf, ptx


def archbench_counts(f):
    """archbench's per-target counts of a file, suffixes dropped like facts_counts."""
    elf, ptx = collections.Counter(), collections.Counter()
    for name, n in f["sass"].items():
        elf[name.rstrip("af")] += n
    for name, n in f["ptx"].items():
        ptx[name.replace("compute_", "sm_").rstrip("af")] += n
    return elf, ptx


def compare_files(cuobjdump, scan, facts, workdir, pool):
    """{equal, header_equal, compared, lines, notes}: archbench's per-target counts of every file against
    cuobjdump's on the whole file (ci/scan_vs_cuobjdump.py); where cuobjdump gave up part-way ("Invalid
    ELF"), against its per-container listing completed by the entry headers. Also the files with device
    code, and those that define no kernel, against the ones found without archbench."""
    by_member = {f["path"]: f for f in facts}
    files, not_judged = scanned_files(scan), not_judged_paths(scan)
    kernel_less = {f["path"] for f in facts if not any(expect.judged(c) for c in f["containers"])}
    lines = ["device code archbench does not list: %s" % m
             for m in sorted(set(by_member) - {f["path"] for f in files} - not_judged)]
    lines += ["archbench lists, not found with device code here: %s" % f["path"]
              for f in files if f["path"] not in by_member]
    lines += ["archbench does not judge, but it defines functions: %s" % p for p in sorted(not_judged - kernel_less)]
    lines += ["defines no function, archbench judges it: %s" % p
              for p in sorted(kernel_less & {f["path"] for f in files})]
    listed = [f for f in files if f["path"] in by_member]
    on_disk = [dict(f, path=os.path.join(workdir, by_member[f["path"]]["cuobjdump_path"])) for f in listed]
    results = list(pool.map(lambda f: scan_vs_cuobjdump.compare(cuobjdump, f), on_disk))
    out = {"equal": 0, "header_equal": 0, "compared": len(listed), "lines": lines, "notes": []}
    for f, (_path, entries, diffs) in zip(listed, results):
        gave_up = [c["error"] for c in by_member[f["path"]]["containers"] if c.get("error")]
        if not diffs:
            out["equal"] += 1
        elif gave_up and archbench_counts(f) == facts_counts(by_member[f["path"]]):
            out["header_equal"] += 1
            out["notes"].append("%s: cuobjdump stops (%s) in %d of %d containers; archbench's %d entries equal "
                                "its per-container listing plus the entry headers" % (
                                    f["path"], gave_up[0].split(":", 1)[-1].split(" in ")[0].strip(), len(gave_up),
                                    len(by_member[f["path"]]["containers"]), entries))
        else:
            lines += ["%s: %s" % (f["path"], d) for d in diffs]
    return out


def check_wheel(args, wheel, devices, cuobjdump, pool):
    """The result of one wheel: verdicts, mismatches, file agreement, timing."""
    path = fetch_corpus.cached_path(args.cache, wheel)
    result = {"wheel": wheel, "got": {}, "mismatches": [], "equal": 0, "header_equal": 0, "compared": 0,
              "lines": [], "notes": [], "seconds": 0.0, "scan_seconds": 0.0}
    try:
        scan, result["seconds"] = run_scan(args.archbench, path, devices)
    except (RuntimeError, OSError) as e:
        result["lines"].append("archbench scan failed: %s" % e)
        return result
    result["scan_seconds"] = scan.get("seconds", 0.0)
    result["got"] = package_verdicts(scan, wheel)
    result["mismatches"] = verdict_mismatches(result["got"], wheel.get("expected", {}))
    work = tempfile.mkdtemp(prefix="archbench-corpus-")
    try:
        facts = corpus_facts.cached_wheel_facts(cuobjdump, wheel, path, os.path.join(args.cache, "facts"), work, pool)
        result.update(compare_files(cuobjdump, scan, facts, work, pool))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return result


def ok(result):
    """Whether a wheel agrees in every verdict and every file."""
    return (not result["mismatches"] and not result["lines"] and bool(result["wheel"].get("expected"))
            and result["equal"] + result["header_equal"] == result["compared"])


def verdict_cells(result, devices):
    """Short verdict per device, `got≠expected` where they differ."""
    cells = []
    for d in devices:
        got, exp = SHORT.get(result["got"].get(d), "?"), SHORT.get(result["wheel"].get("expected", {}).get(d), "?")
        cells.append(got if got == exp else "%s≠%s" % (got, exp))
    return cells


def platform_short(wheel):
    """"linux" or "win"."""
    return "win" if wheel["platform"].startswith("win") else "linux"


def files_cell(result):
    """"3/3" files equal to cuobjdump, "2+1/3" where one more equals the entry headers cuobjdump gave up on."""
    if result["header_equal"]:
        return "%d+%d/%d" % (result["equal"], result["header_equal"], result["compared"])
    return "%d/%d" % (result["equal"], result["compared"])


def console_line(result, devices, verbose=False):
    """The one stdout line of a wheel (at most 120 columns), then indented detail lines on disagreement
    (and, with verbose, the notes on files cuobjdump could not read to the end)."""
    w = result["wheel"]
    head = "%-4s %-22s %-13s %-5s %s  files %s  %.1fs" % (
        "ok" if ok(result) else "FAIL", w["name"][:22], w["version"][:13], platform_short(w),
        " ".join(verdict_cells(result, devices)), files_cell(result), result["seconds"])
    details = ["    verdict " + m for m in result["mismatches"]] + ["    files " + l for l in result["lines"]]
    if verbose:
        details += ["    note " + n for n in result["notes"]]
    if not w.get("expected"):
        details.append("    no expected verdicts in the manifest (run expect.py --write)")
    return [head[:120]] + [d[:120] for d in details]


def wrap(text, indent=""):
    """Text wrapped at 120 columns (later lines indented by `indent`)."""
    return textwrap.fill(text, 120, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False)


def markdown(results, devices, total_seconds):
    """The Markdown table of a run (for docs/validation.md)."""
    out = ["| package | version | platform | kind | " + " | ".join("`%s`" % d for d in devices) +
           " | files = cuobjdump | scan s |",
           "|---|---|---|---|" + "---|" * len(devices) + "---|---:|"]
    for r in results:
        w = r["wheel"]
        out.append("| %s | %s | %s | %s | %s | %s | %.2f |" % (
            w["name"], w["version"], platform_short(w), w["kind"], " | ".join(verdict_cells(r, devices)),
            files_cell(r), r["scan_seconds"]))
    agree = sum(ok(r) for r in results)
    out += ["", LEGEND + ".", "",
            wrap("%d of %d wheels agree; %d verdicts compared, %d differ; of %d files, %d equal to cuobjdump and %d "
            "to cuobjdump completed by the entry headers where it gave up (`a+b/n`); archbench's own scan time "
            "%.1f s in all, the check %.0f s." % (
                agree, len(results), sum(len(r["got"]) for r in results), sum(len(r["mismatches"]) for r in results),
                sum(r["compared"] for r in results), sum(r["equal"] for r in results),
                sum(r["header_equal"] for r in results), sum(r["scan_seconds"] for r in results), total_seconds))]
    lines = ["- %s %s (%s): %s" % (r["wheel"]["name"], r["wheel"]["version"], platform_short(r["wheel"]), l)
             for r in results for l in r["mismatches"] + r["lines"]]
    if lines:
        out += ["", "Disagreements:", ""] + [wrap(l, "  ") for l in lines]
    notes = ["- %s %s (%s): %s" % (r["wheel"]["name"], r["wheel"]["version"], platform_short(r["wheel"]), n)
             for r in results for n in r["notes"]]
    if notes:
        out += ["", "Files cuobjdump could not read to the end:", ""] + [wrap(n, "  ") for n in notes]
    return "\n".join(out) + "\n"


def ensure_cached(args, wheels):
    """The wheels missing from the cache after fetching what can be fetched."""
    missing = [w for w in wheels if not os.path.isfile(fetch_corpus.cached_path(args.cache, w))]
    if missing and not args.no_download and fetch_corpus.pip_available():
        print("fetching %d wheel(s) into %s" % (len(missing), args.cache), file=sys.stderr)
        fetch_corpus.fetch_all(args.cache, missing, jobs=2)
    return [w for w in wheels if not fetch_corpus.is_cached(args.cache, w)]


def parse_args(argv):
    """Command-line options."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--archbench", default=os.path.join(REPO, "build-ci", "archbench"))
    ap.add_argument("--cache", default=fetch_corpus.DEFAULT_CACHE)
    ap.add_argument("--manifest", default=fetch_corpus.DEFAULT_MANIFEST)
    ap.add_argument("--only", nargs="+", default=[], metavar="NAME", help="only these packages or wheel files")
    ap.add_argument("--cuobjdump", help="cuobjdump to compare with (default: PATH, pip's nvidia-cuda-cuobjdump)")
    ap.add_argument("--markdown", metavar="FILE", help="write the result table as Markdown")
    ap.add_argument("--no-download", action="store_true", help="do not fetch wheels missing from the cache")
    ap.add_argument("--ci", action="store_true", help="only the wheels marked for CI (the ctest scan.corpus)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="cuobjdump runs at once")
    ap.add_argument("--verbose", action="store_true", help="also list the files cuobjdump could not read to the end")
    return ap.parse_args(argv)


def main(argv=None):
    """Check every selected wheel; exit 0 when all agree."""
    args = parse_args(argv)
    if not os.access(args.archbench, os.X_OK):
        print("check_corpus: no archbench at %s" % args.archbench, file=sys.stderr)
        return 2
    manifest = fetch_corpus.load_manifest(args.manifest)
    wheels, devices = fetch_corpus.select(manifest["wheels"], args.only, args.ci), manifest["devices"]
    if not wheels:
        print("check_corpus: no wheel matches --only %s" % " ".join(args.only), file=sys.stderr)
        return 2
    cuobjdump = corpus_facts.find_cuobjdump(args.cuobjdump)
    if not cuobjdump:
        print("check_corpus: skipped: no cuobjdump (pip install nvidia-cuda-cuobjdump, or --cuobjdump)", file=sys.stderr)
        return SKIP
    missing = ensure_cached(args, wheels)
    if missing:
        print("check_corpus: skipped: %d wheel(s) not in %s and not downloadable: %s" % (
            len(missing), args.cache, " ".join(w["filename"] for w in missing)), file=sys.stderr)
        return SKIP
    snap_dir = tempfile.mkdtemp(prefix="archbench-bin-")
    try:
        args.archbench, version = snapshot(args.archbench, snap_dir)
        return run_checks(args, wheels, devices, cuobjdump, version)
    finally:
        shutil.rmtree(snap_dir, ignore_errors=True)


def run_checks(args, wheels, devices, cuobjdump, version):
    """Check the wheels, print one line each and the summary, write the Markdown; the exit code."""
    print(("%s | %s" % (version, corpus_facts.cuobjdump_version(cuobjdump)))[:120])
    print(("devices: %s" % " ".join(devices))[:120])
    print(LEGEND[:120])
    start, results = time.monotonic(), []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for n, w in enumerate(wheels, 1):
            print("[%d/%d] %s" % (n, len(wheels), w["filename"]), file=sys.stderr, flush=True)
            results.append(check_wheel(args, w, devices, cuobjdump, pool))
            print("\n".join(console_line(results[-1], devices, args.verbose)), flush=True)
    total = time.monotonic() - start
    bad = [r for r in results if not ok(r)]
    print("%d of %d wheel(s) agree with the expected verdicts and cuobjdump; archbench scan %.1f s, check %.0f s -> %s"
          % (len(results) - len(bad), len(results), sum(r["scan_seconds"] for r in results), total,
             "PASS" if not bad else "FAIL"))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(wrap("%s, cuobjdump %s; devices %s." % (version, corpus_facts.cuobjdump_version(cuobjdump),
                                                               " ".join(devices))) + "\n\n")
            f.write(markdown(results, devices, total))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
