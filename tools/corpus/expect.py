#!/usr/bin/env python3
"""Expected `archbench scan` package verdicts for the wheels of tools/corpus/wheels.json, derived without
archbench: the per-container targets cuobjdump lists (corpus_facts.py) and the rules of docs/scan.md
("How it judges"), written out below from NVIDIA's documentation.

Usage: expect.py [--cache DIR] [--cuobjdump PATH] [--only NAME...] [--write]
Prints one line per wheel with its verdict per device; --write stores them as `expected` in the manifest.

The rules (sources: CUDA C++ Programming Guide, "Binary Compatibility", "PTX Compatibility" and
"Feature Availability"; CUDA Compatibility guide; PTX ISA release notes; docs/reference/compat.md):
- SASS for sm_XY runs on a device X.Z with Z >= Y (same major); sm_XYa only on X.Y itself. cuobjdump
  prints family code (sm_100f) without its `f`, which runs where sm_100 does on every device here.
- PTX for compute_XY is compiled by the driver for any device >= X.Y; compute_XYa only for X.Y. The driver
  compiles PTX only up to its own PTX ISA (branch 570 = CUDA 12.8 = ISA 8.7); newer PTX is needs-newer-driver.
- A file that links the CUDA N runtime (libcudart.so.N, libcublas(Lt).so.N, libnvrtc.so.N, cudart64_N.dll,
  ...), is such a library, belongs to a package that declares CUDA N (-cu12, -cuda12x, +cu128) or whose
  cubins ptxas wrote for CUDA N needs a driver of CUDA N.0 or newer (minor version compatibility).
- A unit is a fatbin container; containers that define no function are not judged. A file is dispatching
  when it is one of NVIDIA's per-architecture libraries (cuBLAS, cuDNN, cuFFT, cuSPARSE, cuSOLVER, cuRAND,
  NCCL, nvJPEG, NVSHMEM, cuTENSOR) or its containers carry different (portable) target sets; otherwise it
  was compiled whole for one arch list. Dispatching: sass when any unit has SASS for the device, else
  ptx-jit when PTX fits, else needs-newer-driver when only too-new PTX fits, else missing. Whole-list:
  every unit must load; units holding only arch-specific code for other devices are not gaps. All load:
  sass (all SASS) or ptx-jit; every failing unit fails only on too-new PTX: needs-newer-driver; none
  loads: missing; else partial. A file of nothing but arch-specific code for other devices does not count.
- A file's verdict is the worse of its image verdict and its runtime's driver need; a package's is its
  worst file's; of a CUDA variant family (files in one directory whose names differ only in a CUDA tag),
  a wheel alone counts the variant that serves the device best.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written next to the sources
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_facts  # noqa: E402
import fetch_corpus  # noqa: E402

DRIVER_CUDA = {525: (12, 0), 530: (12, 1), 535: (12, 2), 545: (12, 3), 550: (12, 4), 555: (12, 5),
               560: (12, 6), 565: (12, 7), 570: (12, 8), 575: (12, 9), 580: (13, 0), 590: (13, 1), 595: (13, 2)}
CUDA_PTX_ISA = {(12, 0): (8, 0), (12, 1): (8, 1), (12, 2): (8, 2), (12, 3): (8, 3), (12, 4): (8, 4),
                (12, 5): (8, 5), (12, 6): (8, 5), (12, 7): (8, 6), (12, 8): (8, 7), (12, 9): (8, 8),
                (13, 0): (9, 0), (13, 1): (9, 1), (13, 2): (9, 2)}
SEVERITY = {"sass": 1, "ptx-jit": 2, "partial": 3, "needs-newer-driver": 5, "missing": 6}
DISPATCHING = re.compile(r"^(lib)?(cublasLt|cublas|cudnn|cufftw|cufft|cusparse|cusolver|curand|nccl|nvjpeg|nvshmem"
                         r"|cutensor)(64_|[._-]|$)", re.I)
CUDA_TAG = re.compile(r"(?<![a-z0-9])cu(?:da)?\d{2,3}(?![0-9])", re.I)


def parse_device(label):
    """"8.6@570" -> {"label", "cc": (8, 6), "cuda": (12, 8), "isa": (8, 7)}."""
    cc, branch = label.split("@")
    major, minor = (int(x) for x in cc.split("."))
    cuda = DRIVER_CUDA[int(branch)]
    return {"label": label, "cc": (major, minor), "cuda": cuda, "isa": CUDA_PTX_ISA[cuda]}


def parse_target(name):
    """"sm_90a" -> (9, 0, "a"); "sm_100" -> (10, 0, "")."""
    m = re.match(r"^(?:sm|compute)_(\d+)([af]?)$", name)
    n = int(m.group(1))
    return n // 10, n % 10, m.group(2)


def sass_runs(target, cc):
    """Whether SASS for `target` runs on a device of compute capability cc."""
    major, minor, suffix = parse_target(target)
    if suffix == "a":
        return (major, minor) == cc
    return major == cc[0] and minor <= cc[1]


def ptx_fits(target, cc):
    """Whether the driver can compile PTX for `target` for a device of compute capability cc."""
    major, minor, suffix = parse_target(target)
    if suffix == "a":
        return (major, minor) == cc
    if suffix == "f":
        return major == cc[0] and minor <= cc[1]
    return (major, minor) <= cc


def isa_tuple(isa):
    """"8.4" -> (8, 4)."""
    return tuple(int(x) for x in isa.split("."))


def unit_targets(container):
    """(sass targets, [(ptx target, isa or None)]) of a container, from cuobjdump or, where cuobjdump gave
    up, from the entry headers."""
    if container.get("error") and container.get("headers"):
        return ([a for k, a, _isa in container["headers"] if k == "elf"],
                [(a, isa) for k, a, isa in container["headers"] if k == "ptx"])
    return container["sass"], [(a, isa) for a, isa in container["ptx"]]


def judged(container):
    """Whether a container counts as a unit: it has images and defines a function (or cuobjdump gave up)."""
    sass, ptx = unit_targets(container)
    return bool(sass or ptx) and (container["functions"] > 0 or bool(container.get("error")))


def unit_status(container, device):
    """"sass", "jit", "too_new", "elsewhere" (only arch-specific code, for other devices) or "missing"."""
    sass, ptx = unit_targets(container)
    if any(sass_runs(t, device["cc"]) for t in sass):
        return "sass"
    fitting = [isa for t, isa in ptx if ptx_fits(t, device["cc"])]
    if any(isa is None or isa_tuple(isa) <= device["isa"] for isa in fitting):
        return "jit"
    if fitting:
        return "too_new"
    if all(parse_target(t)[2] == "a" for t in sass + [t for t, _ in ptx]):
        return "elsewhere"
    return "missing"


def portable_set(container):
    """The container's targets without arch-specific ones, as a comparable set."""
    sass, ptx = unit_targets(container)
    return frozenset([("sass", t) for t in sass if parse_target(t)[2] != "a"] +
                     [("ptx", t) for t, _ in ptx if parse_target(t)[2] != "a"])


