#!/usr/bin/env python3
"""archbench's framework probe: runs the user's own PyTorch, in the user's interpreter, at the problems
`archbench framework` hands it (from archbench's registry; this file has no shape table of its own).

Reads a request (JSON, archbench.framework.request v1) from the file named by its one argument, writes
the answer (archbench.framework.probe v1) to stdout. Needs only the framework; works with torch 2.4+.
Per op and per backend: whether it ran (or was refused, with the framework's reason, or failed), the
relative error against float64 computed from the same inputs, the GPU time (CUDA events around one call,
L2 flushed before each sample, warm-up, median), the host time per call (dispatch and library setup,
measured with the GPU kept busy so that it is not GPU time), and the names of the kernels launched
(torch.profiler), which archbench maps to backend families.

Exit codes: 0 answered (per-op failures are in the answer), 3 no usable GPU or a torch without CUDA,
4 no torch (or one too old), 2 a bad request. The answer says why in "status" and "reason" in every case."""
import json
import os
import statistics
import sys
import time
import traceback

ANSWER = {"schema": "archbench.framework.probe", "schema_version": 1}
MIN_TORCH = (2, 4)


def finish(code, status, reason=""):
    ANSWER["status"] = status
    ANSWER["reason"] = reason
    json.dump(ANSWER, sys.stdout)
    sys.stdout.write("\n")
    sys.exit(code)


def load_torch():
    try:
        import torch  # noqa: F401
    except Exception as e:  # not installed, or broken (a missing libcudart, an ABI error)
        finish(4, "no-torch", "import torch failed: %s" % str(e).splitlines()[0][:300])
    import torch
    ANSWER["framework"] = {"name": "torch", "version": torch.__version__, "cuda": torch.version.cuda,
                           "file": getattr(torch, "__file__", None)}
    version = tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2] if p.isdigit())
    if version < MIN_TORCH:
        finish(4, "torch-too-old", "torch %s is older than %d.%d" % ((torch.__version__,) + MIN_TORCH))
    try:
        cudnn = torch.backends.cudnn
        ANSWER["framework"]["cudnn"] = cudnn.version() if cudnn.is_available() else None
    except Exception:
        ANSWER["framework"]["cudnn"] = None
    if torch.version.cuda is None:
        finish(3, "torch-without-cuda", "torch %s is a CPU-only build (torch.version.cuda is None)" % torch.__version__)
    try:
        ok = torch.cuda.is_available()
    except Exception as e:
        ok, why = False, str(e)
    else:
        why = "torch.cuda.is_available() is False"
    if not ok:
        finish(3, "no-gpu", why)
    p = torch.cuda.get_device_properties(0)
    ANSWER["device"] = {"name": p.name, "cc": "%d.%d" % (p.major, p.minor), "arch_list": torch.cuda.get_arch_list()}
    return torch


DTYPES = {"f32": "float32", "tf32": "float32", "f16": "float16", "bf16": "bfloat16"}


def rand(torch, shape, dtype, gen):
    return (torch.rand(shape, device="cuda", dtype=torch.float32, generator=gen) * 2 - 1).to(dtype)


# -- the ops: each builder returns (inputs, call(inputs) -> tensor); the reference is call on float64 inputs --

