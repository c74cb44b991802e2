"""Creating LLVM-dialect ops while lowering: one builder per function.

Every pattern of the TritonGPU -> LLVM lowering emits its ops through :class:`LLVMBuilder`.
It appends to a *current block* (control-flow lowering moves it), gives each new op the
location of the source op being lowered (so line info reaches the PTX), and keeps the IR
small, which decides compile time here (xDSL prints and parses ~6k ops/s):

- constants and the thread/warp ids live once per function, in a *prologue* at the top of
  the entry block, shared by every use (MLIR materialises one per use and relies on CSE);
- integer arithmetic on known constants folds (``x ^ 0``, ``x << 0``, ``x & -1``, ``c1 + c2``),
  which removes most of what layout index arithmetic would otherwise emit.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from functools import cache, lru_cache, partialmethod

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    UNKNOWN_LOC,
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DenseArrayBase,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    IntAttr,
    StringAttr,
    UnitAttr,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from tileopt.dialects import llvm_ext
from tileopt.dialects.llvm_ext import INTRINSIC_OPS
from tileopt.dialects.xdsl_fast_paths import new_operation

_ICMP = {flag.value: flag.to_int() for flag in llvm.ICmpPredicateFlag}


# Attributes the lowering builds over and over, built once (attributes are immutable).
@lru_cache(maxsize=256)
def _position(index: int) -> DenseArrayBase:
    """The ``position`` of an ``extractvalue``/``insertvalue`` at ``index``."""
    return DenseArrayBase.from_list(i64, [index])


@lru_cache(maxsize=1024)
def int_attr(value: int, ty: IntegerType) -> IntegerAttr:
    """``IntegerAttr(value, ty)``, one per value and type (alignments, predicates, flags)."""
    return IntegerAttr(value, ty)


@lru_cache(maxsize=1024)
def _string_attr(text: str) -> StringAttr:
    return StringAttr(text)


@cache
def _inline_asm_constant_properties() -> tuple[Attribute, Attribute]:
    """``asm_dialect`` (AT&T) and ``operand_attrs`` (empty) of every inline asm."""
    return IntegerAttr(0, 64), ArrayAttr([])


@lru_cache(maxsize=256)
def vector_type(element_type: Attribute, count: int) -> VectorType:
    """``vector<count x element_type>``, one object per pair (types are immutable)."""
    return VectorType(element_type, [count])


@cache
def _gep_constant_properties() -> tuple[Attribute, Attribute]:
    """``rawConstantIndices`` and ``noWrapFlags`` of a GEP by one SSA index."""
    return DenseArrayBase.from_list(i32, [llvm.GEP_USE_SSA_VAL]), IntegerAttr(0, 32)


_NO_PROPERTIES: dict[str, Attribute] = {}


def new_op(cls: type[Operation], operands: Sequence[SSAValue], result_types: Sequence[Attribute],
           properties: dict[str, Attribute] = _NO_PROPERTIES, *,
           defaults_given: bool = True) -> Operation:
    """The op that ``cls``'s xDSL builder makes, from its finished fields: the builders
    (``irdl_op_init``, a new attribute per flag) took two thirds of the time of an op.
    ``properties`` are exactly the builder's, in its order, shared between ops (as
    attributes are immutable; the verifier then knows them by identity), with every
    default the class's definition gives (``defaults_given``, else they are added);
    ``test/unit/conversion/test_llvm_builder.py`` compares each kind with the builder's."""
    return new_operation(cls, operands, result_types, properties, _NO_PROPERTIES, UNKNOWN_LOC,
                         defaults_given=defaults_given)


@cache
def _overflow_properties() -> dict[str, Attribute]:
    """What xDSL's builder gives ``add``/``sub``/``mul``/``shl``: no overflow flags."""
    return {"overflowFlags": IntegerAttr(0, 32)}


@cache
def _fastmath_properties() -> dict[str, Attribute]:
    """No fast-math flags (float arithmetic, ``fneg``, ``select``)."""
    return {"fastmathFlags": llvm.FastMathAttr(None)}


