"""What cuobjdump says about the device code of a wheel, gathered without archbench.

A wheel's members are read with zipfile; those that start like an ELF file, a PE image or a fatbin are
written to a temporary directory and their fatbin sections found with a small reader of ELF and PE section
tables (`.nv_fatbin`; PE cuts it to `.nv_fatb`; `__nv_relfatbin` is relocatable code and not what loads in
a linked library). A section is a run of fatbin containers (magic 0xBA55ED50, a 16-byte header giving the
payload size); each container is written to its own file and given to cuobjdump, which reads a raw fatbin
as well as an ELF file (the Linux cuobjdump does not read PE images). From `cuobjdump -res-usage -ptx`
come, per container, its SASS targets (`Fatbin elf code: arch = sm_NN`), its PTX targets with their PTX
ISA (`code version = [8,4]`) and whether it defines any function. Stdlib only.
"""
import glob
import json
import os
import re
import shutil
import struct
import subprocess
import sysconfig
import tempfile
import zipfile

FACTS_VERSION = 5
FATBIN_MAGIC = 0xBA55ED50
ELF_MAGIC = b"\x7fELF"
PE_MAGIC = b"MZ"
FATBIN_MAGIC_BYTES = struct.pack("<I", FATBIN_MAGIC)
RUNTIME_LIBS = ("cudart", "cublas", "cublasLt", "nvrtc")


# ---------------------------------------------------------------------------------------------- ELF / PE


def find_cuobjdump(given):
    """The cuobjdump to use: --cuobjdump, else PATH, else the nvidia-cuda-cuobjdump wheel, else CUDA's."""
    if given:
        return given if os.access(given, os.X_OK) else None
    found = shutil.which("cuobjdump")
    if found:
        return found
    purelib = sysconfig.get_paths()["purelib"]
    for path in sorted(glob.glob(os.path.join(purelib, "nvidia", "*", "bin", "cuobjdump")), reverse=True):
        if os.access(path, os.X_OK):
            return path
    return "/usr/local/cuda/bin/cuobjdump" if os.access("/usr/local/cuda/bin/cuobjdump", os.X_OK) else None

def elf_sections(data):
    """[(name, type, offset, size, link)] of a 64-bit little-endian ELF image (empty when not one)."""
    if data[:4] != ELF_MAGIC or data[4] != 2 or data[5] != 1:
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if shoff == 0 or shoff + shentsize > len(data):
        return []
    if shnum == 0:  # extended numbering: the count is in section 0's sh_size
        shnum = struct.unpack_from("<Q", data, shoff + 0x20)[0]
    raw = []
    for i in range(shnum):
        base = shoff + i * shentsize
        if base + 64 > len(data):
            break
        name, stype, _flags, _addr, off, size, link = struct.unpack_from("<IIQQQQI", data, base)
        raw.append((name, stype, off, size, link))
    if shstrndx >= len(raw):
        return []
    stroff = raw[shstrndx][2]

    def name_at(n):
        end = data.find(b"\0", stroff + n)
        return data[stroff + n:end].decode("latin-1")
    return [(name_at(n), t, o, s, l) for n, t, o, s, l in raw]


def elf_type(data):
    """e_type of an ELF image: 1 relocatable, 2 executable, 3 shared object."""
    return struct.unpack_from("<H", data, 0x10)[0]


def elf_needed(data, sections):
    """The DT_NEEDED names of an ELF image."""
    names = []
    for _name, stype, off, size, link in sections:
        if stype != 6 or link >= len(sections):  # SHT_DYNAMIC
            continue
        stroff = sections[link][2]
        for pos in range(off, off + size - 15, 16):
            tag, val = struct.unpack_from("<qQ", data, pos)
            if tag == 0:
                break
            if tag == 1:  # DT_NEEDED
                end = data.find(b"\0", stroff + val)
                names.append(data[stroff + val:end].decode("latin-1"))
    return names