def file_kind(path, units):
    """"dispatching" or "whole-list" (the rule in the module docstring)."""
    if DISPATCHING.match(os.path.basename(path)):
        return "dispatching"
    return "whole-list" if len({portable_set(u) for u in units}) <= 1 else "dispatching"


def image_verdict(kind, statuses):
    """The verdict of a file from its units' statuses (None: the file does not count on this device)."""
    n = {s: statuses.count(s) for s in ("sass", "jit", "too_new", "elsewhere", "missing")}
    if kind == "dispatching":
        for status, verdict in (("sass", "sass"), ("jit", "ptx-jit"), ("too_new", "needs-newer-driver")):
            if n[status]:
                return verdict
        return "missing"
    failing = n["too_new"] + n["missing"]
    loading = n["sass"] + n["jit"]
    if failing == 0:
        return None if loading == 0 else ("sass" if n["jit"] == 0 else "ptx-jit")
    if n["missing"] == 0:
        return "needs-newer-driver"
    return "missing" if loading == 0 else "partial"


def declared_cuda(name, version):
    """The CUDA major a package declares in its name (-cu12, -cu126, -cuda12x, -cuda12-) or version (+cu128)."""
    m = re.search(r"(?:^|[-_])cu(?:da)?(\d\d)(?:\d|x)?(?:[-_]|$)", name.lower()) or re.search(r"\+cu(\d\d)", version)
    return int(m.group(1)) if m else None


def runtime_major(f, declared):
    """The CUDA major a file needs the driver for (None when nothing says)."""
    majors = corpus_facts.runtime_majors(f["needed"] + [os.path.basename(f["path"])])
    if declared:
        majors.add(declared)
    if f.get("toolkit"):
        majors.add(int(f["toolkit"].split(".")[0]))
    return max(majors) if majors else None