@cache
def _unit() -> UnitAttr:
    return UnitAttr()


@cache
def _disjoint_properties() -> dict[str, Attribute]:
    return {"isDisjoint": _unit()}


@lru_cache(maxsize=64)
def _icmp_properties(predicate: int) -> dict[str, Attribute]:
    return {"predicate": IntegerAttr(predicate, i64)}


@lru_cache(maxsize=256)
def _call_intrinsic_properties(name: str, count: int) -> dict[str, Attribute]:
    """``llvm.call_intrinsic`` of ``name`` with ``count`` arguments and no bundles."""
    return {"intrin": StringAttr(name), "op_bundle_sizes": DenseArrayBase.from_list(i32, ()),
            "operandSegmentSizes": DenseArrayBase.from_list(i32, [count, 0]),
            **_fastmath_properties()}


@cache
def _void_type() -> Attribute:
    return llvm.LLVMVoidType()


@lru_cache(maxsize=64)
def _fcmp_properties(predicate: str) -> dict[str, Attribute]:
    return {"predicate": IntegerAttr(llvm.FCmpPredicateFlag(predicate).to_int(), i64),
            **_fastmath_properties()}


@lru_cache(maxsize=256)
def _position_properties(index: int) -> dict[str, Attribute]:
    return {"position": _position(index)}


@lru_cache(maxsize=64)
def _load_properties(alignment: int | None) -> dict[str, Attribute]:
    """A plain load's (``llvm_ext.LoadOp``'s builder, no ordering, volatility, scope)."""
    props = {"ordering": IntegerAttr(0, i64)}
    if alignment is not None:
        props["alignment"] = IntegerAttr(alignment, i64)
    return props


@lru_cache(maxsize=64)
def _store_properties(alignment: int | None) -> dict[str, Attribute]:
    return {} if alignment is None else {"alignment": IntegerAttr(alignment, i64)}


@lru_cache(maxsize=1024)
def _gep_properties(element_type: Attribute) -> dict[str, Attribute]:
    raw_indices, no_wrap = _gep_constant_properties()
    return {"rawConstantIndices": raw_indices, "elem_type": element_type,
            "noWrapFlags": no_wrap}

# Integer ops the builder folds when both operands are known constants.
_FOLD = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
    "shl": lambda a, b: a << b, "lshr": lambda a, b: a >> b,
}
# The integer ops whose xDSL builder sets (empty) overflow flags.
_OVERFLOW_FLAGS = frozenset(("add", "sub", "mul", "shl"))
_INT_OPS: dict[str, type[IRDLOperation]] = {
    "add": llvm.AddOp, "sub": llvm.SubOp, "mul": llvm.MulOp, "and": llvm.AndOp,
    "or": llvm.OrOp, "xor": llvm.XOrOp, "shl": llvm.ShlOp, "lshr": llvm.LShrOp,
    "ashr": llvm.AShrOp, "udiv": llvm.UDivOp, "sdiv": llvm.SDivOp, "urem": llvm.URemOp,
    "srem": llvm.SRemOp,
}
_FLOAT_OPS: dict[str, type[IRDLOperation]] = {
    "fadd": llvm.FAddOp, "fsub": llvm.FSubOp, "fmul": llvm.FMulOp, "fdiv": llvm.FDivOp,
    "frem": llvm.FRemOp,
}
_CASTS: dict[str, type[IRDLOperation]] = {
    "sext": llvm.SExtOp, "zext": llvm.ZExtOp, "trunc": llvm.TruncOp,
    "bitcast": llvm.BitcastOp, "fpext": llvm.FPExtOp, "fptrunc": llvm.FPTruncOp,
    "sitofp": llvm.SIToFPOp, "uitofp": llvm_ext.UIToFPOp, "fptosi": llvm_ext.FPToSIOp,
    "fptoui": llvm_ext.FPToUIOp, "ptrtoint": llvm.PtrToIntOp, "inttoptr": llvm.IntToPtrOp,
    "addrspacecast": llvm_ext.AddrSpaceCastOp,
}


