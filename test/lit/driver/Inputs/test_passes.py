"""Passes that exist only to test the driver: one breaks the IR, one crashes, one fails
properly, one reports its options (so option parsing and YAML parameters can be checked)."""

from __future__ import annotations

from xdsl.dialects import func

from tileopt.ir import TileoptError
from tileopt.passes import Pass, PassFailure, option, register_pass
from tileopt.passes.diagnostics import emit_remark, emit_warning


@register_pass
class BreakIR(Pass):
    """Make every func.return return nothing (invalid when the function has results)."""

    name = "test-break-ir"

    def apply(self, ctx, op):
        for ret in [o for o in op.walk() if isinstance(o, func.ReturnOp)]:
            block = ret.parent_block()
            block.insert_op_before(func.ReturnOp(), ret)
            block.erase_op(ret)


@register_pass
class Crash(Pass):
    """Raise a Python exception (a bug in a pass)."""

    name = "test-crash"

    def apply(self, ctx, op):
        raise RuntimeError("deliberate crash")


@register_pass
class Fail(Pass):
    """Reject the first func.func with a located error."""

    name = "test-fail"

    def apply(self, ctx, op):
        for f in op.walk():
            if isinstance(f, func.FuncOp):
                raise PassFailure(f, f"cannot handle function @{f.sym_name.data}")
        raise TileoptError("no function found")


@register_pass
class OptionProbe(Pass):
    """Report the option values as a remark on each func.func (and warn if asked)."""

    name = "test-option-probe"
    anchor = None
    count: int = option(1, "an int")
    scale: float = option(0.5, "a float")
    enabled: bool = option(False, "a bool")
    label: str = option("none", "a string")
    sizes: tuple[int, ...] = option((), "a list of ints")
    mode: str = option("fast", "one of fast|slow", choices=("fast", "slow"))
    kPack: int = option(1, "an option spelled in camelCase, as Triton's kPack", name="kPack")
    warn: bool = option(False, "also emit a warning")

    def apply(self, ctx, op):
        for f in op.walk():
            if isinstance(f, func.FuncOp):
                emit_remark(f, f"count={self.count} scale={self.scale} enabled={self.enabled} "
                               f"label={self.label} sizes={list(self.sizes)} mode={self.mode} "
                               f"kPack={self.kPack}")
                if self.warn:
                    emit_warning(f, "probe warning")
