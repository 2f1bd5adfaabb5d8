#!/usr/bin/env python3
"""tools/sass/wgmma_schedule.py's rules on SASS written by hand: the schedules as the kernels are built today hold;
the ways a toolkit can undo them (flash_wgmma: a wait hoisted above the softmax, a fence ptxas injected;
wgmma_gemm: serialised wgmmas) are each caught; the listing parser keeps the checked templates by name.
Argument: the source directory. Exit 0 when all hold."""
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1] if len(sys.argv) > 1 else ".", "tools", "sass"))
import wgmma_schedule as schedule  # noqa: E402

QK = ["QGMMA.64x128x32.F32.E4M3.E4M3 R24, gdesc[UR4], R24, gsb0"] * 2
PV = ["QGMMA.64x128x32.F32.E4M3.E4M3 R88, R8, gdesc[UR8], R88, gsb0"] * 2
SOFTMAX = ["FMNMX R2, R3, R4, !PT", "MUFU.EX2 R5, R6", "FFMA R7, R5, R1, R0", "MUFU.EX2 R9, R10"]
FLASH = "_ZN9archbench7kernels9attention18flash_wgmma_detail21flash_attention_wgmmaI6__halfLi64EEEvv"
GEMM = "_ZN9archbench7kernels10wgmma_gemm10wgmma_gemmI6__halfLi160EEEvv"


def flash(loop_softmax_between_waits=True, injected_arrive=False):
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


def gemm(serialised=False):
    mma = "HGMMA.64x160x16.F32 R24, gdesc[UR4], R24, gsb0"
    if serialised:  # what ptxas makes of wgmmas it cannot keep in flight: each waited for alone
        group = ["WARPGROUP.ARRIVE", mma, "WARPGROUP.DEPBAR.LE gsb0, 0x0"] * 4
    else:
        group = ["WARPGROUP.ARRIVE"] + [mma] * 4 + ["WARPGROUP.DEPBAR.LE gsb0, 0x1"]
    return ["SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [UR5+0x8], R3"] + group + ["BRA 0x200",
                                                                         "WARPGROUP.DEPBAR.LE gsb0, 0x0", "EXIT"]


def listing(kernels):
    """A cuobjdump -sass listing of {name: instructions}."""
    text = "\n\tcode for sm_90a\n"
    for name, instructions in kernels.items():
        text += f"\t\tFunction : {name}\n\t.headerflags\t@\"EF_CUDA_SM90\"\n"
        for n, ins in enumerate(instructions):
            text += f"        /*{n * 16:04x}*/                   {ins} ;  /* 0x000000000000 */\n"
    return text


def main():
    failures = []

    def expect(what, ok):
        if not ok:
            failures.append(what)

    expect("flash_wgmma's schedule as built holds", schedule.check(FLASH, flash()) == [])
    hoisted = schedule.check(FLASH, flash(loop_softmax_between_waits=False))
    expect("a hoisted wait is caught", len(hoisted) == 1 and "0 of the loop's exponentials" in hoisted[0])
    injected = schedule.check(FLASH, flash(injected_arrive=True))
    expect("an injected fence is caught", len(injected) == 1 and "4 WARPGROUP.ARRIVE" in injected[0])
    expect("wgmma_gemm's schedule as built holds", schedule.check(GEMM, gemm()) == [])
    serialised = schedule.check(GEMM, gemm(serialised=True))
    expect("serialised wgmmas are caught", len(serialised) == 1 and "4 WARPGROUP.ARRIVE" in serialised[0])
    found = schedule.functions(listing({FLASH: flash(), "_Z12empty_kernelv": ["EXIT"], GEMM: gemm()}))
    expect("the parser keeps the checked templates only", sorted(found) == sorted([FLASH, GEMM]))
    expect("the parser reads every instruction", found.get(FLASH) == flash() and found.get(GEMM) == gemm())
    for f in failures:
        print(f"FAIL: {f}")
    print(f"{7 - len(failures)} of 7 hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
