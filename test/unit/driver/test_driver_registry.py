"""The pass registry: typed options, registration rules, plugins and entry points."""

from __future__ import annotations

import importlib.metadata
import pkgutil
import sys
from dataclasses import FrozenInstanceError, dataclass

import pytest

from tileopt.ir import TileoptError
from tileopt.passes import Pass, all_passes, get_pass, option, register_pass
from tileopt.passes import registry
from tileopt.passes.options import split_option_text

GENERIC = ["inline", "canonicalize", "cse", "symbol-dce", "sccp", "triton-licm",
           "loop-invariant-code-motion", "triton-loop-aware-cse", "convert-scf-to-cf"]


@pytest.mark.parametrize("name", GENERIC)
def test_generic_passes_are_registered_with_summaries(name):
    cls = get_pass(name)
    assert cls is not None and cls.name == name
    assert cls.one_line_summary()


def test_builtin_pass_modules_import_cleanly():
    # A module that fails to import stops the registry (no failure is hidden).
    registry.load_builtin_passes()
    import tileopt.transforms.common as common

    for info in pkgutil.iter_modules(common.__path__):
        assert f"tileopt.transforms.common.{info.name}" in sys.modules


def test_options_have_cli_names_types_and_defaults():
    @register_pass
    class Probe(Pass):
        """A probe."""

        name = "unit-test-probe"
        num_warps: int = option(4, "warps")
        kPack: int = option(1, "k pack", name="kPack")
        sizes: tuple[int, ...] = option((16, 16))
        mode: str = option("a", choices=("a", "b"))

    specs = {s.name: s for s in Probe.options()}
    assert list(specs) == ["num-warps", "kPack", "sizes", "mode"]
    assert specs["num-warps"].type_name == "int" and specs["num-warps"].default == 4
    assert specs["sizes"].type_name == "list<int>"
    assert specs["sizes"].parse("1,2,3") == (1, 2, 3)
    assert specs["kPack"].parse("0x2") == 2
    with pytest.raises(ValueError, match="must be one of a, b"):
        specs["mode"].parse("c")
    probe = Probe.from_options({"num-warps": 8, "kPack": 2})
    assert probe.pipeline_text() == "unit-test-probe{num-warps=8 kPack=2 sizes=16,16 mode=a}"
    with pytest.raises(FrozenInstanceError):
        probe.num_warps = 1  # passes are immutable values
    assert all_passes()["unit-test-probe"] is Probe


def test_option_specs_are_remembered_per_class_not_inherited():
    from tileopt.passes.options import option_specs

    @register_pass
    class Parent(Pass):
        name = "unit-test-cache-parent"
        width: int = option(2)

    @register_pass
    class Child(Parent):
        name = "unit-test-cache-child"
        depth: str = option("x")

    def make(kind, default):  # one qualified name, two classes
        return dataclass(frozen=True)(type("Twin", (Pass,), {
            "name": "unit-test-cache-twin", "__annotations__": {"width": kind},
            "width": option(default)}))

    # Parent's were asked first (by register_pass): the child must not get them.
    assert [s.name for s in Parent.options()] == ["width"]
    assert [s.name for s in Child.options()] == ["width", "depth"]
    assert Child.options()[1].type is str
    twins = make(float, 0.5), make(int, 1)
    assert [t.options()[0].type for t in twins] == [float, int]
    # Built once: the same spec objects each time, in a fresh list the caller may change.
    first = option_specs(Child)
    first.clear()
    assert option_specs(Child)[0] is Child.options()[0]


def test_registering_another_class_under_a_taken_name_fails():
    with pytest.raises(TileoptError, match="registered twice"):
        @register_pass
        class Impostor(Pass):
            name = "cse"


def test_option_text_splitting():
    parts = split_option_text("a=1 b='x y' c={p q} flag d=\"z\"")
    assert [(p.key, p.value) for p in parts] == [("a", "1"), ("b", "x y"), ("c", "p q"),
                                                 ("flag", "true"), ("d", "z")]
    assert parts[1].offset == 4


def test_plugin_file(tmp_path):
    plugin = tmp_path / "my_plugin.py"
    plugin.write_text(
        "from tileopt.passes import Pass, register_pass\n"
        "@register_pass\n"
        "class Mine(Pass):\n"
        "    name = 'unit-test-plugin-pass'\n"
        "    def apply(self, ctx, op):\n"
        "        pass\n")
    registry.load_plugin_file(str(plugin))
    assert get_pass("unit-test-plugin-pass") is not None


def test_plugin_file_errors_are_located(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("x = 1\nraise ValueError('nope')\n")
    with pytest.raises(TileoptError) as err:
        registry.load_plugin_file(str(bad))
    assert (err.value.file, err.value.line) == (str(bad), 2)
    assert "ValueError: nope" in err.value.message


def test_entry_point_plugins(monkeypatch):
    class FromEntryPoint(Pass):
        name = "unit-test-entry-point-pass"

    class FakeEntryPoint:
        name, value = "demo", "demo.passes:FromEntryPoint"

        def load(self):
            return FromEntryPoint

    def fake_entry_points(group):
        assert group == "tileopt.passes"
        return [FakeEntryPoint()]

    monkeypatch.setattr(importlib.metadata, "entry_points", fake_entry_points)
    monkeypatch.setattr(registry, "_entry_points_loaded", False)
    registry.load_entry_point_plugins()
    assert get_pass("unit-test-entry-point-pass") is not None


def test_pass_index_matches_the_registrations():
    # tileopt/passes/index.py lets a run import only the passes it uses; it must name the
    # module of every built-in pass and no other (regenerate: python -m tileopt.passes.registry).
    from tileopt.passes.index import PASS_MODULES

    assert PASS_MODULES == registry.builtin_pass_modules()


def test_a_pass_flag_imports_only_its_module():
    # In a fresh interpreter: parsing a command line with a pass flag and building its
    # pipeline imports that pass's module, not every pass module.
    import subprocess

    code = ("import sys; from tileopt.driver.opt import _build_pipeline; "
            "from tileopt.driver.argv import parse_argv; from tileopt.driver.opt import FLAGS; "
            "from tileopt.passes import registry; "
            "args = parse_argv(['--cse'], FLAGS, registry.is_builtin_or_registered, "
            "registry.pass_names); _build_pipeline(args); "
            "print(sorted(m for m in sys.modules if m.startswith(('tileopt.transforms.', "
            "'tileopt.conversion.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert "tileopt.transforms.common.cse" in out
    assert "tileopt.conversion." not in out and "tileopt.transforms.ttgir." not in out


def test_a_pass_missing_from_the_index_is_still_found(monkeypatch):
    # A pass file added without regenerating the index: found by importing every module.
    from tileopt.passes import index

    monkeypatch.setattr(index, "PASS_MODULES", {})
    monkeypatch.setattr(registry, "_passes", {})
    monkeypatch.setattr(registry, "_builtin_loaded", False)
    for name in [m for m in sys.modules if m.startswith("tileopt.transforms.common.cse")]:
        monkeypatch.delitem(sys.modules, name)
    assert get_pass("cse") is not None and get_pass("cse").name == "cse"
