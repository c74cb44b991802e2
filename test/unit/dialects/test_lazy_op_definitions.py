"""Op definitions are built on first use (tileopt/dialects/lazy_op_definitions.py): every op
class of every dialect, once built, must be what xDSL's own decorator makes of it, and
each way of first using an op class must build it. The checks run in fresh interpreters,
where nothing has used the classes yet."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

DESCRIBE = r"""
import dataclasses, json, re, sys
from tileopt.ir import make_context
from tileopt.ir.context import DIALECTS
from tileopt.dialects import lazy_op_definitions

def norm(text):
    return re.sub(r" at 0x[0-9a-f]+", "", text)

def name_of(value):
    inner = getattr(value, "__func__", value)
    return type(value).__name__ + ":" + getattr(inner, "__qualname__", "")

ctx = make_context()
for dialect in DIALECTS:
    ctx.load_registered_dialect(dialect)
from xdsl.irdl import IRDLOperation
ops = sorted((op for op in ctx.loaded_ops if issubclass(op, IRDLOperation)),
             key=lambda op: op.name)
traits_before = {op.name: sorted(norm(repr(t)) for t in op.traits) for op in ops}
pending_before = sum(op in lazy_op_definitions._PENDING for op in ops)
out = {}
for op in ops:
    op_def = op.get_irdl_definition()
    fields = {f.name: norm(repr(getattr(op_def, f.name))) for f in dataclasses.fields(op_def)
              if f.name != "traits"}
    out[op.name] = {
        "definition": fields,
        "traits": sorted(norm(repr(t)) for t in op_def.traits),
        "traits before use": traits_before[op.name],
        "class traits are the definition's": op.traits is op_def.traits,
        "class": sorted((k, name_of(v)) for k, v in vars(op).items()
                        if k not in ("__doc__", "__module__")),
    }
print(json.dumps({"pending before": pending_before, "ops": out}))
"""


def describe(eager: bool) -> dict:
    env = dict(os.environ)
    env.pop("TILEOPT_EAGER_OP_DEFINITIONS", None)
    if eager:
        env["TILEOPT_EAGER_OP_DEFINITIONS"] = "1"
    done = subprocess.run([sys.executable, "-c", DESCRIBE], capture_output=True, text=True,
                          env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def both():
    return describe(eager=True), describe(eager=False)


def test_ops_are_defined_lazily(both):
    eager, lazy = both
    assert eager["pending before"] == 0
    assert lazy["pending before"] > 100  # most ops of the dialects are not used by then


def test_every_op_is_defined_as_xdsl_defines_it(both):
    eager, lazy = both
    assert sorted(eager["ops"]) == sorted(lazy["ops"])
    for name, described in eager["ops"].items():
        assert lazy["ops"][name] == described, name


def run_fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("use", [
    "ttg.BarrierOp()",  # __init__
    "ttg.BarrierOp.build()",
    "ttg.BarrierOp.create()",
    "ttg.BarrierOp.get_irdl_definition()",
    "parse_module('ttg.barrier local', 'f.mlir')",  # a declarative format's parse
])
def test_each_first_use_builds_the_class(use):
    out = run_fresh(f"""
        from tileopt.dialects import lazy_op_definitions, ttg
        from tileopt.ir import parse_module
        print(ttg.BarrierOp in lazy_op_definitions._PENDING)
        {use}
        print(ttg.BarrierOp in lazy_op_definitions._PENDING,
              sorted(n for n in ("create", "build") if n in vars(ttg.BarrierOp)),
              vars(ttg.BarrierOp)["__init__"] is lazy_op_definitions._init,
              type(vars(ttg.BarrierOp)["addrSpace"]).__name__)
    """)
    # its own __init__ is back, xDSL's accessor in place of the written prop_def
    assert out.split() == ["True", "False", "[]", "False", "PropertyAccessor"]


def test_a_subclass_builds_its_op_bases_first():
    out = run_fresh("""
        from tileopt.dialects import lazy_op_definitions  # installs it
        from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, traits_def
        from xdsl.traits import Pure
        from xdsl.dialects.builtin import i32

        @irdl_op_definition
        class Base(IRDLOperation):
            name = "test.base"
            traits = traits_def(Pure())

        @irdl_op_definition
        class Derived(Base):
            name = "test.derived"
            x = operand_def(i32)

        pending = lazy_op_definitions._PENDING
        print(Base in pending, Derived in pending)
        Derived.get_irdl_definition()
        print(Base in pending, Derived in pending, Derived.has_trait(Pure),
              [name for name, _ in Derived.get_irdl_definition().operands])
    """)
    assert out.split() == ["True", "True", "False", "False", "True", "['x']"]
