"""Translation of ``llvm.*`` ops into LLVM IR instructions, one function per op family.

Mirrors MLIR's ``LLVMToLLVMIRTranslation`` for the ops Triton's lowering produces:
integer and float arithmetic with their flags, comparisons, casts, aggregates and vectors,
constants, memory (load/store with alignment, volatility, atomics and ``syncscope``),
``getelementptr``, atomics, calls, inline assembly, control flow, and every
``llvm.intr.<name>`` as a call of ``@llvm.<name>``.
"""

from __future__ import annotations

from functools import lru_cache

from llvmlite import ir
from llvmlite.ir import instructions
from xdsl.dialects import builtin, llvm
from xdsl.ir import Attribute, Operation

from tileopt.dialects.llvm_ext import INTRINSICS, KEYWORD_BY_ORDERING
from tileopt.target import llvmlite_additions as add
from tileopt.target.conversion_table import CONVERTERS
from tileopt.target.function_emitter import FunctionEmitter


# --------------------------------------------------------------------------- flags


def fastmath_flags(op: Operation) -> list[str]:
    """``#llvm.fastmath<...>`` of an op as LLVM flag names (``fast`` spelled out in full)."""
    attr = op.properties.get("fastmathFlags") or op.attributes.get("fastmathFlags")
    if attr is None:
        return []
    return list(_fastmath_names(attr))


@lru_cache(maxsize=64)
def _fastmath_names(attr: Attribute) -> tuple[str, ...]:
    return tuple(sorted(flag.value for flag in attr.data))


def _overflow_flags(op: Operation) -> list[str]:
    attr = op.properties.get("overflowFlags")
    if attr is None:
        return []
    flags = getattr(attr, "data", None)
    if flags is None:  # xDSL keeps the integer form on some ops
        return list(_overflow_names(attr.value.data))
    return _ordered_overflow_names(flags)


@lru_cache(maxsize=8)
def _overflow_names(bits: int) -> tuple[str, ...]:
    return tuple(_ordered_overflow_names(llvm.OverflowAttr.from_int(bits).data))


def _ordered_overflow_names(flags) -> list[str]:
    order = {"nuw": 0, "nsw": 1}
    return sorted((f.value for f in flags), key=order.get)


# --------------------------------------------------------------------------- arithmetic

# ``llvm.<opcode>`` ops: the LLVM IR instruction of the same name.
_INTEGER_BINARY = {f"llvm.{opcode}": opcode for opcode in (
    "add", "sub", "mul", "shl", "udiv", "sdiv", "lshr", "ashr", "urem", "srem", "and", "or",
    "xor")}
_FLOAT_BINARY = {f"llvm.{opcode}": opcode for opcode in ("fadd", "fsub", "fmul", "fdiv", "frem")}


@CONVERTERS.register(*_INTEGER_BINARY)
def _integer_binary(op: Operation, e: FunctionEmitter) -> None:
    flags = _overflow_flags(op)
    if op.properties.get("isExact") is not None:
        flags.append("exact")
    if op.properties.get("isDisjoint") is not None:
        flags.append("disjoint")
    lhs, rhs = e.operands(op)
    e.set_result(op, e.insert(instructions.Instruction(
        e.builder.block, lhs.type, _INTEGER_BINARY[op.name], (lhs, rhs), flags=flags)))


@CONVERTERS.register(*_FLOAT_BINARY)
def _float_binary(op: Operation, e: FunctionEmitter) -> None:
    lhs, rhs = e.operands(op)
    e.set_result(op, e.insert(instructions.Instruction(
        e.builder.block, lhs.type, _FLOAT_BINARY[op.name], (lhs, rhs), flags=fastmath_flags(op))))


@CONVERTERS.register("llvm.fneg")
def _fneg(op: Operation, e: FunctionEmitter) -> None:
    [value] = e.operands(op)
    e.set_result(op, e.insert(instructions.Instruction(
        e.builder.block, value.type, "fneg", (value,), flags=fastmath_flags(op))))


@CONVERTERS.register("llvm.icmp")
def _icmp(op: Operation, e: FunctionEmitter) -> None:
    predicate = _icmp_predicate(op.predicate.value.data)
    lhs, rhs = e.operands(op)
    e.set_result(op, e.insert(instructions.ICMPInstr(e.builder.block, predicate, lhs, rhs)))


@CONVERTERS.register("llvm.fcmp")
def _fcmp(op: Operation, e: FunctionEmitter) -> None:
    predicate = _fcmp_predicate(op.predicate.value.data)
    lhs, rhs = e.operands(op)
    e.set_result(op, e.insert(instructions.FCMPInstr(
        e.builder.block, predicate, lhs, rhs, flags=fastmath_flags(op))))


