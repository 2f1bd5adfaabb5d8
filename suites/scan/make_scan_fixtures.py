#!/usr/bin/env python3
"""Builds the fixtures of `archbench scan`'s tests with this machine's nvcc (known target sets):
extensions (whole-list sm_80 linked to libcudart.so.N, sm_90a-only, PTX-only, one with the runtime
linked statically), a library that dispatches per architecture (one compilation unit per arch), a
host-only library, Windows PE DLLs carrying a fatbin (one also relocatable code in __nv_rel), a
relocatable object whose cubin has CUDA's no-data .nv.global section, a package with one library
per CUDA runtime (a variant family) beside frameworks of two CUDA versions, a fake site-packages
with dist-info, wheels, container images (docker save with two layers, a whiteout and an opaque
directory; OCI layout), and hostile inputs.
Usage: make_scan_fixtures.py NVCC OUT_DIR"""
import gzip
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import tarfile
import zipfile

NVCC, OUT = sys.argv[1], os.path.abspath(sys.argv[2])
WORK = os.path.join(OUT, "build")
KERNEL = """
__global__ void %(name)s(float* x) { x[threadIdx.x] *= 2.0f; }
extern "C" void launch_%(name)s(float* x) { %(name)s<<<1, 32>>>(x); }
"""


def sh(*args):
    subprocess.run(args, check=True, cwd=WORK)


def source(name):
    path = os.path.join(WORK, name + ".cu")
    with open(path, "w") as f:
        f.write(KERNEL % {"name": name})
    return path


