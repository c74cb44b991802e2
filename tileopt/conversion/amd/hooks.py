"""AMD implementation of the lowering's target hooks: ``rocdl`` ops and LLVM intrinsics.

What it emits follows Triton 3.6's AMD back end (``third_party/amd/lib/
TritonAMDGPUToLLVM``), so the LLVM IR reads as Triton's ``.llir`` does:

- ids: ``rocdl.workitem.id.x`` and ``rocdl.workgroup.id.*``; the grid size is read from
  the hidden kernel arguments of code object v5 (``hidden_block_count_*``);
- cross-lane exchange on 32-bit registers: butterflies of 1 and 2 lanes are one DPP
  ``quad_perm``, of 4 and 8 lanes two DPP row shifts, of 16 lanes ``ds_swizzle``, wider
  ones and arbitrary lanes ``ds_bpermute``; a reduction over the whole wave is DPP row
  shifts, then row broadcasts (CDNA) or ``permlanex16`` (RDNA), then ``readlane`` of the
  last lane (``reduce_warp``);
- a masked global or LDS access is a branch around a plain (vector) load or store, the
  masked-off value coming in through the join block, since AMD memory instructions take
  no predicate;
- atomics are LLVM ``atomicrmw``/``cmpxchg`` with AMD's sync scopes (``agent`` for
  Triton's ``gpu``, ``workgroup`` for ``cta``, the system scope for ``sys``);
- ``tt.print`` goes through the ROCm device library's ``__ockl_printf_*`` functions (the
  back end links ``ockl.bc``, ``target/rocm_device_libs.py``); a failed ``tt.assert`` prints
  Triton's message on stderr (``__ockl_fprintf_stderr_begin``), waits at a barrier and
  traps.

The ``amdg`` buffer operations have their own patterns beside this file
(``buffer_ops.py``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    BoolAttr,
    Float32Type,
    Float64Type,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from tileopt.conversion.amd.isa import AmdIsa, DppControl
from tileopt.conversion.amd.matrix import AmdMatrixEmitter
from tileopt.conversion.llvm_builder import LLVMBuilder, int_attr, ptr_type
from tileopt.conversion.math_expansions import erf_f32, generic_f32_primitives
from tileopt.conversion.shared_layouts import SharedMemoryBanks
from tileopt.conversion.target_hooks import (
    ORDERINGS,
    CachePolicy,
    MatrixEmitter,
    MemoryAccess,
    ModuleSymbols,
    TargetHooks,
    llvm_atomic_rmw,
)
from tileopt.conversion.type_converter import bit_width
from tileopt.dialects import llvm_ext
from tileopt.dialects.rocdl_llvm import (
    BARRIER_OPS,
    FUNCTIONAL_OPS,
    ID_OPS,
    PermlaneX16Op,
    ReadfirstlaneOp,
    UpdateDppOp,
)
from tileopt.layouts.encodings import AmdMfma, AmdWmma

LOG2E = 1.4426950408889634
_AXES = ("x", "y", "z")
_ROCDL = {cls.name: cls for cls in (*ID_OPS, *FUNCTIONAL_OPS, *BARRIER_OPS)}
_CONSTANT_ADDRESS_SPACE = 4
# LDS: 32 banks of 4 bytes on CDNA3 and on RDNA3 in CU mode.
_BANKS = SharedMemoryBanks(count=32, width=4)
# Triton's memory scopes -> AMDGPU sync scopes (None: the system scope, LLVM's default).
SYNC_SCOPES = {"gpu": "agent", "cta": "workgroup", "sys": None, "system": None}
_RMW = {
    "and": llvm_ext.AtomicBinOp.AND, "or": llvm_ext.AtomicBinOp.OR,
    "xor": llvm_ext.AtomicBinOp.XOR, "add": llvm_ext.AtomicBinOp.ADD,
    "fadd": llvm_ext.AtomicBinOp.FADD, "max": llvm_ext.AtomicBinOp.MAX,
    "min": llvm_ext.AtomicBinOp.MIN, "umax": llvm_ext.AtomicBinOp.UMAX,
    "umin": llvm_ext.AtomicBinOp.UMIN, "exch": llvm_ext.AtomicBinOp.XCHG,
}


def _int(bits: int) -> IntegerType:
    return IntegerType(bits)


def rocdl(b: LLVMBuilder, name: str, operands: Sequence[SSAValue],
          result: Attribute | None = i32) -> SSAValue | None:
    """Emit the ``rocdl`` op ``name`` (ids, barriers, ``ds_bpermute``, ``readlane``...)."""
    op = _ROCDL[name].create(operands=list(operands),
                             result_types=[result] if result is not None else [])
    b.insert(op)
    return op.results[0] if op.results else None


_CONVERSION = re.compile(r"%(%|[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z)?[a-zA-Z])")


def _inline_strings(format: str, args: Sequence[SSAValue],
                    symbols: ModuleSymbols) -> tuple[str, list[SSAValue]]:
    """``format`` with each ``%s`` whose argument is a known module string replaced by that
    string (its ``%`` doubled), and the remaining arguments."""
    remaining = list(args)
    kept: list[SSAValue] = []
    pieces: list[str] = []
    last = 0
    for match in _CONVERSION.finditer(format):
        if match.group(1) == "%":
            continue
        arg = remaining.pop(0) if remaining else None
        text = symbols.text_of(arg) if arg is not None and match.group(1) == "s" else None
        if text is None:
            if arg is not None:
                kept.append(arg)
            continue
        pieces.append(format[last:match.start()] + text.replace("%", "%%"))
        last = match.end()
    pieces.append(format[last:])
    return "".join(pieces), kept + remaining


class AmdHooks(TargetHooks):
    """Target hooks for CDNA3 (gfx942, wave 64) and RDNA3 (gfx1100, wave 32)."""

    def __init__(self, isa: AmdIsa):
        self.isa = isa
        self.warp_size = isa.wave_size
        self.supports_maximum_minimum = isa.family == "CDNA4"

    # -------------------------------------------------------------- ids

    def thread_id(self, b: LLVMBuilder) -> SSAValue:
        return rocdl(b, "rocdl.workitem.id.x", [])

    def program_id(self, b: LLVMBuilder, axis: int) -> SSAValue:
        return rocdl(b, f"rocdl.workgroup.id.{_AXES[axis]}", [])

    def num_programs(self, b: LLVMBuilder, axis: int) -> SSAValue:
        # Code object v5 passes the grid in work-groups as the first hidden arguments.
        hidden = b.call_intrinsic("llvm.amdgcn.implicitarg.ptr", [],
                                  ptr_type(_CONSTANT_ADDRESS_SPACE))
        return b.load(b.gep(hidden, b.i32(axis), i32), i32, 4)

    def uniform(self, b: LLVMBuilder, value: SSAValue) -> SSAValue:
        if not isinstance(value.type, IntegerType) or value.type.width.data != 32:
            return value
        return b.emit(ReadfirstlaneOp.create(operands=[value], result_types=[i32]))

    def _lane(self, b: LLVMBuilder) -> SSAValue:
        return b.prologue_value("amd-lane", lambda pb: pb.urem(self.thread_id(pb),
                                                               pb.i32(self.warp_size)))

    # -------------------------------------------------------------- exchange

    @staticmethod
    def _in_words(b: LLVMBuilder, value: SSAValue, move: Callable[[SSAValue], SSAValue],
                  keep_f32: bool = False) -> SSAValue:
        """Apply ``move`` (which exchanges 32-bit registers) to a value of any scalar type:
        narrower values travel sign-extended in one register, 64-bit ones in two,
        pointers as 64-bit integers; ``keep_f32``: an f32 is moved as it is (the DPP and
        readlane intrinsics take f32, as Triton emits them)."""
        ty = value.type
        if keep_f32 and isinstance(ty, Float32Type):
            return move(value)
        if isinstance(ty, llvm.LLVMPointerType):
            as_int = b.cast("ptrtoint", value, i64)
            moved = AmdHooks._in_words(b, as_int, move)
            return b.emit(llvm.IntToPtrOp.create(operands=[moved], result_types=[ty]))
        bits = bit_width(ty)
        if bits == 64:
            halves = b.bitcast(value, VectorType(i32, [2]))
            lo = move(b.extract_element(halves, 0))
            hi = move(b.extract_element(halves, 1))
            return b.bitcast(b.pack_vector([lo, hi]), ty)
        if bits > 64:
            raise ValueError(f"cannot exchange a {bits}-bit value between lanes")
        as_int = value if isinstance(ty, IntegerType) else b.bitcast(value, _int(bits))
        if bits < 32:
            as_int = b.int_cast(as_int, i32, signed=True)
        moved = move(as_int)
        if bits < 32:
            moved = b.int_cast(moved, _int(bits))
        return moved if isinstance(ty, IntegerType) else b.bitcast(moved, ty)

    def _bpermute(self, b: LLVMBuilder, word: SSAValue, lane: SSAValue) -> SSAValue:
        # ds_bpermute addresses lanes in bytes; only the bits within the wave count.
        return rocdl(b, "rocdl.ds_bpermute", [b.shl(lane, b.i32(2)), word])

    @staticmethod
    def dpp(b: LLVMBuilder, old: SSAValue, src: SSAValue, control: int, row_mask: int = 0xF,
            bank_mask: int = 0xF, bound_ctrl: bool = False) -> SSAValue:
        return b.emit(UpdateDppOp.create(
            operands=[old, src], result_types=[src.type],
            properties={"dpp_ctrl": IntegerAttr(control, i32),
                        "row_mask": IntegerAttr(row_mask, i32),
                        "bank_mask": IntegerAttr(bank_mask, i32),
                        "bound_ctrl": BoolAttr(bound_ctrl, i1)}))

    def _butterfly(self, b: LLVMBuilder, word: SSAValue, lane_mask: int) -> SSAValue:
        if lane_mask == 1:
            return self.dpp(b, word, word, DppControl.quad_perm(1, 0, 3, 2))
        if lane_mask == 2:
            return self.dpp(b, word, word, DppControl.quad_perm(2, 3, 0, 1))
        if lane_mask in (4, 8):
            # The upper half of each group of 2 * mask lanes reads from below, the lower
            # half from above: two row shifts, each writing only its banks.
            upper, lower = (0xA, 0x5) if lane_mask == 4 else (0xC, 0x3)
            shifted = self.dpp(b, word, word, DppControl.row_shr(lane_mask), bank_mask=upper)
            return self.dpp(b, shifted, word, DppControl.row_shl(lane_mask), bank_mask=lower)
        if lane_mask == 16:
            return rocdl(b, "rocdl.ds_swizzle", [word, b.i32(DppControl.SWIZZLE_XOR_16)])
        lane = b.xor(self.thread_id(b), b.i32(lane_mask))
        return self._bpermute(b, word, lane)

    def shuffle_xor(self, b: LLVMBuilder, value: SSAValue, lane_mask: int) -> SSAValue:
        return self._in_words(b, value, lambda w: self._butterfly(b, w, lane_mask))

    def shuffle_up(self, b: LLVMBuilder, value: SSAValue, delta: int) -> SSAValue:
        lane = self._lane(b)
        below = b.icmp("ult", lane, b.i32(delta))
        source = b.select(below, lane, b.sub(lane, b.i32(delta)))
        return self._in_words(b, value, lambda w: self._bpermute(b, w, source))

    def shuffle_idx(self, b: LLVMBuilder, value: SSAValue, lane: SSAValue) -> SSAValue:
        return self._in_words(b, value, lambda w: self._bpermute(b, w, lane))

    def reduce_warp(self, b: LLVMBuilder, value: SSAValue,
                    combine: Callable[[SSAValue, SSAValue], SSAValue]) -> SSAValue | None:
        """Each row of 16 lanes folds into its last lane with DPP right shifts of 8, 4, 2
        and 1 (lanes shifted in from outside the row read 0 and never reach the last lane);
        the rows' totals then meet in the wave's last lane, which every lane reads."""
        if bit_width(value.type) > 32 or not self.isa.has_dpp:
            return None

        def moved(acc: SSAValue, move: Callable[[SSAValue], SSAValue]) -> SSAValue:
            return self._in_words(b, acc, move, keep_f32=True)

        def dpp(control: int, row_mask: int = 0xF) -> Callable[[SSAValue], SSAValue]:
            return lambda w: self.dpp(b, w, w, control, row_mask=row_mask, bound_ctrl=True)

        acc = value
        for shift in (8, 4, 2, 1):
            acc = combine(acc, moved(acc, dpp(DppControl.row_shr(shift))))
        if self.isa.has_dpp_row_broadcast:
            acc = combine(acc, moved(acc, dpp(DppControl.ROW_BCAST15, row_mask=0xA)))
            acc = combine(acc, moved(acc, dpp(DppControl.ROW_BCAST31)))
        else:
            # Wave 32: lanes 0-15 read lane 31 and lanes 16-31 read lane 15.
            acc = combine(acc, moved(acc, lambda w: b.emit(PermlaneX16Op.create(
                operands=[w, w, b.i32(-1), b.i32(-1)], result_types=[w.type],
                properties={"fi": BoolAttr(True, i1), "boundControl": BoolAttr(False, i1)}))))
        return moved(acc, lambda w: rocdl(b, "rocdl.readlane", [w, b.i32(self.warp_size - 1)],
                                          w.type))

    def barrier(self, b: LLVMBuilder) -> None:
        rocdl(b, "rocdl.barrier", [], None)

    # -------------------------------------------------------------- memory

    @property
    def shared_memory_banks(self) -> SharedMemoryBanks:
        return _BANKS

    @staticmethod
    def _vector_type(element_type: Attribute, count: int) -> Attribute:
        return element_type if count == 1 else VectorType(element_type, [count])

    def _load(self, b: LLVMBuilder, ptr: SSAValue, element_type: Attribute, count: int,
              pred: SSAValue | None, other: Sequence[SSAValue] | None,
              volatile: bool = False) -> list[SSAValue]:
        ty = self._vector_type(element_type, count)
        align = bit_width(element_type) * count // 8

        def load() -> SSAValue:
            op = llvm_ext.LoadOp.create(operands=[ptr], result_types=[ty], properties={
                "alignment": int_attr(align, i64),
                **({"volatile_": llvm_ext.UnitAttr()} if volatile else {})})
            return b.emit(op)

        if pred is None:
            loaded = load()
        else:
            if other is not None:
                fallback = other[0] if count == 1 else b.pack_vector(list(other))
            else:
                fallback = b.zero(ty)
            with b.guarded(pred, [ty], [fallback]) as guard:
                guard.yield_([load()])
            loaded = guard.results[0]
        return [loaded] if count == 1 else b.unpack_vector(loaded)

    def _store(self, b: LLVMBuilder, ptr: SSAValue, values: Sequence[SSAValue],
               pred: SSAValue | None) -> None:
        value = values[0] if len(values) == 1 else b.pack_vector(list(values))
        align = bit_width(values[0].type) * len(values) // 8
        if pred is None:
            b.store(value, ptr, align)
            return
        with b.guarded(pred):
            b.store(value, ptr, align)

    def load_global(self, b: LLVMBuilder, access: MemoryAccess,
                    policy: CachePolicy) -> list[SSAValue]:
        return self._load(b, access.ptr, access.element_type, access.count, access.pred,
                          access.other, volatile=policy.volatile or policy.cache == "cv")

    def store_global(self, b: LLVMBuilder, access: MemoryAccess, values: Sequence[SSAValue],
                     policy: CachePolicy) -> None:
        self._store(b, access.ptr, values, access.pred)

    def store_shared(self, b: LLVMBuilder, ptr: SSAValue, values: Sequence[SSAValue],
                     pred: SSAValue | None) -> None:
        self._store(b, ptr, values, pred)

    def load_shared(self, b: LLVMBuilder, ptr: SSAValue, element_type: Attribute, count: int,
                    pred: SSAValue | None) -> list[SSAValue]:
        return self._load(b, ptr, element_type, count, pred, None)

    # -------------------------------------------------------------- atomics

    def atomic_rmw(self, b: LLVMBuilder, kind: str, ptr: SSAValue, value: SSAValue,
                   pred: SSAValue | None, sem: str, scope: str, *,
                   returns: bool = True) -> SSAValue | None:
        return llvm_atomic_rmw(b, _RMW[kind], ptr, value, pred, sem,
                               SYNC_SCOPES.get(scope, "agent"))

    def atomic_cas(self, b: LLVMBuilder, ptr: SSAValue, cmp: SSAValue, value: SSAValue,
                   pred: SSAValue | None, sem: str, scope: str) -> SSAValue:
        ty = value.type
        bits = bit_width(ty)
        as_int = (lambda v: v) if isinstance(ty, IntegerType) else \
            (lambda v: b.bitcast(v, _int(bits)))
        int_ty = _int(bits)
        ordering = ORDERINGS[sem]
        failure = {"release": "monotonic", "acq_rel": "acquire"}.get(ordering, ordering)
        syncscope = SYNC_SCOPES.get(scope, "agent")

        def cas() -> SSAValue:
            props = {
                "success_ordering": IntegerAttr(llvm_ext.ORDERING_BY_KEYWORD[ordering], i64),
                "failure_ordering": IntegerAttr(llvm_ext.ORDERING_BY_KEYWORD[failure], i64),
                "alignment": IntegerAttr(bits // 8, i64)}
            if syncscope is not None:
                props["syncscope"] = llvm_ext.StringAttr(syncscope)
            pair = b.emit(llvm_ext.AtomicCmpXchgOp.create(
                operands=[ptr, as_int(cmp), as_int(value)],
                result_types=[llvm.LLVMStructType.from_type_list([int_ty, i1])],
                properties=props))
            return b.extract_value(pair, 0, int_ty)

        if pred is None:
            old = cas()
        else:
            with b.guarded(pred, [int_ty], [b.zero(int_ty)]) as guard:
                guard.yield_([cas()])
            old = guard.results[0]
        return old if isinstance(ty, IntegerType) else b.bitcast(old, ty)

    # -------------------------------------------------------------- math

    def math(self, b: LLVMBuilder, name: str, args: Sequence[SSAValue]) -> SSAValue | None:
        ty = args[0].type
        if not isinstance(ty, Float32Type):
            return None
        if name == "exp":
            scaled = b.float_op("fmul", args[0], b.constant(ty, LOG2E))
            return b.intrinsic_op("exp2", [scaled], ty)
        if name == "sqrt":
            return b.call_intrinsic("llvm.amdgcn.sqrt", list(args), ty)
        if name == "rsqrt":
            return b.call_intrinsic("llvm.amdgcn.rsq", list(args), ty)
        if name == "erf":
            return erf_f32(b, args[0], generic_f32_primitives(branches=True))
        return None

    def library_function(self, b: LLVMBuilder, symbols: ModuleSymbols, symbol: str,
                         args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        symbols.declare(symbol, [a.type for a in args], result_type)
        return b.emit(llvm.CallOp(symbol, *args, return_type=result_type))

    # -------------------------------------------------------------- printf and assert

    def printf(self, b: LLVMBuilder, symbols: ModuleSymbols, format: str,
               args: Sequence[SSAValue], *, to_stderr: bool = False) -> None:
        """ROCm's device printf protocol: begin a message (on stdout, or stderr as an
        assertion's), append the format string, then the arguments (as 64-bit words) in
        groups of at most seven. The protocol passes a string argument's characters, not its
        address, so a ``%s`` of a module string (the print's prefix) is written into the
        format instead. Only the ockl functions used are declared, as Triton does."""
        format, args = _inline_strings(format, args, symbols)
        if to_stderr:
            symbols.declare("__ockl_fprintf_stderr_begin", [], i64)
            message = b.emit(llvm.CallOp("__ockl_fprintf_stderr_begin", return_type=i64))
        else:
            symbols.declare("__ockl_printf_begin", [i64], i64)
            message = b.emit(llvm.CallOp("__ockl_printf_begin", b.i64(0), return_type=i64))
        symbols.declare("__ockl_printf_append_string_n", [i64, ptr_type(0), i64, i32], i64)
        # Module strings are generic pointers (address space 0), as ockl takes them.
        text = symbols.string(b, "printfFormat_", format)
        last = b.i32(0 if args else 1)
        message = b.emit(llvm.CallOp("__ockl_printf_append_string_n", message, text,
                                     b.i64(len(format.encode()) + 1), last,
                                     return_type=i64))
        words = [self._printf_word(b, a) for a in args]
        if words:
            symbols.declare("__ockl_printf_append_args", [i64, i32, *[i64] * 7, i32], i64)
        for start in range(0, len(words), 7):
            group = words[start:start + 7]
            padded = group + [b.i64(0)] * (7 - len(group))
            is_last = b.i32(1 if start + 7 >= len(words) else 0)
            message = b.emit(llvm.CallOp("__ockl_printf_append_args", message,
                                         b.i32(len(group)), *padded, is_last,
                                         return_type=i64))

    @staticmethod
    def _printf_word(b: LLVMBuilder, value: SSAValue) -> SSAValue:
        ty = value.type
        if isinstance(ty, llvm.LLVMPointerType):
            return b.cast("ptrtoint", value, i64)
        if isinstance(ty, IntegerType):
            return value if ty.width.data == 64 else b.int_cast(value, i64, signed=False)
        return b.bitcast(value, i64) if bit_width(ty) == 64 else \
            b.bitcast(b.cast("fpext", value, Float64Type()), i64)

    def assert_fail(self, b: LLVMBuilder, symbols: ModuleSymbols, message: str, file: str,
                    line: int, function: str) -> None:
        """As Triton's AMD ``assertFail``: the message on stderr, a barrier (every thread of
        the block gets to report its failure), then a trap."""
        self.printf(b, symbols, f"device assertion failed: '{message}', in {function} at "
                    f"{file}:{line}\n", [], to_stderr=True)
        self.barrier(b)
        b.call_intrinsic("llvm.trap", [], None)

    # -------------------------------------------------------------- matrix units

    def matrix_emitter(self, encoding: object) -> MatrixEmitter | None:
        # MFMA on CDNA (wave 64), WMMA on RDNA (wave 32): matrix.py.
        if isinstance(encoding, AmdMfma) and self.warp_size == 64 or \
                isinstance(encoding, AmdWmma) and self.warp_size == 32:
            return AmdMatrixEmitter(encoding)
        return None


__all__ = ["AmdHooks", "SYNC_SCOPES", "ORDERINGS", "rocdl"]