def build(torch, op, dims, dtype, gen, layout=None):
    F = torch.nn.functional
    d = dims
    if op == "sdpa":
        q = rand(torch, (d["B"], d["H"], d["Nq"], d["D"]), dtype, gen)
        k = rand(torch, (d["B"], d["H"], d["Nk"], d["D"]), dtype, gen)
        v = rand(torch, (d["B"], d["H"], d["Nk"], d["D"]), dtype, gen)
        return [q, k, v], lambda t: F.scaled_dot_product_attention(*t)
    if op == "matmul":  # A [M,K] times B^T, B stored [N,K] (a linear layer's weight)
        a, b = rand(torch, (d["M"], d["K"]), dtype, gen), rand(torch, (d["N"], d["K"]), dtype, gen)
        return [a, b], lambda t: torch.matmul(t[0], t[1].t())
    if op == "linear":
        a, w = rand(torch, (d["M"], d["K"]), dtype, gen), rand(torch, (d["N"], d["K"]), dtype, gen)
        return [a, w], lambda t: F.linear(t[0], t[1])
    if op == "conv2d":
        fmt = torch.channels_last if layout == "channels_last" else torch.contiguous_format
        x = rand(torch, (d["B"], d["C"], d["H"], d["W"]), dtype, gen).to(memory_format=fmt)
        w = rand(torch, (d["K"], d["C"], d["R"], d["R"]), dtype, gen).to(memory_format=fmt)
        s = d.get("s", 1)
        return [x, w], lambda t: F.conv2d(t[0], t[1], None, s, (d["R"] - 1) // 2)
    if op == "group_norm":
        x = rand(torch, (d["B"], d["C"], d["H"], d["W"]), dtype, gen)
        if layout == "channels_last":
            x = x.to(memory_format=torch.channels_last)
        w, b = rand(torch, (d["C"],), dtype, gen), rand(torch, (d["C"],), dtype, gen)
        return [x, w, b], lambda t: F.group_norm(t[0], d["G"], t[1], t[2], 1e-6)
    if op == "layer_norm":
        x = rand(torch, (d["M"], d["N"]), dtype, gen)
        return [x], lambda t: F.layer_norm(t[0], (d["N"],), None, None, 1e-6)
    if op == "rms_norm":
        x = rand(torch, (d["B"], d["H"], d["N"], d["D"]), dtype, gen)
        w = rand(torch, (d["D"],), dtype, gen)
        return [x, w], lambda t: F.rms_norm(t[0], (d["D"],), t[1], 1e-6)
    if op == "gelu":
        x = rand(torch, (d["M"], d["N"]), dtype, gen)
        return [x], lambda t: F.gelu(t[0], approximate="tanh")
    if op == "silu":
        x = rand(torch, (d["B"], d["C"], d["H"], d["W"]), dtype, gen)
        return [x], lambda t: F.silu(t[0])
    raise ValueError("unknown op %r" % op)


# -- SDPA backends: each forced through the global switches, with the framework's own reason when refused --

SDPA_BACKENDS = ("cudnn", "flash", "efficient", "math")


def select_sdpa(torch, backend):
    """Exactly one backend on (None: PyTorch's defaults). Returns a function that restores the defaults."""
    b = torch.backends.cuda
    names = {"cudnn": "cudnn_sdp", "flash": "flash_sdp", "efficient": "mem_efficient_sdp", "math": "math_sdp"}
    saved = {n: getattr(b, n + "_enabled")() for n in names.values() if hasattr(b, n + "_enabled")}
    if backend is not None:
        for key, n in names.items():
            enable = getattr(b, "enable_" + n, None)
            if enable is not None:
                enable(key == backend)

    def restore():
        for n, v in saved.items():
            getattr(b, "enable_" + n)(v)
    return restore


def sdpa_refusal(torch, backend, inputs):
    """The framework's reason for refusing a backend at these inputs, or None when it would run it."""
    check = {"cudnn": "can_use_cudnn_attention", "flash": "can_use_flash_attention",
             "efficient": "can_use_efficient_attention"}.get(backend)
    fn = getattr(torch.backends.cuda, check, None) if check else None
    if fn is None:
        return None
    try:
        from torch.backends.cuda import SDPAParams
        q, k, v = inputs
        try:
            params = SDPAParams(q, k, v, None, 0.0, False, False)
        except TypeError:
            params = SDPAParams(q, k, v, None, 0.0, False)
    except Exception:
        return None
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ok = fn(params, True)
    if ok:
        return None
    reasons = [str(w.message).strip() for w in caught]
    return "; ".join(r.splitlines()[0] for r in reasons if r)[:400] or "refused (no reason given)"


# -- extension attention kernels: the same SDPA problems through packages users add, when they import --

EXTENSIONS = ("xformers", "flash_attn", "sageattention")
_extension_calls = {}


def extension_attention(name):
    """(call(q, k, v) on [B, H, S, D] tensors, None), or (None, (status, reason)) when it cannot run:
    not-installed when the package is absent, failed when it is there but its import breaks."""
    if name in _extension_calls:
        return _extension_calls[name]
    try:
        if name == "xformers":  # takes [B, S, H, D]; the transposes are views, no copies
            import xformers.ops as xops
            call = lambda q, k, v: xops.memory_efficient_attention(
                q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2)
        elif name == "flash_attn":
            from flash_attn import flash_attn_func
            call = lambda q, k, v: flash_attn_func(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)).transpose(1, 2)
        else:
            from sageattention import sageattn
            call = lambda q, k, v: sageattn(q, k, v, tensor_layout="HND", is_causal=False)
        result = (call, None)
    except ModuleNotFoundError as e:
        result = (None, ("not-installed", "not installed (%s)" % e))
    except Exception as e:  # installed but broken: an ABI mismatch, a missing library, no image
        result = (None, ("failed", "import failed: %s" % (str(e).strip().splitlines() or [type(e).__name__])[0][:300]))
    _extension_calls[name] = result
    return result


