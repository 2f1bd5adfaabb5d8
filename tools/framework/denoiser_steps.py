"""One denoiser step of the real models, the field guides' fourth layer: SD1.5's and SDXL's UNets, SD3-medium's
MMDiT and Flux's DiT, built by diffusers from their published configs with random weights (nothing downloaded),
on the GPU; without diffusers, composites of the same ops (composite_steps.py). Per step: wall and GPU-busy time, kernel launches, time per kernel (archbench maps names to backend
families), a NaN check, the low-precision output's error against the same weights in fp32, and the measured
effect of fixes a user can apply without new hardware (channels_last, another attention backend, CUDA-graph
capture). Imported by framework_probe.py when the request asks for steps and diffusers imports."""
import statistics
import json
import time

# The published configs (the models' config.json on their hubs), only the fields that differ from diffusers'
# defaults; the shapes of one step at the usual resolution (batch 2 with classifier-free guidance).
MODELS = {
    "sd15-unet": {
        "cls": "UNet2DConditionModel", "dtype": "float16",
        "config": dict(sample_size=64, in_channels=4, out_channels=4, layers_per_block=2,
                       block_out_channels=(320, 640, 1280, 1280), cross_attention_dim=768, attention_head_dim=8,
                       down_block_types=("CrossAttnDownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D",
                                         "DownBlock2D"),
                       up_block_types=("UpBlock2D", "CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "CrossAttnUpBlock2D")),
        "inputs": lambda t, d: dict(sample=t((2, 4, 64, 64), d), timestep=t_steps(t, 2),
                                    encoder_hidden_states=t((2, 77, 768), d)),
        "conv": True,
    },
    "sdxl-unet": {
        "cls": "UNet2DConditionModel", "dtype": "float16",
        "config": dict(sample_size=128, in_channels=4, out_channels=4, layers_per_block=2,
                       block_out_channels=(320, 640, 1280), cross_attention_dim=2048, attention_head_dim=(5, 10, 20),
                       transformer_layers_per_block=(1, 2, 10), use_linear_projection=True,
                       addition_embed_type="text_time", addition_time_embed_dim=256,
                       projection_class_embeddings_input_dim=2816,
                       down_block_types=("DownBlock2D", "CrossAttnDownBlock2D", "CrossAttnDownBlock2D"),
                       up_block_types=("CrossAttnUpBlock2D", "CrossAttnUpBlock2D", "UpBlock2D")),
        "inputs": lambda t, d: dict(sample=t((2, 4, 128, 128), d), timestep=t_steps(t, 2),
                                    encoder_hidden_states=t((2, 77, 2048), d),
                                    added_cond_kwargs={"text_embeds": t((2, 1280), d), "time_ids": t((2, 6), d)}),
        "conv": True,
    },
    "sd3-mmdit": {
        "cls": "SD3Transformer2DModel", "dtype": "bfloat16",
        "config": dict(sample_size=128, patch_size=2, in_channels=16, out_channels=16, num_layers=24,
                       attention_head_dim=64, num_attention_heads=24, joint_attention_dim=4096,
                       caption_projection_dim=1536, pooled_projection_dim=2048, pos_embed_max_size=192),
        "inputs": lambda t, d: dict(hidden_states=t((2, 16, 128, 128), d), encoder_hidden_states=t((2, 333, 4096), d),
                                    pooled_projections=t((2, 2048), d), timestep=t_steps(t, 2)),
        "conv": False,
    },
    "flux-dit": {
        "cls": "FluxTransformer2DModel", "dtype": "bfloat16",
        "config": dict(patch_size=1, in_channels=64, num_layers=19, num_single_layers=38, attention_head_dim=128,
                       num_attention_heads=24, joint_attention_dim=4096, pooled_projection_dim=768,
                       guidance_embeds=True, axes_dims_rope=(16, 56, 56)),
        "inputs": lambda t, d: dict(hidden_states=t((1, 4096, 64), d), encoder_hidden_states=t((1, 512, 4096), d),
                                    pooled_projections=t((1, 768), d), timestep=t_steps(t, 1) / 1000,
                                    img_ids=flux_ids(t, 64, 64), txt_ids=t((512, 3), None) * 0,
                                    guidance=t_steps(t, 1) * 0 + 3.5, return_dict=False),
        "conv": False,
    },
}


def t_steps(t, n):
    return t((n,), None).abs() * 999


def flux_ids(t, h, w):
    import torch
    ids = torch.zeros(h, w, 3, device="cuda")
    ids[..., 1] = torch.arange(h, device="cuda")[:, None]
    ids[..., 2] = torch.arange(w, device="cuda")[None, :]
    return ids.reshape(h * w, 3)


def first_tensor(out):
    if isinstance(out, (tuple, list)):
        return out[0]
    return getattr(out, "sample", out)


def events_ms(torch, fn, n):
    """Median of n calls between CUDA events (the GPU view of one step, launch gaps included)."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    samples = []
    for _ in range(n):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop))
    return statistics.median(samples)


def wall_ms(torch, fn, n):
    samples = []
    for _ in range(n):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        fn()
        torch.cuda.synchronize()
        samples.append((time.perf_counter() - t0) * 1e3)
    return statistics.median(samples)


def graph_ms(torch, fn, n):
    """The step captured in a CUDA graph and replayed: what launch overhead costs."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(2):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    return wall_ms(torch, g.replay, n)


# The framework calls archbench has ops for (harness/framework/framework_op.cpp); the profiler's GPU time
# of each includes its children, and none of them calls another.
STEP_OPS = {"aten::conv2d": "conv2d", "aten::linear": "linear", "aten::scaled_dot_product_attention": "sdpa",
            "aten::group_norm": "group_norm", "aten::layer_norm": "layer_norm", "aten::rms_norm": "rms_norm",
            "aten::silu": "silu", "aten::gelu": "gelu"}


def profile_step(torch, step, kernel_times):
    """One profiled step: the time per kernel, the kernel launches, and the GPU time of each framework call
    archbench has an op for, grouped by its input shapes (and stride, for conv2d), so that archbench can
    name its op ids."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True) as prof:
        step()
        torch.cuda.synchronize()
    events = prof.events()
    launches = sum(1 for e in events if e.device_type.name == "CUDA")
    groups = {}
    for e in events:
        op = STEP_OPS.get(e.name)
        if op is None or e.device_type.name == "CUDA":
            continue
        shapes = [list(x) for x in (e.input_shapes or [])]
        stride = None
        concrete = getattr(e, "concrete_inputs", None) or []
        if op == "conv2d" and len(concrete) > 3 and concrete[3]:
            c = concrete[3]
            stride = int(c[0]) if isinstance(c, (list, tuple)) else int(c)
        us = getattr(e, "device_time_total", None)
        if us is None:
            us = getattr(e, "cuda_time_total", 0.0)
        key = (op, json.dumps(shapes), stride)
        g = groups.setdefault(key, {"op": op, "shapes": shapes, "stride": stride, "us": 0.0, "calls": 0})
        g["us"] += float(us)
        g["calls"] += 1
    ops = sorted(groups.values(), key=lambda g: -g["us"])
    for g in ops:
        g["us"] = round(g["us"], 3)
    return kernel_times(events), launches, ops


def run_steps(torch, names, quick, kernel_times):
    """The real models when diffusers imports; otherwise composites of their ops (composite_steps.py),
    said so in the answer's status and reason."""
    try:
        import diffusers
        out = {"status": "ok", "diffusers": diffusers.__version__, "models": []}
        # diffusers imports a model's module on first access (8 s for the UNet's on the H200): that is
        # the package's import, before any model is built, and is reported as such (import_s). A class
        # this diffusers lacks fails that model only (run_one says why).
        t0 = time.perf_counter()
        table = {}
        for n in names:
            if n not in MODELS:
                continue
            try:
                c = getattr(diffusers, MODELS[n]["cls"])
            except Exception as e:
                c = e
            table[n] = dict(MODELS[n], build=lambda c=c, n=n: build_or_raise(c, MODELS[n]["config"]))
        out["import_s"] = round(time.perf_counter() - t0, 3)
    except Exception as e:
        import composite_steps
        out = {"status": "composite", "models": [],
               "reason": "import diffusers failed: %s" % (str(e).splitlines() or [type(e).__name__])[0][:200]}
        table = composite_steps.MODELS
    for name in names:
        spec = table.get(name)
        if spec is None:
            out["models"].append({"model": name, "status": "failed", "reason": "unknown model"})
            continue
        out["models"].append(run_one(torch, name, spec, quick, kernel_times))
        torch.cuda.empty_cache()
    return out


def build_or_raise(cls_or_error, config):
    if isinstance(cls_or_error, Exception):
        raise RuntimeError("this diffusers has no such model class: %s" % cls_or_error)
    return cls_or_error(**config)


def run_one(torch, name, spec, quick, kernel_times):
    r = {"model": name, "dtype": spec["dtype"], "phase_s": {}}
    low = getattr(torch, spec["dtype"])
    t0 = time.perf_counter()
    mark = [t0]

    def lap(what):  # where a step's seconds go (the <= 10 s target includes the build)
        now = time.perf_counter()
        r["phase_s"][what] = round(now - mark[0], 3)
        mark[0] = now
    try:
        gen = torch.Generator(device="cuda")
        gen.manual_seed(0)

        def tensor(shape, dtype):
            return torch.randn(shape, device="cuda", generator=gen, dtype=torch.float32).to(dtype or torch.float32)
        with torch.device("cuda"):
            model = spec["build"]().eval()  # random weights, fp32, built on the GPU
        r["parameters"] = sum(p.numel() for p in model.parameters())
        inputs32 = spec["inputs"](tensor, torch.float32)
        torch.cuda.synchronize()
        lap("build")

        def cast(v, dtype):
            if isinstance(v, dict):
                return {k: cast(x, dtype) for k, x in v.items()}
            return v.to(dtype) if hasattr(v, "is_floating_point") and v.is_floating_point() and v.dim() > 1 else v
        with torch.no_grad():
            ref = first_tensor(model(**inputs32)).float()
            torch.cuda.synchronize()
            lap("fp32_step")
            model.to(low)
            inputs = {k: cast(v, low) for k, v in inputs32.items()}
            step = lambda: model(**inputs)
            got = first_tensor(step()).float()
            torch.cuda.synchronize()
            lap("first_step")
            r["build_s"] = time.perf_counter() - t0
            r["nan"] = bool(torch.isnan(got).any().item())
            r["rel_error_vs_fp32"] = (torch.linalg.vector_norm(got - ref) / torch.linalg.vector_norm(ref)).item()
            del ref, got
            r["launches"] = None
            try:
                r["kernels"], r["launches"], r["ops"] = profile_step(torch, step, kernel_times)
            except Exception as e:
                r["kernels"] = []
                r.setdefault("notes", []).append("profile: %s" % (str(e).splitlines() or [type(e).__name__])[0][:120])
            r["gpu_busy_ms"] = sum(k["us"] for k in r["kernels"]) / 1e3
            lap("profile")
            if not quick:
                for _ in range(2):
                    step()
                r["wall_ms"] = wall_ms(torch, step, 5)
                n = 5 if r["wall_ms"] < 50 else 3  # medians of 3 for the long steps: the 10 s budget per step
                r["events_ms"] = events_ms(torch, step, n)
                fixes = {}
                if spec["conv"]:
                    model.to(memory_format=torch.channels_last)
                    fixes["channels_last"] = wall_ms(torch, step, n)
                    model.to(memory_format=torch.contiguous_format)
                b = torch.backends.cuda
                saved = (b.cudnn_sdp_enabled(), b.flash_sdp_enabled(), b.mem_efficient_sdp_enabled(), b.math_sdp_enabled())
                for backend in ("flash", "cudnn"):
                    b.enable_cudnn_sdp(backend == "cudnn")
                    b.enable_flash_sdp(backend == "flash")
                    b.enable_mem_efficient_sdp(False)
                    b.enable_math_sdp(False)
                    try:
                        fixes["sdpa_" + backend] = wall_ms(torch, step, n)
                    except Exception as e:
                        fixes["sdpa_" + backend] = None
                        r.setdefault("notes", []).append("sdpa %s: %s" % (backend, str(e).splitlines()[0][:120]))
                b.enable_cudnn_sdp(saved[0]), b.enable_flash_sdp(saved[1])
                b.enable_mem_efficient_sdp(saved[2]), b.enable_math_sdp(saved[3])
                try:
                    fixes["cuda_graph"] = graph_ms(torch, step, n)
                except Exception as e:
                    fixes["cuda_graph"] = None
                    r.setdefault("notes", []).append("cuda graph: %s" % str(e).splitlines()[0][:120])
                r["fixes_wall_ms"] = fixes
                lap("time_and_fixes")
        r["status"] = "ran"
    except Exception as e:
        r.update(status="failed", reason=(str(e).strip().splitlines() or [type(e).__name__])[0][:300])
    r["seconds"] = time.perf_counter() - t0
    return r
