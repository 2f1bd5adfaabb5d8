"""How the framework probe measures (framework_probe.py): the SM clock and its power state, where the
probe's time goes, the kernels a call launches and their times, the GPU hold that keeps the stream busy
while a call is queued (archbench's own waiting kernel, as PTX the driver compiles), and the timers.

Module state: CLOCK and HOLD are made once torch is loaded (init); PHASE_SECONDS collects the phases."""
import os
import statistics
import time

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


CLOCK = None  # set by init, once torch is loaded
PHASE_SECONDS = {}  # where the probe's time goes, for the answer's "phase_seconds"


class phase:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.t0 = time.perf_counter()

    def __exit__(self, *exc):
        PHASE_SECONDS[self.name] = PHASE_SECONDS.get(self.name, 0.0) + time.perf_counter() - self.t0


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


HOLD = None  # set by init, once torch is loaded


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


def init(torch):
    """The clock and the hold, once torch has a GPU."""
    global CLOCK, HOLD
    CLOCK, HOLD = SmClock(torch), GpuHold(torch)