@lru_cache(maxsize=32)
def _icmp_predicate(value: int) -> str:
    return llvm.ICmpPredicateFlag.from_int(value).value


@lru_cache(maxsize=32)
def _fcmp_predicate(value: int) -> str:
    return llvm.FCmpPredicateFlag.from_int(value).value.lstrip("_")


_CASTS = {f"llvm.{opcode}": opcode for opcode in (
    "trunc", "zext", "sext", "ptrtoint", "inttoptr", "bitcast", "fpext", "fptrunc", "sitofp",
    "uitofp", "fptosi", "fptoui", "addrspacecast")}


@CONVERTERS.register(*_CASTS)
def _cast(op: Operation, e: FunctionEmitter) -> None:
    flags = _overflow_flags(op)
    if op.properties.get("nonNeg") is not None:
        flags.append("nneg")
    [value] = e.operands(op)
    e.set_result(op, e.insert(add.Cast(e.builder.block, _CASTS[op.name], value,
                                       e.result_type(op), flags=flags)))


@CONVERTERS.register("llvm.select")
def _select(op: Operation, e: FunctionEmitter) -> None:
    cond, lhs, rhs = e.operands(op)
    instr = instructions.SelectInstr(e.builder.block, cond, lhs, rhs, flags=fastmath_flags(op))
    e.set_result(op, e.insert(instr))


@CONVERTERS.register("llvm.freeze")
def _freeze(op: Operation, e: FunctionEmitter) -> None:
    [value] = e.operands(op)
    e.set_result(op, e.insert(add.Freeze(e.builder.block, value)))


# --------------------------------------------------------------------------- aggregates and vectors


@CONVERTERS.register("llvm.extractvalue")
def _extractvalue(op: Operation, e: FunctionEmitter) -> None:
    [container] = e.operands(op)
    e.set_result(op, e.builder.extract_value(container, list(op.position.iter_values())))


@CONVERTERS.register("llvm.insertvalue")
def _insertvalue(op: Operation, e: FunctionEmitter) -> None:
    container, value = e.operands(op)
    e.set_result(op, e.builder.insert_value(container, value, list(op.position.iter_values())))


@CONVERTERS.register("llvm.extractelement")
def _extractelement(op: Operation, e: FunctionEmitter) -> None:
    vector, position = e.operands(op)
    e.set_result(op, e.builder.extract_element(vector, position))


@CONVERTERS.register("llvm.insertelement")
def _insertelement(op: Operation, e: FunctionEmitter) -> None:
    vector, value, index = e.operands(op)
    e.set_result(op, e.builder.insert_element(vector, value, index))


@CONVERTERS.register("llvm.shufflevector")
def _shufflevector(op: Operation, e: FunctionEmitter) -> None:
    v1, v2 = e.operands(op)
    mask = [int(i) for i in op.mask.get_values()]
    i32 = ir.IntType(32)
    mask_value = ir.Constant(ir.VectorType(i32, len(mask)),
                             [ir.Constant(i32, ir.Undefined) if i < 0 else ir.Constant(i32, i)
                              for i in mask])
    e.set_result(op, e.builder.shuffle_vector(v1, v2, mask_value))


# --------------------------------------------------------------------------- constants


def constant_value(e: FunctionEmitter, op: Operation, typ: ir.Type, attr: Attribute) -> ir.Constant:
    """An llvmlite constant of type ``typ`` from an MLIR attribute (scalar or dense)."""
    if isinstance(attr, builtin.DenseIntOrFPElementsAttr):
        values = list(attr.get_values())
        count = _element_count(typ)
        if len(values) == 1 and count != 1:
            values = values * count
        if len(values) != count:
            raise e.error(op, f"dense constant has {len(values)} elements but {typ} has {count}")
        element = typ.element if isinstance(typ, (ir.VectorType, ir.ArrayType)) else typ
        if element is typ:
            return _scalar(e, op, typ, values[0])
        return ir.Constant(typ, [_scalar(e, op, element, v) for v in values])
    if isinstance(attr, builtin.IntegerAttr):
        return _scalar(e, op, typ, attr.value.data)
    if isinstance(attr, builtin.FloatAttr):
        return _scalar(e, op, typ, attr.value.data)
    raise e.error(op, f"constant attribute {attr} is not supported")


def _element_count(typ: ir.Type) -> int:
    if isinstance(typ, ir.VectorType):
        return typ.count
    if isinstance(typ, ir.ArrayType):
        return typ.count
    return 1


def _scalar(e: FunctionEmitter, op: Operation, typ: ir.Type, value) -> ir.Constant:
    if isinstance(typ, ir.IntType):
        return ir.Constant(typ, int(value))
    try:
        constant = ir.Constant(typ, float(value))
        constant.get_reference()  # formats now: out-of-range values fail here, not later
        return constant
    except (OverflowError, TypeError, ValueError) as err:
        raise e.error(op, f"constant {value} does not fit {typ}") from err


