"""Registers <-> shared memory by linear layouts: the one routine every shared-memory
access of the lowering goes through (``local_load``/``local_store``/``local_alloc``,
``convert_layout``'s route through shared memory, ``async_copy_global_to_local``).

An access is a linear layout ``(register, lane, warp, block) -> byte offset``: the
register layout followed by the inverse of the shared layout (a memdesc's encoding,
or the offset map ``convert_layout`` plans). Linearity gives the address of register
``r`` of a thread as ``thread_part ^ constant(r)``: the thread part is computed once per
function (prologue), each register adds a constant. A *vector* is a run of register
bases that map to consecutive bytes (up to 16), with no other basis touching the bits
below it, so that every vector is aligned. On NVIDIA, 16- and 32-bit ``local_load``s whose
access has the shape of ``ldmatrix`` (and on sm_90 stores of ``stmatrix``) move whole
8x8 matrices per warp instead (:func:`matrix_plan`; 32-bit elements as two 16-bit
columns).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import llvm
from xdsl.dialects.builtin import i1, i8, i32, i64
from xdsl.ir import Attribute, SSAValue

from tileopt.conversion.indexing import HW_DIMS, apply_layout, register_coordinates
from tileopt.conversion.llvm_builder import LLVMBuilder, vector_type
from tileopt.conversion.shared_layouts import MAX_VECTOR_BYTES, MatrixShape, Side, matrix_shape
from tileopt.conversion.triton_gpu_to_llvm.lowering import FunctionLowering
from tileopt.conversion.triton_gpu_to_llvm.shared_view import SharedView
from tileopt.conversion.type_converter import bit_width
from tileopt.layouts.linear_layout import LinearLayout

OFFSET = "offset"


# ------------------------------------------------------------------ storage types


def storage_type(ty: Attribute) -> Attribute:
    """How a register of type ``ty`` is kept in shared memory (bools as bytes, pointers as i64)."""
    if ty == i1:
        return i8
    if isinstance(ty, llvm.LLVMPointerType):
        return i64
    return ty


def storage_bytes(element_type: Attribute) -> int:
    """Bytes one element of LLVM type ``element_type`` takes in shared memory."""
    return max(1, bit_width(storage_type(element_type)) // 8)


def to_storage(b: LLVMBuilder, value: SSAValue, storage: Attribute) -> SSAValue:
    if isinstance(value.type, llvm.LLVMPointerType):
        return b.cast("ptrtoint", value, storage)
    if value.type == i1:
        return b.int_cast(value, storage, signed=False)
    return value


def from_storage(b: LLVMBuilder, value: SSAValue, ty: Attribute) -> SSAValue:
    if isinstance(ty, llvm.LLVMPointerType):
        return b.emit(llvm.IntToPtrOp.create(operands=[value], result_types=[ty]))
    if ty == i1:
        return b.icmp("ne", value, b.constant(value.type, 0))
    return value


# ------------------------------------------------------------------ the access layout


def scaled(layout: LinearLayout, scale: int) -> LinearLayout:
    """``layout`` (onto one ``offset`` dim) with every offset times ``scale``."""
    return LinearLayout({d: [[b[0] * scale] for b in layout.get_bases(d)] for d in layout.in_dims},
                        {OFFSET: layout.out_dim_size(OFFSET) * scale})


def view_access(layout: LinearLayout, view: SharedView) -> LinearLayout:
    """Byte offsets (from the view's frame base, before its offsets' xor) of the elements
    a register layout holds in ``view``."""
    inverse = view.layout().invert()
    return scaled(layout.compose(inverse), view.element_bytes)


def _images(access: LinearLayout, dim: str) -> list[int]:
    return [b[0] for b in access.get_bases(dim)] if access.has_in_dim(dim) else []


def vector_bits(access: LinearLayout, element_bytes: int, unaligned: int = 0,
                limit: int = MAX_VECTOR_BYTES) -> tuple[int, ...]:
    """Register bits of one vector access: bit ``t`` of the vector moves ``element_bytes
    << t`` bytes. No other basis (nor ``unaligned``, bits a runtime xor may set) may touch
    the bytes below the vector's size, so every vector starts aligned."""
    registers = _images(access, "register")
    bits: list[int] = []
    while (element_bytes << (len(bits) + 1)) <= limit:
        want = element_bytes << len(bits)
        found = next((i for i, v in enumerate(registers) if v == want and i not in bits), None)
        if found is None:
            break
        bits.append(found)
    others = [v for i, v in enumerate(registers) if i not in bits]
    for dim in access.in_dims:
        if dim != "register":
            others += _images(access, dim)
    while bits:
        low = (element_bytes << len(bits)) - 1
        if not any(v & low for v in others + [unaligned]):
            break
        others.append(registers[bits.pop()])
    return tuple(bits)