def file_verdict(f, device, declared):
    """The verdict of one file on one device (None: not judged or not counted there)."""
    units = [c for c in f["containers"] if judged(c)]
    if not units:
        return None
    verdict = image_verdict(file_kind(f["path"], units), [unit_status(u, device) for u in units])
    need = runtime_major(f, declared)
    if verdict and need and device["cuda"][0] < need and SEVERITY[verdict] < SEVERITY["needs-newer-driver"]:
        verdict = "needs-newer-driver"
    return verdict


def family_key(path):
    """The key files of one CUDA variant family share: directory and name with the CUDA tag blanked."""
    return os.path.dirname(path), CUDA_TAG.sub("{}", os.path.basename(path))


def families(files):
    """{key: [files]} for the CUDA variant families among files (two or more members)."""
    groups = {}
    for f in files:
        if CUDA_TAG.search(os.path.basename(f["path"])):
            groups.setdefault(family_key(f["path"]), []).append(f)
    return {k: v for k, v in groups.items() if len(v) >= 2}


def worst(verdicts):
    """The most severe of verdicts (None for none)."""
    verdicts = [v for v in verdicts if v]
    return max(verdicts, key=SEVERITY.get) if verdicts else None


def best(verdicts):
    """The least severe of verdicts (None for none)."""
    verdicts = [v for v in verdicts if v]
    return min(verdicts, key=SEVERITY.get) if verdicts else None


def package_verdict(files, device, declared):
    """The verdict of a wheel's package on a device: worst file, a variant family by its best variant."""
    fams = families(files)
    in_family = {id(f) for members in fams.values() for f in members}
    verdicts = [file_verdict(f, device, declared) for f in files if id(f) not in in_family]
    verdicts += [best(file_verdict(f, device, declared) for f in members) for members in fams.values()]
    if not any(f["containers"] for f in files):
        return "no-device-code"
    return worst(verdicts) or "missing"


def expected_for(wheel, files, devices):
    """{device label: verdict} for one wheel."""
    declared = declared_cuda(wheel["name"], wheel["version"])
    return {d["label"]: package_verdict(files, d, declared) for d in devices}


def facts_for(wheel, cache, cuobjdump, pool):
    """The cuobjdump facts of a cached wheel (kept under cache/facts)."""
    work = tempfile.mkdtemp(prefix="archbench-corpus-")
    try:
        return corpus_facts.cached_wheel_facts(cuobjdump, wheel, fetch_corpus.cached_path(cache, wheel),
                                               os.path.join(cache, "facts"), work, pool)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def parse_args(argv):
    """Command-line options."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cache", default=fetch_corpus.DEFAULT_CACHE)
    ap.add_argument("--manifest", default=fetch_corpus.DEFAULT_MANIFEST)
    ap.add_argument("--cuobjdump", help="cuobjdump to use (default: PATH, pip's nvidia-cuda-cuobjdump)")
    ap.add_argument("--only", nargs="+", default=[], metavar="NAME")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--write", action="store_true", help="store the verdicts as `expected` in the manifest")
    return ap.parse_args(argv)


def main(argv=None):
    """Derive and print (or store) the expected verdicts."""
    args = parse_args(argv)
    manifest = fetch_corpus.load_manifest(args.manifest)
    devices = [parse_device(d) for d in manifest["devices"]]
    wheels = fetch_corpus.select(manifest["wheels"], args.only)
    missing = [w["filename"] for w in wheels if not os.path.isfile(fetch_corpus.cached_path(args.cache, w))]
    if missing:
        print("expect: not in the cache (run fetch_corpus.py): %s" % " ".join(missing), file=sys.stderr)
        return 77
    cuobjdump = corpus_facts.find_cuobjdump(args.cuobjdump)
    if cuobjdump is None:
        print("expect: no cuobjdump (python3 -m pip install nvidia-cuda-cuobjdump, or --cuobjdump PATH)", file=sys.stderr)
        return 77
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for n, w in enumerate(wheels, 1):
            print("[%d/%d] %s" % (n, len(wheels), w["filename"]), file=sys.stderr, flush=True)
            w["expected"] = expected_for(w, facts_for(w, args.cache, cuobjdump, pool), devices)
            print(("%-22s %-12s %-5s " % (w["name"][:22], w["version"][:12], w["platform"][:5]) +
                   " ".join("%s=%s" % (d, v) for d, v in w["expected"].items()))[:400])
    if args.write:
        by_file = {w["filename"]: w["expected"] for w in wheels}
        for w in manifest["wheels"]:
            if w["filename"] in by_file:
                w["expected"] = by_file[w["filename"]]
        with open(args.manifest + ".tmp", "w") as f:
            json.dump(manifest, f, indent=1)
            f.write("\n")
        os.replace(args.manifest + ".tmp", args.manifest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