def shared(out, gencode, name="scale"):
    sh(NVCC, "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", *gencode, source(name), "-o", out)
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def tar_bytes(members, compress=False):
    """members: list of (name, bytes or None for a directory, symlink target or None)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if data is None:
                info.type = tarfile.DIRTYPE
                t.addfile(info)
            else:
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    raw = buf.getvalue()
    return gzip.compress(raw) if compress else raw


GLOBALS = """
__device__ float table[4096];
__global__ void with_globals(float* x) { x[threadIdx.x] += table[threadIdx.x]; }
"""


def pe_dll(fatbin, imports=("cudart64_12.dll", "KERNEL32.dll"), bad_section=False, relocatable=None):
    """A minimal PE32+ DLL: a .nv_fatb section holding `fatbin`, optionally an __nv_rel section
    holding `relocatable` (as -rdc builds of Windows DLLs carry), and an .idata section whose
    import directory names `imports`."""
    file_align, sect_align = 0x200, 0x1000
    align = lambda n, a: (n + a - 1) // a * a
    # .idata: descriptors (20 bytes each, zero-terminated), then the names.
    idata_rva = 0x2000
    desc = b""
    names = b""
    names_at = 20 * (len(imports) + 1)
    for dll in imports:
        desc += struct.pack("<IIIII", 0, 0, 0, idata_rva + names_at + len(names), 0)
        names += dll.encode() + b"\0"
    idata = desc + b"\0" * 20 + names
    sections = [(b".nv_fatb", 0x1000, fatbin), (b".idata", idata_rva, idata)]
    if relocatable is not None:
        sections.append((b"__nv_rel", 0x10000, relocatable))
    headers_size = align(0x40 + 4 + 20 + 240 + 40 * len(sections), file_align)
    dos = b"MZ" + b"\0" * 0x3A + struct.pack("<I", 0x40)
    coff = struct.pack("<HHIIIHH", 0x8664, len(sections), 0, 0, 0, 240, 0x2022)
    opt = struct.pack("<HBBIIIIIQIIHHHHHHIIIIHHQQQQII", 0x20B, 14, 0, 0, 0, 0, 0, 0, 0x180000000, sect_align, file_align,
                      6, 0, 0, 0, 6, 0, 0, 0x3000, headers_size, 0, 2, 0, 0x100000, 0x1000, 0x100000, 0x1000, 0, 16)
    dirs = [(0, 0)] * 16
    dirs[1] = (idata_rva, len(idata))
    opt += b"".join(struct.pack("<II", *d) for d in dirs)
    body = b""
    table = b""
    offset = headers_size
    for name, rva, data in sections:
        raw = align(len(data), file_align)
        pointer = offset + (10 ** 7 if bad_section and name == b".nv_fatb" else 0)
        table += struct.pack("<8sIIIIIIHHI", name, len(data), rva, raw, pointer, 0, 0, 0, 0, 0x40000040)
        body += data + b"\0" * (raw - len(data))
        offset += raw
    head = dos + b"PE\0\0" + coff + opt + table
    return head + b"\0" * (headers_size - len(head)) + body


def dist_info(name, version, files):
    meta = "Metadata-Version: 2.1\nName: %s\nVersion: %s\n\n" % (name, version)
    record = "".join("%s,sha256=x,1\n" % f for f in files)
    return meta, record


def w(rel, data):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path


def b(name):
    """The bytes of a binary compile_binaries made."""
    return read(os.path.join(WORK, name))


def compile_binaries():
    """Every binary the fixtures hold, compiled into WORK with the toolkit's nvcc and g++."""
    shared("ext_sm80.so", ["-gencode", "arch=compute_80,code=sm_80"])
    shared("ext_sm90a.so", ["-gencode", "arch=compute_90a,code=sm_90a"], "hopper")
    shared("ext_ptx80.so", ["-gencode", "arch=compute_80,code=compute_80"], "jit")
    # A library that dispatches per architecture: one compilation unit per arch.
    objs = []
    for arch in ("75", "80", "90"):
        obj = "k%s.o" % arch
        sh(NVCC, "-c", "-Xcompiler", "-fPIC", "-gencode", "arch=compute_%s,code=sm_%s" % (arch, arch),
           source("kernel_sm%s" % arch), "-o", obj)
        objs.append(obj)
    sh(NVCC, "-shared", "-cudart", "shared", *objs, "-o", "libdispatch.so")
    with open(os.path.join(WORK, "host.cpp"), "w") as f:
        f.write('extern "C" int host_only() { return 42; }\n')
    sh("g++", "-shared", "-fPIC", "host.cpp", "-o", "host_only.so")
    # PyTorch's layout: libtorch_cuda.so compiled whole for the list, libtorch_python.so (host
    # code) holding the list as one string (what torch.cuda.get_arch_list() splits).
    shared("libtorch_cuda_80_90.so", ["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=[sm_90,compute_90]"], "torchk")
    with open(os.path.join(WORK, "torch_python.cpp"), "w") as f:
        f.write('extern "C" const char* cuda_arch_flags() { return "sm_80 sm_90 compute_90"; }\n')
    sh("g++", "-shared", "-fPIC", "-O1", "torch_python.cpp", "-o", "libtorch_python.so")
    sh(NVCC, "-fatbin", "-gencode", "arch=compute_80,code=sm_80", source("win"), "-o", "win.fatbin")
    # The CUDA runtime linked statically (nvcc's default): no libcudart in DT_NEEDED.
    sh(NVCC, "-shared", "-Xcompiler", "-fPIC", "-gencode", "arch=compute_80,code=sm_80", source("static_rt"), "-o", "ext_static.so")
    # Relocatable device code: a cubin with CUDA's .nv.global section (type 0x70000007, no file
    # bytes, a size beyond the file's), in an object file and, as a fatbin, in a DLL's __nv_rel.
    with open(os.path.join(WORK, "globals.cu"), "w") as f:
        f.write(GLOBALS)
    sh(NVCC, "-rdc=true", "-c", "-Xcompiler", "-fPIC", "-gencode", "arch=compute_80,code=[sm_80,compute_80]", "globals.cu",
       "-o", "globals_rdc.o")
    sh(NVCC, "-rdc=true", "-fatbin", "-gencode", "arch=compute_80,code=[sm_80,compute_80]", "globals.cu", "-o", "rel.fatbin")
    # One library per CUDA runtime (bitsandbytes' layout): the cuda126 variant for sm_80, the
    # cuda130 one for sm_90. The tags in their names are what a loader picks by.
    shared("libfam_cuda126.so", ["-gencode", "arch=compute_80,code=sm_80"], "fam126")
    shared("libfam_cuda130.so", ["-gencode", "arch=compute_90,code=sm_90"], "fam130")
    # Triton's kernel cache: a cubin for sm_90 in ~/.triton/cache/<hash>/, and one in a cache elsewhere
    # (TRITON_CACHE_DIR) that its sibling JSON's "target" names as Triton's.
    sh(NVCC, "-cubin", "-gencode", "arch=compute_90,code=sm_90", source("triton_add"), "-o", "triton_add.cubin")
    # Device code that defines no kernel (as cuFFT's lone sm_75 cubin): listed, not judged.
    with open(os.path.join(WORK, "nokernel.cu"), "w") as f:
        f.write('__device__ float twice(float x) { return 2 * x; }\nextern "C" int host_side() { return 1; }\n')
    sh(NVCC, "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-gencode", "arch=compute_75,code=sm_75", "nokernel.cu",
       "-o", "libnokernel.so")


