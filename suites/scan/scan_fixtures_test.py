#!/usr/bin/env python3
"""`archbench scan` on fixtures built here with nvcc (make_scan_fixtures.py), without a GPU: every
verdict, attribution, layer and whiteout rule, hostile input and exit code it promises; plus, when
given, cuobjdump's per-target counts for the fixture libraries and for a real wheel from PyPI.
An archbench built without libarchive must refuse wheels with exit 5 and say why; the archive
checks are then skipped and the test exits 77 (ctest: skipped) after the others pass.
Usage: scan_fixtures_test.py ARCHBENCH NVCC WORK_DIR [CUOBJDUMP] [WHEEL_DIR]"""
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile

ARCHBENCH, NVCC, WORK = sys.argv[1:4]


def find_cuobjdump():
    """PATH, the toolkit, then the pip wheel nvidia-cuda-cuobjdump (as suites/unit/cuobjdump_tool.hpp)."""
    found = shutil.which("cuobjdump") or (os.access("/usr/local/cuda/bin/cuobjdump", os.X_OK) and "/usr/local/cuda/bin/cuobjdump")
    if found:
        return found
    r = subprocess.run([sys.executable, "-c", "import nvidia; print('\\n'.join(nvidia.__path__))"], capture_output=True, text=True)
    for root in r.stdout.split():
        for sub in sorted(os.listdir(root)) if os.path.isdir(root) else []:
            candidate = os.path.join(root, sub, "bin", "cuobjdump")
            if os.access(candidate, os.X_OK):
                return candidate
    return None


CUOBJDUMP = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else find_cuobjdump()
WHEELS = sys.argv[5] if len(sys.argv) > 5 else ""
HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(WORK, "fixtures")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL: " + what)


def scan(*args, want=None):
    out_json = os.path.join(WORK, "scan.json")
    if os.path.exists(out_json):
        os.remove(out_json)
    p = subprocess.run([ARCHBENCH, "scan", *args, "-q", "--json", out_json], capture_output=True, text=True, timeout=300)
    if want is not None:
        check(p.returncode == want, "scan %s: exit %d, want %d\n%s%s" % (" ".join(args), p.returncode, want, p.stdout, p.stderr))
    j = json.load(open(out_json)) if os.path.exists(out_json) else None
    return p, j


def verdicts(j, device_index=0):
    return {(v["package"]): v for v in j["devices"][device_index]["packages"]}


def reads_archives(wheel):
    """False when this archbench was built without libarchive: then a wheel is unreadable, exit 5, with
    that reason (the documented behaviour, checked here), and the archive checks are skipped."""
    p, j = scan(wheel, "--device", "8.0")
    if j is not None and any("built without libarchive" in u["why"] for u in j["unreadable"]):
        check(p.returncode == 5, "without libarchive: a wheel's scan exits %d, want 5" % p.returncode)
        return False
    return True


