"""A dialect's own folders and patterns are imported at their first lookup
(``canonicalization.attach_on_first_use``): a run that only parses and prints does not
import them, and every lookup that needs them still finds them. Each check runs in a fresh
interpreter, where nothing else has imported the pattern modules yet."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

PATTERN_MODULES = {"tileopt.dialects.tt": "tileopt.dialects.tt_canonicalize",
                   "tileopt.dialects.ttg": "tileopt.dialects.ttg_canonicalize",
                   "tileopt.dialects.amdgpu": "tileopt.dialects.amdgpu_canonicalize"}


def run_fresh(code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_parsing_printing_and_verifying_import_no_patterns():
    out = run_fresh("""
        import sys
        from tileopt.ir import parse_module, print_module, verify_module
        import tileopt.dialects.amdgpu, tileopt.dialects.ttg
        text = '''tt.func @f(%p: !tt.ptr<f32>) {
          %0 = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
          %1 = tt.broadcast %0 : tensor<4x!tt.ptr<f32>> -> tensor<4x!tt.ptr<f32>>
          tt.return
        }'''
        module = parse_module(text, "f.mlir")
        verify_module(module, "f.mlir")
        print_module(module)
        print(sorted(m for m in sys.modules if m.endswith("canonicalize")))
    """)
    assert out.strip() == "[]"


@pytest.mark.parametrize("dialect, op, query", [
    ("tt", "AddPtrOp", "get_trait(HasFolder)"),
    ("tt", "LoadOp", "get_traits_of_type(HasCanonicalizationPatternsTrait)"),
    ("tt", "SplatOp", "has_trait(HasFolder)"),
    ("tt", "BroadcastOp", "get_trait(HasCanonicalizationPatternsTrait)"),
    ("ttg", "LocalAllocOp", "get_trait(HasFolder)"),
    ("ttg", "MemDescTransOp", "get_traits_of_type(OpTrait)"),
    ("amdgpu", "ConcatOp", "has_trait(HasFolder)"),
])
def test_the_first_lookup_imports_the_patterns(dialect, op, query):
    out = run_fresh(f"""
        import sys
        from xdsl.traits import HasCanonicalizationPatternsTrait, HasFolder, OpTrait, Pure
        from tileopt.dialects.{dialect} import {op} as Op
        module = {PATTERN_MODULES["tileopt.dialects." + dialect]!r}
        Op.has_trait(Pure)  # the verifier's kind of query: no import
        print(module in sys.modules)
        answer = Op.{query}
        print(module in sys.modules, bool(answer), "get_trait" in vars(Op))
    """)
    assert out.split() == ["False", "True", "True", "False"]


def test_each_pattern_module_attaches_to_its_own_dialects_ops():
    # A pattern or folder on an op of another dialect would not be there before the
    # module happened to be imported: the first lookup on that op would miss it.
    out = run_fresh("""
        import json
        from importlib import import_module
        from tileopt.dialects import canonicalization
        modules = json.loads(__import__("sys").argv[1])
        for dialect in modules:
            import_module(dialect)
        pending = dict(canonicalization._PENDING)
        attached = []
        original = canonicalization._add_trait
        canonicalization._add_trait = lambda op, trait: (attached.append(op),
                                                         original(op, trait))
        for module in modules.values():
            del attached[:]
            import_module(module)
            assert attached, module
            for op in attached:
                assert pending.get(op) == module, (op.name, module)
        print("ok")
    """, __import__("json").dumps(PATTERN_MODULES))
    assert out.strip() == "ok"


def test_a_context_of_ones_own_sees_tt_patterns():
    out = run_fresh("""
        from xdsl.context import Context
        from xdsl.dialects.arith import Arith
        from xdsl.dialects.builtin import Builtin
        from xdsl.parser import Parser
        from xdsl.printer import Printer
        from xdsl.transforms.canonicalize import CanonicalizePass
        from tileopt.dialects.tt import TT
        ctx = Context()
        for dialect in (Builtin, Arith, TT):
            ctx.load_dialect(dialect)
        text = '''builtin.module {
          tt.func @f(%p: !tt.ptr<f32>) {
            %0 = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
            %1 = tt.broadcast %0 : tensor<4x!tt.ptr<f32>> -> tensor<4x4x!tt.ptr<f32>>
            "test.use"(%1) : (tensor<4x4x!tt.ptr<f32>>) -> ()
            tt.return
          }
        }'''
        ctx.allow_unregistered = True
        module = Parser(ctx, text).parse_module()
        CanonicalizePass().apply(ctx, module)
        Printer().print_op(module)
    """)
    # broadcast(splat(x)) -> splat(x): tt's BroadcastOfSplat, and the old splat is dead
    assert "tt.broadcast" not in out
    assert out.count("tt.splat") == 1 and "tensor<4x4x!tt.ptr<f32>>" in out


def test_the_command_canonicalizes_tt_ops(tmp_path):
    source = tmp_path / "k.mlir"
    source.write_text("""tt.func @f(%p: !tt.ptr<f32>) -> tensor<4x!tt.ptr<f32>> {
  %c0 = arith.constant 0 : i32
  %0 = tt.splat %p : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %1 = tt.splat %c0 : i32 -> tensor<4xi32>
  %2 = tt.addptr %0, %1 : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  tt.return %2 : tensor<4x!tt.ptr<f32>>
}
""")
    out = run_fresh("import sys; sys.argv[0] = 'tileopt'; "
                    "from tileopt.cli import tileopt_main; tileopt_main()",
                    str(source), "--canonicalize")
    # addptr(p, splat 0) folds to p (tt's folder), splat(constant) to a dense constant
    assert "tt.addptr" not in out and "tt.return %0" in out
