"""A denoiser step built from torch.nn alone, for when diffusers does not import: the same ops as the real
models (conv2d, GroupNorm, SiLU, linear, SDPA, LayerNorm, GEGLU/GELU, RMSNorm) at their shapes and depths,
so that the step-level effects (a host-bound launch stream, cuDNN's layout conversions, the SDPA backend
and graph capture) are measured on any machine with torch. Not the models themselves: the UNets are
their encoder half and mid block (the decoder repeats the same ops at the same shapes), the DiTs have no
positional embedding or RoPE, and no layer is initialised as a trained one would be. Each builder
returns (module, inputs(tensor, dtype) -> kwargs) like denoiser_steps.MODELS; imported only with torch."""
import math

import torch
import torch.nn.functional as F
from torch import nn


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, device=t.device, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class TimeMlp(nn.Module):
    def __init__(self, dim_in, dim):
        super().__init__()
        self.dim_in, self.fc1, self.fc2 = dim_in, nn.Linear(dim_in, dim), nn.Linear(dim, dim)

    def forward(self, t):
        e = timestep_embedding(t, self.dim_in).to(self.fc1.weight.dtype)
        return self.fc2(F.silu(self.fc1(e)))


class Attention(nn.Module):
    """q, k, v and out projections around F.scaled_dot_product_attention; cross-attention with ctx_dim."""

    def __init__(self, dim, heads, ctx_dim=None, qk_norm=False):
        super().__init__()
        self.heads = heads
        self.q, self.out = nn.Linear(dim, dim, bias=False), nn.Linear(dim, dim)
        self.k, self.v = nn.Linear(ctx_dim or dim, dim, bias=False), nn.Linear(ctx_dim or dim, dim, bias=False)
        self.qk_norm = qk_norm

    def split(self, x):
        b, n, d = x.shape
        return x.view(b, n, self.heads, d // self.heads).transpose(1, 2)

    def forward(self, x, ctx=None):
        q, k, v = self.split(self.q(x)), self.split(self.k(x if ctx is None else ctx)), self.split(self.v(x if ctx is None else ctx))
        if self.qk_norm:
            q, k = F.rms_norm(q, (q.shape[-1],)), F.rms_norm(k, (k.shape[-1],))
        o = F.scaled_dot_product_attention(q, k, v)
        return self.out(o.transpose(1, 2).reshape(x.shape))


class ResBlock(nn.Module):
    def __init__(self, c_in, c_out, temb):
        super().__init__()
        self.norm1, self.conv1 = nn.GroupNorm(32, c_in), nn.Conv2d(c_in, c_out, 3, padding=1)
        self.temb = nn.Linear(temb, c_out)
        self.norm2, self.conv2 = nn.GroupNorm(32, c_out), nn.Conv2d(c_out, c_out, 3, padding=1)
        self.skip = nn.Conv2d(c_in, c_out, 1) if c_in != c_out else nn.Identity()

    def forward(self, x, t):
        h = self.conv1(F.silu(self.norm1(x))) + self.temb(F.silu(t))[:, :, None, None]
        return self.skip(x) + self.conv2(F.silu(self.norm2(h)))


class TransformerBlock(nn.Module):
    """Self-attention, cross-attention to the text, GEGLU feed-forward, each after a LayerNorm."""

    def __init__(self, dim, heads, ctx_dim):
        super().__init__()
        self.norm1, self.attn1 = nn.LayerNorm(dim), Attention(dim, heads)
        self.norm2, self.attn2 = nn.LayerNorm(dim), Attention(dim, heads, ctx_dim)
        self.norm3, self.ff_in, self.ff_out = nn.LayerNorm(dim), nn.Linear(dim, 8 * dim), nn.Linear(4 * dim, dim)

    def forward(self, x, ctx):
        x = x + self.attn1(self.norm1(x))
        x = x + self.attn2(self.norm2(x), ctx)
        h, gate = self.ff_in(self.norm3(x)).chunk(2, dim=-1)
        return x + self.ff_out(h * F.gelu(gate))


class SpatialTransformer(nn.Module):
    def __init__(self, c, heads, ctx_dim, depth, linear_projection):
        super().__init__()
        self.norm = nn.GroupNorm(32, c, eps=1e-6)
        self.linear = linear_projection
        self.proj_in = nn.Linear(c, c) if linear_projection else nn.Conv2d(c, c, 1)
        self.blocks = nn.ModuleList(TransformerBlock(c, heads, ctx_dim) for _ in range(depth))
        self.proj_out = nn.Linear(c, c) if linear_projection else nn.Conv2d(c, c, 1)

    def forward(self, x, ctx):
        b, c, h, w = x.shape
        y = self.norm(x)
        if not self.linear:
            y = self.proj_in(y)
        y = y.permute(0, 2, 3, 1).reshape(b, h * w, c)
        if self.linear:
            y = self.proj_in(y)
        for block in self.blocks:
            y = block(y, ctx)
        if self.linear:
            y = self.proj_out(y)
        y = y.reshape(b, h, w, c).permute(0, 3, 1, 2)
        if not self.linear:
            y = self.proj_out(y.contiguous())
        return x + y


class UNetEncoder(nn.Module):
    """conv_in, per level two ResBlocks (each with its transformer where the level has attention) and a
    stride-2 downsampling conv, then the mid block (ResBlock, transformer, ResBlock) and a conv head."""

    def __init__(self, levels, ctx_dim, linear_projection):
        super().__init__()
        c0 = levels[0][0]
        self.time = TimeMlp(c0, 4 * c0)
        self.conv_in = nn.Conv2d(4, c0, 3, padding=1)
        self.layers = nn.ModuleList()
        c_prev = c0
        for i, (c, heads, depth) in enumerate(levels):
            for _ in range(2):
                self.layers.append(ResBlock(c_prev, c, 4 * c0))
                if heads:
                    self.layers.append(SpatialTransformer(c, heads, ctx_dim, depth, linear_projection))
                c_prev = c
            if i + 1 < len(levels):
                self.layers.append(nn.Conv2d(c, c, 3, stride=2, padding=1))
        c, heads, depth = levels[-1][0], levels[-1][1] or levels[-2][1], levels[-1][2] or levels[-2][2]
        self.layers.extend([ResBlock(c, c, 4 * c0), SpatialTransformer(c, heads, ctx_dim, depth, linear_projection),
                            ResBlock(c, c, 4 * c0)])
        self.head = nn.Sequential(nn.GroupNorm(32, c), nn.SiLU(), nn.Conv2d(c, 4, 3, padding=1))

    def forward(self, sample, timestep, encoder_hidden_states):
        t = self.time(timestep)
        x = self.conv_in(sample)
        for layer in self.layers:
            if isinstance(layer, ResBlock):
                x = layer(x, t)
            elif isinstance(layer, SpatialTransformer):
                x = layer(x, encoder_hidden_states)
            else:
                x = layer(x)
        return self.head(x)


def modulate(x, shift, scale):
    return x * (1 + scale[:, None]) + shift[:, None]


class JointBlock(nn.Module):
    """MMDiT: image and text tokens, each with its own adaLN modulation, projections and MLP, attend jointly."""

    def __init__(self, dim, heads, qk_norm):
        super().__init__()
        self.heads, self.qk_norm = heads, qk_norm
        self.streams = nn.ModuleList(nn.ModuleDict({
            "ada": nn.Linear(dim, 6 * dim), "norm1": nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6),
            "qkv": nn.Linear(dim, 3 * dim), "out": nn.Linear(dim, dim),
            "norm2": nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6),
            "fc1": nn.Linear(dim, 4 * dim), "fc2": nn.Linear(4 * dim, dim)}) for _ in range(2))

    def forward(self, x, ctx, temb):
        mods, qkvs = [], []
        for s, h in zip(self.streams, (x, ctx)):
            m = s["ada"](F.silu(temb)).chunk(6, dim=-1)
            mods.append(m)
            b, n, d = h.shape
            qkv = s["qkv"](modulate(s["norm1"](h), m[0], m[1])).view(b, n, 3, self.heads, d // self.heads)
            qkvs.append(qkv.permute(2, 0, 3, 1, 4))
        q, k, v = (torch.cat([qkvs[0][i], qkvs[1][i]], dim=2) for i in range(3))
        if self.qk_norm:
            q, k = F.rms_norm(q, (q.shape[-1],)), F.rms_norm(k, (k.shape[-1],))
        o = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).flatten(2)
        outs = []
        for s, h, m, o_part in zip(self.streams, (x, ctx), mods, o.split([x.shape[1], ctx.shape[1]], dim=1)):
            h = h + m[2][:, None] * s["out"](o_part)
            mlp = s["fc2"](F.gelu(s["fc1"](modulate(s["norm2"](h), m[3], m[4])), approximate="tanh"))
            outs.append(h + m[5][:, None] * mlp)
        return outs[0], outs[1]