def main():
    subprocess.run([sys.executable, os.path.join(HERE, "make_scan_fixtures.py"), NVCC, FX], check=True)
    f = lambda *p: os.path.join(FX, *p)
    archives = reads_archives(f("pkga-1.0+cu130-cp312-cp312-linux_x86_64.whl"))

    # A site-packages: dist-info attribution, whole-list vs a-only vs PTX-only, host code skipped.
    p, j = scan(f("site"), "--device", "9.0@580", "--device", "8.6@580", want=1)
    names = {pk["name"] for pk in j["packages"]}
    check(names == {"pkga", "pkgb", "loose_jit.so"}, "site: packages %s" % names)
    pkga = next(pk for pk in j["packages"] if pk["name"] == "pkga")
    check(pkga["version"] == "1.0+cu130" and pkga["declared_cuda_major"] == 13, "site: pkga version/declared %s" % pkga)
    check(pkga["files"][0]["needed"] and any(n.startswith("libcudart.so.") for n in pkga["files"][0]["needed"]),
          "site: pkga's DT_NEEDED lacks libcudart: %s" % pkga["files"][0]["needed"])
    on90, on86 = verdicts(j, 0), verdicts(j, 1)
    check(on90["pkga"]["verdict"] == "missing" and on86["pkga"]["verdict"] == "sass", "site: pkga %s / %s" % (on90["pkga"]["verdict"], on86["pkga"]["verdict"]))
    check(on90["pkgb"]["verdict"] == "sass" and on86["pkgb"]["verdict"] == "missing", "site: pkgb (sm_90a only)")
    check(any("arch-specific" in n for n in on86["pkgb"]["notes"]), "site: no arch-specific note for pkgb on 8.6")
    check(on90["loose_jit.so"]["verdict"] == "ptx-jit", "site: the PTX-only extension is not ptx-jit on 9.0")
    check("TORCH_CUDA_ARCH_LIST" in on90["pkga"]["fix"], "site: an extension's fix names TORCH_CUDA_ARCH_LIST: %s" % on90["pkga"]["fix"])
    check("9.0" in p.stdout and "pkga 1.0+cu130" in p.stdout, "site: console output lacks the package")
    check(max(len(l) for l in p.stdout.splitlines()) <= 120, "site: console wider than 120 columns")
    # A library of sm_90a-only kernels beside one with sm_80 SASS (as xformers' FlashAttention-3 library): on 8.6
    # left out of the verdict, with a note; on 9.0 counted, where the sm_80 library has no image. (pkgb above, with
    # nothing else, stays missing on 8.6.)
    _, jf = scan(f("site_fa3"), "--device", "8.6@580", "--device", "9.0@580", want=1)
    c86, c90 = verdicts(jf, 0)["pkgc"], verdicts(jf, 1)["pkgc"]
    check(c86["verdict"] == "sass" and c90["verdict"] == "missing", "site_fa3: pkgc %s / %s" % (c86["verdict"], c90["verdict"]))
    counted = {os.path.basename(x["path"]): x["counted"] for x in c86["files"]}
    check(counted == {"_C.so": True, "_C_fa3.so": False}, "site_fa3: counted on 8.6 %s" % counted)
    check(all(x["counted"] for x in c90["files"]), "site_fa3: a file not counted on 9.0")
    check(any("arch-specific" in n and "_C_fa3.so" in n for n in c86["notes"]), "site_fa3: no note for _C_fa3.so")

    if archives:
        check_archives(f)
    check_files(f)
    if failures:
        print("FAIL")
        return 1
    if not archives:
        print("SKIP: this archbench was built without libarchive: the other checks passed; wheels, container images "
              "and the real wheel's comparison with cuobjdump were not checked (install libarchive-dev and rebuild)")
        return 77
    print("PASS")
    return 0


