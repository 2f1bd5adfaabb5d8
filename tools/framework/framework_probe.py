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
import sys
import time
import traceback

import probe_timing
from probe_timing import phase, kernel_names, time_gpu_us, time_host_us

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


DTYPES = {"f32": "float32", "tf32": "float32", "f16": "float16", "bf16": "bfloat16", "e4m3": "float8_e4m3fn",
          "e5m2": "float8_e5m2"}
FP8_MAX = {"float8_e4m3fn": 448.0, "float8_e5m2": 57344.0}


def rand(torch, shape, dtype, gen):
    return (torch.rand(shape, device="cuda", dtype=torch.float32, generator=gen) * 2 - 1).to(dtype)


def scaled_matmul(torch, d, a_dtype, gen):
    """FP8 matmul as FP8 checkpoints run it: A [M,K] in a_dtype (e4m3; e5m2 as FP8 training's gradients) and
    an e4m3 B [N,K] (Hopper has no e5m2 x e5m2), each across its format's range with a per-tensor descale
    (1/max: the values of the other ops' [-1, 1]), torch._scaled_mm with fast accumulation (torchao's float8
    forward) into bf16. The reference dequantises in float64."""
    e4m3 = torch.float8_e4m3fn
    a_max, b_max = FP8_MAX[str(a_dtype).replace("torch.", "")], FP8_MAX["float8_e4m3fn"]
    a = (rand(torch, (d["M"], d["K"]), torch.float32, gen) * a_max).to(a_dtype)
    b = (rand(torch, (d["N"], d["K"]), torch.float32, gen) * b_max).to(e4m3)
    scale_a, scale_b = torch.tensor(1.0 / a_max, device="cuda"), torch.tensor(1.0 / b_max, device="cuda")
    call = lambda t: torch._scaled_mm(t[0], t[1].t(), scale_a=t[2], scale_b=t[3], out_dtype=torch.bfloat16,
                                      use_fast_accum=True)
    reference = lambda t: (t[0] * t[2]) @ (t[1] * t[3]).t()
    return [a, b, scale_a, scale_b], call, reference


# -- the ops: each builder returns (inputs, call(inputs) -> tensor[, reference]); the reference, when not
#    given, is call on the float64 inputs --

def build(torch, op, dims, dtype, gen, layout=None):
    F = torch.nn.functional
    d = dims
    if op == "matmul" and dtype in (getattr(torch, "float8_e4m3fn", None), getattr(torch, "float8_e5m2", None)):
        return scaled_matmul(torch, d, dtype, gen)
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

def rel_error(torch, out, ref):
    o, r = out.double(), ref.double()
    if not torch.isfinite(o).all():
        return float("nan")
    denom = torch.linalg.vector_norm(r).item()
    return torch.linalg.vector_norm(o - r).item() / (denom if denom > 0 else 1.0)



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
        built = build(torch, o["op"], o["dims"], dtype, gen, o.get("layout"))
        return built if len(built) == 3 else (built[0], built[1], built[1])
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
    probe_timing.init(torch)
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
        ANSWER["steps"] = denoiser_steps.run_steps(torch, req["steps"], quick, probe_timing.kernel_times)
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    ANSWER["seconds"] = time.perf_counter() - t_start
    ANSWER["phase_seconds"] = {k: round(v, 2) for k, v in probe_timing.PHASE_SECONDS.items()}
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