class SingleBlock(nn.Module):
    """Flux's single-stream block: one projection to q, k, v and the MLP, attention over all tokens."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads, self.dim = heads, dim
        self.ada, self.norm = nn.Linear(dim, 3 * dim), nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.proj_in, self.proj_out = nn.Linear(dim, 7 * dim), nn.Linear(5 * dim, dim)

    def forward(self, h, temb):
        shift, scale, gate = self.ada(F.silu(temb)).chunk(3, dim=-1)
        qkv, mlp = self.proj_in(modulate(self.norm(h), shift, scale)).split([3 * self.dim, 4 * self.dim], dim=-1)
        b, n, _ = h.shape
        q, k, v = qkv.view(b, n, 3, self.heads, self.dim // self.heads).permute(2, 0, 3, 1, 4)
        q, k = F.rms_norm(q, (q.shape[-1],)), F.rms_norm(k, (k.shape[-1],))
        o = F.scaled_dot_product_attention(q, k, v).transpose(1, 2).flatten(2)
        return h + gate[:, None] * self.proj_out(torch.cat([o, F.gelu(mlp, approximate="tanh")], dim=-1))


class DiT(nn.Module):
    def __init__(self, dim, heads, joint, single, ctx_dim, pooled_dim, patchify, qk_norm):
        super().__init__()
        self.patchify = patchify  # SD3: a 2x2 stride-2 conv on the latent; Flux: packed tokens, a linear
        self.x_in = nn.Conv2d(16, dim, 2, stride=2) if patchify else nn.Linear(64, dim)
        self.ctx_in, self.pooled = nn.Linear(ctx_dim, dim), nn.Linear(pooled_dim, dim)
        self.time = TimeMlp(256, dim)
        self.joint = nn.ModuleList(JointBlock(dim, heads, qk_norm) for _ in range(joint))
        self.single = nn.ModuleList(SingleBlock(dim, heads) for _ in range(single))
        self.norm_out, self.proj_out = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6), nn.Linear(dim, 64)

    def forward(self, hidden_states, encoder_hidden_states, pooled_projections, timestep):
        x = self.x_in(hidden_states)
        if self.patchify:
            x = x.flatten(2).transpose(1, 2)
        ctx = self.ctx_in(encoder_hidden_states)
        temb = self.time(timestep) + self.pooled(pooled_projections)
        for block in self.joint:
            x, ctx = block(x, ctx, temb)
        if len(self.single):
            n = x.shape[1]
            h = torch.cat([x, ctx], dim=1)
            for block in self.single:
                h = block(h, temb)
            x = h[:, :n]
        return self.proj_out(self.norm_out(x))


# The real models' widths, depths, heads and step inputs (denoiser_steps.MODELS' configs).
MODELS = {
    "sd15-unet": dict(dtype="float16", conv=True,
                      build=lambda: UNetEncoder([(320, 8, 1), (640, 8, 1), (1280, 8, 1), (1280, None, None)], 768, False),
                      inputs=lambda t, d: dict(sample=t((2, 4, 64, 64), d), timestep=t((2,), None).abs() * 999,
                                               encoder_hidden_states=t((2, 77, 768), d))),
    "sdxl-unet": dict(dtype="float16", conv=True,
                      build=lambda: UNetEncoder([(320, None, None), (640, 10, 2), (1280, 20, 10)], 2048, True),
                      inputs=lambda t, d: dict(sample=t((2, 4, 128, 128), d), timestep=t((2,), None).abs() * 999,
                                               encoder_hidden_states=t((2, 77, 2048), d))),
    "sd3-mmdit": dict(dtype="bfloat16", conv=False,
                      build=lambda: DiT(1536, 24, 24, 0, 4096, 2048, patchify=True, qk_norm=False),
                      inputs=lambda t, d: dict(hidden_states=t((2, 16, 128, 128), d),
                                               encoder_hidden_states=t((2, 333, 4096), d),
                                               pooled_projections=t((2, 2048), d), timestep=t((2,), None).abs() * 999)),
    "flux-dit": dict(dtype="bfloat16", conv=False,
                     build=lambda: DiT(3072, 24, 19, 38, 4096, 768, patchify=False, qk_norm=True),
                     inputs=lambda t, d: dict(hidden_states=t((1, 4096, 64), d),
                                              encoder_hidden_states=t((1, 512, 4096), d),
                                              pooled_projections=t((1, 768), d), timestep=t((1,), None).abs())),
}