# The dtypes each extension takes; elsewhere it is refused before it is called.
EXTENSION_DTYPES = {"xformers": ("f32", "f16", "bf16"), "flash_attn": ("f16", "bf16"), "sageattention": ("f16", "bf16")}


# -- measurement --

class SmClock:
    """The SM clock through NVML (the driver's libnvidia-ml, no Python package), read after each timed
    sample as archbench's timer does: a power-bound kernel runs at lower clocks when the GPU is busier,
    so times of the same kernel compare only at the same clock, and time x clock (cycles) compares
    across clocks. Unavailable NVML: no clock, nothing else changes."""

    def __init__(self, torch):
        self.handle = None
        try:
            import ctypes
            lib = ctypes.CDLL("libnvidia-ml.so.1")
            if lib.nvmlInit_v2() != 0:
                return
            handle = ctypes.c_void_p()
            uuid = getattr(torch.cuda.get_device_properties(0), "uuid", None)
            if uuid is not None:
                found = lib.nvmlDeviceGetHandleByUUID(("GPU-%s" % uuid).encode(), ctypes.byref(handle))
            else:
                found = -1 if os.environ.get("CUDA_VISIBLE_DEVICES") else lib.nvmlDeviceGetHandleByIndex_v2(0, ctypes.byref(handle))
            if found == 0:
                self.lib, self.handle, self.value = lib, handle, ctypes.c_uint()
                self.byref = ctypes.byref
        except OSError:
            pass

    def sm_mhz(self):
        if self.handle is None or self.lib.nvmlDeviceGetClockInfo(self.handle, 1, self.byref(self.value)) != 0:  # 1: SM
            return None
        return self.value.value

    def capped(self):
        """A power cap, thermal or hardware slowdown holds the clock down now (NVML's clock-event reasons,
        the bits archbench's ClockSample::throttled reads; drivers before r535 name the call ...Throttle...)."""
        if self.handle is None:
            return False
        reasons_of = getattr(self.lib, "nvmlDeviceGetCurrentClocksEventReasons", None) or \
            getattr(self.lib, "nvmlDeviceGetCurrentClocksThrottleReasons", None)
        if reasons_of is None:
            return False
        import ctypes
        reasons = ctypes.c_ulonglong()
        if reasons_of(self.handle, self.byref(reasons)) != 0:
            return False
        return (reasons.value & (0x4 | 0x8 | 0x20 | 0x40 | 0x80)) != 0

    capped_in_a_row = 0

    def settle(self, max_seconds=1.0):
        """archbench's wait out of the power cap before an op is timed (harness/run/power_settle.hpp): a
        power-bound kernel runs ~15-20% slower once the cap engages, so every op starts uncapped. After two
        waits in a row that ended capped (a GPU held at its cap), it checks once and goes on, as archbench."""
        t0 = time.perf_counter()
        limit = 0.0 if self.capped_in_a_row >= 2 else max_seconds
        capped = self.capped()
        while capped and time.perf_counter() - t0 < limit:
            time.sleep(0.01)
            capped = self.capped()
        self.capped_in_a_row = self.capped_in_a_row + 1 if capped else 0
        return time.perf_counter() - t0