def write_trees_and_wheels():
    """Directories, site-packages, model folders and wheels built from the binaries."""
    for n in ("ext_sm80.so", "ext_sm90a.so", "ext_ptx80.so", "libdispatch.so", "host_only.so", "ext_static.so",
              "globals_rdc.o", "libnokernel.so"):
        shutil.copy(os.path.join(WORK, n), os.path.join(OUT, n))
    w("ext_win.pyd", pe_dll(b("win.fatbin")))
    w("ext_win_rdc.dll", pe_dll(b("win.fatbin"), relocatable=b("rel.fatbin")))
    w("tritonsite/home/.triton/cache/4f2a/triton_add.cubin", b("triton_add.cubin"))
    w("tritonsite/elsewhere/9c1e/triton_add.cubin", b("triton_add.cubin"))
    w("tritonsite/elsewhere/9c1e/triton_add.json",
      json.dumps({"name": "triton_add", "target": {"backend": "cuda", "arch": 90, "warp_size": 32}}).encode())
    w("tritonsite/lib/ext.so", b("ext_sm80.so"))
    w("tritonsite/tmp/torchinductor_root/xy/cxyz1234.cubin", b("triton_add.cubin"))  # TorchInductor's cache, no JSON
    # An AOTInductor package (PyTorch's PT2 archive layout: a zip, the compiled model under
    # data/aotinductor/<model>/ with its kernels as .cubin files) compiled on an sm_90 GPU, in a model
    # directory beside a TensorRT engine; the same package alone; a .pt2 that is not a zip.
    for path in ("aotisite/models/unet.pt2", "unet.pt2"):
        os.makedirs(os.path.dirname(os.path.join(OUT, path)) or OUT, exist_ok=True)
        with zipfile.ZipFile(os.path.join(OUT, path), "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("archive_format", "pt2")
            z.writestr("data/aotinductor/model/c5ez.wrapper.cpp", "// the wrapper's source")
            z.writestr("data/aotinductor/model/cg7d.cubin", b("triton_add.cubin"))
            z.writestr("data/weights/weight_0", b"\0" * 64)
    w("aotisite/models/unet_fp16.engine", b"ftrt" + b"\0" * 60)
    w("aotisite/lib/ext.so", b("ext_sm80.so"))
    w("hostile/not_a_zip.pt2", b"PK\3\4 but nothing after")

    # The variant family, as a wheel alone and installed beside a torch for CUDA 13.0 or 12.6
    # (dist-info only: the framework's CUDA is read from its version).
    fam_files = ["famlib/__init__.py", "famlib/libfam_cuda126.so", "famlib/libfam_cuda130.so"]
    meta, record = dist_info("famlib", "0.1", fam_files)
    with zipfile.ZipFile(os.path.join(OUT, "famlib-0.1-py3-none-manylinux_2_24_x86_64.whl"), "w", zipfile.ZIP_DEFLATED) as z:
        for name in fam_files[1:]:
            z.writestr(name, b(os.path.basename(name)))
        z.writestr("famlib-0.1.dist-info/METADATA", meta)
        z.writestr("famlib-0.1.dist-info/RECORD", record)
    for site, torch_version in (("famsite130", "2.11.0+cu130"), ("famsite126", "2.9.0+cu126")):
        w(site + "/famlib-0.1.dist-info/METADATA", meta.encode())
        w(site + "/famlib-0.1.dist-info/RECORD", record.encode())
        w(site + "/famlib/__init__.py", b"")
        for name in fam_files[1:]:
            w(site + "/" + name, b(os.path.basename(name)))
        tmeta, trecord = dist_info("torch", torch_version, ["torch/__init__.py"])
        w(site + "/torch-%s.dist-info/METADATA" % torch_version, tmeta.encode())
        w(site + "/torch-%s.dist-info/RECORD" % torch_version, trecord.encode())
        w(site + "/torch/__init__.py", b"")
    w("hostile/pe_section_past_end.dll", pe_dll(b("win.fatbin"), bad_section=True))

    # A fake site-packages: two distributions, one loose extension, one host-only library.
    meta, record = dist_info("pkga", "1.0+cu130", ["pkga/__init__.py", "pkga/_C.so"])
    w("site/pkga-1.0+cu130.dist-info/METADATA", meta.encode())
    w("site/pkga-1.0+cu130.dist-info/RECORD", record.encode())
    w("site/pkga/__init__.py", b"")
    w("site/pkga/_C.so", b("ext_sm80.so"))
    meta, record = dist_info("pkgb", "2.0", ["pkgb/_hopper.so"])
    w("site/pkgb-2.0.dist-info/METADATA", meta.encode())
    w("site/pkgb-2.0.dist-info/RECORD", record.encode())
    w("site/pkgb/_hopper.so", b("ext_sm90a.so"))
    w("site/loose_jit.so", b("ext_ptx80.so"))
    # An extension with a library of sm_90a-only kernels beside its main one (as xformers' FlashAttention-3).
    meta, record = dist_info("pkgc", "1.0", ["pkgc/_C.so", "pkgc/_C_fa3.so"])
    w("site_fa3/pkgc-1.0.dist-info/METADATA", meta.encode())
    w("site_fa3/pkgc-1.0.dist-info/RECORD", record.encode())
    w("site_fa3/pkgc/_C.so", b("ext_sm80.so"))
    w("site_fa3/pkgc/_C_fa3.so", b("ext_sm90a.so"))
    w("site/host_only.so", b("host_only.so"))

    # PyTorch as installed: the declaration and libtorch_cuda.so agree. As a wheel: they do not
    # (its libtorch_cuda.so carries sm_80 only).
    torch_files = ["torch/lib/libtorch_python.so", "torch/lib/libtorch_cuda.so"]
    meta, record = dist_info("torch", "2.9.0+cu130", torch_files)
    w("torchsite/torch-2.9.0+cu130.dist-info/METADATA", meta.encode())
    w("torchsite/torch-2.9.0+cu130.dist-info/RECORD", record.encode())
    w("torchsite/torch/lib/libtorch_python.so", b("libtorch_python.so"))
    w("torchsite/torch/lib/libtorch_cuda.so", b("libtorch_cuda_80_90.so"))
    with zipfile.ZipFile(os.path.join(OUT, "torch-2.9.0+cu130-cp312-cp312-linux_x86_64.whl"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("torch/lib/libtorch_python.so", b("libtorch_python.so"))
        z.writestr("torch/lib/libtorch_cuda.so", b("ext_sm80.so"))
        z.writestr("torch-2.9.0+cu130.dist-info/METADATA", meta)
        z.writestr("torch-2.9.0+cu130.dist-info/RECORD", record)

    # A wheel, made with Python's zipfile.
    meta, record = dist_info("pkga", "1.0+cu130", ["pkga/_C.so"])
    with zipfile.ZipFile(os.path.join(OUT, "pkga-1.0+cu130-cp312-cp312-linux_x86_64.whl"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("pkga/_C.so", b("ext_sm80.so"))
        z.writestr("pkga-1.0+cu130.dist-info/METADATA", meta)
        z.writestr("pkga-1.0+cu130.dist-info/RECORD", record)
    # Another release of it for CUDA 12, whose wheel holds the same path (as cupy-cuda12x and cupy-cuda13x do).
    meta, record = dist_info("pkga", "1.0+cu126", ["pkga/_C.so"])
    with zipfile.ZipFile(os.path.join(OUT, "pkga-1.0+cu126-cp312-cp312-linux_x86_64.whl"), "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("pkga/_C.so", b("ext_sm90a.so"))
        z.writestr("pkga-1.0+cu126.dist-info/METADATA", meta)
        z.writestr("pkga-1.0+cu126.dist-info/RECORD", record)


def write_images():
    """A container image with two layers (whiteouts, an opaque directory), as docker save and as OCI."""
    # docker save: layer 1 holds four libraries; layer 2 (gzip) whites one out, makes /opt/gone
    # opaque and adds a fifth.
    sp = "usr/lib/python3/site-packages/"
    meta, record = dist_info("pkgb", "2.0", ["pkgb/_hopper.so"])
    layer1 = tar_bytes([("usr/lib/libext.so", b("ext_sm80.so")), ("usr/lib/libhopper.so", b("ext_sm90a.so")),
                        ("opt/gone/libx.so", b("ext_sm80.so")), (sp + "pkgb/_hopper.so", b("ext_sm90a.so")),
                        (sp + "pkgb-2.0.dist-info/METADATA", meta.encode()),
                        (sp + "pkgb-2.0.dist-info/RECORD", record.encode())])
    layer2 = tar_bytes([("usr/lib/.wh.libhopper.so", b""), ("opt/gone/.wh..wh..opq", b""),
                        ("usr/lib/libnew.so", b("libdispatch.so"))], compress=True)
    manifest = [{"Config": "config.json", "RepoTags": ["fixture:latest"], "Layers": ["l1/layer.tar", "l2/layer.tar.gz"]}]
    with open(os.path.join(OUT, "image_docker.tar"), "wb") as f:
        f.write(tar_bytes([("l1/layer.tar", layer1), ("l2/layer.tar.gz", layer2), ("config.json", b"{}"),
                           ("manifest.json", json.dumps(manifest).encode())]))
    # The same image as an OCI layout.
    import hashlib
    blobs = []
    def blob(data):
        digest = hashlib.sha256(data).hexdigest()
        blobs.append(("blobs/sha256/" + digest, data))
        return "sha256:" + digest
    l1, l2, cfg = blob(layer1), blob(layer2), blob(b"{}")
    m = json.dumps({"schemaVersion": 2, "config": {"digest": cfg}, "layers": [
        {"mediaType": "application/vnd.oci.image.layer.v1.tar", "digest": l1},
        {"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": l2}]}).encode()
    md = blob(m)
    index = json.dumps({"schemaVersion": 2, "manifests": [{"digest": md}]}).encode()
    with open(os.path.join(OUT, "image_oci.tar"), "wb") as f:
        f.write(tar_bytes([("oci-layout", b'{"imageLayoutVersion": "1.0.0"}'), ("index.json", index)] + blobs))


def write_hostile():
    """Inputs a scan must refuse or survive: path escapes, a zip bomb, truncated and corrupt archives, loops."""
    # Hostile inputs.
    hostile = os.path.join(OUT, "hostile")
    os.makedirs(hostile, exist_ok=True)
    with zipfile.ZipFile(os.path.join(hostile, "escape.whl"), "w") as z:
        z.writestr(zipfile.ZipInfo("../evil.so"), b("ext_sm80.so"))
        z.writestr(zipfile.ZipInfo("/abs/evil2.so"), b("ext_sm80.so"))
    # A member that starts like an ELF file and declares almost 4 GiB.
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("pkg/libbomb.so", b"\x7fELF" + b"\0" * 4096)
    data = bytearray(bomb.getvalue())
    real = struct.pack("<I", 4100)
    claim = struct.pack("<I", 0xFFFFFFF0)
    at = data.find(real)
    while at != -1:  # the local header's and the central directory's uncompressed size
        data[at:at + 4] = claim
        at = data.find(real, at + 4)
    w("hostile/bomb.whl", bytes(data))
    whole = read(os.path.join(OUT, "pkga-1.0+cu130-cp312-cp312-linux_x86_64.whl"))
    w("hostile/truncated.whl", whole[: len(whole) // 2])
    w("hostile/not_a_zip.whl", b"this is not a zip archive\n" * 10)
    w("hostile/image_bad_layer.tar", tar_bytes([("l1/layer.tar.gz", os.urandom(4096)), ("manifest.json", json.dumps(
        [{"Config": "c.json", "Layers": ["l1/layer.tar.gz"]}]).encode())]))
    loops = os.path.join(hostile, "loops")
    os.makedirs(loops)
    os.symlink(".", os.path.join(loops, "self"))
    os.symlink("other", os.path.join(loops, "back"))
    os.symlink("back", os.path.join(loops, "other"))
    shutil.copy(os.path.join(WORK, "ext_sm80.so"), os.path.join(loops, "lib.so"))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(WORK)
    compile_binaries()
    write_trees_and_wheels()
    write_images()
    write_hostile()
    shutil.rmtree(WORK)


main()
