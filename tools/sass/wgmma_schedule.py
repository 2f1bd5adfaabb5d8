#!/usr/bin/env python3
"""Checks, in the SASS ptxas made, the wgmma schedules the Hopper kernels' speed rests on; a toolkit change can
undo them without a wrong result (ptxas reports an injected fence, C7519, as `info`, and the build passes).

For every instance in FILE (an object file or a binary with sm_90a code), by kernel template:
- wgmma_gemm (the GEMMs and the implicit-GEMM convolutions, kernels/common/wgmma_gemm.cuh): one wgmma group per
  k-step, in flight while the next is issued: one WARPGROUP.ARRIVE, the group's wgmmas, one
  `WARPGROUP.DEPBAR.LE gsb0, 0x1`, then the drain (0x0). A serialised wgmma brings a fence and a wait of its own.
- flash_attention_wgmma (kernels/attention/flash_wgmma.cu, "Two places depend on how ptxas schedules"):
  1. three WARPGROUP.ARRIVE (the first key tile's Q·Kᵀ, the loop's Q·Kᵀ and P·V, the last tile's P·V), one wait
     with a group in flight (the loop's, for Q·Kᵀ while P·V runs), and the loop's group holding the first and
     the last groups' wgmmas together;
  2. the loop's softmax while P·V is on the tensor cores: as many exponentials (MUFU.EX2) between the loop's two
     waits (0x1, then 0x0) as the first key tile's softmax has. If ptxas hoists the 0x0 wait above the softmax
     (the softmax fence no longer holding), they come after it.

Exit 0 when every instance holds, 1 when one does not (the reasons printed), 77 when the check cannot run
(no cuobjdump, or one that cannot disassemble: it needs nvdisasm), 2 on bad usage or no instance in FILE.
"""
import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))
from corpus_facts import find_cuobjdump  # noqa: E402  (one rule for where cuobjdump is)

SKIP = 77
ARRIVE = "WARPGROUP.ARRIVE"
WAIT_1 = re.compile(r"WARPGROUP\.DEPBAR\.LE gsb0, 0x1\b")
WAIT_0 = re.compile(r"WARPGROUP\.DEPBAR\.LE gsb0, 0x0\b")
MMA = re.compile(r"\b[HQ]GMMA\.")
EX2 = re.compile(r"\bMUFU\.EX2\b")


def disassemble(cuobjdump, path):
    """cuobjdump -sass of path, or None when it cannot disassemble (printed why)."""
    env = dict(os.environ)
    tool_dir = os.path.dirname(cuobjdump)  # the pip wheels put nvdisasm beside cuobjdump
    env["PATH"] = tool_dir + os.pathsep + env.get("PATH", "")
    try:
        r = subprocess.run([cuobjdump, "-sass", "-arch", "sm_90a", path], capture_output=True, text=True, env=env,
                           timeout=300)
    except (OSError, subprocess.TimeoutExpired) as e:
        print(f"skipped: {cuobjdump} did not run: {e}")
        return None
    if r.returncode != 0:
        print(f"skipped: {cuobjdump} -sass -arch sm_90a {path} failed: {(r.stderr or r.stdout).strip()[:300]}")
        return None
    return r.stdout


def functions(sass):
    """{mangled name: [instruction text]} of the instances of the templates checked here (RULES)."""
    found = {}
    for block in re.split(r"\n\s*Function : ", sass)[1:]:
        name, _, body = block.partition("\n")
        if rule_for(name) is None:
            continue
        found[name.strip()] = [m.group(1).strip() for m in re.finditer(r"/\*[0-9a-f]{4,}\*/\s+([^;]*);", body)]
    return found


def count(instructions, start, end, pattern):
    """How many of instructions[start:end] match pattern."""
    return sum(1 for i in instructions[start:end] if pattern.search(i))


def positions(instructions):
    """Where the fences (ARRIVE) and the waits with one group (0x1) and none (0x0) in flight stand."""
    return ([n for n, i in enumerate(instructions) if ARRIVE in i],
            [n for n, i in enumerate(instructions) if WAIT_1.search(i)],
            [n for n, i in enumerate(instructions) if WAIT_0.search(i)])