def check_archives(f):
    """Wheels and container images (libarchive)."""
    # A wheel read in place; its CUDA 13 runtime against a 535 driver; the same on 580.
    wheel = f("pkga-1.0+cu130-cp312-cp312-linux_x86_64.whl")
    p, j = scan(wheel, "--device", "8.0@535", "--device", "8.0@580", want=1)
    check([pk["name"] for pk in j["packages"]] == ["pkga"] and j["packages"][0]["origin"] == "wheel", "wheel: attribution")
    check(verdicts(j, 0)["pkga"]["verdict"] == "needs-newer-driver", "wheel: CUDA 13 runtime on a 535 driver")
    check("580" in verdicts(j, 0)["pkga"]["fix"], "wheel: the fix names the driver branch")
    check(verdicts(j, 1)["pkga"]["verdict"] == "sass", "wheel: on 580")
    p, j = scan(wheel, "--device", "8.0@580", want=0)
    # Two wheels with the same path inside: each file belongs to its own wheel's distribution.
    _, jw = scan(wheel, f("pkga-1.0+cu126-cp312-cp312-linux_x86_64.whl"), "--device", "8.0@580", want=1)
    owners = sorted((pk["version"], [os.path.basename(x["source"]) for x in pk["files"]]) for pk in jw["packages"])
    check(owners == [("1.0+cu126", ["pkga-1.0+cu126-cp312-cp312-linux_x86_64.whl"]),
                     ("1.0+cu130", ["pkga-1.0+cu130-cp312-cp312-linux_x86_64.whl"])], "two wheels: owners %s" % owners)

    # A variant family alone: nothing decides which loads, so each device is served by the best.
    p, j = scan(f("famlib-0.1-py3-none-manylinux_2_24_x86_64.whl"), "--device", "8.0@580", "--device", "9.0@580", want=0)
    for i, tag in ((0, "cuda126"), (1, "cuda130")):
        v = verdicts(j, i)["famlib"]
        check(v["verdict"] == "sass" and any("runs with the %s variant(s) only" % tag in n for n in v["notes"]),
              "famlib wheel on device %d: %s" % (i, v))

    # PyTorch's declared arch list differing from its libtorch_cuda.so, in a wheel.
    p, j = scan(f("torch-2.9.0+cu130-cp312-cp312-linux_x86_64.whl"), "--device", "8.0@580", want=0)
    notes = verdicts(j)["torch"]["notes"]
    check(any("declares sm_80 sm_90 compute_90" in n and "torch/lib/libtorch_cuda.so has no compute_90/sm_90 image" in n
              for n in notes), "torch wheel: no declared-vs-shipped note: %s" % notes)
    check("declares sm_80 sm_90 compute_90" in p.stdout, "torch wheel: the note is not in the console output")

    # An AOTInductor package compiled on an sm_90 GPU: judged as one package, its cubin runs on 9.0 only, the fix
    # is to compile it again; in a model directory beside a TensorRT engine (listed, not judged); a broken .pt2.
    for target, where in ((f("unet.pt2"), "alone"), (f("aotisite"), "in a directory")):
        p, j = scan(target, "--device", "9.0@580", "--device", "8.0@580", want=1)
        check([pk["name"] for pk in j["packages"] if pk["name"].endswith(".pt2")] == ["unet.pt2"], "pt2 %s: %s" % (where, j["packages"]))
        v90, v80 = verdicts(j, 0)["unet.pt2"], verdicts(j, 1)["unet.pt2"]
        check(v90["verdict"] == "sass" and v80["verdict"] == "missing", "pt2 %s: %s / %s" % (where, v90["verdict"], v80["verdict"]))
        check("aoti_compile_and_package" in v80["fix"] and "cg7d.cubin" in v80["cause"], "pt2 %s: fix %s" % (where, v80["fix"]))
    check(any("unet_fp16.engine" in n and "TensorRT engine" in n for n in j["not_judged"]), "pt2 site: the engine %s" % j["not_judged"])
    p, j = scan(f("hostile", "not_a_zip.pt2"), "--device", "8.0", want=5)
    check(j is not None and any("AOTInductor package" in u["why"] for u in j["unreadable"]),
          "not_a_zip.pt2: %s" % (j and j["unreadable"]))

    # Container images: layers in order, a whiteout and an opaque directory; OCI layout alike.
    for image in ("image_docker.tar", "image_oci.tar"):
        p, j = scan(f(image), "--device", "9.0@580", want=1)
        paths = sorted(fl["path"] for pk in j["packages"] for fl in pk["files"])
        check(paths == ["usr/lib/libext.so", "usr/lib/libnew.so", "usr/lib/python3/site-packages/pkgb/_hopper.so"],
              "%s: final files %s" % (image, paths))
        check(any(pk["name"] == "pkgb" and pk["origin"] == "dist-info" for pk in j["packages"]), "%s: pkgb attributed" % image)

    # Hostile archives: a message each, exit 5, no hang, nothing extracted.
    for name, text in (("bomb.whl", "over the 1024 MiB limit"), ("truncated.whl", "truncated"), ("not_a_zip.whl", "not a readable wheel"),
                       ("image_bad_layer.tar", "layer not read")):
        p, j = scan(f("hostile", name), "--device", "8.0", want=5)
        check(j is not None and any(text in u["why"] for u in j["unreadable"]), "%s: no '%s' in %s" % (name, text, j and j["unreadable"]))
    before = set(os.listdir(os.path.dirname(FX)))
    p, j = scan(f("hostile", "escape.whl"), "--device", "8.0", want=0)
    check(sum("outside the archive" in n for n in j["notes"]) == 2, "escape.whl: notes %s" % j["notes"])
    check(set(os.listdir(os.path.dirname(FX))) == before and not os.path.exists(os.path.join(FX, "..", "evil.so")),
          "escape.whl: something was written")
    # A real wheel's libraries against cuobjdump (extracted here only to hand them to cuobjdump;
    # archbench reads the wheel in place).
    wheels = sorted(os.path.join(WHEELS, w) for w in os.listdir(WHEELS) if w.endswith(".whl")) if WHEELS and os.path.isdir(WHEELS) else []
    for w in wheels if CUOBJDUMP else []:
        p, j = scan(w, "--device", "9.0")
        check(j is not None and j["packages"], "%s: nothing found" % w)
        out = os.path.join(WORK, "wheel_files")
        shutil.rmtree(out, ignore_errors=True)
        with zipfile.ZipFile(w) as z:
            for pk in j["packages"]:
                for fl in pk["files"]:
                    z.extract(fl["path"], out)
                    fl["source"] = out
        json.dump(j, open(os.path.join(WORK, "wheel.json"), "w"))
        r = subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "ci", "scan_vs_cuobjdump.py"),
                            os.path.join(WORK, "wheel.json"), CUOBJDUMP, "2"], capture_output=True, text=True)
        print(os.path.basename(w) + ": " + r.stdout.strip().splitlines()[-1])
        check(r.returncode == 0, "%s vs cuobjdump:\n%s" % (w, r.stdout))
    # Mixed CUDA runtime majors: the real CUDA 12 wheel beside the CUDA 13 extension wheel.
    for w in wheels:
        p, j = scan(w, f("pkga-1.0+cu130-cp312-cp312-linux_x86_64.whl"), "--device", "9.0@580")
        mixed = j["mixed_cuda_runtimes"] if j else []
        check(len(mixed) == 2 and mixed[0].startswith("CUDA 12:") and mixed[1].startswith("CUDA 13: pkga"),
              "mixed CUDA majors: %s" % mixed)
        check("different CUDA runtime majors" in p.stdout, "mixed CUDA majors: not in the console output")
        break
    if CUOBJDUMP and not wheels:
        print("note: no real wheel given (WHEEL_DIR): the PyPI wheel comparison did not run")