def thread_offsets(fl: FunctionLowering, access: LinearLayout):
    """(thread part as an i32 SSA value, bits the thread part may set, per-register
    constant) of each register's byte offset."""
    dims = [d for d in HW_DIMS if access.has_in_dim(d)]
    threads = access.sublayout(dims, [OFFSET])
    key = f"smem-offsets:{tuple(tuple(threads.get_bases(d)) for d in threads.in_dims)}"
    thread_part = fl.b.prologue_value(key, lambda b: apply_layout(
        b, threads, {d: fl.ids.value(d) for d in threads.in_dims})[0])
    thread_bits = 0
    for d in dims:
        for basis in threads.get_bases(d):
            thread_bits |= basis[0]
    constants = [c[0] for c in register_coordinates(access)]
    return thread_part, thread_bits, constants


class Addresses:
    """Addresses ``base + (thread ^ constant)``: the constant's bits the thread part
    cannot set are added as an immediate, so one xor serves all accesses that share the
    rest (LLVM does not split the constant itself)."""

    def __init__(self, b: LLVMBuilder, base: SSAValue, thread: SSAValue, thread_bits: int):
        self.b, self.base, self.thread, self.thread_bits = b, base, thread, thread_bits
        self._xored: dict[int, SSAValue] = {}

    def __call__(self, constant: int) -> SSAValue:
        b = self.b
        low = constant & self.thread_bits
        if low not in self._xored:
            self._xored[low] = b.gep(self.base, b.xor(self.thread, b.i32(low)), i8)
        return b.gep(self._xored[low], b.i32(constant & ~self.thread_bits), i8)


@dataclass(frozen=True)
class Access:
    """Where a thread's registers are in shared memory: ``offsets`` (hardware -> byte
    offset from ``base``), then xor ``xor`` (bytes: an int, or an i32 with ``xor_bits``
    the bits it may set), vectors of ``side.vector_bits``."""

    base: SSAValue
    offsets: LinearLayout
    side: Side
    xor: int | SSAValue = 0
    xor_bits: int = 0

    def addresses(self, fl: FunctionLowering) -> tuple[Addresses, list[int]]:
        thread, thread_bits, constants = thread_offsets(fl, self.offsets)
        xor = self.xor
        if isinstance(xor, int):
            constants = [c ^ xor for c in constants]
        else:
            thread = fl.b.xor(thread, xor)
            thread_bits |= self.xor_bits
        return Addresses(fl.b, self.base, thread, thread_bits), constants


def access_of_view(fl: FunctionLowering, layout: LinearLayout, view: SharedView,
                   max_vector_bytes: int = MAX_VECTOR_BYTES) -> Access:
    """The :class:`Access` of a register layout reading or writing ``view``."""
    offsets = view_access(layout, view)
    eb = view.element_bytes
    xor = view.offset_xor(fl)
    xor_bits = view.offset_xor_bits() * eb
    if isinstance(xor, int):
        xor, unaligned = xor * eb, xor * eb
    else:
        xor, unaligned = fl.b.mul(xor, fl.b.i32(eb)), xor_bits
    bits = vector_bits(offsets, eb, unaligned, max_vector_bytes)
    return Access(view.base, offsets, Side(bits, 1, 0), xor, xor_bits)


def store_registers(fl: FunctionLowering, access: Access, registers: list[int],
                    values: list[SSAValue], storage: Attribute) -> None:
    """Store ``values[r]`` for each ``r`` in ``registers`` (those holding distinct elements).

    Stores that share an xor go one after another (as Triton orders them): LLVM's AMDGPU
    back end pairs ``base + c`` and ``base + c'`` into one ``ds_write2`` only when no other
    store, which it cannot tell apart, lies between them."""
    address, constants = access.addresses(fl)
    for r in sorted(registers, key=lambda r: constants[r] & address.thread_bits):
        if not access.side.starts(r):
            continue
        group = [to_storage(fl.b, values[g], storage) for g in access.side.group(r)]
        fl.hooks.store_shared(fl.b, address(constants[r]), group, None)


def load_registers(fl: FunctionLowering, access: Access, registers: list[int],
                   storage: Attribute, element_type: Attribute) -> dict[int, SSAValue]:
    """Load each register of ``registers``; {register: value}."""
    address, constants = access.addresses(fl)
    loaded: dict[int, SSAValue] = {}
    for r in registers:
        if not access.side.starts(r):
            continue
        group = access.side.group(r)
        values = fl.hooks.load_shared(fl.b, address(constants[r]), storage, len(group), None)
        for g, v in zip(group, values):
            loaded[g] = from_storage(fl.b, v, element_type)
    return loaded


# ------------------------------------------------------------------ 8x8 matrices