def pe_layout(data):
    """(sections [(name, vaddr, vsize, rawptr, rawsize)], data directories [(rva, size)]) of a PE image."""
    if data[:2] != PE_MAGIC or len(data) < 0x40:
        return [], []
    pe = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe:pe + 4] != b"PE\0\0":
        return [], []
    nsec, = struct.unpack_from("<H", data, pe + 6)
    optsize, = struct.unpack_from("<H", data, pe + 20)
    opt = pe + 24
    magic, = struct.unpack_from("<H", data, opt)
    dd_off = opt + (112 if magic == 0x20B else 96)
    ndirs, = struct.unpack_from("<I", data, dd_off - 4)
    dirs = [struct.unpack_from("<II", data, dd_off + 8 * i) for i in range(min(ndirs, 16))]
    sections = []
    for i in range(nsec):
        name, vsize, vaddr, rawsize, rawptr = struct.unpack_from("<8sIIII", data, opt + optsize + 40 * i)
        sections.append((name.rstrip(b"\0").decode("latin-1"), vaddr, vsize, rawptr, rawsize))
    return sections, dirs


def pe_offset(sections, rva):
    """The file offset of a relative virtual address (None when no section holds it)."""
    for _name, vaddr, vsize, rawptr, rawsize in sections:
        if vaddr <= rva < vaddr + max(vsize, rawsize):
            return rawptr + rva - vaddr
    return None


def pe_cstring(data, sections, rva):
    """The NUL-terminated string at an RVA."""
    off = pe_offset(sections, rva)
    if off is None:
        return ""
    return data[off:data.find(b"\0", off)].decode("latin-1")


def pe_imports(data, sections, dirs):
    """The DLL names a PE image imports, ordinary (directory 1) and delay-loaded (directory 13)."""
    names = []
    for index, stride, name_field in ((1, 20, 12), (13, 32, 4)):
        if index >= len(dirs) or not dirs[index][0]:
            continue
        off = pe_offset(sections, dirs[index][0])
        while off is not None and off + stride <= len(data):
            entry = data[off:off + stride]
            if entry == b"\0" * stride:
                break
            names.append(pe_cstring(data, sections, struct.unpack_from("<I", entry, name_field)[0]))
            off += stride
    return [n for n in names if n]


def fatbin_sections(data):
    """(format, [section bytes], linked names) of a file: the device code that loads, or (None, [], [])."""
    if data[:4] == FATBIN_MAGIC_BYTES:
        return "fatbin", [data], []
    if data[:4] == ELF_MAGIC:
        secs = elf_sections(data)
        wanted = {".nv_fatbin"} | ({"__nv_relfatbin"} if elf_type(data) == 1 else set())
        blobs = [data[o:o + s] for n, t, o, s, _l in secs if n in wanted and t != 8 and s]  # 8: SHT_NOBITS
        return ("ELF", blobs, elf_needed(data, secs)) if blobs else (None, [], [])
    if data[:2] == PE_MAGIC:
        secs, dirs = pe_layout(data)
        blobs = [data[p:p + min(vs, rs)] for n, _va, vs, p, rs in secs if n == ".nv_fatb" and min(vs, rs)]
        return ("PE", blobs, pe_imports(data, secs, dirs)) if blobs else (None, [], [])
    return None, [], []


def split_containers(blob):
    """The fatbin containers of a section, each as bytes (header and payload)."""
    out, off = [], 0
    while off + 16 <= len(blob):
        magic, _version, header, size = struct.unpack_from("<IHHQ", blob, off)
        if magic != FATBIN_MAGIC:
            off += 8  # containers are 8-byte aligned; skip padding
            continue
        out.append(blob[off:off + header + size])
        off += header + size
    return out


# ---------------------------------------------------------------------------------------------- cuobjdump