def check_files(f):
    """Plain files and directories (no archive reading)."""
    # PyTorch's declared arch list against libtorch_cuda.so, agreeing (a directory; differing: check_archives).
    p, j = scan(f("torchsite"), "--device", "9.0@580", want=0)
    torch = j["packages"][0]
    check(torch["name"] == "torch" and torch["declared_arch_list"] == ["sm_80", "sm_90", "compute_90"]
          and torch["declared_arch_list_from"] == "torch/lib/libtorch_python.so", "torchsite: declaration %s" % torch)
    check(not any("declares" in n for n in verdicts(j)["torch"]["notes"]), "torchsite: a note where the list agrees: %s" % verdicts(j)["torch"]["notes"])

    # PTX newer than the driver; a-only code on another device; a dispatching library.
    p, j = scan(f("ext_ptx80.so"), "--device", "9.0@570", "--device", "9.0@580", want=1)
    check(j["devices"][0]["packages"][0]["verdict"] == "needs-newer-driver", "PTX ISA 9.0 on a 12.8 driver")
    check(j["devices"][1]["packages"][0]["verdict"] == "ptx-jit", "PTX on a 13.0 driver")
    p, j = scan(f("ext_sm90a.so"), "--device", "12.0@580", want=1)
    check(j["devices"][0]["packages"][0]["verdict"] == "missing", "sm_90a-only on 12.0")
    p, j = scan(f("libdispatch.so"), "--device", "8.6@580", "--device", "7.0@580", want=1)
    check(j["packages"][0]["files"][0]["kind"] == "dispatching", "libdispatch.so not judged as dispatching")
    check(j["devices"][0]["packages"][0]["verdict"] == "sass", "a dispatching library with sm_80 on 8.6")
    v = j["devices"][1]["packages"][0]
    check(v["verdict"] == "missing" and "sm_75, sm_80, sm_90" in v["cause"], "dispatching on 7.0: %s" % v["cause"])
    p, j = scan(f("host_only.so"), "--device", "9.0", want=1)
    check("nothing was judged" in p.stderr, "host-only: not said that nothing was judged")

    # A Windows extension (PE/COFF): its fatbin and its imports. It imports cudart64_12.dll, but its
    # cubin was compiled by CUDA 13 (its toolkit note): a 12.8 driver cannot load it.
    p, j = scan(f("ext_win.pyd"), "--device", "8.6@580", want=0)
    fl = j["packages"][0]["files"][0]
    check(fl["format"] == "PE" and fl["sass"] == {"sm_80": 1} and "cudart64_12.dll" in fl["needed"], "PE: %s" % fl)
    p, j = scan(f("ext_win.pyd"), "--device", "8.6@570", want=1)
    v = j["devices"][0]["packages"][0]
    check(v["verdict"] == "needs-newer-driver" and "toolkit notes" in v["cause"], "PE on 570: %s" % v)
    # Relocatable code in a DLL's __nv_rel does not load (as in a linked ELF library): not counted,
    # and its cubin (with a .nv.global section) makes nothing unreadable.
    p, j = scan(f("ext_win_rdc.dll"), "--device", "8.0@580", "--device", "9.0@580", want=1)
    fl = j["packages"][0]["files"][0]
    check(not j["unreadable"] and fl["sass"] == {"sm_80": 1} and fl["ptx"] == {}, "PE with __nv_rel: %s %s" % (fl, j["unreadable"]))
    check(verdicts(j, 1)["ext_win_rdc.dll"]["verdict"] == "missing", "PE with __nv_rel: its PTX counted on 9.0")
    r = subprocess.run([ARCHBENCH, "inspect", f("ext_win_rdc.dll")], capture_output=True, text=True)
    check(r.returncode == 0 and "PTX    none" in r.stdout, "inspect of a DLL with __nv_rel:\n%s%s" % (r.stdout, r.stderr))
    # An object file: there relocatable code is what loads, .nv.global (no file bytes) and all.
    p, j = scan(f("globals_rdc.o"), "--device", "9.0@580", want=0)
    check(not j["unreadable"] and verdicts(j)["globals_rdc.o"]["verdict"] == "ptx-jit", "rdc object: %s" % j)
    r = subprocess.run([ARCHBENCH, "inspect", f("globals_rdc.o"), "--kernels", "--device", "8.0"], capture_output=True, text=True)
    check(r.returncode == 0 and "with_globals" in r.stdout, "inspect --kernels of an rdc object:\n%s%s" % (r.stdout, r.stderr))
    # The runtime linked statically: no libcudart in DT_NEEDED, CUDA 13 in its cubins' notes.
    p, j = scan(f("ext_static.so"), "--device", "8.0@570", "--device", "8.0@580", want=1)
    fl = j["packages"][0]["files"][0]
    check(not any(n.startswith("libcudart") for n in fl["needed"]), "static runtime: DT_NEEDED %s" % fl["needed"])
    v = j["devices"][0]["packages"][0]
    check(v["verdict"] == "needs-newer-driver" and "580" in v["fix"], "static CUDA 13 runtime on 570: %s" % v)
    check(j["devices"][1]["packages"][0]["verdict"] == "sass", "static CUDA 13 runtime on 580")

    # Device code without a kernel: listed under not_judged, beside a file that is judged.
    p, j = scan(f("libnokernel.so"), f("ext_sm80.so"), "--device", "8.0@580", want=0)
    check(any("libnokernel.so" in n and "define no kernel" in n for n in j["not_judged"]) and len(j["packages"]) == 1,
          "kernel-less: %s" % j["not_judged"])
    check("listed, not judged" in p.stdout, "kernel-less: not in the console output")

    # Triton's cache entries: listed, not judged (a miss there is a recompile, not a failure).
    p, j = scan(f("tritonsite"), "--device", "8.0@580", want=0)
    triton = [n for n in j["not_judged"] if "Triton's kernel cache" in n and "sm_90" in n]
    check(len(triton) == 2 and [pk["name"] for pk in j["packages"]] == ["ext.so"], "triton cache: %s %s" % (j["not_judged"], j["packages"]))
    inductor = [n for n in j["not_judged"] if "TorchInductor's cache" in n and "torchinductor_root" in n]
    check(len(inductor) == 1, "TorchInductor's cache: %s" % j["not_judged"])

    # A TensorRT engine beside the binaries: listed with why it is not judged (no archive reading needed).
    p, j = scan(f("aotisite", "models", "unet_fp16.engine"), f("aotisite", "lib"), "--device", "8.0@580", want=0)
    engine = [n for n in j["not_judged"] if "unet_fp16.engine" in n and "TensorRT engine" in n and "trtexec" in n]
    check(len(engine) == 1, "TensorRT engine: %s" % j["not_judged"])

    # One library per CUDA runtime: the framework's CUDA picks the variant that loads.
    p, j = scan(f("famsite130"), "--device", "9.0@580", "--device", "8.0@580", want=1)
    on90, on80 = verdicts(j, 0)["famlib"], verdicts(j, 1)["famlib"]
    check(on90["verdict"] == "sass" and on80["verdict"] == "missing", "famsite130: %s / %s" % (on90, on80))
    check(any("torch 2.11.0+cu130 selects cuda130" in n for n in on80["notes"]), "famsite130: notes %s" % on80["notes"])
    check("libfam_cuda130.so" in on80["cause"], "famsite130: the cause names the variant that loads: %s" % on80["cause"])
    check(any("variants that serve this device: cuda126" in n for n in on80["notes"]), "famsite130: no way out named")
    p, j = scan(f("famsite126"), "--device", "9.0@580", "--device", "8.0@580", want=1)
    check(verdicts(j, 0)["famlib"]["verdict"] == "missing" and verdicts(j, 1)["famlib"]["verdict"] == "sass",
          "famsite126: %s" % [verdicts(j, i)["famlib"]["verdict"] for i in (0, 1)])
    check(max(len(l) for l in p.stdout.splitlines()) <= 120, "famsite126: console wider than 120 columns")

    # Hostile inputs: a message each, exit 5, no hang (the archives' in check_archives).
    p, j = scan(f("hostile", "pe_section_past_end.dll"), "--device", "8.0", want=5)
    check(j is not None and any("past the end of the file" in u["why"] for u in j["unreadable"]),
          "pe_section_past_end.dll: %s" % (j and j["unreadable"]))
    p, j = scan(f("hostile", "loops"), "--device", "8.0", want=0)
    check(j["files_seen"] == 1, "symlink loops: files seen %d" % j["files_seen"])
    p, j = scan(f("hostile", "nonexistent"), "--device", "8.0")
    check(p.returncode == 5, "a missing PATH: exit %d, want 5" % p.returncode)
    # No --device and no GPU: the inventory, unjudged, exit 3 (where a GPU is present it is judged for instead).
    p, j = scan(f("site"))
    if p.returncode == 3:
        check("no usable GPU" in p.stderr and "pkga/_C.so (whole-list): SASS sm_80 | PTX none" in p.stdout,
              "no device: the inventory is not listed:\n%s%s" % (p.stdout, p.stderr))
        check(j is not None and len(j["packages"]) == 3 and j["devices"] == [], "no device: JSON %s" % j)
    p, j = scan(f("site"), "--device", "Voodoo 5")
    check(p.returncode == 2, "an unknown device: exit %d, want 2" % p.returncode)

    # A tree of 100,000 files, one of them device code.
    big = os.path.join(WORK, "big")
    shutil.rmtree(big, ignore_errors=True)
    for d in range(100):
        os.makedirs(os.path.join(big, "d%03d" % d))
        for i in range(1000):
            open(os.path.join(big, "d%03d" % d, "f%04d.py" % i), "w").close()
    shutil.copy(f("ext_sm80.so"), os.path.join(big, "d000", "lib.so"))
    start = time.time()
    p, j = scan(big, "--device", "8.0", want=0)
    check(j["files_seen"] == 100001 and len(j["packages"]) == 1, "100k tree: %s files" % j["files_seen"])
    print("100,001-file tree scanned in %.1f s" % (time.time() - start))
    shutil.rmtree(big)

    # cuobjdump's counts for the fixture libraries.
    if CUOBJDUMP:
        p, j = scan(f("site"), f("libdispatch.so"), f("ext_sm90a.so"), "--device", "9.0")
        r = subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "ci", "scan_vs_cuobjdump.py"),
                            os.path.join(WORK, "scan.json"), CUOBJDUMP, "2"], capture_output=True, text=True)
        print(r.stdout.strip())
        check(r.returncode == 0, "fixture libraries vs cuobjdump")
    else:
        print("note: no cuobjdump: the differential comparisons did not run")


sys.exit(main())
