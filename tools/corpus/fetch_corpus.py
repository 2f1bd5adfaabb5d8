#!/usr/bin/env python3
"""Download the real-wheel corpus of tools/corpus/wheels.json into a cache directory.

Usage: fetch_corpus.py [--cache DIR] [--manifest FILE] [--only NAME...] [--ci] [--jobs N] [--verify]

Every wheel is fetched with pip (`pip download --no-deps` of its pinned URL, pip's own cache off), into a
temporary name inside the cache, checked against the sha256 of the manifest and only then renamed to its
file name. A wheel already in the cache with the right sha256 is not fetched again, so an interrupted run
resumes where it stopped (per wheel). The cache may not lie inside the repository. Exit 0 when every
selected wheel is in the cache and verified, 1 when some could not be fetched or verified, 2 on usage errors.
Progress goes to stderr; one line per wheel to stdout.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MANIFEST = os.path.join(HERE, "wheels.json")
DEFAULT_CACHE = os.path.join(os.path.expanduser("~"), ".cache", "archbench", "corpus")


def load_manifest(path):
    """The manifest as a dict: `devices` and `wheels` (see tools/corpus/wheels.json). An unreadable or malformed
    manifest ends the program with a one-line reason and exit 2 (a usage error), never a traceback."""
    try:
        with open(path) as f:
            manifest = json.load(f)
    except (OSError, ValueError) as e:
        _usage_error("cannot read the corpus manifest %s: %s" % (path, e))
    if not isinstance(manifest, dict) or not isinstance(manifest.get("wheels"), list) or \
            not isinstance(manifest.get("devices"), list):
        _usage_error("%s is not a corpus manifest (it needs `devices` and `wheels` lists)" % path)
    return manifest


def _usage_error(message):
    print("%s: %s" % (os.path.basename(sys.argv[0]), message), file=sys.stderr)
    sys.exit(2)


def select(wheels, only, ci=False):
    """The wheels whose package name or file name is in `only` (all of them when `only` is empty); with `ci`,
    of those only the ones the manifest marks `"ci": true` (the small set .ci/run checks)."""
    if ci:
        wheels = [w for w in wheels if w.get("ci")]
    if not only:
        return list(wheels)
    wanted = {n.lower().replace("_", "-") for n in only}
    return [w for w in wheels
            if w["name"].lower().replace("_", "-") in wanted or w["filename"].lower() in wanted]


def sha256_of(path):
    """The hex sha256 of a file, read in 1 MiB blocks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def inside_repo(path):
    """True when `path` is the repository or lies inside it (the cache must not)."""
    real, repo = os.path.realpath(path), os.path.realpath(REPO)
    return real == repo or real.startswith(repo + os.sep)


def cached_path(cache, wheel):
    """Where a wheel lives in the cache."""
    return os.path.join(cache, wheel["filename"])


def is_cached(cache, wheel):
    """True when the cache holds the wheel with the manifest's sha256."""
    path = cached_path(cache, wheel)
    return os.path.isfile(path) and sha256_of(path) == wheel["sha256"]


def platform_tags(filename):
    """The platform tags of a wheel file name (`a.b` compressed tags split), for pip's --platform."""
    return filename[:-len(".whl")].split("-")[-1].split(".")


def pip_download_command(wheel, dest):
    """The pip command that downloads exactly this wheel's URL into `dest`, for its own platform."""
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-cache-dir", "--only-binary=:all:",
           "--progress-bar", "off", "--python-version", "3.11", "-d", dest]
    for tag in platform_tags(wheel["filename"]):
        cmd += ["--platform", tag]
    return cmd + [wheel["url"]]


def pip_available():
    """True when `python -m pip` runs here."""
    try:
        return subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0
    except OSError:
        return False


def fetch_one(cache, wheel):
    """Fetch one wheel into the cache unless it is there; returns (status, detail)."""
    if is_cached(cache, wheel):
        return "cached", ""
    target = cached_path(cache, wheel)
    tmp = tempfile.mkdtemp(prefix=".partial-", dir=cache)
    try:
        run = subprocess.run(pip_download_command(wheel, tmp), capture_output=True, text=True, errors="replace")
        got = os.path.join(tmp, wheel["filename"])
        if run.returncode != 0 or not os.path.isfile(got):
            tail = (run.stderr or run.stdout).strip().splitlines()
            return "failed", tail[-1] if tail else "pip exited %d" % run.returncode
        digest = sha256_of(got)
        if digest != wheel["sha256"]:
            return "failed", "sha256 %s, manifest %s" % (digest[:16], wheel["sha256"][:16])
        os.replace(got, target)
        return "fetched", "%.1f MB" % (os.path.getsize(target) / 1e6)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def fetch_all(cache, wheels, jobs=2, log=sys.stderr):
    """Fetch the wheels (`jobs` at once); returns {filename: (status, detail)}."""
    os.makedirs(cache, exist_ok=True)
    for stale in os.listdir(cache):  # what an interrupted run left behind
        if stale.startswith(".partial-"):
            shutil.rmtree(os.path.join(cache, stale), ignore_errors=True)
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = {pool.submit(fetch_one, cache, w): w for w in wheels}
        for n, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            w = futures[fut]
            try:
                results[w["filename"]] = fut.result()
            except Exception as e:  # a broken wheel must not stop the others
                results[w["filename"]] = ("failed", str(e))
            print("[%d/%d] %s %s" % (n, len(wheels), results[w["filename"]][0], w["filename"]), file=log, flush=True)
    return results


def parse_args(argv):
    """Command-line options."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", default=DEFAULT_CACHE, help="cache directory (default %(default)s)")
    ap.add_argument("--manifest", default=DEFAULT_MANIFEST, help="manifest (default tools/corpus/wheels.json)")
    ap.add_argument("--only", nargs="+", default=[], metavar="NAME", help="only these packages or wheel files")
    ap.add_argument("--ci", action="store_true", help="only the wheels marked for CI (about 170 MB)")
    ap.add_argument("--jobs", type=int, default=2, help="downloads at once (default 2)")
    ap.add_argument("--verify", action="store_true", help="only check the cache, download nothing")
    return ap.parse_args(argv)


def main(argv=None):
    """Fetch (or verify) the selected wheels; exit 0 when all are cached and verified."""
    args = parse_args(argv)
    if inside_repo(args.cache):
        print("fetch_corpus: the cache %s lies inside the repository; choose another --cache" % args.cache,
              file=sys.stderr)
        return 2
    wheels = select(load_manifest(args.manifest)["wheels"], args.only, args.ci)
    if not wheels:
        print("fetch_corpus: no wheel matches --only %s" % " ".join(args.only), file=sys.stderr)
        return 2
    if args.verify:
        results = {w["filename"]: ("cached", "") if is_cached(args.cache, w) else ("missing", "") for w in wheels}
    elif not pip_available():
        print("fetch_corpus: pip is not available to download with", file=sys.stderr)
        return 1
    else:
        results = fetch_all(args.cache, wheels, args.jobs)
    bad = 0
    for w in wheels:
        status, detail = results[w["filename"]]
        bad += status not in ("cached", "fetched")
        print(("%-8s %s %s" % (status, w["filename"], detail)).rstrip()[:120])
    total = sum(os.path.getsize(cached_path(args.cache, w)) for w in wheels
                if os.path.isfile(cached_path(args.cache, w)))
    print("%d of %d wheel(s) in %s (%.2f GB)" % (len(wheels) - bad, len(wheels), args.cache, total / 1e9))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