def cuobjdump_version(cuobjdump):
    """The release line of cuobjdump --version."""
    out = subprocess.run([cuobjdump, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release [\d.]+, V[\d.]+", out)
    return m.group(0) if m else out.strip().splitlines()[-1]


def container_facts(cuobjdump, path):
    """{sass: [targets], ptx: [[target, isa]], functions: n, error} of one container file, from
    `cuobjdump -res-usage -ptx`; `error` is cuobjdump's fatal message when it gave up part-way."""
    proc = subprocess.run([cuobjdump, "-res-usage", "-ptx", path], capture_output=True, text=True, errors="replace")
    sass, ptx, functions, kind, arch = [], [], 0, None, None
    for line in proc.stdout.splitlines():
        if line.startswith("Fatbin elf code:"):
            kind, arch = "elf", None
        elif line.startswith("Fatbin ptx code:"):
            kind, arch = "ptx", None
        elif line.startswith("arch = ") and kind:
            arch = line.split("=", 1)[1].strip()
            if kind == "elf":
                sass.append(arch)
        elif line.startswith("code version = [") and kind == "ptx" and arch:
            major, minor = re.findall(r"\d+", line)[:2]
            ptx.append([arch, "%s.%s" % (major, minor)])
            kind = None
        elif line.startswith(" Function "):
            functions += 1
    fatal = [l for l in proc.stderr.splitlines() if "fatal" in l]
    return {"sass": sass, "ptx": ptx, "functions": functions,
            "error": re.sub(r"'[^']*'", "'...'", fatal[0]).strip() if fatal else None}


def entry_headers(container):
    """[(kind, arch, isa)] from a container's entry headers (kind "elf" or "ptx", arch "sm_NN", the PTX ISA
    "8.4" of a PTX entry): the cross-check of cuobjdump's listing, used only where cuobjdump gives up on a
    container. An entry header is 64 bytes: u16 kind (1 PTX, 2 ELF), u16 version, u32 header size, u64
    payload size, ..., u16 minor and u16 major version at 24, u32 SM number at 28."""
    _magic, _version, header, size = struct.unpack_from("<IHHQ", container, 0)
    out, off, end = [], header, min(len(container), header + size)
    while off + 32 <= end:
        kind, _v, ehs, payload = struct.unpack_from("<HHIQ", container, off)
        minor, major, arch = struct.unpack_from("<HHI", container, off + 24)
        if kind in (1, 2):
            out.append(("ptx" if kind == 1 else "elf", "sm_%d" % arch, "%d.%d" % (major, minor) if kind == 1 else None))
        if ehs == 0:
            break
        off += ehs + payload
    return out


def isa_key(isa):
    """Sort key of a PTX ISA or CUDA version string "8.4"."""
    return tuple(int(x) for x in isa.split("."))


def toolkit_release(cuobjdump, path, workdir):
    """The CUDA release ptxas recorded in the cubins of one container ("13.0"), or None."""
    out = tempfile.mkdtemp(dir=workdir)
    try:
        subprocess.run([cuobjdump, "-xelf", "all", path], cwd=out, capture_output=True)
        found = set()
        for name in os.listdir(out):
            with open(os.path.join(out, name), "rb") as f:
                found.update(m.group(1).decode() for m in re.finditer(rb"Cuda compilation tools, release (\d+\.\d+)", f.read()))
        return max(found, key=isa_key) if found else None
    finally:
        shutil.rmtree(out, ignore_errors=True)


# ---------------------------------------------------------------------------------------------- files

def runtime_majors(names):
    """CUDA majors named by linked (or own) library names: libcudart.so.12, cudart64_110.dll -> 12, 11."""
    majors = set()
    libs = "|".join(RUNTIME_LIBS)
    for n in names:
        m = re.match(r"^lib(?:%s)(?:-[0-9a-f]{8})?\.so\.(\d+)" % libs, n)
        if m:
            majors.add(int(m.group(1)))
        m = re.match(r"^(?:%s)64_(\d+)(?:_\d+)?\.dll$" % libs, n, re.I)
        if m:
            digits = m.group(1)
            majors.add(int(digits[:-1]) if len(digits) >= 3 else int(digits))
    return majors


def member_candidates(zf):
    """Members of a wheel whose first bytes are those of an ELF, PE or fatbin file."""
    for info in zf.infolist():
        if info.is_dir() or info.file_size < 64:
            continue
        with zf.open(info) as f:
            head = f.read(4)
        if head == ELF_MAGIC or head[:2] == PE_MAGIC or head == FATBIN_MAGIC_BYTES:
            yield info


def safe_join(root, name):
    """root/name for an archive member name, refusing names that climb out of root."""
    parts = [p for p in name.replace("\\", "/").split("/") if p not in ("", ".")]
    if ".." in parts:
        raise ValueError("member name climbs out of the archive: %s" % name)
    return os.path.join(root, *parts)


def extract_device_code(wheel_path, workdir):
    """Write every member with device code under workdir; returns [(member, format, on-disk path for
    cuobjdump, [section blobs], linked names)]. For a PE image the on-disk path is its `.nv_fatb` section,
    written as a fatbin file, since cuobjdump does not read PE."""
    found = []
    with zipfile.ZipFile(wheel_path) as zf:
        for info in member_candidates(zf):
            data = zf.read(info)
            fmt, blobs, needed = fatbin_sections(data)
            if not fmt or not any(split_containers(b) for b in blobs):
                continue
            target = safe_join(os.path.join(workdir, "files"), info.filename)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if fmt == "PE":
                target += ".nv_fatb.fatbin"
                data = b"".join(blobs)
            with open(target, "wb") as f:
                f.write(data)
            found.append((info.filename, fmt, target, blobs, needed))
    return found


def file_facts(cuobjdump, member, fmt, path, blobs, needed, workdir, pool):
    """Per-container cuobjdump facts of one device-code file, plus what it links and its toolkit."""
    cdir = tempfile.mkdtemp(prefix="containers-", dir=workdir)
    paths = []
    for i, c in enumerate(c for b in blobs for c in split_containers(b)):
        p = os.path.join(cdir, "c%05d.fatbin" % i)
        with open(p, "wb") as f:
            f.write(c)
        paths.append(p)
    containers = list(pool.map(lambda p: container_facts(cuobjdump, p), paths))
    for p, c in zip(paths, containers):
        if c["error"]:
            with open(p, "rb") as f:
                c["headers"] = entry_headers(f.read())
    with_elf = [p for p, c in zip(paths, containers) if c["sass"]]
    smallest = min(with_elf, key=os.path.getsize) if with_elf else None
    toolkit = toolkit_release(cuobjdump, smallest, workdir) if smallest else None
    shutil.rmtree(cdir, ignore_errors=True)
    return {"path": member, "format": fmt, "cuobjdump_path": os.path.relpath(path, workdir),
            "needed": needed, "toolkit": toolkit, "containers": containers}


def wheel_facts(cuobjdump, wheel_path, workdir, pool):
    """The facts of every device-code file of a wheel (files stay under workdir for later cuobjdump runs)."""
    files = []
    for member, fmt, path, blobs, needed in extract_device_code(wheel_path, workdir):
        files.append(file_facts(cuobjdump, member, fmt, path, blobs, needed, workdir, pool))
    return files


def cached_wheel_facts(cuobjdump, wheel, wheel_path, facts_dir, workdir, pool):
    """wheel_facts, kept in facts_dir/<wheel>.json (keyed by sha256, cuobjdump release, FACTS_VERSION).
    When they are taken from the cache the device-code files are still extracted into workdir."""
    key = {"sha256": wheel["sha256"], "cuobjdump": cuobjdump_version(cuobjdump), "facts_version": FACTS_VERSION}
    cache = os.path.join(facts_dir, wheel["filename"] + ".json")
    if os.path.isfile(cache):
        with open(cache) as f:
            stored = json.load(f)
        if stored.get("key") == key:
            extract_device_code(wheel_path, workdir)
            return stored["files"]
    files = wheel_facts(cuobjdump, wheel_path, workdir, pool)
    os.makedirs(facts_dir, exist_ok=True)
    with open(cache + ".tmp", "w") as f:
        json.dump({"key": key, "files": files}, f)
    os.replace(cache + ".tmp", cache)
    return files
