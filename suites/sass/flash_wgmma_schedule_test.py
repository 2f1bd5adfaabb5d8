#!/usr/bin/env python3
"""tools/sass/flash_wgmma_schedule.py's rules on SASS written by hand: the schedule as flash_wgmma.cu is built
today holds; the two ways a toolkit has undone it (a wait hoisted above the softmax, a fence ptxas injected)
are each caught; the listing parser finds the instances by name. Exit 0 when all hold."""
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1] if len(sys.argv) > 1 else ".", "tools", "sass"))
import flash_wgmma_schedule as schedule  # noqa: E402

QK = ["QGMMA.64x128x32.F32.E4M3.E4M3 R24, gdesc[UR4], R24, gsb0"] * 2
PV = ["QGMMA.64x128x32.F32.E4M3.E4M3 R88, R8, gdesc[UR8], R88, gsb0"] * 2
SOFTMAX = ["FMNMX R2, R3, R4, !PT", "MUFU.EX2 R5, R6", "FFMA R7, R5, R1, R0", "MUFU.EX2 R9, R10"]


def kernel(loop_softmax_between_waits=True, injected_arrive=False):
    first = ["WARPGROUP.ARRIVE"] + QK + ["WARPGROUP.DEPBAR.LE gsb0, 0x0"] + SOFTMAX
    loop = ["SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR5+0x8], R3", "WARPGROUP.ARRIVE"] + QK + PV
    if loop_softmax_between_waits:
        loop += ["WARPGROUP.DEPBAR.LE gsb0, 0x1"] + SOFTMAX + ["WARPGROUP.DEPBAR.LE gsb0, 0x0", "BRA 0x400"]
    else:
        loop += ["WARPGROUP.DEPBAR.LE gsb0, 0x1", "WARPGROUP.DEPBAR.LE gsb0, 0x0"] + SOFTMAX + ["BRA 0x400"]
    if injected_arrive:
        loop.insert(loop.index(PV[0]), "WARPGROUP.ARRIVE")
    last = ["WARPGROUP.ARRIVE"] + PV + ["WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"]
    return first + loop + last


def listing(names):
    """A cuobjdump -sass listing of the kernel under each name."""
    text = "\n\tcode for sm_90a\n"
    for name in names:
        text += f"\t\tFunction : {name}\n\t.headerflags\t@\"EF_CUDA_SM90\"\n"
        for n, ins in enumerate(kernel()):
            text += f"        /*{n * 16:04x}*/                   {ins} ;  /* 0x000000000000 */\n"
    return text


def main():
    failures = []

    def expect(what, ok):
        if not ok:
            failures.append(what)

    expect("the schedule as built holds", schedule.check(kernel()) == [])
    hoisted = schedule.check(kernel(loop_softmax_between_waits=False))
    expect("a hoisted wait is caught", len(hoisted) == 1 and "0 of the loop's exponentials" in hoisted[0])
    injected = schedule.check(kernel(injected_arrive=True))
    expect("an injected fence is caught", len(injected) == 1 and "4 WARPGROUP.ARRIVE" in injected[0])
    found = schedule.functions(listing(["_Z21flash_attention_wgmmaI6__halfLi64EEvv", "_Z10gemm_wgmmav"]))
    expect("the parser keeps the flash instances only", list(found) == ["_Z21flash_attention_wgmmaI6__halfLi64EEvv"])
    expect("the parser reads every instruction", found and next(iter(found.values())) == kernel())
    for f in failures:
        print(f"FAIL: {f}")
    print(f"{5 - len(failures)} of 5 hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