CLOCK = None  # set in main, once torch is loaded
PHASE_SECONDS = {}  # where the probe's time goes, for the answer's "phase_seconds"


class phase:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.t0 = time.perf_counter()

    def __exit__(self, *exc):
        PHASE_SECONDS[self.name] = PHASE_SECONDS.get(self.name, 0.0) + time.perf_counter() - self.t0


def rel_error(torch, out, ref):
    o, r = out.double(), ref.double()
    if not torch.isfinite(o).all():
        return float("nan")
    denom = torch.linalg.vector_norm(r).item()
    return torch.linalg.vector_norm(o - r).item() / (denom if denom > 0 else 1.0)


def kernel_names(torch, fn):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn()
        torch.cuda.synchronize()
    return kernel_times(prof.events())


def kernel_times(events):
    """The GPU time per kernel name of a profile, longest first."""
    names = {}
    for e in events:
        if e.device_type.name == "CUDA":
            tr = getattr(e, "time_range", None)  # a kernel's own span on the device
            us = tr.elapsed_us() if tr is not None else (getattr(e, "device_time", 0.0) or 0.0)
            names[e.name] = names.get(e.name, 0.0) + float(us)
    return [{"name": n, "us": round(t, 3)} for n, t in sorted(names.items(), key=lambda kv: -kv[1])]


# The waiting kernel of archbench's GpuHold (harness/run/gpu_hold.cu) in PTX, which the driver compiles for
# any GPU: one thread polls flags[0] in mapped host memory until the host writes 1, or until timeout_ns.
_HOLD_PTX = b"""
.version 6.0
.target sm_50
.address_size 64
.visible .entry archbench_wait_for_release(.param .u64 flags, .param .u64 timeout_ns)
{
  .reg .pred %p<3>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<7>;
  ld.param.u64 %rd1, [flags];
  ld.param.u64 %rd2, [timeout_ns];
  mov.u64 %rd3, %globaltimer;
WAIT:
  ld.volatile.u32 %r1, [%rd1];
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u64 %rd4, %globaltimer;
  sub.u64 %rd5, %rd4, %rd3;
  setp.lt.u64 %p2, %rd5, %rd2;
  @%p2 bra WAIT;
  add.u64 %rd6, %rd1, 4;
  mov.u32 %r2, 1;
  st.volatile.u32 [%rd6], %r2;
DONE:
  ret;
}
"""


class GpuHold:
    """archbench's hold on the stream (harness/run/gpu_hold.hpp): a one-thread kernel that spins until the
    host has enqueued the whole sample and writes the release flag, so the call's host time is never GPU
    time. It spins rather than waits (cuStreamWaitValue32): a GPU left idle while the host enqueues runs
    the next short kernel up to ~0.8 us slower on the H200 (docs/framework.md), and archbench's kernel
    keeps the GPU busy. After 20 ms it ends by itself, so a call that waits for the GPU inside the
    sample cannot hang the probe. Without the driver API (no libcuda, a module that does not load),
    ok is False and the probe spins a fixed time instead."""
    TIMEOUT_NS = 20_000_000

    def __init__(self, torch):
        self.ok = False
        try:
            import ctypes
            self.ct = ctypes
            lib = ctypes.CDLL("libcuda.so.1")
            torch.cuda.current_stream().synchronize()  # the primary context exists and is current
            module, self.fn = ctypes.c_void_p(), ctypes.c_void_p()
            if lib.cuModuleLoadData(ctypes.byref(module), ctypes.c_char_p(_HOLD_PTX)) != 0 or \
                    lib.cuModuleGetFunction(ctypes.byref(self.fn), module, b"archbench_wait_for_release") != 0:
                return
            self.flags = torch.ones(2, dtype=torch.int32, pin_memory=True)  # mapped: one address for both
            self.words = (ctypes.c_int32 * 2).from_address(self.flags.data_ptr())
            self.args = (ctypes.c_uint64(self.flags.data_ptr()), ctypes.c_uint64(self.TIMEOUT_NS))
            self.params = (ctypes.c_void_p * 2)(*(ctypes.cast(ctypes.byref(a), ctypes.c_void_p) for a in self.args))
            lib.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [ctypes.c_void_p] * 3
            self.launch, self.ok = lib.cuLaunchKernel, True
        except (OSError, AttributeError, RuntimeError):
            self.ok = False

    def hold(self, torch):
        self.words[0], self.words[1] = 0, 0
        if self.launch(self.fn, 1, 1, 1, 1, 1, 1, 0, torch.cuda.current_stream().cuda_stream, self.params,
                       None) != 0:
            self.ok = False
            self.release()
        return self.ok

    def release(self):
        self.words[0] = 1