@CONVERTERS.register("llvm.mlir.constant")
def _constant(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, constant_value(e, op, e.result_type(op), op.value))


@CONVERTERS.register("llvm.mlir.undef")
def _undef(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, ir.Constant(e.result_type(op), ir.Undefined))


@CONVERTERS.register("llvm.mlir.poison")
def _poison(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, add.PoisonConstant(e.result_type(op)))


@CONVERTERS.register("llvm.mlir.zero")
def _zero(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, ir.Constant(e.result_type(op), None))


@CONVERTERS.register("llvm.mlir.addressof")
def _addressof(op: Operation, e: FunctionEmitter) -> None:
    e.set_result(op, e.global_value(op, op.global_name.root_reference.data))


# --------------------------------------------------------------------------- memory


def _ordering(op: Operation, name: str = "ordering") -> str | None:
    attr = op.properties.get(name)
    if attr is None or attr.value.data == 0:
        return None
    return KEYWORD_BY_ORDERING[attr.value.data]


def _syncscope(op: Operation) -> str | None:
    attr = op.properties.get("syncscope")
    return attr.data if attr is not None else None


def _alignment(op: Operation) -> int | None:
    attr = op.properties.get("alignment")
    return attr.value.data if attr is not None else None


def _is_volatile(op: Operation) -> bool:
    return op.properties.get("volatile_") is not None


@CONVERTERS.register("llvm.load")
def _load(op: Operation, e: FunctionEmitter) -> None:
    [ptr] = e.operands(op)
    instr = add.Load(e.builder.block, ptr, e.result_type(op), volatile=_is_volatile(op),
                     ordering=_ordering(op), syncscope=_syncscope(op))
    instr.align = _alignment(op)
    if op.properties.get("nontemporal") is not None:
        instr.set_metadata("nontemporal", e.module.add_metadata([ir.IntType(32)(1)]))
    if op.properties.get("invariant") is not None:
        instr.set_metadata("invariant.load", e.module.add_metadata([]))
    e.set_result(op, e.insert(instr))


@CONVERTERS.register("llvm.store")
def _store(op: Operation, e: FunctionEmitter) -> None:
    value, ptr = e.operands(op)
    instr = add.Store(e.builder.block, value, ptr, volatile=_is_volatile(op),
                      ordering=_ordering(op), syncscope=_syncscope(op))
    instr.align = _alignment(op)
    if op.properties.get("nontemporal") is not None:
        instr.set_metadata("nontemporal", e.module.add_metadata([ir.IntType(32)(1)]))
    e.insert(instr)


@CONVERTERS.register("llvm.getelementptr")
def _getelementptr(op: Operation, e: FunctionEmitter) -> None:
    ptr, *dynamic = e.operands(op)  # the base, then the SSA indices
    dynamic = iter(dynamic)
    indices = [next(dynamic) if index == llvm.GEP_USE_SSA_VAL else e.i32(index)
               for index in op.rawConstantIndices.iter_values()]
    instr = instructions.GEPInstr(e.builder.block, ptr, indices, inbounds=op.inbounds is not None,
                                  name="", source_etype=e.type(op, op.elem_type))
    instr.type = e.result_type(op)  # a vector of pointers when the base is one
    e.set_result(op, e.insert(instr))


@CONVERTERS.register("llvm.alloca")
def _alloca(op: Operation, e: FunctionEmitter) -> None:
    [size] = e.operands(op)
    instr = add.Alloca(e.builder.block, e.type(op, op.elem_type), size, e.result_type(op))
    instr.align = _alignment(op)
    e.set_result(op, e.insert(instr))


@CONVERTERS.register("llvm.atomicrmw")
def _atomicrmw(op: Operation, e: FunctionEmitter) -> None:
    ptr, value = e.operands(op)
    instr = add.AtomicRMW(e.builder.block, op.bin_op.llvm_name, ptr, value, _ordering(op),
                          syncscope=_syncscope(op), volatile=_is_volatile(op),
                          align=_alignment(op))
    e.set_result(op, e.insert(instr))


@CONVERTERS.register("llvm.cmpxchg")
def _cmpxchg(op: Operation, e: FunctionEmitter) -> None:
    ptr, cmp, new = e.operands(op)
    instr = add.CmpXchg(e.builder.block, ptr, cmp, new, _ordering(op, "success_ordering"),
                        _ordering(op, "failure_ordering"), syncscope=_syncscope(op),
                        weak=op.properties.get("weak") is not None, volatile=_is_volatile(op),
                        align=_alignment(op))
    e.set_result(op, e.insert(instr))