def drop_unused(region: Region) -> int:
    """Erase the ops of ``region`` whose results nobody uses and that are trivially dead
    (by the test ``canonicalize`` erases ops by); how many. The lowering computes every
    register of a value (a pointer per element) where a user may read only some (a vector
    load its first pointer): a third of a small kernel's ops, which ``canonicalize`` would
    erase right after, once verified and visited. Users go before their operands (blocks
    and ops in reverse), so chains go too; what is left (a use across a loop's back edge)
    is left to ``canonicalize``."""
    dropped = 0
    for block in reversed(region.blocks):
        op = block.last_op
        while op is not None:
            previous = op.prev_op
            results = op.results
            if results and all(r.first_use is None for r in results) and \
                    is_trivially_dead(op):
                block.erase_op(op)
                dropped += 1
            op = previous
    return dropped


@lru_cache(maxsize=64)
def ptr_type(address_space: int) -> llvm.LLVMPointerType:
    return llvm.LLVMPointerType(IntAttr(address_space))


@lru_cache(maxsize=64)
def int_type(width: int) -> IntegerType:
    """The signless integer type of ``width`` bits (one object per width: types are
    immutable, and an equal object is as good)."""
    return IntegerType(width)


def int_width(ty: Attribute) -> int | None:
    return ty.width.data if isinstance(ty, IntegerType) else None


def _float_bits(value: float, ty: Attribute) -> tuple[int, int] | None:
    """(bit pattern, width) of a float constant of type ``ty`` (f16, f32, f64)."""
    formats = {"f16": ("<e", "<H", 16), "f32": ("<f", "<I", 32), "f64": ("<d", "<Q", 64)}
    fmt = formats.get(str(ty))
    if fmt is None:
        return None
    try:
        return struct.unpack(fmt[1], struct.pack(fmt[0], value))[0], fmt[2]
    except (OverflowError, struct.error):
        return None


def _wrap(value: int, width: int) -> int:
    """``value`` as the signed integer of ``width`` bits with the same bit pattern."""
    value &= (1 << width) - 1
    return value - (1 << width) if width > 1 and value >> (width - 1) else value


