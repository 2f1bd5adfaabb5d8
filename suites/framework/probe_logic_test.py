#!/usr/bin/env python3
"""The framework probe's own logic without torch or a GPU (tools/framework/framework_probe.py): how it
tells an absent extension package from one that is installed and broken, the arguments it hands each
extension, its reading of /proc/self/maps, the stream hold's kernel, and compare_twins.py on recorded runs. Run: probe_logic_test.py TOOLS_FRAMEWORK_DIR"""
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../tools/framework"))
import framework_probe as probe  # noqa: E402
import probe_timing  # noqa: E402


class FakeTensor:
    """Enough of a tensor for the layout the probe hands an extension: transpose swaps two dims."""
    def __init__(self, shape):
        self.shape = tuple(shape)

    def transpose(self, a, b):
        s = list(self.shape)
        s[a], s[b] = s[b], s[a]
        return FakeTensor(s)


class ExtensionImports(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        sys.path.insert(0, self.dir)
        probe._extension_calls.clear()
        for name in probe.EXTENSIONS + ("xformers.ops",):
            sys.modules.pop(name, None)

    def tearDown(self):
        sys.path.remove(self.dir)
        shutil.rmtree(self.dir, ignore_errors=True)

    def package(self, name, init, files=()):
        os.makedirs(os.path.join(self.dir, name), exist_ok=True)
        with open(os.path.join(self.dir, name, "__init__.py"), "w") as f:
            f.write(init)
        for fname, text in files:
            with open(os.path.join(self.dir, name, fname), "w") as f:
                f.write(text)

    def test_an_absent_package_is_not_installed(self):
        call, cannot = probe.extension_attention("sageattention")
        self.assertIsNone(call)
        self.assertEqual(cannot[0], "not-installed")

    def test_an_installed_package_whose_import_breaks_failed_with_its_reason(self):
        self.package("flash_attn", "raise ImportError('flash_attn_2_cuda.so: undefined symbol: _ZN3c10')\n")
        call, cannot = probe.extension_attention("flash_attn")
        self.assertIsNone(call)
        self.assertEqual(cannot[0], "failed")
        self.assertIn("undefined symbol", cannot[1])

    def test_xformers_gets_batch_seq_heads_dim_and_answers_in_the_sdpa_layout(self):
        self.package("xformers", "", [("ops.py", "def memory_efficient_attention(q, k, v):\n"
                                                  "    assert q.shape == (2, 4096, 8, 40), q.shape\n    return q\n")])
        call, cannot = probe.extension_attention("xformers")
        self.assertIsNone(cannot)
        out = call(FakeTensor((2, 8, 4096, 40)), FakeTensor((2, 8, 77, 40)), FakeTensor((2, 8, 77, 40)))
        self.assertEqual(out.shape, (2, 8, 4096, 40))

    def test_the_answer_is_cached_per_package(self):
        probe.extension_attention("sageattention")
        self.package("sageattention", "def sageattn(q, k, v, tensor_layout, is_causal):\n    return q\n")
        self.assertEqual(probe.extension_attention("sageattention")[1][0], "not-installed")

    def test_every_extension_names_the_dtypes_it_takes(self):
        self.assertEqual(set(probe.EXTENSION_DTYPES), set(probe.EXTENSIONS))


class LoadedLibraries(unittest.TestCase):
    def test_the_interpreters_own_shared_objects_are_listed(self):
        libs = probe.loaded_libraries()
        self.assertTrue(all(p.startswith("/") and ".so" in p for p in libs))
        self.assertTrue(any("libc" in os.path.basename(p) for p in libs), libs[:5])


class StreamHold(unittest.TestCase):
    def test_the_waiting_kernel_assembles(self):
        """The PTX the probe hands the driver is valid: ptxas (the toolkit's, as on CI) assembles it."""
        ptxas = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
        if not os.path.exists(ptxas):
            self.skipTest("no ptxas")
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "hold.ptx")
            with open(src, "wb") as f:
                f.write(probe_timing._HOLD_PTX)
            done = subprocess.run([ptxas, "-arch=sm_80", src, "-o", os.path.join(d, "hold.cubin")],
                                  capture_output=True, text=True)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b".entry archbench_wait_for_release", probe_timing._HOLD_PTX)

    def test_without_a_driver_the_hold_is_off_and_says_so(self):
        try:
            ctypes.CDLL("libcuda.so.1")
            self.skipTest("a driver is installed here")
        except OSError:
            pass
        self.assertFalse(probe_timing.GpuHold(None).ok)


class CompareTwins(unittest.TestCase):
    def test_repeated_measurements_compare_by_their_medians(self):
        """Two framework runs and two archbench runs of the 16 GEMM twins, recorded on the H200."""
        fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../fixtures/framework")
        tool = os.path.join(os.path.dirname(probe.__file__), "compare_twins.py")
        files = [os.path.join(fixtures, "twins_%s.json" % n) for n in ("fw2", "run2", "fw3", "run3")]
        out = subprocess.run([sys.executable, tool] + files, capture_output=True, text=True, check=True).stdout
        self.assertIn("library twins by time: 16 pairs, median torch/archbench 1.001, within 3%: 16", out)
        # 4096^3 f16: torch 182.1 and 183.3 us, archbench 181.1 twice: the medians and each side's range
        row = next(line for line in out.splitlines() if line.startswith("matmul/f16/M4096_N4096_K4096"))
        self.assertEqual(row.split()[1:6], ["182.7", "0.7%", "181.1", "0.0%", "1.009"])
        one = subprocess.run([sys.executable, tool, files[0]], capture_output=True, text=True)
        self.assertNotEqual(one.returncode, 0)  # no run file: a usage error, not an empty table
        self.assertIn("at least one of each", one.stderr)


class TorchTwinsUsesTheProbesTimer(unittest.TestCase):
    """tools/torch_twins/torch_twins.py times PyTorch with the probe's timer; it needs torch and a GPU to run,
    so here every name it takes from the probe's modules must exist in them (a move between those modules once
    left it calling a name that was gone, found only on the GPU machine)."""

    def test_every_probe_name_it_uses_exists(self):
        import ast
        path = os.path.join(os.path.dirname(probe_timing.__file__), "..", "torch_twins", "torch_twins.py")
        tree = ast.parse(open(path).read())
        modules = {"probe_timing": probe_timing, "framework_probe": probe}
        used = [(n.value.id, n.attr) for n in ast.walk(tree)
                if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in modules]
        self.assertTrue(used, "torch_twins.py takes nothing from the probe's modules")
        for module, name in used:
            self.assertTrue(hasattr(modules[module], name), f"torch_twins.py uses {module}.{name}, which does not exist")


if __name__ == "__main__":
    unittest.main(verbosity=1)
