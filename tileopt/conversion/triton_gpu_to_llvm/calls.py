"""``tt.call`` of a device function (a private ``tt.func``, ``@triton.jit(noinline=True)``).

The callee was lowered to an ``llvm.func`` taking one parameter per argument (a tensor's
registers in a struct, as Triton) and, last, the shared memory its frame starts at
(``module_lowering._build_llvm_func``). The call passes the same: its operands packed
(``FunctionLowering.pack``), then this function's shared-memory base plus the offset
``allocate-shared-memory`` gave the call (the callee's whole frame, a virtual buffer; none
when the callee uses no shared memory). Results come back as the callee returns them
(several in a struct) and are split into registers again.
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.dialects.builtin import IntegerAttr, i8
from xdsl.ir import Operation

from tileopt.conversion.shared_memory import OFFSET_ATTR
from tileopt.conversion.triton_gpu_to_llvm.lowering import (
    FunctionLowering,
    lowers,
    return_type,
    shared_memory_base,
)


@lowers("tt.call")
def _call(fl: FunctionLowering, op: Operation) -> None:
    b = fl.b
    offset = op.attributes.get(OFFSET_ATTR)
    frame = shared_memory_base(fl)
    if isinstance(offset, IntegerAttr) and offset.value.data:
        frame = b.gep(frame, b.i32(offset.value.data), i8)
    result_types = [fl.module.parameter_type(r.type) for r in op.results]
    call = llvm.CallOp(op.callee.root_reference.data, *[fl.pack(v) for v in op.operands],
                       frame, return_type=return_type(result_types) if result_types else None)
    b.insert(call)
    if len(result_types) == 1:
        values = [call.results[0]]
    else:
        values = [b.extract_value(call.results[0], i, t) for i, t in enumerate(result_types)]
    for result, value in zip(op.results, values, strict=True):
        fl.set_packed(result, value)
