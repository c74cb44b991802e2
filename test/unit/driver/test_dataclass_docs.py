"""Dataclass doc strings made on first read (``tileopt/driver/dataclass_docs.py``),
compared with the ones ``dataclasses`` itself makes, in fresh interpreters."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tileopt.driver import dataclass_docs

ROOT = Path(__file__).resolve().parents[3]

# Every dataclass a pipeline run and the back end define, with its doc string.
SCRIPT = textwrap.dedent("""
    import dataclasses, gc, json, os, sys
    if sys.argv[1] == "install":
        from tileopt.driver import dataclass_docs
        dataclass_docs.install()
    from tileopt.driver.opt import run_opt
    import tileopt.target  # the back end's dataclasses too
    status = run_opt([sys.argv[2], "--pass-pipeline=nvidia-sm80", "-o", os.devnull])
    docs = {}
    for cls in gc.get_objects():
        if isinstance(cls, type) and "__dataclass_fields__" in cls.__dict__:
            key = f"{cls.__module__}.{cls.__qualname__}@{len(cls.__mro__)}"
            docs[key] = [cls.__doc__, type(cls.__dict__["__doc__"]).__name__]
    print(json.dumps({"status": status, "docs": docs}))
""")


def _docs(tmp_path, mode: str) -> dict:
    script = tmp_path / "docs.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, TILEOPT_LLVM_IN_PROCESS="1")
    done = subprocess.run([sys.executable, str(script), mode,
                           str(ROOT / "examples" / "kernels" / "softmax.ttir")],
                          capture_output=True, text=True, check=True, env=env, cwd=ROOT)
    return json.loads(done.stdout)


@pytest.mark.skipif(not (3, 11) <= sys.version_info[:2] <= (3, 13),
                    reason="installed on the Pythons whose dataclasses it follows")
def test_every_doc_string_is_the_one_dataclasses_makes(tmp_path):
    plain, lazy = _docs(tmp_path, "plain"), _docs(tmp_path, "install")
    assert plain["status"] == lazy["status"] == 0
    assert len(plain["docs"]) > 250
    assert {k: v[0] for k, v in lazy["docs"].items()} == \
        {k: v[0] for k, v in plain["docs"].items()}
    # those dataclasses made were made on first read (by the loop above); the others
    # have their own
    made = {k for k, v in lazy["docs"].items() if v[1] == "_LazyDoc"}
    assert len(made) > 80
    generated = {k for k, v in plain["docs"].items()
                 if v[0] and v[0].startswith(k.split("@")[0].rsplit(".", 1)[1] + "(")}
    assert made == generated
    assert all(v[1] in ("str", "NoneType") for v in plain["docs"].values())


def _define():
    import dataclasses

    @dataclasses.dataclass(frozen=True)
    class Point:
        x: int
        y: "list[str]" = dataclasses.field(default_factory=list)

    @dataclasses.dataclass
    class Documented:
        """Its own."""
        z: int = 0

    @dataclasses.dataclass(slots=True)
    class Slotted:
        a: int

    class Sub(Point):
        pass

    return Point, Documented, Slotted, Sub


def test_a_doc_string_on_instances_help_and_subclasses():
    import dataclasses
    import inspect

    plain = _define()
    original = dataclasses._process_class
    dataclasses._process_class = dataclass_docs._lazily_documented(original)
    try:
        lazy = _define()

        class Broken:
            a: int = 0
            b: int

        with pytest.raises(TypeError):  # a field without a default after one with
            dataclasses.dataclass(Broken)
    finally:
        dataclasses._process_class = original
    Point, Documented, Slotted, Sub = lazy
    assert isinstance(Point.__dict__["__doc__"], dataclass_docs._LazyDoc)
    assert [cls.__doc__ for cls in lazy] == [cls.__doc__ for cls in plain]
    assert Point.__doc__.startswith("Point(x: ")
    assert Point(1).__doc__ == Point.__doc__ == inspect.getdoc(Point)
    assert Documented.__doc__ == "Its own."
    assert Sub.__doc__ is None  # as for any class: a doc string is not inherited
    assert Broken.__doc__ is None  # as before the failed attempt
