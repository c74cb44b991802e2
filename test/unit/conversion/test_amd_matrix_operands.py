"""The AMD matrix products of a corpus dot kernel (Triton's TTGIR through the llir stage)
take their operands as Triton's lowering gives them: each operand tile packed into a vector
once, for every product that reads it, and each product's accumulator the previous
product's vector itself, not its elements extracted and packed again."""

from __future__ import annotations

import json

import pytest
from xdsl.dialects import llvm

from tileopt.driver.pass_manager import PassManager
from tileopt.ir import make_context, parse_module
from tileopt.pipelines import resolve_pass_pipeline, slice_stages

PIPELINES = {"hip-gfx942": "amd-cdna3", "hip-gfx1100": "amd-rdna3"}
CASES = [(target, kernel) for target in PIPELINES
         for kernel in ("matmul", "matmul_small", "block_ptr_matmul")]


def _lowered(corpus, target: str, kernel: str):
    meta = json.loads((corpus / target / f"{kernel}.json").read_text())
    pipeline = slice_stages(resolve_pass_pipeline(
        f"{PIPELINES[target]}{{num-warps={meta['num_warps']} num-ctas={meta['num_ctas']} "
        f"num-stages={meta['num_stages']}}}"), "llir", None)
    source = corpus / target / f"{kernel}.ttgir"
    ctx = make_context()
    module = parse_module(source.read_text(), str(source), ctx)
    PassManager(pipeline, str(source)).run(ctx, module)
    return module


def _packed(vector) -> tuple | None:
    """The values an insertelement chain packs, by position (None: not such a chain)."""
    items = {}
    while isinstance(vector.owner, llvm.InsertElementOp):
        op = vector.owner
        position = op.operands[2].owner
        if not isinstance(position, llvm.ConstantOp):
            return None
        items.setdefault(position.value.value.data, op.operands[1])
        vector = op.operands[0]
    return tuple(items[i] for i in sorted(items)) if items else None


def _matrix_ops(module) -> list:
    return [op for op in module.walk()
            if op.name.startswith(("rocdl.wmma.", "rocdl.mfma."))]


@pytest.mark.parametrize("target,kernel", CASES, ids=[f"{t}-{k}" for t, k in CASES])
def test_operand_tiles_are_packed_once_and_accumulators_chained(corpus, target, kernel):
    products = _matrix_ops(_lowered(corpus, target, kernel))
    assert products
    vectors_by_elements: dict[tuple, set] = {}
    for op in products:
        for operand in op.operands[:2]:
            elements = _packed(operand)
            if elements is not None:
                vectors_by_elements.setdefault(elements, set()).add(operand)
        accumulator = _packed(op.operands[2])
        if accumulator is not None:  # packed: then not from another product's elements
            sources = {value.owner.operands[0] for value in accumulator
                       if getattr(value.owner, "name", None) == "llvm.extractelement"}
            assert not any(source.owner in products for source in sources), op
    repacked = {elements: vectors for elements, vectors in vectors_by_elements.items()
                if len(vectors) > 1}
    assert vectors_by_elements and not repacked