HOLD = None  # set in main, once torch is loaded


def median_noise(samples):
    """archbench's stopping rule (harness/result/timing_summary.cpp): the median's standard error over the
    median, 1.2533 sigma / sqrt(n) with sigma = IQR / 1.349; sampling stops once it is under 0.5%."""
    q = statistics.quantiles(samples, n=4, method="inclusive")
    med = statistics.median(samples)
    return 1.2533 * ((q[2] - q[0]) / 1.349) / len(samples) ** 0.5 / med if med > 0 else 0.0


def time_gpu_us(torch, fn, flush, min_samples, budget_s, host_us):
    """archbench's method (docs/measurement.md): the wait out of the power cap, a short warm-up (3 calls
    and 2 ms), then one sample at a time: L2 flushed, the stream held while the host enqueues the events
    and the call, CUDA events, synchronized; the median, after min_samples, once its noise is under 0.5%
    or budget_s of GPU time. (Ten samples back to back behind one hold read 0.4-0.5 us more on 9-17 us
    kernels on the H200 than one at a time, the way archbench samples.) Where the stream cannot be held
    (no driver entry point, or a call that waits for the GPU: over 1 ms of host time per call), each
    sample gets a GPU spin of three times the call's host time (>= 0.1 ms) instead. Returns (median us,
    samples, median SM MHz, how held)."""
    if CLOCK is not None:
        with phase("time.settle"):  # within "time"
            CLOCK.settle()
    t0 = time.perf_counter()
    for i in range(1000):
        fn()
        if i >= 2:
            torch.cuda.synchronize()
            if time.perf_counter() - t0 >= 0.002:
                break
    hold = HOLD if HOLD is not None and HOLD.ok and host_us < 1000 else None
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    spin_cycles = int(max(0.1, 3e-3 * host_us) * 2.0e6)  # ms at ~2 GHz, what the spin counts in
    samples, clocks, spent = [], [], 0.0
    while len(samples) < min_samples or (spent < budget_s and len(samples) < 2000 and median_noise(samples) >= 0.005):
        flush.zero_()
        held = hold is not None and hold.hold(torch)
        if not held:
            torch.cuda._sleep(spin_cycles)
        start.record()
        fn()
        stop.record()
        if held:
            hold.release()
        stop.synchronize()
        ms = start.elapsed_time(stop)
        samples.append(ms * 1e3)
        spent += ms * 1e-3 + 50e-6
        mhz = CLOCK.sm_mhz() if CLOCK is not None else None
        if mhz:
            clocks.append(mhz)
    return (statistics.median(samples), len(samples), (statistics.median(clocks) if clocks else None),
            "held" if hold is not None and hold.ok else "spin")


def time_host_us(torch, fn, calls=20):
    """Host time per call: the wall time of enqueueing `calls` calls behind a long GPU sleep, so that
    the GPU never waits for the host and the host never waits for the GPU."""
    torch.cuda.synchronize()
    torch.cuda._sleep(50_000_000)  # ~25 ms of GPU work ahead of the calls
    t0 = time.perf_counter()
    for _ in range(calls):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) * 1e6 / calls


