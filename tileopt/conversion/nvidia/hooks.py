"""NVIDIA implementation of the lowering's target hooks: ``nvvm`` ops and inline PTX.

What it emits follows Triton's NVIDIA back end (``third_party/nvidia/lib/
TritonNVIDIAGPUToLLVM``): masked global loads and stores are inline PTX
(``@p ld.global.v4.b32 {...}, [ptr + 0]``, the destination registers first set to the
``other`` values or zero, since a masked-off ``ld`` leaves them untouched); unmasked ones
with default caching are plain LLVM vector loads and stores; warp shuffles exchange 32-bit
registers (``shfl.sync``), wider values in pieces; atomics are ``atom``/``red``
instructions with Triton's semantics and scope spelling; ``math`` ops on f32 use the
approximate instructions libdevice picks under Triton's settings (flush to zero on,
precise square root off), e.g. ``math.exp`` is ``ex2.approx`` of ``x * log2(e)``, and
libdevice functions are called (the back end links libdevice) unless ``libdevice.py``
writes them out; ``tt.print`` is ``vprintf`` and a failed ``tt.assert`` calls
``__assertfail``, as CUDA's device runtime spells them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    BFloat16Type,
    IntegerAttr,
    IntegerType,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder, int_type, new_op, vector_type
from tileopt.conversion.nvidia.libdevice import INLINE as LIBDEVICE_INLINE
from tileopt.conversion.nvidia.libdevice import erff
from tileopt.conversion.nvidia.mma import MmaV2Emitter
from tileopt.conversion.shared_layouts import SharedMemoryBanks
from tileopt.conversion.target_hooks import (
    CachePolicy,
    MatrixEmitter,
    MemoryAccess,
    ModuleSymbols,
    TargetHooks,
    llvm_atomic_rmw,
)
from tileopt.conversion.type_converter import bit_width
from tileopt.dialects import llvm_ext, nvvm
from tileopt.layouts.encodings import NvidiaMma

LOG2E = 1.4426950408889634
_AXES = ("x", "y", "z")
_GENERIC_PTR = llvm.LLVMPointerType()
# 32 banks of 4 bytes from sm_50 on.
_BANKS = SharedMemoryBanks(count=32, width=4)
# Triton's memory scopes -> NVPTX sync scopes of LLVM atomics (None: the system scope).
_LLVM_SYNC_SCOPES = {"gpu": "device", "cta": "block", "sys": None, "system": None}


_int = int_type


@cache
def _shuffle_properties(kind: nvvm.ShflKind) -> dict[str, Attribute]:
    """``nvvm.ShflSyncOp``'s builder's (tested with the builder's)."""
    return {"kind": nvvm.ShflKindAttr(kind)}


def _words_type(width: int, words: int) -> Attribute:
    """The result type of inline asm that writes ``words`` registers of ``width`` bits."""
    return _int(width) if words == 1 else llvm.LLVMStructType.from_type_list([_int(width)] * words)


def _asm_operand_list(indices: Sequence[int]) -> str:
    return ", ".join(f"${i}" for i in indices)


class NvidiaHooks(TargetHooks):
    """Target hooks for sm_80 and newer (``compute_capability`` 80, 90, ...)."""

    warp_size = 32

    def __init__(self, compute_capability: int = 80, ptx_version: int = 80):
        self.compute_capability = compute_capability
        self.ptx_version = ptx_version

    # -------------------------------------------------------------- ids

    def thread_id(self, b: LLVMBuilder) -> SSAValue:
        return b.emit(nvvm.SREG_OPS["tid.x"]())

    def program_id(self, b: LLVMBuilder, axis: int) -> SSAValue:
        return b.emit(nvvm.SREG_OPS[f"ctaid.{_AXES[axis]}"]())

    def num_programs(self, b: LLVMBuilder, axis: int) -> SSAValue:
        return b.emit(nvvm.SREG_OPS[f"nctaid.{_AXES[axis]}"]())

    # -------------------------------------------------------------- exchange

    def _shuffle(self, b: LLVMBuilder, kind: nvvm.ShflKind, value: SSAValue,
                 offset: SSAValue, clamp: int) -> SSAValue:
        ty = value.type
        bits = bit_width(ty)
        if bits == 64:
            as_int = b.cast("ptrtoint", value, i64) if isinstance(ty, llvm.LLVMPointerType) \
                else b.bitcast(value, i64)
            halves = b.bitcast(as_int, vector_type(i32, 2))
            lo = self._shuffle32(b, kind, b.extract_element(halves, 0), offset, clamp)
            hi = self._shuffle32(b, kind, b.extract_element(halves, 1), offset, clamp)
            joined = b.bitcast(b.pack_vector([lo, hi]), i64)
            if isinstance(ty, llvm.LLVMPointerType):
                return b.emit(llvm.IntToPtrOp.create(operands=[joined], result_types=[ty]))
            return b.bitcast(joined, ty)
        if bits > 64:
            raise ValueError(f"cannot shuffle a {bits}-bit value")
        if isinstance(ty, IntegerType):
            widened = b.int_cast(value, i32, signed=False)
            return b.int_cast(self._shuffle32(b, kind, widened, offset, clamp), ty)
        if bits == 32:
            return b.bitcast(self._shuffle32(b, kind, b.bitcast(value, i32), offset, clamp), ty)
        # 16-bit floats travel in the low half of a 32-bit register.
        as_int = b.int_cast(b.bitcast(value, _int(bits)), i32, signed=False)
        out = self._shuffle32(b, kind, as_int, offset, clamp)
        return b.bitcast(b.int_cast(out, _int(bits)), ty)

    def _shuffle32(self, b: LLVMBuilder, kind: nvvm.ShflKind, value: SSAValue,
                   offset: SSAValue, clamp: int) -> SSAValue:
        return b.emit(new_op(nvvm.ShflSyncOp, (b.i32(-1), value, offset, b.i32(clamp)),
                             (value.type,), _shuffle_properties(kind)))

    def shuffle_xor(self, b: LLVMBuilder, value: SSAValue, lane_mask: int) -> SSAValue:
        return self._shuffle(b, nvvm.ShflKind.BFLY, value, b.i32(lane_mask), 0x1F)

    def shuffle_up(self, b: LLVMBuilder, value: SSAValue, delta: int) -> SSAValue:
        return self._shuffle(b, nvvm.ShflKind.UP, value, b.i32(delta), 0x0)

    def shuffle_idx(self, b: LLVMBuilder, value: SSAValue, lane: SSAValue) -> SSAValue:
        return self._shuffle(b, nvvm.ShflKind.IDX, value, lane, 0x1F)

    def barrier(self, b: LLVMBuilder) -> None:
        b.insert(nvvm.Barrier0Op())

    @property
    def shared_memory_banks(self) -> SharedMemoryBanks:
        return _BANKS

    # -------------------------------------------------------------- global memory

    @staticmethod
    def _words(element_type: Attribute, count: int) -> tuple[int, int]:
        """(bits per word, number of words) of a vector access, as Triton splits it."""
        elem_bits = bit_width(element_type)
        total = elem_bits * count
        width = min(total, max(32, elem_bits))
        return width, max(1, total // width)

    def _cache_policy_operand(self, b: LLVMBuilder, policy: CachePolicy) -> SSAValue | None:
        """The L2 eviction policy register (``createpolicy``) for evict_first/evict_last."""
        if policy.eviction not in ("evict_first", "evict_last") or self.compute_capability < 80:
            return None
        asm = f"createpolicy.fractional.L2::{policy.eviction}.b64 $0, 1.0;"
        return b.inline_asm(asm, "=l", [], i64, side_effects=False)

    @staticmethod
    def _word_types(width: int) -> tuple[str, str]:
        """Inline-asm constraints (read, write) of a register of ``width`` bits."""
        read = "l" if width == 64 else "r" if width == 32 else "c"
        return read, "=" + read

    def load_global(self, b: LLVMBuilder, access: MemoryAccess,
                    policy: CachePolicy) -> list[SSAValue]:
        ety, count = access.element_type, access.count
        default_policy = policy.cache in ("none", "ca") and policy.eviction == "normal" \
            and not policy.volatile
        if access.pred is None and default_policy:
            return self._native_load(b, access)
        width, words = self._words(ety, count)
        read, write = self._word_types(width)
        mov = f"mov.u{max(width, 16)}"
        operands: list[SSAValue] = []
        constraints = [write] * words
        lines = []
        next_index = words
        if access.other is not None:
            per_word = width // bit_width(ety)
            for w in range(words):
                word = self._pack_word(b, access.other[w * per_word:(w + 1) * per_word], width)
                known = b.known(word)
                if known is not None:
                    lines.append(f"{mov} ${w}, {hex(known & ((1 << width) - 1))};")
                else:
                    lines.append(f"{mov} ${w}, ${next_index};")
                    operands.append(word)
                    constraints.append(read)
                    next_index += 1
        else:
            lines += [f"{mov} ${w}, 0x0;" for w in range(words)]
        address_index = next_index
        operands.append(access.ptr)
        constraints.append("l")
        next_index += 1
        l2 = self._cache_policy_operand(b, policy)
        modifiers = "".join(self._load_modifiers(policy, l2 is not None))
        vector = f".v{words}" if words > 1 else ""
        dests = "{ " + _asm_operand_list(range(words)) + " }"
        instr = f"ld{'.volatile' if policy.volatile else ''}.global{modifiers}{vector}.b{width} " \
                f"{dests}, [ ${address_index} + 0 ]"
        if l2 is not None:
            instr += f", ${next_index}"
            operands.append(l2)
            constraints.append("l")
            next_index += 1
        if access.pred is not None:
            instr = f"@${next_index} {instr}"
            operands.append(access.pred)
            constraints.append("b")
        lines.append(instr + ";")
        result = b.inline_asm("\n\t".join(lines), ",".join(constraints), operands,
                              _words_type(width, words))
        return self._unpack_words(b, result, ety, width, words)

    @staticmethod
    def _load_modifiers(policy: CachePolicy, l2_hint: bool) -> list[str]:
        mods = []
        if policy.cache in ("ca", "cg", "cs", "cv"):
            mods.append(f".{policy.cache}")
        if policy.eviction in ("evict_first", "evict_last"):
            mods.append(f".L1::{policy.eviction}")
        if l2_hint:
            mods.append(".L2::cache_hint")
        return mods

    def _native_load(self, b: LLVMBuilder, access: MemoryAccess) -> list[SSAValue]:
        ety, count = access.element_type, access.count
        align = bit_width(ety) * count // 8
        if count == 1:
            return [b.load(access.ptr, ety, align)]
        vector = b.load(access.ptr, vector_type(ety, count), align)
        return b.unpack_vector(vector)

    def _pack_word(self, b: LLVMBuilder, values: Sequence[SSAValue], width: int) -> SSAValue:
        """``values`` (same type) as one integer register of ``width`` bits."""
        ty = values[0].type
        if len(values) == 1:
            if isinstance(ty, llvm.LLVMPointerType):
                return b.cast("ptrtoint", values[0], i64)
            if isinstance(ty, IntegerType):
                return b.int_cast(values[0], _int(width), signed=False)
            return b.bitcast(values[0], _int(width))
        if isinstance(ty, IntegerType) and ty.width.data == 1:
            values = [b.int_cast(v, _int(8), signed=False) for v in values]
            ty = _int(8)
        return b.bitcast(b.pack_vector(list(values)), _int(width))

    def _unpack_words(self, b: LLVMBuilder, result: SSAValue, ety: Attribute, width: int,
                      words: int) -> list[SSAValue]:
        """The elements in the ``words`` registers an inline-asm load wrote."""
        word_values = [result] if words == 1 else \
            [b.extract_value(result, w, _int(width)) for w in range(words)]
        values: list[SSAValue] = []
        for word in word_values:
            values += self._unpack_word(b, word, ety, width)
        return values

    def _unpack_word(self, b: LLVMBuilder, word: SSAValue, ety: Attribute,
                     width: int) -> list[SSAValue]:
        elem_bits = bit_width(ety)
        if isinstance(ety, llvm.LLVMPointerType):
            return [b.emit(llvm.IntToPtrOp.create(operands=[word], result_types=[ety]))]
        if elem_bits == width:
            return [b.bitcast(word, ety)]
        if isinstance(ety, IntegerType) and elem_bits == 1:
            return [b.int_cast(word, i1)]
        if width // elem_bits == 1:
            return [b.int_cast(word, ety) if isinstance(ety, IntegerType)
                    else b.bitcast(b.int_cast(word, _int(elem_bits)), ety)]
        vector = b.bitcast(word, vector_type(ety, width // elem_bits))
        return b.unpack_vector(vector)

    def store_global(self, b: LLVMBuilder, access: MemoryAccess, values: Sequence[SSAValue],
                     policy: CachePolicy) -> None:
        ety, count = access.element_type, access.count
        default_policy = policy.cache in ("none", "wb") and policy.eviction == "normal"
        if access.pred is None and default_policy:
            align = bit_width(ety) * count // 8
            value = values[0] if count == 1 else b.pack_vector(list(values))
            b.store(value, access.ptr, align)
            return
        width, words = self._words(ety, count)
        read, _ = self._word_types(width)
        per_word = max(1, width // bit_width(ety))
        operands = [self._pack_word(b, values[w * per_word:(w + 1) * per_word], width)
                    for w in range(words)]
        constraints = [read] * words
        address_index = len(operands)
        operands.append(access.ptr)
        constraints.append("l")
        mods = []
        if policy.cache in ("wb", "cg", "cs", "wt"):
            mods.append(f".{policy.cache}")
        if policy.eviction in ("evict_first", "evict_last"):
            mods.append(f".L1::{policy.eviction}")
        l2 = self._cache_policy_operand(b, policy)
        if l2 is not None:
            mods.append(".L2::cache_hint")
        vector = f".v{words}" if words > 1 else ""
        src = "{ " + _asm_operand_list(range(words)) + " }"
        instr = f"st.global{''.join(mods)}{vector}.b{width} [ ${address_index} + 0 ], {src}"
        if l2 is not None:
            instr += f", ${len(operands)}"
            operands.append(l2)
            constraints.append("l")
        if access.pred is not None:
            instr = f"@${len(operands)} {instr}"
            operands.append(access.pred)
            constraints.append("b")
        b.inline_asm(instr + ";", ",".join(constraints), operands, None)

    # -------------------------------------------------------------- shared memory

    def store_shared(self, b: LLVMBuilder, ptr: SSAValue, values: Sequence[SSAValue],
                     pred: SSAValue | None) -> None:
        ety = values[0].type
        count = len(values)
        if pred is None:
            value = values[0] if count == 1 else b.pack_vector(list(values))
            b.store(value, ptr, bit_width(ety) * count // 8)
            return
        width, words = self._words(ety, count)
        read, _ = self._word_types(width)
        per_word = max(1, width // bit_width(ety))
        operands = [ptr] + [self._pack_word(b, values[w * per_word:(w + 1) * per_word], width)
                            for w in range(words)]
        src = _asm_operand_list(range(1, words + 1))
        if words > 1:
            src = "{ " + src + " }"
        vector = f".v{words}" if words > 1 else ""
        asm = f"@${words + 1} st.shared{vector}.b{width} [ $0 + 0 ], {src};"
        operands.append(pred)
        b.inline_asm(asm, ",".join(["r"] + [read] * words + ["b"]), operands, None)

    def load_shared(self, b: LLVMBuilder, ptr: SSAValue, element_type: Attribute, count: int,
                    pred: SSAValue | None) -> list[SSAValue]:
        if pred is None:
            return self._native_load(b, MemoryAccess(ptr, element_type, count))
        width, words = self._words(element_type, count)
        read, write = self._word_types(width)
        dests = _asm_operand_list(range(words))
        if words > 1:
            dests = "{ " + dests + " }"
        vector = f".v{words}" if words > 1 else ""
        asm = f"@${words + 1} ld.shared{vector}.b{width} {dests}, [ ${words} + 0 ];"
        result = b.inline_asm(asm, ",".join([write] * words + ["r", "b"]), [ptr, pred],
                              _words_type(width, words))
        return self._unpack_words(b, result, element_type, width, words)

    # -------------------------------------------------------------- 8x8 matrices

    @staticmethod
    def _matrix_layout(transpose: bool) -> dict[str, Attribute]:
        return {"layout": nvvm.MMALayoutAttr(nvvm.MMALayout.COL if transpose
                                             else nvvm.MMALayout.ROW)}

    def matrix_moves(self) -> tuple[bool, bool]:
        # ldmatrix: sm_75 on; stmatrix: sm_90 on
        return self.compute_capability >= 75, self.compute_capability >= 90

    def load_matrix(self, b: LLVMBuilder, ptr: SSAValue, count: int,
                    transpose: bool) -> list[SSAValue] | None:
        if not self.matrix_moves()[0]:
            return None
        result_type = _words_type(32, count)
        result = b.emit(nvvm.LdMatrixOp.create(
            operands=[ptr], result_types=[result_type],
            properties={"num": IntegerAttr(count, i32), **self._matrix_layout(transpose)}))
        if count == 1:
            return [result]
        return [b.extract_value(result, i, i32) for i in range(count)]

    def store_matrix(self, b: LLVMBuilder, ptr: SSAValue, words: Sequence[SSAValue],
                     transpose: bool) -> bool:
        if not self.matrix_moves()[1]:
            return False
        b.insert(nvvm.StMatrixOp.create(operands=[ptr, *words],
                                        properties=self._matrix_layout(transpose)))
        return True

    # -------------------------------------------------------------- async copies

    def async_copy(self, b: LLVMBuilder, dst: SSAValue, src: SSAValue, size: int,
                   src_size: SSAValue | None) -> None:
        # .cg (L2 only) exists for 16 bytes alone; src-size below size zero-fills the rest.
        cache = "cg" if size == 16 else "ca"
        if src_size is None:
            b.inline_asm(f"cp.async.{cache}.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x{size:x};",
                         "r,l", [dst, src], None)
            return
        b.inline_asm(f"cp.async.{cache}.shared.global [ $0 + 0 ], [ $1 + 0 ], 0x{size:x}, $2;",
                     "r,l,r", [dst, src, src_size], None)

    def async_commit(self, b: LLVMBuilder) -> None:
        b.insert(nvvm.CpAsyncCommitGroupOp())

    def async_wait(self, b: LLVMBuilder, pending: int) -> None:
        b.insert(nvvm.CpAsyncWaitGroupOp.create(properties={"n": IntegerAttr(pending, i32)}))

    # -------------------------------------------------------------- atomics

    _RMW = {
        # kind -> (PTX operation, type class: b (bits), u, s, f)
        "and": ("and", "b"), "or": ("or", "b"), "xor": ("xor", "b"),
        "add": ("add", "u"), "fadd": ("add", "f"), "max": ("max", "s"), "min": ("min", "s"),
        "umax": ("max", "u"), "umin": ("min", "u"), "exch": ("exch", "b"),
    }

    @staticmethod
    def _sem_scope(sem: str, scope: str) -> str:
        scope = {"gpu": "gpu", "cta": "cta", "sys": "sys", "system": "sys"}.get(scope, scope)
        return f".{scope}.{sem}"

    def atomic_rmw(self, b: LLVMBuilder, kind: str, ptr: SSAValue, value: SSAValue,
                   pred: SSAValue | None, sem: str, scope: str, *,
                   returns: bool = True) -> SSAValue | None:
        ty = value.type
        bits = bit_width(ty)
        op, cls = self._RMW[kind]
        if kind == "fadd" and isinstance(ty, BFloat16Type) and self.compute_capability < 90:
            # PTX adds bf16 atomically from sm_90 on; before, LLVM's atomicrmw (a CAS
            # loop), as Triton does.
            return llvm_atomic_rmw(b, llvm_ext.AtomicBinOp.FADD, ptr, value, pred, sem,
                                   _LLVM_SYNC_SCOPES.get(scope, "device"), aligned=False)
        if cls == "f":
            suffix = f".noftz.f{bits}" if bits == 16 and isinstance(ty, Float16Type) else \
                ".noftz.bf16" if isinstance(ty, BFloat16Type) else f".f{bits}"
        elif cls == "b" or (op == "add" and bits == 64):
            suffix = f".{'u' if op == 'add' else 'b'}{bits}"
        else:
            suffix = f".{cls}{bits}"
        read = "l" if bits == 64 else "h" if bits == 16 else "r"
        operand = value if isinstance(ty, IntegerType) else b.bitcast(value, _int(bits))
        ordering = self._sem_scope(sem, scope)
        if not returns:
            asm = f"red.global{ordering}.{op}{suffix} [ $0 + 0 ], $1;"
            operands = [ptr, operand]
            constraints = ["l", read]
            if pred is not None:
                asm = f"@$2 {asm}"
                operands.append(pred)
                constraints.append("b")
            b.inline_asm(asm, ",".join(constraints), operands, None)
            return None
        mov = f"mov.u{max(bits, 16)} $0, 0x0;"
        asm = f"atom.global{ordering}.{op}{suffix} $0, [ $1 + 0 ], $2;"
        operands = [ptr, operand]
        constraints = ["=" + read, "l", read]
        if pred is not None:
            asm = f"@$3 {asm}"
            operands.append(pred)
            constraints.append("b")
        old = b.inline_asm(f"{mov}\n\t{asm}", ",".join(constraints), operands, _int(bits))
        return old if isinstance(ty, IntegerType) else b.bitcast(old, ty)

    def vector_atomic_width(self, kind: str, element_type: Attribute) -> int:
        # sm_90 with PTX 8.1 adds float adds of up to 128 bits (.v2/.v4 f32, .v8
        # f16/bf16), which Triton uses for every tensor fadd it can
        if self.compute_capability >= 90 and self.ptx_version >= 81 and kind == "fadd" and \
                isinstance(element_type, (Float16Type, BFloat16Type, Float32Type)):
            return 128 // bit_width(element_type)
        return 1

    def atomic_rmw_vector(self, b: LLVMBuilder, kind: str, ptr: SSAValue,
                          values: Sequence[SSAValue], pred: SSAValue | None, sem: str,
                          scope: str) -> list[SSAValue]:
        ty = values[0].type
        bits = bit_width(ty)
        count = len(values)
        # Triton's spelling: the scope before the semantics, .noftz before the vector
        name = "bf16" if isinstance(ty, BFloat16Type) else f"f{bits}"
        op = f"add{'.noftz' if bits == 16 else ''}.v{count}.{name}"
        read = "h" if bits == 16 else "r"
        dests = "{ " + _asm_operand_list(range(count)) + " }"
        sources = "{ " + _asm_operand_list(range(count + 1, 2 * count + 1)) + " }"
        asm = f"atom.global{self._sem_scope(sem, scope)}.{op} {dests}, [ ${count} + 0 ], {sources};"
        operands = [ptr] + [b.bitcast(v, _int(bits)) for v in values]
        constraints = ["=" + read] * count + ["l"] + [read] * count
        if pred is not None:
            asm = f"@${2 * count + 1} {asm}"
            operands.append(pred)
            constraints.append("b")
        result = b.inline_asm(asm, ",".join(constraints), operands, _words_type(bits, count))
        return self._unpack_words(b, result, ty, bits, count)

    def atomic_cas(self, b: LLVMBuilder, ptr: SSAValue, cmp: SSAValue, value: SSAValue,
                   pred: SSAValue | None, sem: str, scope: str) -> SSAValue:
        ty = value.type
        bits = bit_width(ty)
        read = "l" if bits == 64 else "h" if bits == 16 else "r"
        as_int = (lambda v: v) if isinstance(ty, IntegerType) else \
            (lambda v: b.bitcast(v, _int(bits)))
        # Triton writes the semantics before the scope here (atom.global.acquire.gpu.cas),
        # after it for the other atomics (atom.global.gpu.acq_rel.add)
        scope_part, sem_part = self._sem_scope(sem, scope).split(".")[1:]
        asm = f"atom.global.{sem_part}.{scope_part}.cas.b{bits} $0, [ $1 + 0 ], $2, $3;"
        operands = [ptr, as_int(cmp), as_int(value)]
        constraints = ["=" + read, "l", read, read]
        if pred is not None:
            asm = f"@$4 {asm}"
            operands.append(pred)
            constraints.append("b")
        old = b.inline_asm(f"mov.u{max(bits, 16)} $0, 0x0;\n\t{asm}", ",".join(constraints),
                           operands, _int(bits))
        return old if isinstance(ty, IntegerType) else b.bitcast(old, ty)

    # -------------------------------------------------------------- math

    # f32 math as libdevice resolves it under Triton's __nvvm_reflect settings
    # (__CUDA_FTZ=1, __CUDA_PREC_SQRT=0): one approximate instruction each. (Not log2 and
    # log: libdevice's logf and log2f are polynomials, not lg2.approx.)
    _F32_UNARY = {
        "sqrt": "llvm.nvvm.sqrt.approx.ftz.f",
        "rsqrt": "llvm.nvvm.rsqrt.approx.ftz.f",
        "exp2": "llvm.nvvm.ex2.approx.ftz.f",
        "precise_sqrt": "llvm.nvvm.sqrt.rn.f",
    }

    def math(self, b: LLVMBuilder, name: str, args: Sequence[SSAValue]) -> SSAValue | None:
        ty = args[0].type
        f32 = isinstance(ty, Float32Type)
        if name == "exp" and f32:
            scaled = b.float_op("fmul", args[0], b.constant(ty, LOG2E))
            return b.call_intrinsic("llvm.nvvm.ex2.approx.f", [scaled], ty)
        if f32 and name in self._F32_UNARY:
            return b.call_intrinsic(self._F32_UNARY[name], list(args), ty)
        if name == "divf" and f32:
            return b.call_intrinsic("llvm.nvvm.div.full", list(args), ty)
        if name == "divf" and isinstance(ty, Float64Type):
            return b.call_intrinsic("llvm.nvvm.div.rn.d", list(args), ty)
        if name == "precise_divf" and f32:
            return b.call_intrinsic("llvm.nvvm.div.rn.f", list(args), ty)
        if name == "precise_sqrt" and isinstance(ty, Float64Type):
            return b.intrinsic_op("sqrt", list(args), ty)
        if name == "erf" and f32:
            return erff(b, args[0])
        if name == "erf" and isinstance(ty, (Float16Type, BFloat16Type)):
            # libdevice has no half-precision erf: through f32.
            return b.cast("fptrunc", erff(b, b.cast("fpext", args[0], Float32Type())), ty)
        return None

    def clamp_magnitude(self, b: LLVMBuilder, x: SSAValue, limit: SSAValue,
                        propagate_nan: bool) -> SSAValue | None:
        # sm_90's min.xorsign.abs: |x| capped at |limit|, with x's sign (limit >= 0); a NaN
        # x gives limit with the NaN's sign (.nan: a NaN), where maxnum then minnum give -limit.
        suffix = {Float32Type: "f", Float16Type: "f16"}.get(type(x.type))
        if self.compute_capability < 90 or suffix is None:
            return None
        nan = ".nan" if propagate_nan else ""
        return b.call_intrinsic(f"llvm.nvvm.fmin{nan}.xorsign.abs.{suffix}", [x, limit], x.type)

    # -------------------------------------------------------------- float conversions

    # tt-level 8-bit float type name -> the PTX type of a pair of them (sm_89 and newer).
    _FP8_PAIRS = {"f8E4M3FN": "e4m3x2", "f8E5M2": "e5m2x2"}

    def convert_float(self, b: LLVMBuilder, value: SSAValue, src: Attribute, dst: Attribute,
                      rounding: str | None) -> SSAValue | None:
        """8-bit floats with sm_89's ``cvt`` on pairs (the other half of the pair is 0),
        through f16 for f32/bf16 sources and results where PTX has no direct form (exact:
        every e4m3/e5m2 value is an f16); ``rtz`` f32 -> f16/bf16 with ``cvt.rz``."""
        src_name, dst_name = src.name, dst.name
        if rounding == "rtz" and isinstance(src, Float32Type) and \
                isinstance(dst, (Float16Type, BFloat16Type)):
            kind = "f16" if isinstance(dst, Float16Type) else "bf16"
            bits = b.inline_asm(f"cvt.rz.{kind}.f32 $0, $1;", "=h,f", [value], _int(16),
                                side_effects=False)
            return b.bitcast(bits, dst)
        if self.compute_capability < 89:
            return None
        if dst_name in self._FP8_PAIRS and rounding != "rtz":
            pair = self._FP8_PAIRS[dst_name]
            if isinstance(src, Float32Type):
                bits = b.inline_asm(f"cvt.rn.satfinite.{pair}.f32 $0, $1, $2;", "=h,f,f",
                                    [b.constant(src, 0.0), value], _int(16), side_effects=False)
                return b.int_cast(bits, i8)
            if isinstance(src, (Float16Type, BFloat16Type)):
                wide = b.cast("fpext", value, Float32Type())
                return self.convert_float(b, wide, Float32Type(), dst, rounding)
            return None
        if src_name in self._FP8_PAIRS:
            pair = self._FP8_PAIRS[src_name]
            half_pair = b.inline_asm(f"cvt.rn.f16x2.{pair} $0, $1;", "=r,h",
                                     [b.int_cast(value, _int(16), signed=False)], _int(32),
                                     side_effects=False)
            half = b.bitcast(b.int_cast(half_pair, _int(16)), Float16Type())
            if isinstance(dst, Float16Type):
                return half
            if isinstance(dst, (Float32Type, BFloat16Type)):
                wide = b.cast("fpext", half, Float32Type())
                return wide if isinstance(dst, Float32Type) else b.cast("fptrunc", wide, dst)
        return None

    # Math with no PTX instruction: libdevice's function (f32 ``__nv_<name>f``, f64
    # ``__nv_<name>``), as MLIR's libdevice lowering in Triton's NVIDIA back end; 16-bit
    # floats through f32. Triton 3.6 sends sqrt, floor and ceil there too (f32 floor is
    # libdevice's cvt.rmi.ftz, which flushes a denormal where llvm.floor would not).
    _LIBDEVICE_MATH = frozenset({"exp", "exp2", "log", "log2", "rsqrt", "sqrt", "sin", "cos",
                                 "tan", "tanh", "log10", "pow", "erf", "floor", "ceil"})

    def math_library_symbol(self, name: str, ty: Attribute) -> str | None:
        if name not in self._LIBDEVICE_MATH:
            return None
        if isinstance(ty, Float32Type):
            return f"__nv_{name}f"
        if isinstance(ty, Float64Type):
            return f"__nv_{name}"
        return None

    def library_function(self, b: LLVMBuilder, symbols: ModuleSymbols, symbol: str,
                         args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        inline = LIBDEVICE_INLINE.get(symbol)
        if inline is not None:
            return inline(b, *args)
        symbols.declare(symbol, [a.type for a in args], result_type)
        return b.emit(llvm.CallOp(symbol, *args, return_type=result_type))

    # -------------------------------------------------------------- printf and assert

    def printf(self, b: LLVMBuilder, symbols: ModuleSymbols, format: str,
               args: Sequence[SSAValue]) -> None:
        """``vprintf(format, &{args...})``: the arguments packed with their natural alignment."""
        format_ptr = symbols.string(b, "printfFormat_", format)
        offsets, size = [], 0
        for arg in args:
            bytes_ = bit_width(arg.type) // 8
            size = (size + bytes_ - 1) // bytes_ * bytes_
            offsets.append(size)
            size += bytes_
        if args:
            words = max(1, (size + 7) // 8)
            # A static buffer in the entry block, shared by the prints that need this size.
            buffer = b.prologue_value(f"printf-buffer:{words}", lambda pb: pb.emit(
                llvm.AllocaOp(pb.i32(words), i64, alignment=8)))
            for arg, offset in zip(args, offsets):
                b.store(arg, b.gep(buffer, b.i32(offset), i8))
        else:
            buffer = b.zero(_GENERIC_PTR)
        symbols.declare("vprintf", [_GENERIC_PTR, _GENERIC_PTR], i32)
        b.insert(llvm.CallOp("vprintf", format_ptr, buffer, return_type=i32))

    def assert_fail(self, b: LLVMBuilder, symbols: ModuleSymbols, message: str, file: str,
                    line: int, function: str) -> None:
        """``__assertfail(message, file, line, function, 1)``: the kernel stops with an error."""
        message_ptr = symbols.string(b, "assertMessage_", message)
        file_ptr = symbols.string(b, "assertFile_", file)
        function_ptr = symbols.string(b, "assertFunc_", function)
        symbols.declare("__assertfail",
                        [_GENERIC_PTR, _GENERIC_PTR, i32, _GENERIC_PTR, i64], None)
        b.insert(llvm.CallOp("__assertfail", message_ptr, file_ptr, b.i32(line), function_ptr,
                             b.i64(1)))

    # -------------------------------------------------------------- matrix units

    def matrix_emitter(self, encoding: object) -> MatrixEmitter | None:
        if isinstance(encoding, NvidiaMma) and encoding.is_ampere:
            return MmaV2Emitter()
        return None


__all__ = ["NvidiaHooks", "LOG2E"]
