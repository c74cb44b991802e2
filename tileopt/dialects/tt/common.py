"""Helpers, traits and limits that several families of ``tt`` ops share."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, operand_def, result_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.traits import OpTrait
from xdsl.utils.exceptions import VerifyException

from tileopt.dialects.traits import type_str
from tileopt.dialects.tt_types import PointerType, num_elements


# ---------------------------------------------------------------------------------------
# Small printing/parsing helpers shared by the hand-written formats
# ---------------------------------------------------------------------------------------


def _parse_operand_list_in_brackets(parser: Parser) -> list[UnresolvedOperand]:
    return parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    )


# ---------------------------------------------------------------------------------------
# A base for ops that turn one value into one other
# ---------------------------------------------------------------------------------------


class _SrcToResultOp(IRDLOperation):
    """``tt.<op> %x : <source type> -> <result type>``: one operand, one result. Subclasses
    add their traits (xDSL joins them with any a base declares) and ``verify_``."""

    src = operand_def()
    result = result_def()

    assembly_format = "$src attr-dict `:` type($src) `->` type($result)"

    def __init__(
        self,
        src: SSAValue | Operation,
        result_type: Attribute,
        *,
        properties: Mapping[str, Attribute | None] | None = None,
    ):
        super().__init__(operands=[src], result_types=[result_type], properties=properties)


# ---------------------------------------------------------------------------------------
# Traits Triton attaches to many ops
# ---------------------------------------------------------------------------------------


MAX_TENSOR_NUMEL = 1048576
"""Triton's ``maxTensorNumElements``: the most elements one tensor may have."""


@dataclass(frozen=True)
class TensorSizeTrait(OpTrait):
    """Triton's TensorSizeTrait, on every tt op: each tensor (also the block of a block
    pointer) has a power-of-two number of elements, at most ``MAX_TENSOR_NUMEL``."""

    verifies_types_only = True  # (xdsl_fast_paths: its verdict is remembered)

    def verify(self, op: Operation) -> None:
        for ty in (*op.operand_types, *op.result_types):
            if isinstance(ty, PointerType) and isinstance(ty.pointee_type, TensorType):
                ty = ty.pointee_type
            if not isinstance(ty, TensorType):
                continue
            count = num_elements(ty)
            if count > MAX_TENSOR_NUMEL:
                raise VerifyException(
                    f"maximum allowed number of elements is {MAX_TENSOR_NUMEL}, but "
                    f"{type_str(ty)} has more than that"
                )
            if count & (count - 1):
                raise VerifyException(
                    f"number of elements must be power-of-two, but {type_str(ty)} doesn't "
                    f"follow the rule ({count} elements)"
                )


# ---------------------------------------------------------------------------------------
# Verifier helpers shared by several op families
# ---------------------------------------------------------------------------------------


def _require_tensor(ty: Attribute, what: str, op_name: str) -> TensorType:
    if not isinstance(ty, TensorType):
        raise VerifyException(f"{what} must be a ranked tensor, got {type_str(ty)}")
    return ty