def run_variant(torch, make, op, dtype_name, backend, quick, flush, seed, disabled=()):
    """One op with one backend (None: the default dispatch, less the `disabled` SDPA backends): a
    dict for the answer. `make(dtype, gen)` returns (inputs, call, reference): call(inputs) runs the
    op, reference(inputs in float64) computes what it should give."""
    r = {"backend": backend or "default"}
    extension = backend in EXTENSIONS
    if extension:
        ext_call, cannot = extension_attention(backend)
        if cannot is not None:
            r.update(status=cannot[0], reason=cannot[1])
            return r
        if dtype_name not in EXTENSION_DTYPES[backend]:
            r.update(status="refused", reason="%s takes %s only" % (backend, ", ".join(EXTENSION_DTYPES[backend])))
            return r
    dtype = getattr(torch, DTYPES[dtype_name])
    torch.backends.cuda.matmul.allow_tf32 = dtype_name == "tf32"
    torch.backends.cudnn.allow_tf32 = dtype_name == "tf32"
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    restore = select_sdpa(torch, backend) if op == "sdpa" and not extension else (lambda: None)
    if op == "sdpa" and backend is None:
        for b in disabled:  # the documented switch that forces a fallback (--disable-sdpa-backend)
            getattr(torch.backends.cuda, {"cudnn": "enable_cudnn_sdp", "flash": "enable_flash_sdp",
                                          "efficient": "enable_mem_efficient_sdp", "math": "enable_math_sdp"}[b])(False)
    try:
        inputs, call, reference = make(dtype, gen)
        if extension:
            call = lambda t: ext_call(*t)  # the reference stays PyTorch's SDPA in float64
        if op == "sdpa" and backend in SDPA_BACKENDS:
            refusal = sdpa_refusal(torch, backend, inputs)
            if refusal is not None:
                r.update(status="refused", reason=refusal)
                return r
        fn = lambda: call(inputs)
        with phase("run"):
            out = torch.full_like(fn(), float("nan"))  # poisoned, then written by the call under test
            out.copy_(fn())
            torch.cuda.synchronize()
        restore_ref = select_sdpa(torch, "math") if op == "sdpa" else (lambda: None)
        try:
            with phase("reference"):
                ref = reference([t.double() if t.is_floating_point() else t for t in inputs])
                r["rel_error"] = rel_error(torch, out, ref)
        finally:
            restore_ref()
        del ref
        with phase("profile"):
            r["kernels"] = kernel_names(torch, fn)
        if not quick:
            with phase("time"):
                for _ in range(3):
                    fn()
                torch.cuda.synchronize()
                r["host_us"] = time_host_us(torch, fn)
                r["gpu_us"], r["samples"], mhz, r["timer"] = time_gpu_us(torch, fn, flush, 20, 0.15, r["host_us"])
            if mhz:
                r["sm_mhz"] = mhz
        r["status"] = "ran"
    except Exception as e:
        msg = str(e).strip().splitlines()[0][:400] if str(e).strip() else type(e).__name__
        r.update(status="failed", reason=msg)
        if "no kernel image is available" in str(e):
            r["image"] = "missing"
    finally:
        restore()
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
    return r


def registry_op(torch, o):
    """The maker of one of archbench's ops (the request names it and its dims)."""
    def make(dtype, gen):
        inputs, call = build(torch, o["op"], o["dims"], dtype, gen, o.get("layout"))
        return inputs, call, call
    return make


def plugin_ops(torch, path):
    """The user's own ops from a plug-in file (docs/framework.md, "Your own ops"): its
    archbench_ops(torch) returns dicts with name, dtype, build(torch, gen, dtype) -> (inputs, call) and
    optionally reference(inputs) (default: call on the float64 inputs). Also the shared objects its
    import loaded, where a missing kernel image would come from."""
    import importlib.util
    before = set(loaded_libraries())
    spec = importlib.util.spec_from_file_location("archbench_plugin_%d" % abs(hash(path)), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    ops = list(module.archbench_ops(torch))
    libs = sorted(set(loaded_libraries()) - before)
    out = []
    for d in ops:
        def make(dtype, gen, d=d):
            inputs, call = d["build"](torch, gen, dtype)
            return inputs, call, d.get("reference", call)
        out.append(({"id": "plugin/%s/%s" % (d["name"], d.get("dtype", "f32")), "op": "plugin", "dtype": d.get("dtype", "f32"),
                     "libraries": libs, "plugin": path}, make))
    return out


def loaded_libraries():
    """The shared objects this process has mapped (where a "no kernel image" came from)."""
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1] if len(line.split()) >= 6 else ""
                if path.startswith("/") and ".so" in path:
                    libs.add(path)
    except OSError:
        pass
    return sorted(libs)


