"""What the TritonGPU -> LLVM lowering asks of a GPU vendor.

The lowering patterns (``tileopt/conversion/triton_gpu_to_llvm/``) are shared by NVIDIA
and AMD; everything that differs goes through a :class:`TargetHooks` object: special
registers (thread and program ids), warp size, cross-lane exchange, barriers, address
spaces, the shared-memory banks, the memory instructions for masked vector loads and
stores, atomics, the vendor's math (approximate instructions and its device library:
libdevice, ocml), printf and assertion failure, and the attributes a kernel function
carries. ``nvidia/hooks.py`` implements it with ``nvvm`` ops and inline PTX as Triton's
NVIDIA back end does; an AMD implementation supplies ``rocdl`` equivalents. Every hook
without a generic answer is abstract: a vendor class that misses one cannot be created,
and Python names the missing hooks. ``docs/lowering.md`` lists them.

Values handed to the exchange hooks may have any scalar type; the hooks pack them into
the 32-bit registers the hardware exchanges (Triton's ``shuffleCommon``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, Signedness, i32
from xdsl.ir import Attribute, SSAValue

from tileopt.conversion.llvm_builder import LLVMBuilder, ptr_type
from tileopt.conversion.shared_layouts import SharedMemoryBanks
from tileopt.conversion.type_converter import bit_width
from tileopt.dialects import llvm_ext
from tileopt.layouts.linear_layout import LinearLayout


@dataclass(frozen=True)
class CachePolicy:
    """The cache and eviction hints of a ``tt.load``/``tt.store`` (Triton's names, lower case)."""

    cache: str = "none"          # none | ca | cg | cs | cv | wb | wt
    eviction: str = "normal"     # normal | evict_first | evict_last
    volatile: bool = False


@dataclass
class MemoryAccess:
    """One vector access of ``count`` elements of ``element_type`` at ``ptr``.

    ``pred`` guards it (None: always); ``other`` are the values a masked-off load
    yields (None: zeros).
    """

    ptr: SSAValue
    element_type: Attribute
    count: int
    pred: SSAValue | None = None
    other: Sequence[SSAValue] | None = None


@dataclass(frozen=True)
class MatrixInstruction:
    """One matrix instruction ``D = A x B + C`` of shape ``m x n x k``, as the tiling of
    ``tt.dot`` needs it (``triton_gpu_to_llvm/dot.py``).

    ``a``, ``b``, ``c`` are its fragments: linear layouts from (``register``, ``lane``
    and, for an instruction several warps issue together, ``warp``) to the (row, col) of
    the element within the instruction's ``m x k``, ``k x n`` and ``m x n`` tiles. One
    fragment register is one element; the emitter packs them into machine registers.
    """

    m: int
    n: int
    k: int
    a: LinearLayout
    b: LinearLayout
    c: LinearLayout


@dataclass(frozen=True)
class DotOperands:
    """What the LLVM element types of a dot's operands do not tell."""

    k_width: int = 0                  # the dot_op's kWidth: K elements a lane holds in a row
    a_element: Attribute | None = None  # A's and B's TritonGPU element types: the fp8
    b_element: Attribute | None = None  # kinds, which all lower to i8


class MatrixEmitter(ABC):
    """The matrix instructions of one accumulator encoding (NVIDIA ``mma.sync``, AMD
    MFMA/WMMA): which instruction a dot uses and how it is emitted. The tiling over
    a thread's registers is shared (``dot.py``)."""

    @abstractmethod
    def instruction(self, a_type: Attribute, b_type: Attribute, c_type: Attribute,
                    input_precision: str,
                    operands: DotOperands | None = None) -> MatrixInstruction:
        """The instruction for operands of these element types (LLVM types), the
        dot's ``inputPrecision`` name and what else its operands say (``operands``);
        raises ``ValueError`` (the message is shown) when there is none."""

    @abstractmethod
    def emit(self, b: LLVMBuilder, instruction: MatrixInstruction, a: Sequence[SSAValue],
             b_values: Sequence[SSAValue], c: Sequence[SSAValue]) -> list[SSAValue]:
        """One instruction on fragment-ordered elements; D in fragment order."""


# Triton's memory semantics -> LLVM atomic orderings.
ORDERINGS = {"relaxed": "monotonic", "acquire": "acquire", "release": "release",
             "acq_rel": "acq_rel"}


def llvm_atomic_rmw(b: LLVMBuilder, bin_op: llvm_ext.AtomicBinOp, ptr: SSAValue,
                    value: SSAValue, pred: SSAValue | None, sem: str,
                    syncscope: str | None, *, aligned: bool = True) -> SSAValue:
    """LLVM's ``atomicrmw`` on one element (``aligned``: with its natural alignment
    spelled out): it takes no predicate, so a masked one runs in a branch where ``pred``
    holds (0 elsewhere), as Triton emits it."""
    ty = value.type
    alignment = bit_width(ty) // 8 if aligned else None

    def rmw() -> SSAValue:
        return b.emit(llvm_ext.AtomicRMWOp(bin_op, ptr, value, ORDERINGS[sem], syncscope,
                                           alignment))

    if pred is None:
        return rmw()
    with b.guarded(pred, [ty], [b.zero(ty)]) as guard:
        guard.yield_([rmw()])
    return guard.results[0]


class ModuleSymbols(Protocol):
    """What a hook may add at module level (the lowering's ``ModuleLowering`` does it)."""

    def declare(self, name: str, inputs: list[Attribute], output: Attribute | None) -> None:
        """Declare the external function ``name`` (once, however often asked)."""

    def string(self, b: LLVMBuilder, prefix: str, text: str) -> SSAValue:
        """A pointer to a NUL-terminated module-level copy of ``text`` (one per text)."""

    def text_of(self, value: SSAValue) -> str | None:
        """The text behind a pointer ``string`` made (None for any other value)."""


class TargetHooks(ABC):
    """The vendor-specific pieces of the lowering; see the module docstring."""

    warp_size: int = 32
    global_address_space: int = 1
    shared_address_space: int = 3
    # Name of the module-level shared-memory array (``@global_smem`` in Triton).
    shared_memory_symbol: str = "global_smem"

    # -------------------------------------------------------------- ids

    @abstractmethod
    def thread_id(self, b: LLVMBuilder) -> SSAValue:
        """The thread's index in its block (x dimension), i32."""

    @abstractmethod
    def program_id(self, b: LLVMBuilder, axis: int) -> SSAValue:
        """``tt.get_program_id``: the block index along ``axis`` (0, 1, 2), i32."""

    @abstractmethod
    def num_programs(self, b: LLVMBuilder, axis: int) -> SSAValue:
        """``tt.get_num_programs``: the grid size along ``axis``, i32."""

    def uniform(self, b: LLVMBuilder, value: SSAValue) -> SSAValue:
        """Tell the compiler ``value`` is the same in every lane (AMD: readfirstlane)."""
        return value

    # -------------------------------------------------------------- cross-lane and block sync

    @abstractmethod
    def shuffle_xor(self, b: LLVMBuilder, value: SSAValue, lane_mask: int) -> SSAValue:
        """The ``value`` of lane ``lane ^ lane_mask``."""

    @abstractmethod
    def shuffle_up(self, b: LLVMBuilder, value: SSAValue, delta: int) -> SSAValue:
        """The ``value`` of lane ``lane - delta`` (own value where that is below 0)."""

    @abstractmethod
    def shuffle_idx(self, b: LLVMBuilder, value: SSAValue, lane: SSAValue) -> SSAValue:
        """The ``value`` of lane ``lane`` (an i32 SSA value)."""

    def reduce_warp(self, b: LLVMBuilder, value: SSAValue,
                    combine: Callable[[SSAValue, SSAValue], SSAValue]) -> SSAValue | None:
        """The ``combine`` (commutative, associative) of ``value`` over every lane of the
        warp, in every lane; None for the generic butterfly of :meth:`shuffle_xor`
        (AMD: DPP row shifts and broadcasts, then ``readlane`` of the last lane)."""
        return None

    @abstractmethod
    def barrier(self, b: LLVMBuilder) -> None:
        """Every thread of the block waits; shared memory written before is visible after."""

    # -------------------------------------------------------------- memory

    @property
    @abstractmethod
    def shared_memory_banks(self) -> SharedMemoryBanks:
        """How shared memory serves a warp (bank count and width): conversions through
        shared memory are laid out so that a warp's accesses avoid bank conflicts."""

    @abstractmethod
    def load_global(self, b: LLVMBuilder, access: MemoryAccess,
                    policy: CachePolicy) -> list[SSAValue]:
        """Load ``access.count`` elements as one vector; masked-off lanes give ``other``."""

    @abstractmethod
    def store_global(self, b: LLVMBuilder, access: MemoryAccess, values: Sequence[SSAValue],
                     policy: CachePolicy) -> None:
        """Store ``values`` as one vector where ``access.pred`` holds."""

    @abstractmethod
    def store_shared(self, b: LLVMBuilder, ptr: SSAValue, values: Sequence[SSAValue],
                     pred: SSAValue | None) -> None:
        """Store ``values`` (one vector) to shared memory where ``pred`` holds."""

    @abstractmethod
    def load_shared(self, b: LLVMBuilder, ptr: SSAValue, element_type: Attribute, count: int,
                    pred: SSAValue | None) -> list[SSAValue]:
        """Load ``count`` elements (one vector) from shared memory where ``pred`` holds."""

    @abstractmethod
    def atomic_rmw(self, b: LLVMBuilder, kind: str, ptr: SSAValue, value: SSAValue,
                   pred: SSAValue | None, sem: str, scope: str, *,
                   returns: bool = True) -> SSAValue | None:
        """``tt.atomic_rmw`` on one element; the old value (undefined where not ``pred``),
        or None when ``returns`` is False (a reduction that gives nothing back)."""

    def vector_atomic_width(self, kind: str, element_type: Attribute) -> int:
        """Most elements one atomic instruction may update at consecutive addresses
        (1: none; the lowering also keeps to the pointer's contiguity and the mask's
        alignment)."""
        return 1

    def atomic_rmw_vector(self, b: LLVMBuilder, kind: str, ptr: SSAValue,
                          values: Sequence[SSAValue], pred: SSAValue | None, sem: str,
                          scope: str) -> list[SSAValue]:
        """``atomic_rmw`` of ``len(values)`` consecutive elements in one instruction (only
        called up to :meth:`vector_atomic_width`); the old values."""
        raise NotImplementedError(f"{type(self).__name__} has no vector atomics")

    @abstractmethod
    def atomic_cas(self, b: LLVMBuilder, ptr: SSAValue, cmp: SSAValue, value: SSAValue,
                   pred: SSAValue | None, sem: str, scope: str) -> SSAValue:
        """``tt.atomic_cas`` on one element; returns the old value."""

    # -------------------------------------------------------------- matrix moves and async copies

    def matrix_moves(self) -> tuple[bool, bool]:
        """Whether :meth:`load_matrix` and :meth:`store_matrix` exist on this target
        (the planner of ``convert_layout`` counts on them only then)."""
        return False, False

    def load_matrix(self, b: LLVMBuilder, ptr: SSAValue, count: int,
                    transpose: bool) -> list[SSAValue] | None:
        """Load ``count`` (1, 2 or 4) 8x8 matrices of 16-bit elements from shared memory
        as a warp: lane ``8 * i + j`` gives in ``ptr`` the address of row ``j`` of matrix
        ``i`` (16 contiguous bytes); lane ``l`` gets word ``i`` = elements ``(l // 4,
        2 * (l % 4) + {0, 1})`` of matrix ``i`` (``transpose``: of its transpose) as
        ``count`` i32 (untransposed, the 32-bit element at bytes ``4 * (l % 4)`` of row
        ``l // 4``). None: the target has no such instruction (plain loads are used)."""
        return None

    def store_matrix(self, b: LLVMBuilder, ptr: SSAValue, words: Sequence[SSAValue],
                     transpose: bool) -> bool:
        """The store of :meth:`load_matrix` (same lanes, addresses and words); False if the
        target has none (plain stores are used)."""
        return False

    def async_copy(self, b: LLVMBuilder, dst: SSAValue, src: SSAValue, size: int,
                   src_size: SSAValue | None) -> None:
        """Start copying ``size`` bytes (4, 8 or 16) from global ``src`` to shared ``dst``
        without waiting; only ``src_size`` bytes (an i32, None: all) are read, the rest of
        ``dst`` is zero-filled. Complete after :meth:`async_wait` of its group."""
        raise NotImplementedError("asynchronous copies to shared memory")

    def async_commit(self, b: LLVMBuilder) -> None:
        """Close the group of asynchronous copies started since the last commit."""
        raise NotImplementedError("asynchronous copies to shared memory")

    def async_wait(self, b: LLVMBuilder, pending: int) -> None:
        """Wait until at most ``pending`` committed groups of this thread are in flight
        (the barrier that makes other threads' copies visible is the caller's)."""
        raise NotImplementedError("asynchronous copies to shared memory")

    # -------------------------------------------------------------- math

    supports_maximum_minimum: bool = True
    """Whether NaN-propagating ``llvm.intr.minimum``/``maximum`` may be emitted; where not,
    ``arith.minimumf`` and NaN-propagating ``tt.clampf`` become ``minnum``/``maxnum`` and a
    select of NaN (Triton 3.6's ``supportMaximumMinimum``: AMD only on CDNA4)."""

    def math(self, b: LLVMBuilder, name: str, args: Sequence[SSAValue]) -> SSAValue | None:
        """A vendor lowering of ``math.<name>``/``tt.<name>``/``arith.<name>`` on scalars,
        or None for the generic one (an ``llvm.intr.*`` intrinsic or an expansion).

        Names asked: ``exp``, ``exp2``, ``log``, ``log2``, ``sqrt``, ``rsqrt``, ``divf``,
        ``precise_divf``, ``precise_sqrt`` (these have a generic form), and ``erf``, which
        has none: None there makes the op unsupported on the target.
        """
        return None

    def clamp_magnitude(self, b: LLVMBuilder, x: SSAValue, limit: SSAValue,
                        propagate_nan: bool) -> SSAValue | None:
        """``clamp(x, -limit, limit)`` in one instruction, or None for max then min."""
        return None

    def convert_float(self, b: LLVMBuilder, value: SSAValue, src: Attribute, dst: Attribute,
                      rounding: str | None) -> SSAValue | None:
        """``tt.fp_to_fp`` of one ``value`` between the tt-level float types ``src`` and
        ``dst`` where one is an 8-bit float (``f8E4M3FN``, ``f8E5M2``; held as i8) or
        ``rounding`` is ``rtz``: the vendor's conversion instructions, or None where the
        target has none (the lowering then reports the op)."""
        return None

    def math_library_symbol(self, name: str, ty: Attribute) -> str | None:
        """The device-library function that computes ``math.<name>`` (a name ``math`` is
        asked, or ``sin``, ``cos``, ``tan``, ``tanh``, ``log10``, ``pow``) on ``ty`` (f32
        or f64) where :meth:`math` gave nothing, or None for the generic form. NVIDIA:
        libdevice's (``__nv_sinf``), as MLIR's libdevice lowering that Triton runs."""
        return None

    @abstractmethod
    def library_function(self, b: LLVMBuilder, symbols: ModuleSymbols, symbol: str,
                         args: Sequence[SSAValue], result_type: Attribute) -> SSAValue:
        """``symbol`` of the vendor's device library (libdevice ``__nv_*``, ocml
        ``__ocml_*``) applied to scalar ``args``: a call of the declared function, or the
        vendor's inline expansion of it. ``tt.extern_elementwise`` lowers through it."""

    # -------------------------------------------------------------- printf and assert

    @abstractmethod
    def printf(self, b: LLVMBuilder, symbols: ModuleSymbols, format: str,
               args: Sequence[SSAValue]) -> None:
        """Print ``args`` with the C format ``format`` (``tt.print``). The arguments come
        promoted as C promotes variadic ones: doubles, 32/64-bit integers, pointers."""

    @abstractmethod
    def assert_fail(self, b: LLVMBuilder, symbols: ModuleSymbols, message: str, file: str,
                    line: int, function: str) -> None:
        """Report a failed ``tt.assert`` (``message`` at ``file:line`` in ``function``) and
        stop the kernel; emitted on the failing path only."""

    # -------------------------------------------------------------- functions

    def kernel_attributes(self, num_warps: int, threads_per_warp: int) -> dict[str, Attribute]:
        """Attributes of a kernel ``llvm.func``. Triton 3.6's NVIDIA and AMD lowerings both
        mark a kernel ``nvvm.kernel`` with ``nvvm.reqntid`` = its threads; the translation
        makes it a ``ptx_kernel`` or an ``amdgpu_kernel`` with the vendor's attributes."""
        return {
            "nvvm.kernel": IntegerAttr(1, IntegerType(1, Signedness.UNSIGNED)),
            "nvvm.reqntid": DenseArrayBase.from_list(i32, [num_warps * threads_per_warp]),
        }

    def extra_kernel_arguments(self) -> list[Attribute]:
        """Parameters appended to every kernel's signature: Triton 3.6 kernels take a
        global-scratch and a profile-scratch pointer last, on both vendors."""
        return [ptr_type(1), ptr_type(1)]

    # -------------------------------------------------------------- matrix units

    def matrix_emitter(self, encoding: object) -> MatrixEmitter | None:
        """The emitter of ``tt.dot`` for results in ``encoding`` (a ``tileopt.layouts``
        encoding other than blocked, whose FMA dot is shared); None: no matrix unit."""
        return None
