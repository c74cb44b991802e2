"""``triton-nvidia-check-matmul-two-cta``: record on the module whether its matmuls run
in two-CTA mode (Triton's ``CheckMatmulTwoCTAs``), as ``"ttng.two-ctas" = true|false``.

Blackwell's ``tcgen05.mma`` can pair two CTAs of a cluster on one matmul; every such op in
a module must agree, and later passes and the lowering read the module attribute instead
of the ops. tileopt has no Blackwell matmul op yet, so an op that says ``two_ctas`` (a
unit or true attribute) is what counts; the corpus modules have none and get ``false``,
as Triton writes on every CUDA module (3.6 in the ``llir`` stage, 3.9 in ``ttgir``).
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import BoolAttr, IntegerAttr, ModuleOp, UnitAttr
from xdsl.ir import Operation

from tileopt.passes import Pass, PassFailure, register_pass

MODULE_ATTRIBUTE = "ttng.two-ctas"
_OP_ATTRIBUTE = "two_ctas"


def _says_two_ctas(op: Operation) -> bool | None:
    value = op.attributes.get(_OP_ATTRIBUTE, op.properties.get(_OP_ATTRIBUTE))
    if value is None:
        return None
    if isinstance(value, UnitAttr):
        return True
    return isinstance(value, IntegerAttr) and bool(value.value.data)


@register_pass
class CheckMatmulTwoCTA(Pass):
    """Set the module attribute ttng.two-ctas from its matmuls (all must agree)."""

    name = "triton-nvidia-check-matmul-two-cta"

    def apply(self, ctx: Context, op: Operation) -> None:
        if not isinstance(op, ModuleOp):
            return
        first: tuple[Operation, bool] | None = None
        for inner in op.walk():
            says = _says_two_ctas(inner)
            if says is None:
                continue
            if first is not None and first[1] != says:
                raise PassFailure(inner, "matmuls of one module disagree on two-CTA mode "
                                  f"(this one {'uses' if says else 'does not use'} it)")
            first = first or (inner, says)
        op.attributes[MODULE_ATTRIBUTE] = BoolAttr.from_bool(bool(first and first[1]))