@CONVERTERS.register("llvm.fence")
def _fence(op: Operation, e: FunctionEmitter) -> None:
    e.insert(add.Fence(e.builder.block, _ordering(op), syncscope=_syncscope(op)))


# --------------------------------------------------------------------------- calls


@CONVERTERS.register("llvm.call")
def _call(op: Operation, e: FunctionEmitter) -> None:
    if op.op_bundle_operands:
        raise e.error(op, "calls with operand bundles are not supported")
    if op.callee is None:
        raise e.error(op, "indirect calls are not supported")
    args = [e.value(v) for v in op.args]
    callee = e.callee(op, op.callee.string_value())
    cconv = op.CConv.convention.data
    tail = op.TailCallKind.data.value if op.TailCallKind.data.value != "none" else None
    flags = fastmath_flags(op) if op.results and isinstance(
        e.result_type(op), (ir.HalfType, ir.FloatType, ir.DoubleType, add.BFloatType)) else []
    instr = e.builder.call(callee, args, cconv=None if cconv == "ccc" else cconv, tail=tail,
                           fastmath=flags)
    if op.results:
        e.set_result(op, instr)


@CONVERTERS.register("llvm.call_intrinsic")
def _call_intrinsic(op: Operation, e: FunctionEmitter) -> None:
    if op.op_bundle_operands:
        raise e.error(op, "intrinsic calls with operand bundles are not supported")
    args = [e.value(v) for v in op.args]
    result_type = e.result_type(op) if op.results else ir.VoidType()
    instr = e.call_intrinsic(op.intrin.data, result_type, args, fastmath=fastmath_flags(op))
    if op.results:
        e.set_result(op, instr)


@CONVERTERS.register("llvm.inline_asm")
def _inline_asm(op: Operation, e: FunctionEmitter) -> None:
    args = e.operands(op)
    result_type = e.result_type(op) if op.results else ir.VoidType()
    asm_dialect = op.properties.get("asm_dialect")
    asm = add.InlineAsm(ir.FunctionType(result_type, [a.type for a in args]),
                        op.asm_string.data, op.constraints.data,
                        side_effect=op.properties.get("has_side_effects") is not None,
                        align_stack=op.properties.get("is_align_stack") is not None,
                        intel=asm_dialect is not None and asm_dialect.value.data == 1)
    instr = e.builder.call(asm, args)
    if op.results and not isinstance(result_type, ir.VoidType):
        e.set_result(op, instr)


# --------------------------------------------------------------------------- intrinsics

# Flag properties that LLVM takes as trailing ``i1 immarg`` operands.
_IMMEDIATE_FLAGS = {f"llvm.intr.{name}": flags for name, _, _, flags in INTRINSICS if flags}


@CONVERTERS.register_prefix("llvm.intr.")
def _generic_intrinsic(op: Operation, e: FunctionEmitter) -> None:
    """Any ``llvm.intr.<name>``: a call of ``@llvm.<name>``."""
    args = e.operands(op)
    for flag in _IMMEDIATE_FLAGS.get(op.name, ()):
        value = op.properties.get(flag)
        args.append(ir.Constant(ir.IntType(1), bool(value is not None and value.value.data)))
    result_type = e.result_type(op) if op.results else ir.VoidType()
    instr = e.call_intrinsic("llvm." + op.name.removeprefix("llvm.intr."), result_type, args,
                             fastmath=fastmath_flags(op))
    if op.results:
        e.set_result(op, instr)


@CONVERTERS.register("llvm.intr.masked.store")
def _masked_store(op: Operation, e: FunctionEmitter) -> None:
    value, ptr, mask = e.operands(op)
    align = ir.Constant(ir.IntType(32), op.alignment.value.data)
    e.call_intrinsic("llvm.masked.store", ir.VoidType(), [value, ptr, align, mask])


# --------------------------------------------------------------------------- control flow


@CONVERTERS.register("llvm.br")
def _br(op: Operation, e: FunctionEmitter) -> None:
    e.add_incoming(op.successor, op.arguments)
    e.builder.branch(e.block(op.successor))


@CONVERTERS.register("llvm.cond_br")
def _cond_br(op: Operation, e: FunctionEmitter) -> None:
    e.add_incoming(op.then_block, op.then_arguments)
    e.add_incoming(op.else_block, op.else_arguments)
    e.builder.cbranch(e.value(op.cond), e.block(op.then_block), e.block(op.else_block))


@CONVERTERS.register("llvm.return")
def _return(op: Operation, e: FunctionEmitter) -> None:
    if op.operands:
        e.builder.ret(e.value(op.operands[0]))
    else:
        e.builder.ret_void()


@CONVERTERS.register("llvm.unreachable")
def _unreachable(op: Operation, e: FunctionEmitter) -> None:
    e.builder.unreachable()
