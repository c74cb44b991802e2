"""Which conversions to a dot operand go through shared memory
(``conversion_needs_shared_memory``, what ``tritongpu-reduce-data-duplication`` asks),
against Triton 3.6's answers for 432 one-warp conversions
(``data/shared_memory_conversions.txt``, made by ``data/make_shared_memory_conversions.py``
with Triton's own pass)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from tileopt.ir import make_context, parse_module
from tileopt.transforms.utils.tensor_layouts import conversion_needs_shared_memory

DATA = Path(__file__).resolve().parent / "data"


def _generator():
    spec = importlib.util.spec_from_file_location(
        "make_shared_memory_conversions", DATA / "make_shared_memory_conversions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_agrees_with_triton_on_every_case():
    make = _generator()
    expected = {}
    for line in (DATA / "shared_memory_conversions.txt").read_text().splitlines():
        size, lanes, order, k_width, shared = line.split()
        key = tuple(tuple(map(int, v.split(","))) for v in (size, lanes, order))
        expected[(*key, int(k_width))] = shared == "1"
    wrong = []
    for size, lanes, order, k_width in make.cases():
        ctx = make_context()
        module = parse_module(make.module_text(size, lanes, order, k_width), "case", ctx)
        convert = next(op for op in module.walk() if op.name == "ttg.convert_layout")
        key = (tuple(size), tuple(lanes), tuple(order), k_width)
        got = conversion_needs_shared_memory(convert.operands[0].type, convert.results[0].type)
        if got != expected[key]:
            wrong.append((key, got))
    assert len(expected) == 432
    assert not wrong, f"{len(wrong)} cases differ from Triton's, first: {wrong[:3]}"
