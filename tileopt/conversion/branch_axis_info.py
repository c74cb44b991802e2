"""Axis info through ``cf`` branches, for TritonGPU IR after ``convert-scf-to-cf``.

``tileopt.analysis.axis_info`` follows ``scf`` regions; after ``convert-scf-to-cf`` (which
Triton's pipeline runs before the lowering) a loop is blocks and branches, and the analysis
only visits the entry block, so everything computed from a loop's induction variable --
the addresses of a loop's loads -- would count as unknown and lose its vector width.
Triton's analysis is a dataflow over the CFG: a block argument is the join of what every
branch passes to it. This subclass adds exactly that (all blocks, iterated to a fixed
point, arguments starting at the join identity) and is a stop-gap until
``tileopt/analysis/axis_info.py`` does it itself.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tileopt.analysis.axis_info import AxisInfo, AxisInfoAnalysis, value_rank

_BRANCHES = {
    "cf.br": lambda op: [(op.successors[0], list(op.operands))],
    "cf.cond_br": lambda op: [(op.successors[0], list(op.then_arguments)),
                              (op.successors[1], list(op.else_arguments))],
}


class BranchAxisInfoAnalysis(AxisInfoAnalysis):
    """:class:`AxisInfoAnalysis` that also joins values along ``cf`` branches."""

    MAX_ROUNDS = 50

    def _analyse_function(self, func: Operation) -> None:
        blocks = list(func.regions[0].blocks) if func.regions else []
        if len(blocks) <= 1:
            super()._analyse_function(func)
            return
        for block in blocks[1:]:
            for arg in block.args:
                self._info[arg] = AxisInfo.unknown(value_rank(arg.type))
        super()._analyse_function(func)  # the entry block, arguments and calls
        for _ in range(self.MAX_ROUNDS):
            changed = False
            for block in blocks:
                if block is not blocks[0]:
                    self._run_block(block)
                terminator = block.last_op
                edges = _BRANCHES.get(terminator.name) if terminator is not None else None
                for successor, values in (edges(terminator) if edges else []):
                    for arg, value in zip(successor.args, values):
                        changed |= self._join_into(arg, self._operand_info(value))
            if not changed:
                return