def check_gemm(instructions):
    """wgmma_gemm: the reasons this instance breaks its schedule (empty when it holds)."""
    arrives, waits_1, waits_0 = positions(instructions)
    mmas = [n for n, i in enumerate(instructions) if MMA.search(i)]
    if len(arrives) != 1 or len(waits_1) != 1 or len(waits_0) != 1:
        return [f"{len(arrives)} WARPGROUP.ARRIVE, {len(waits_1)} waits with a group in flight and {len(waits_0)} "
                "drains, where 1, 1 and 1 were written: ptxas added fences (serialised wgmma, C7519?)"]
    if not mmas or not (arrives[0] < mmas[0] and mmas[-1] < waits_1[0] < waits_0[0]):
        return ["the k-step's wgmmas are not between its fence and its wait"]
    return []


def check_flash(instructions):
    """flash_attention_wgmma: the reasons this instance breaks its schedule (empty when it holds)."""
    arrives, waits_1, waits_0 = positions(instructions)
    if len(arrives) != 3 or len(waits_1) != 1:
        return [f"{len(arrives)} WARPGROUP.ARRIVE and {len(waits_1)} waits with one group in flight, where 3 and 1 "
                "were written: ptxas added fences (serialised wgmma, C7519?)"]
    first, loop, last = arrives
    loop_wait_1 = waits_1[0]
    after = [n for n in waits_0 if n > loop_wait_1]
    first_wait = [n for n in waits_0 if first < n < loop]
    if not (loop < loop_wait_1 < last) or not after or not first_wait:
        return ["the waits are not where they were written (first tile, loop, last tile)"]
    loop_wait_0 = after[0]
    reasons = []
    mma_first = count(instructions, first, first_wait[0], MMA)
    mma_loop = count(instructions, loop, loop_wait_1, MMA)
    last_wait = [n for n in waits_0 if n > last]
    mma_last = count(instructions, last, last_wait[0], MMA) if last_wait else -1
    if mma_loop != mma_first + mma_last:
        reasons.append(f"the loop's wgmma group holds {mma_loop} instructions, not the first tile's {mma_first} "
                       f"plus the last tile's {mma_last}")
    softmax = count(instructions, first_wait[0], loop, EX2)  # the first tile's softmax, the same code
    overlapped = count(instructions, loop_wait_1, loop_wait_0, EX2)
    if softmax == 0 or overlapped != softmax:
        reasons.append(f"{overlapped} of the loop's exponentials run while P·V is in flight, where the softmax "
                       f"has {softmax}: the wait for P·V moved (the softmax fence no longer holds?)")
    return reasons


RULES = {"flash_attention_wgmma": check_flash, "wgmma_gemm": check_gemm}


def rule_for(name):
    """The check for a mangled kernel name, or None for a kernel not checked here."""
    return next((rule for template, rule in RULES.items() if template in name), None)


def check(name, instructions):
    return rule_for(name)(instructions)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="+", help="object files or binaries with sm_90a wgmma code")
    ap.add_argument("--cuobjdump", help="the cuobjdump to use (default: PATH, the pip wheel, CUDA's)")
    args = ap.parse_args()
    cuobjdump = find_cuobjdump(args.cuobjdump)
    if not cuobjdump:
        print("skipped: no cuobjdump (CUDA's, or pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm)")
        return SKIP
    instances = {}
    for path in args.files:
        if not os.path.isfile(path):
            print(f"error: {path}: no such file", file=sys.stderr)
            return 2
        sass = disassemble(cuobjdump, path)
        if sass is None:
            return SKIP
        instances.update(functions(sass))
    if not instances:
        print(f"error: no wgmma kernel ({', '.join(RULES)}) in {', '.join(args.files)}", file=sys.stderr)
        return 2
    failed = 0
    for name, instructions in sorted(instances.items()):
        reasons = check(name, instructions)
        if reasons:
            failed += 1
            print(f"FAIL {name}")
            for r in reasons:
                print(f"     {r}")
    kinds = ", ".join(f"{sum(1 for n in instances if t in n)} {t}" for t in RULES)
    print(f"wgmma schedules: {len(instances) - failed} of {len(instances)} instance(s) hold ({kinds})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
