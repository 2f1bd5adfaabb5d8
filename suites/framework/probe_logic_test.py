#!/usr/bin/env python3
"""The framework probe's own logic without torch or a GPU (tools/framework/framework_probe.py): how it
tells an absent extension package from one that is installed and broken, the arguments it hands each
extension, and its reading of /proc/self/maps. Run: probe_logic_test.py TOOLS_FRAMEWORK_DIR"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "../../tools/framework"))
import framework_probe as probe  # noqa: E402


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


if __name__ == "__main__":
    unittest.main(verbosity=1)