@dataclass(frozen=True)
class MatrixPlan:
    """An access moved as 8x8 matrices of 16-bit elements (``TargetHooks.load_matrix``):
    ``shape`` says which register bits fill a word (``pair``) and pick the matrix of one
    instruction (``selectors``: word ``i``); ``addresses`` (lane, warp) -> byte offset of
    the row each lane gives."""

    shape: MatrixShape
    addresses: LinearLayout

    @property
    def transpose(self) -> bool:
        return self.shape.transpose

    @property
    def count(self) -> int:
        return 1 << len(self.shape.selectors)

    def words(self, start: int) -> list[tuple[int, ...]]:
        """The registers of each word of the instruction at register ``start`` (a
        16-bit pair, low half first, or one 32-bit register)."""
        pair = self.shape.pair
        return [(r,) if pair is None else (r, r | 1 << pair)
                for r in Side(self.shape.selectors, 1, 0).group(start)]

    def starts(self, register: int) -> bool:
        bits = self.shape.selectors + (() if self.shape.pair is None else (self.shape.pair,))
        return not any(register >> s & 1 for s in bits)


def matrix_plan(access: Access, element_bytes: int) -> MatrixPlan | None:
    """The :class:`MatrixPlan` of ``access``, or None when its shape is not 8x8 tiles
    (:func:`~tileopt.conversion.shared_layouts.matrix_shape`; the view's xor must keep
    rows aligned too: a runtime xor, e.g. the offsets of a view carried through a loop,
    by every bit it may set)."""
    xor = access.xor if isinstance(access.xor, int) else access.xor_bits
    registers = _images(access.offsets, "register")
    warps = _images(access.offsets, "warp")
    shape = matrix_shape(registers, _images(access.offsets, "lane"), warps + [xor],
                         element_bytes)
    if shape is None:
        return None
    padded = [registers[s] for s in shape.selectors] + [0] * (2 - len(shape.selectors))
    addresses = LinearLayout(
        {"lane": [[v] for v in list(shape.rows) + padded], "warp": [[v] for v in warps]},
        {OFFSET: access.offsets.out_dim_size(OFFSET)}, require_surjective=False)
    return MatrixPlan(shape, addresses)


def _word_values(b: LLVMBuilder, word: SSAValue, element_type: Attribute) -> list[SSAValue]:
    """The elements of one 32-bit word a matrix instruction moved (low half first)."""
    if bit_width(element_type) == 32:
        return [word if element_type == i32 else b.bitcast(word, element_type)]
    return b.unpack_vector(b.bitcast(word, vector_type(element_type, 2)))


def _word(b: LLVMBuilder, values: list[SSAValue]) -> SSAValue:
    """The 32-bit word holding ``values`` (one 32-bit element or a 16-bit pair)."""
    if len(values) == 2:
        return b.bitcast(b.pack_vector(values), i32)
    return values[0] if values[0].type == i32 else b.bitcast(values[0], i32)


def load_matrices(fl: FunctionLowering, access: Access, plan: MatrixPlan,
                  count: int, element_type: Attribute) -> dict[int, SSAValue] | None:
    """The registers of an access loaded with ``load_matrix``, or None if the target
    has no such instruction."""
    b = fl.b
    address, constants = matrix_addresses(fl, access, plan)
    loaded: dict[int, SSAValue] = {}
    for r in range(count):
        if not plan.starts(r):
            continue
        words = fl.hooks.load_matrix(b, address(constants[r]), plan.count, plan.transpose)
        if words is None:
            return None
        for word, registers in zip(words, plan.words(r)):
            loaded.update(zip(registers, _word_values(b, word, element_type)))
    return loaded


def store_matrices(fl: FunctionLowering, access: Access, plan: MatrixPlan,
                   values: list[SSAValue]) -> bool:
    """Store every register with ``store_matrix``; False (nothing emitted) if the target
    has no such instruction."""
    b = fl.b
    address, constants = matrix_addresses(fl, access, plan)
    for r in range(len(values)):
        if not plan.starts(r):
            continue
        words = [_word(b, [values[g] for g in registers]) for registers in plan.words(r)]
        if not fl.hooks.store_matrix(b, address(constants[r]), words, plan.transpose):
            return False
    return True


def matrix_addresses(fl: FunctionLowering, access: Access, plan: MatrixPlan):
    key = f"smem-rows:{tuple(tuple(plan.addresses.get_bases(d)) for d in plan.addresses.in_dims)}"
    thread = fl.b.prologue_value(key, lambda b: fl.ids.apply(b, plan.addresses)[0])
    bits = 0
    for d in plan.addresses.in_dims:
        for basis in plan.addresses.get_bases(d):
            bits |= basis[0]
    constants = [c[0] for c in register_coordinates(access.offsets)]
    if isinstance(access.xor, int):
        constants = [c ^ access.xor for c in constants]
    else:
        thread = fl.b.xor(thread, access.xor)
        bits |= access.xor_bits
    return Addresses(fl.b, access.base, thread, bits), constants


__all__ = ["Access", "Addresses", "MatrixPlan", "access_of_view", "from_storage",
           "load_matrices", "load_registers", "matrix_addresses", "matrix_plan", "storage_type", "store_matrices",
           "store_registers", "thread_offsets", "to_storage", "vector_bits", "view_access"]