def main():
    if len(sys.argv) != 2:
        finish(2, "bad-request", "usage: framework_probe.py REQUEST.json")
    try:
        with open(sys.argv[1]) as f:
            req = json.load(f)
        if req.get("schema") != "archbench.framework.request" or not isinstance(req.get("ops"), list):
            raise ValueError("not an archbench.framework.request")
    except Exception as e:
        finish(2, "bad-request", str(e)[:300])
    ANSWER["python"] = sys.version.split()[0]
    torch = load_torch()
    global CLOCK, HOLD
    CLOCK, HOLD = SmClock(torch), GpuHold(torch)
    quick = bool(req.get("quick"))
    l2 = torch.cuda.get_device_properties(0).L2_cache_size
    flush = torch.empty(max(2 * l2, 1 << 20), dtype=torch.uint8, device="cuda")
    ANSWER["ops"] = []
    ANSWER["disabled_sdpa_backends"] = list(req.get("disable_sdpa_backends", []))
    work = [(o, registry_op(torch, o)) for o in req["ops"]]
    for path in req.get("plugins", []):
        try:
            work += plugin_ops(torch, path)
        except Exception as e:  # the plug-in itself: one failed op that says why
            reason = "%s: %s" % (type(e).__name__, str(e).strip().splitlines()[0][:300] if str(e).strip() else "")
            ANSWER["ops"].append({"id": "plugin/" + os.path.basename(path), "op": "plugin", "dtype": "f32",
                                  "plugin": path, "variants": [{"backend": "default", "status": "failed",
                                                                "reason": "the plug-in did not load: " + reason}]})
    t_start = time.perf_counter()
    for i, (o, make) in enumerate(work):
        backends = [None] + (list(SDPA_BACKENDS) + list(EXTENSIONS) if o["op"] == "sdpa" else [])
        entry = {k: o.get(k) for k in ("id", "op", "dtype", "layout", "twin", "plugin", "libraries") if o.get(k) is not None}
        entry["variants"] = []
        for b in backends:
            entry["variants"].append(run_variant(torch, make, o["op"], o["dtype"], b, quick, flush,
                                                 int(req.get("seed", 1)) + i, req.get("disable_sdpa_backends", [])))
            torch.cuda.empty_cache()
        ANSWER["ops"].append(entry)
        # One line rewritten on a terminal; in a log (CI, the doctor's), a line per 10 ops and the last.
        if sys.stderr.isatty():
            sys.stderr.write("\rframework probe: %d of %d ops" % (i + 1, len(work)))
        elif (i + 1) % 10 == 0 or i + 1 == len(work):
            sys.stderr.write("framework probe: %d of %d ops\n" % (i + 1, len(work)))
        sys.stderr.flush()
    if req.get("steps"):
        import denoiser_steps
        if sys.stderr.isatty():
            sys.stderr.write("\n")
        ANSWER["steps"] = denoiser_steps.run_steps(torch, req["steps"], quick, kernel_times)
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    ANSWER["seconds"] = time.perf_counter() - t_start
    ANSWER["phase_seconds"] = {k: round(v, 2) for k, v in PHASE_SECONDS.items()}
    ANSWER["loaded_libraries"] = [p for p in loaded_libraries() if "torch" in p or "nvidia" in p or "cuda" in p]
    finish(0, "ok")


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception:
        ANSWER["traceback"] = traceback.format_exc()[-2000:]
        finish(5, "probe-error", "the probe itself failed (see traceback)")