class LLVMBuilder:
    """Appends LLVM-dialect ops to ``self.block``; constants go to the function prologue."""

    def __init__(self, entry: Block):
        self.entry = entry
        self.block = entry
        self.location: Attribute | None = None
        # The first op of the entry block that is not prologue; prologue ops go before it.
        self._first_body_op: Operation | None = None
        self._constants: dict[tuple[Attribute, object], SSAValue] = {}  # zeros of aggregates
        # type -> value -> constant; id(type) -> (type, that table, integer width or None)
        self._constants_of_type: dict[Attribute, dict[int | float, SSAValue]] = {}
        self._constants_by_type_id: dict[int, tuple[Attribute, dict, int | None]] = {}
        self._known: dict[SSAValue, int] = {}  # integer constants, by SSA value
        self._i32: dict[int, SSAValue] = {}
        self._known_float: dict[SSAValue, float] = {}
        self._prologue_values: dict[str, SSAValue] = {}

    # ------------------------------------------------------------------ insertion

    def insert(self, op: Operation) -> Operation:
        if self.location is not None:
            op.location = self.location
        self.block.add_op(op)
        if self.block is self.entry and self._first_body_op is None:
            self._first_body_op = op
        return op

    def emit(self, op: Operation) -> SSAValue:
        """Insert ``op`` and return its only result."""
        # (not ``results[0]``: xDSL's ``SSAValues.__getitem__`` is Python code)
        return next(iter(self.insert(op).results))

    def insert_in_prologue(self, op: Operation) -> Operation:
        if self.location is not None:
            op.location = self.location
        if self._first_body_op is None:
            self.entry.add_op(op)
        else:
            self.entry.insert_op_before(op, self._first_body_op)
        return op

    def prologue_value(self, key: str, make) -> SSAValue:
        """A per-function value (thread id, ...) built once by ``make()`` in the prologue.

        ``make`` receives this builder positioned in the prologue.
        """
        if key not in self._prologue_values:
            saved_block, saved_first = self.block, self._first_body_op
            with _PrologueMode(self):
                self._prologue_values[key] = make(self)
            self.block, self._first_body_op = saved_block, saved_first
        return self._prologue_values[key]

    # ------------------------------------------------------------------ constants

    def constant(self, ty: Attribute, value: int | float | bool) -> SSAValue:
        # The constants of one type by value, that table found by the type object's
        # identity: hashing a type (every parameter, at every call) cost more than the rest.
        known = self._constants_by_type_id.get(id(ty))
        if known is None or known[0] is not ty:
            width = ty.width.data if isinstance(ty, IntegerType) else None
            known = self._constants_by_type_id[id(ty)] = \
                (ty, self._constants_of_type.setdefault(ty, {}), width)
        _, table, width = known
        value = float(value) if width is None else _wrap(int(value), width)
        # -0.0 == 0.0 in Python, but they are different constants (x + -0.0 is x, x + 0.0
        # is not for x = -0.0): a float zero is keyed with its sign.
        key = value if value or width is not None else (value, math.copysign(1.0, value))
        found = table.get(key)
        if found is not None:
            return found
        attr = FloatAttr(value, ty) if width is None else int_attr(value, ty)
        result = self.insert_in_prologue(
            new_op(llvm.ConstantOp, (), (ty,), {"value": attr})).results[0]
        table[key] = result
        if width is None:
            self._known_float[result] = value
        else:
            self._known[result] = value
        return result

    def i32(self, value: int) -> SSAValue:
        # The lowering's most asked constant (indices, offsets): by value, before
        # ``constant`` normalises it and hashes the type.
        found = self._i32.get(value)
        if found is None:
            found = self._i32[value] = self.constant(i32, value)
        return found

    def i64(self, value: int) -> SSAValue:
        return self.constant(i64, value)

    def i1(self, value: bool) -> SSAValue:
        return self.constant(i1, int(bool(value)))

    def known(self, value: SSAValue) -> int | None:
        """The integer ``value`` holds, when it is a constant this builder made."""
        return self._known.get(value)

    def zero(self, ty: Attribute) -> SSAValue:
        if isinstance(ty, VectorType):
            key = (ty, "zero")
            if key not in self._constants:
                dense = DenseIntOrFPElementsAttr.from_list(ty, [0 if isinstance(
                    ty.element_type, IntegerType) else 0.0])
                self._constants[key] = self.insert_in_prologue(
                    llvm.ConstantOp(dense, ty)).results[0]
            return self._constants[key]
        if isinstance(ty, llvm.LLVMPointerType):
            key = (ty, "zero")
            if key not in self._constants:
                op = llvm.ZeroOp.create(result_types=[ty])
                self._constants[key] = self.insert_in_prologue(op).results[0]
            return self._constants[key]
        return self.constant(ty, 0)

    def undef(self, ty: Attribute) -> SSAValue:
        return self.emit(new_op(llvm.UndefOp, (), (ty,)))

    def poison(self, ty: Attribute) -> SSAValue:
        return self.emit(new_op(llvm_ext.PoisonOp, (), (ty,)))

    # ------------------------------------------------------------------ integer arithmetic

    def int_op(self, kind: str, lhs: SSAValue, rhs: SSAValue, *, disjoint: bool = False) -> SSAValue:
        """``llvm.<kind> lhs, rhs``, folded when the result is known without emitting it."""
        a, b = self._known.get(lhs), self._known.get(rhs)
        width = int_width(lhs.type)
        if a is not None and b is not None and kind in _FOLD and width is not None:
            if kind in ("shl", "lshr"):
                a &= (1 << width) - 1
            return self.constant(lhs.type, _FOLD[kind](a, b))
        if b is not None:
            if b == 0 and kind in ("add", "sub", "or", "xor", "shl", "lshr", "ashr"):
                return lhs
            if b == 0 and kind in ("and", "mul"):
                return rhs
            if b == 1 and kind in ("mul", "udiv", "sdiv"):
                return lhs
            if b == -1 and kind == "and":
                return lhs
            if kind == "and" and self._masked_within(lhs, b):
                return lhs
        if a is not None:
            if a == 0 and kind in ("add", "or", "xor"):
                return rhs
            if a == 0 and kind in ("and", "mul", "shl", "lshr", "ashr"):
                return lhs
            if a == 1 and kind == "mul":
                return rhs
            if a == -1 and kind == "and":
                return rhs
        if kind == "or" and disjoint:
            return self.emit(new_op(llvm.OrOp, (lhs, rhs), (lhs.type,), _disjoint_properties()))
        return self.emit(new_op(_INT_OPS[kind], (lhs, rhs), (lhs.type,),
                              _overflow_properties() if kind in _OVERFLOW_FLAGS
                              else _NO_PROPERTIES))

    def _masked_within(self, value: SSAValue, mask: int) -> bool:
        """``value`` is ``x & c`` with every bit of ``c`` inside ``mask``."""
        owner = value.owner
        if getattr(owner, "name", None) != "llvm.and":
            return False
        c = self._known.get(owner.operands[1])
        return c is not None and c >= 0 and mask >= 0 and c & mask == c

    # Named shorthands: ``b.add(x, y)`` is ``b.int_op("add", x, y)``.
    add = partialmethod(int_op, "add")
    sub = partialmethod(int_op, "sub")
    mul = partialmethod(int_op, "mul")
    and_ = partialmethod(int_op, "and")
    or_ = partialmethod(int_op, "or")
    xor = partialmethod(int_op, "xor")
    shl = partialmethod(int_op, "shl")
    lshr = partialmethod(int_op, "lshr")
    udiv = partialmethod(int_op, "udiv")
    urem = partialmethod(int_op, "urem")

    def icmp(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.emit(new_op(llvm.ICmpOp, (lhs, rhs), (i1,),
                              _icmp_properties(_ICMP[predicate])))

    def fcmp(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.emit(new_op(llvm.FCmpOp, (lhs, rhs), (i1,), _fcmp_properties(predicate)))

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        known = self._known.get(cond)
        if known is not None:
            return a if known else b
        if a is b:
            return a
        return self.emit(new_op(llvm.SelectOp, (cond, a, b), (a.type,), _fastmath_properties()))

    def float_op(self, kind: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.emit(new_op(_FLOAT_OPS[kind], (lhs, rhs), (lhs.type,), _fastmath_properties()))

    def fneg(self, value: SSAValue) -> SSAValue:
        return self.emit(new_op(llvm.FNegOp, (value,), (value.type,), _fastmath_properties()))

    # ------------------------------------------------------------------ casts

    def cast(self, kind: str, value: SSAValue, ty: Attribute) -> SSAValue:
        if value.type == ty and kind in ("bitcast", "sext", "zext", "trunc", "fpext", "fptrunc"):
            return value
        known = self._known.get(value)
        if known is not None and isinstance(ty, IntegerType) and kind in ("sext", "trunc"):
            return self.constant(ty, known)
        if known is not None and isinstance(ty, IntegerType) and kind == "zext":
            return self.constant(ty, known & ((1 << int_width(value.type)) - 1))
        if kind == "bitcast" and isinstance(ty, IntegerType) and value in self._known_float:
            bits = _float_bits(self._known_float[value], value.type)
            if bits is not None and bits[1] == ty.width.data:
                return self.constant(ty, bits[0])
        return self.emit(new_op(_CASTS[kind], (value,), (ty,)))

    def bitcast(self, value: SSAValue, ty: Attribute) -> SSAValue:
        return self.cast("bitcast", value, ty)

    def int_cast(self, value: SSAValue, ty: IntegerType, signed: bool = True) -> SSAValue:
        """sext/zext/trunc of an integer to ``ty``, or ``value`` itself when widths agree."""
        src = int_width(value.type)
        dst = ty.width.data
        if src == dst:
            return value
        if src > dst:
            return self.cast("trunc", value, ty)
        return self.cast("sext" if signed else "zext", value, ty)

    # ------------------------------------------------------------------ memory

    def gep(self, ptr: SSAValue, index: SSAValue, element_type: Attribute) -> SSAValue:
        """``&ptr[index]`` in units of ``element_type``."""
        known = self._known.get(index)
        if known == 0:
            return ptr
        # As llvm.GEPOp(ptr, [GEP_USE_SSA_VAL], element_type, ssa_indices=[index],
        # result_type=ptr.type) builds it.
        return self.emit(new_op(llvm.GEPOp, (ptr, index), (ptr.type,),
                              _gep_properties(element_type)))

    def load(self, ptr: SSAValue, ty: Attribute, alignment: int | None = None) -> SSAValue:
        return self.emit(new_op(llvm_ext.LoadOp, (ptr,), (ty,), _load_properties(alignment)))

    def store(self, value: SSAValue, ptr: SSAValue, alignment: int | None = None) -> None:
        self.insert(new_op(llvm_ext.StoreOp, (value, ptr), (), _store_properties(alignment)))

    def address_of(self, name: str, ty: Attribute) -> SSAValue:
        return self.emit(llvm.AddressOfOp(name, ty))

    # ------------------------------------------------------------------ aggregates

    def extract_value(self, aggregate: SSAValue, index: int, ty: Attribute) -> SSAValue:
        return self.emit(new_op(llvm.ExtractValueOp, (aggregate,), (ty,),
                              _position_properties(index)))

    def insert_value(self, aggregate: SSAValue, value: SSAValue, index: int) -> SSAValue:
        return self.emit(new_op(llvm.InsertValueOp, (aggregate, value), (aggregate.type,),
                              _position_properties(index)))

    # The element ops are the most frequent ones the lowering builds: created directly
    # (what their builders pass on: operands and result type, no properties).
    def extract_element(self, vector: SSAValue, index: int) -> SSAValue:
        vector_type = vector.type
        assert isinstance(vector_type, VectorType)
        return self.emit(new_op(llvm_ext.ExtractElementOp, (vector, self.i32(index)),
                              (vector_type.element_type,)))

    def insert_element(self, vector: SSAValue, value: SSAValue, index: int) -> SSAValue:
        return self.emit(new_op(llvm.InsertElementOp, (vector, value, self.i32(index)),
                              (vector.type,)))

    def pack_vector(self, values: Sequence[SSAValue]) -> SSAValue:
        """A ``vector<N x T>`` of ``values`` (all of one type)."""
        vector = self.undef(vector_type(values[0].type, len(values)))
        for index, value in enumerate(values):
            vector = self.insert_element(vector, value, index)
        return vector

    def unpack_vector(self, vector: SSAValue) -> list[SSAValue]:
        count = vector.type.get_shape()[0]
        return [self.extract_element(vector, i) for i in range(count)]

    # ------------------------------------------------------------------ calls and asm

    def call_intrinsic(self, name: str, args: Sequence[SSAValue],
                       result_type: Attribute | None) -> SSAValue | None:
        op = self.insert(new_op(llvm.CallIntrinsicOp, args,
                              () if result_type is None else (result_type,),
                              _call_intrinsic_properties(name, len(args))))
        return op.results[0] if op.results else None

    def intrinsic_op(self, name: str, args: Sequence[SSAValue], result_type: Attribute,
                     **flags: bool) -> SSAValue:
        """``llvm.intr.<name>`` (xDSL's own op when it has one, else ``llvm_ext``'s)."""
        cls = INTRINSIC_OPS.get(name) or _XDSL_INTRINSICS.get(name)
        if cls is None:
            return self.call_intrinsic(f"llvm.{name}", args, result_type)
        props = {flag: int_attr(int(value), i1) for flag, value in flags.items()}
        return self.emit(new_op(cls, args, (result_type,), props, defaults_given=False))

    def inline_asm(self, asm: str, constraints: str, operands: Sequence[SSAValue],
                   result_type: Attribute | None, side_effects: bool = True) -> SSAValue | None:
        # As Triton's builder makes it: AT&T dialect, an empty operand_attrs, and a void
        # result where the asm gives none (MLIR prints ``-> !llvm.void``).
        dialect, operand_attrs = _inline_asm_constant_properties()
        props: dict[str, Attribute] = {"asm_string": _string_attr(asm),
                                       "constraints": _string_attr(constraints),
                                       "asm_dialect": dialect,
                                       "operand_attrs": operand_attrs}
        if side_effects:
            props["has_side_effects"] = _unit()
        op = new_op(llvm_ext.InlineAsmOp, operands,
                  (result_type if result_type is not None else _void_type(),), props,
                  defaults_given=False)
        self.insert(op)
        return op.results[0] if result_type is not None else None

    # ------------------------------------------------------------------ control flow

    def br(self, dest: Block, args: Sequence[SSAValue] = ()) -> None:
        self.insert(llvm.BrOp(dest, *args))

    def cond_br(self, cond: SSAValue, then_block: Block, then_args: Sequence[SSAValue],
                else_block: Block, else_args: Sequence[SSAValue]) -> None:
        self.insert(llvm.CondBrOp(cond, then_block, list(then_args), else_block, list(else_args)))

    def place(self, block: Block) -> None:
        """Append ``block`` to the function body (the entry block's region) and emit into
        it from now on. Blocks are placed in the order they are emitted into, which keeps
        every definition before its uses."""
        region = self.entry.parent
        assert region is not None, "the entry block is not in a function body yet"
        region.add_block(block)
        self.block = block

    def guarded(self, cond: SSAValue, result_types: Sequence[Attribute] = (),
                otherwise: Sequence[SSAValue] = ()) -> "_Guarded":
        """``with b.guarded(p, types, defaults) as g: ...; g.yield_(values)``: what is
        emitted inside runs where ``p`` holds (a branch around it, as targets without
        predicated instructions need); ``g.results`` are the yielded values there and
        ``otherwise`` elsewhere."""
        return _Guarded(self, cond, list(result_types), list(otherwise))


class _Guarded:
    """The block structure of :meth:`LLVMBuilder.guarded`."""

    def __init__(self, b: LLVMBuilder, cond: SSAValue, types: list[Attribute],
                 otherwise: list[SSAValue]):
        self.b, self.cond, self.otherwise = b, cond, otherwise
        self.body = Block()
        self.join = Block(arg_types=types)
        self.results: list[SSAValue] = list(self.join.args)
        self._yielded: list[SSAValue] | None = None if types else []

    def yield_(self, values: Sequence[SSAValue]) -> None:
        self._yielded = list(values)

    def __enter__(self) -> "_Guarded":
        self.b.cond_br(self.cond, self.body, [], self.join, self.otherwise)
        self.b.place(self.body)
        return self

    def __exit__(self, exc_type, *exc) -> None:
        if exc_type is not None:
            return
        assert self._yielded is not None, "a guarded region with results must yield them"
        self.b.br(self.join, self._yielded)
        self.b.place(self.join)


class _PrologueMode:
    """Within it, ``insert`` puts ops in the prologue (used by ``prologue_value``)."""

    def __init__(self, builder: LLVMBuilder):
        self.builder = builder

    def __enter__(self):
        b = self.builder
        self._insert = b.insert
        b.insert = b.insert_in_prologue  # type: ignore[method-assign]
        return b

    def __exit__(self, *exc):
        self.builder.insert = self._insert  # type: ignore[method-assign]
        return False


def _xdsl_intrinsics() -> dict[str, type[IRDLOperation]]:
    found = {}
    for op in llvm.LLVM.operations:
        if op.name.startswith("llvm.intr."):
            found[op.name.removeprefix("llvm.intr.")] = op
    return found


_XDSL_INTRINSICS = _xdsl_intrinsics()
