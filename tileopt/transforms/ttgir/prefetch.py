"""``tritongpu-prefetch``: split a loop's ``tt.dot`` along K so that the first K-slice of
the next iteration's operands is read from shared memory into registers while the last
slice of this iteration is multiplied (Triton's ``Prefetch.cpp``, as Triton 3.9 runs it on
mma v2 / MFMA dot loops).

For the one dot of an ``scf.for`` body whose operands are ``ttg.local_load``s into dot
operand layouts (possibly through single-operand, single-use ops), with K at least the
*prefetch width* (``kWidth * 8`` elements, ``kWidth * 16`` for f64 mma on sm90; ``256 /
bits`` without a kWidth):

- before the loop, the first slice of each operand: ``memdesc_subslice`` of the buffer at
  K offset 0, ``local_load`` (with the load's token) into the dot operand layout of the
  slice's kWidth; the buffer and the token, where they are computed in the body from loop
  values (``memdesc_index`` of the pipeliner's ring, ``async_wait``), are rebuilt from
  the loop's init values;
- the loop carries those buffers and tokens and the two slices (new iter args, in that
  order);
- in the body, the dot becomes one dot per slice: the first takes the carried slices,
  each next one the slice loaded (from the carried buffer) just before the previous dot;
  the last dot sinks below the rest of the body, unless an op uses its result;
- before it, the next iteration's buffers and tokens (the body's expressions rebuilt from
  the yielded values) and their first slices are computed and yielded.

The original full-K ``local_load``s and dot stay in the body, unused, for canonicalize to
remove (as in Triton). A loop with several dots, a dot of another layout, or operands not
read from shared memory is left alone. Triton 3.6's pass rewrote only dots whose buffers
are loop-carried: its bindings leave 3.9's pipelined sm80 loops (a ring index in the
body) unchanged, so a 3.6 module takes only that case.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import DenseArrayBase, TensorType, i32
from xdsl.ir import Attribute, Block, BlockArgument, Operation, OpResult, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike

from tileopt.dialects.traits import is_elementwise
from tileopt.dialects.triton_version import is_version_39
from tileopt.dialects.tt.compute import DotOp
from tileopt.dialects.ttg import (AsyncWaitOp, LocalLoadOp, MemDescIndexOp, MemDescSubsliceOp,
                                  num_ctas, target_name)
from tileopt.dialects.ttg_attrs import (AMDMfmaEncodingAttr, DotOperandEncodingAttr,
                                        NvidiaMmaEncodingAttr, ints_of)
from tileopt.dialects.ttg_types import MemDescType
from tileopt.ir.locations import value_location
from tileopt.passes import Pass, register_pass
from tileopt.transforms.canonicalization.convert_layout_patterns import (
    CONVERT_LAYOUT_PATTERNS,
    recreate_with_result_type,
)
from tileopt.transforms.utils.greedy_rewrite import apply_patterns_greedily
from tileopt.transforms.utils.scf_rewrites import locate_loop_arguments


def _capability(op: Operation) -> int:
    backend, _, arch = (target_name(op) or "").partition(":")
    return int(arch) if backend == "cuda" and arch.isdigit() else 0


def _k_width_scale(dot_encoding: Attribute, element: Attribute, capability: int) -> int:
    """K elements per unit of kWidth: Hopper's f64 mma has k = 16, so slices of 8 fail."""
    if capability >= 90 and isinstance(dot_encoding, NvidiaMmaEncodingAttr) \
            and getattr(element, "bitwidth", 0) == 64 and element.name == "f64":
        return 16
    return 8


def _prefetch_source(value: SSAValue) -> list[SSAValue]:
    """``[buffer, local_load, ops...]`` from the buffer a dot operand is read from to the
    operand, through single-use, single-operand ops; [] if it is not such a chain."""
    op = value.owner if isinstance(value, OpResult) else None
    if op is None:
        return []
    chain = [op.results[0]]
    found = False
    while op is not None:
        if len(list(op.results[0].uses)) != 1:
            break
        if isinstance(op, LocalLoadOp):
            chain.append(op.src)
            found = isinstance(op.result.type.encoding, DotOperandEncodingAttr)
            break
        if len(op.operands) != 1:
            break
        chain.append(op.operands[0])
        op = op.operands[0].owner if isinstance(op.operands[0], OpResult) else None
    chain.reverse()
    return chain if found else []


def _load_token(value: SSAValue) -> SSAValue | None:
    op = value.owner if isinstance(value, OpResult) else None
    while op is not None:
        if isinstance(op, LocalLoadOp):
            return op.token
        if len(op.operands) != 1:
            break
        op = op.operands[0].owner if isinstance(op.operands[0], OpResult) else None
    return None


class _Builder:
    """Inserts ops at a movable point (MLIR's ``OpBuilder`` insertion point)."""

    def __init__(self, point: InsertPoint):
        self.point = point

    def insert(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def clone(self, op: Operation, mapping: dict[SSAValue, SSAValue]) -> Operation:
        return self.insert(op.clone(value_mapper=dict(mapping)))


class _Prefetcher:
    def __init__(self, loop: scf.ForOp, capability: int, version_39: bool):
        self.loop, self.capability, self.version_39 = loop, capability, version_39
        self.body: Block = loop.body.block
        self.yield_op = self.body.last_op
        self.width = 32
        self.dot: DotOp | None = None
        self.a_vals: list[SSAValue] = []
        self.b_vals: list[SSAValue] = []
        self.tracked: dict[tuple[bool, bool], SSAValue | None] = {}  # (is_a, is_token)
        self.carried: dict[tuple[bool, bool], int] = {}  # new iter arg index
        self.heads: dict[bool, SSAValue] = {}
        self.head_index = 0  # iter arg of the carried first slices (A, then B)
        self.init_cache: dict[SSAValue, SSAValue] = {}

    # -------------------------------------------------------------- loop values

    def _carried(self, value: SSAValue | None) -> bool:
        return isinstance(value, BlockArgument) and value.owner is self.body and value.index > 0

    def _init_of(self, arg: BlockArgument) -> SSAValue:
        return self.loop.iter_args[arg.index - 1]

    def _yield_of(self, arg: BlockArgument) -> SSAValue:
        return self.yield_op.operands[arg.index - 1]

    def _promotable(self, value: SSAValue | None) -> bool:
        """Whether ``value`` can be rebuilt before the loop and for the next iteration:
        defined outside the body, a block argument, or elementwise / constant / async_wait
        / memdesc_index ops of such values."""
        if value is None or isinstance(value, BlockArgument):
            return True
        op = value.owner
        if op.parent_block() is not self.body:
            return True
        if op.regions:
            return False
        if not (is_elementwise(op) or op.has_trait(ConstantLike, value_if_unregistered=False)
                or isinstance(op, (AsyncWaitOp, MemDescIndexOp))):
            return False
        return all(self._promotable(o) for o in op.operands)

    def _clone_value(self, value: SSAValue | None, builder: _Builder,
                     map_arg: Callable[[BlockArgument], SSAValue],
                     cache: dict[SSAValue, SSAValue]) -> SSAValue | None:
        """``value``'s expression in the body, rebuilt at ``builder`` with the body's block
        arguments replaced by ``map_arg``."""
        if value is None:
            return None
        if value in cache:
            return cache[value]
        if isinstance(value, BlockArgument):
            cache[value] = value if value.owner is not self.body else map_arg(value)
            return cache[value]
        op = value.owner
        if op.parent_block() is not self.body:
            cache[value] = value
            return value
        mapping = {o: self._clone_value(o, builder, map_arg, cache) for o in op.operands}
        clone = builder.clone(op, mapping)
        for old, new in zip(op.results, clone.results):
            cache[old] = new
        return cache[value]

    def _materialize_init(self, value: SSAValue | None, builder: _Builder) -> SSAValue | None:
        def init(arg: BlockArgument) -> SSAValue:
            return self.loop.lb if arg.index == 0 else self._init_of(arg)
        return self._clone_value(value, builder, init, self.init_cache)

    # -------------------------------------------------------------- matching

    def initialize(self) -> bool:
        dots = [op for op in self.body.ops if isinstance(op, DotOp)]
        for dot in dots:
            encoding = dot.d.type.encoding
            if not isinstance(encoding, AMDMfmaEncodingAttr) and not (
                    isinstance(encoding, NvidiaMmaEncodingAttr)
                    and encoding.versionMajor.data == 2):
                return False
        if len(dots) != 1:
            return False
        dot = dots[0]
        a_type = dot.a.type
        k_width = a_type.encoding.kWidth.data
        element = a_type.get_element_type()
        self.width = (256 // element.bitwidth if k_width == 0 else
                      _k_width_scale(dot.d.type.encoding, element, self.capability) * k_width)
        if a_type.get_shape()[-1] < self.width:
            return False
        a_vals, b_vals = _prefetch_source(dot.a), _prefetch_source(dot.b)
        if not a_vals or not b_vals or num_ctas(dot, 1) != 1:
            return False
        a_smem, b_smem = a_vals[0], b_vals[0]
        a_token, b_token = _load_token(dot.a), _load_token(dot.b)
        loop_carried = self._carried(a_smem) and self._carried(b_smem)
        promotable = (a_token is not None or b_token is not None) and all(
            self._promotable(v) for v in (a_smem, b_smem, a_token, b_token))
        if not (loop_carried or (self.version_39 and promotable)):
            return False
        self.dot, self.a_vals, self.b_vals = dot, a_vals, b_vals
        self.tracked = {(True, False): a_smem, (False, False): b_smem,
                        (True, True): a_token, (False, True): b_token}
        return True

    # -------------------------------------------------------------- building

    def _slice(self, buffer: SSAValue, op_idx: int, head: bool, builder: _Builder,
               token: SSAValue | None, offset_k: int | None = None,
               shape_k: int | None = None) -> SSAValue:
        """``local_load`` of a K-slice of ``buffer``: the first ``width`` (``head``), the
        rest, or ``shape_k`` from ``offset_k``."""
        ty: MemDescType = buffer.type
        shape = list(ty.get_shape())
        offsets = [0] * len(shape)
        k = len(shape) - 1 if op_idx == 0 else len(shape) - 2
        offsets[k] = 0 if head else self.width
        shape[k] = self.width if head else shape[k] - self.width
        if shape_k is not None:
            shape[k] = shape_k
        if offset_k is not None:
            offsets[k] = offset_k
        location = value_location(buffer)
        view_type = MemDescType.get(shape, ty.get_element_type(), ty.encoding, ty.memorySpace,
                                    ty.is_mutable, ints_of(ty.allocShape))
        view = MemDescSubsliceOp.build(
            operands=[buffer], result_types=[view_type],
            properties={"offsets": DenseArrayBase.from_list(i32, offsets)})
        view.location = location
        builder.insert(view)
        dot_encoding = self.dot.d.type.encoding
        element = ty.get_element_type()
        scale = _k_width_scale(dot_encoding, element, self.capability)
        operand = DotOperandEncodingAttr.get(op_idx, dot_encoding, self.width // scale)
        load = LocalLoadOp(view.results[0], TensorType(element, shape, operand), token)
        load.location = location
        return builder.insert(load).results[0]

    def _through_chain(self, value: SSAValue, chain: list[SSAValue], builder: _Builder) -> SSAValue:
        """The ops between the ``local_load`` and the dot, cloned onto the slice ``value``
        (tensor results take the slice's shape and their operand's encoding)."""
        mapping: dict[SSAValue, SSAValue] = {chain[1]: value}
        for old in chain[2:]:
            op = old.owner
            operands = [mapping.get(o, o) for o in op.operands]
            if isinstance(old.type, TensorType):
                ty = TensorType(old.type.get_element_type(), value.type.get_shape(),
                                operands[0].type.encoding)
                new = recreate_with_result_type(op, ty, operands)
                new.location = op.location
            else:
                new = op.clone(value_mapper=dict(mapping))
            builder.insert(new)
            mapping[old] = new.results[0]
        return mapping[chain[-1]]

    def _chain(self, is_a: bool) -> list[SSAValue]:
        return self.a_vals if is_a else self.b_vals

    def emit_prologue(self) -> None:
        builder = _Builder(InsertPoint.before(self.loop))
        for is_a in (True, False):
            buffer = self._materialize_init(self.tracked[(is_a, False)], builder)
            token = self._materialize_init(self.tracked[(is_a, True)], builder)
            head = self._slice(buffer, 0 if is_a else 1, True, builder, token)
            self.heads[is_a] = self._through_chain(head, self._chain(is_a), builder)

    def loop_inits(self) -> list[SSAValue]:
        builder = _Builder(InsertPoint.before(self.loop))
        inits = list(self.loop.iter_args)
        for key in ((True, False), (False, False), (True, True), (False, True)):
            value = self.tracked[key]
            if value is None or self._carried(value):
                continue
            self.carried[key] = len(inits)
            inits.append(self._materialize_init(value, builder))
        self.head_index = len(inits)
        inits += [self.heads[True], self.heads[False]]
        return inits

    def _current(self, key: tuple[bool, bool], args: tuple[BlockArgument, ...],
                 mapping: dict[SSAValue, SSAValue]) -> SSAValue | None:
        value = self.tracked[key]
        if value is None:
            return None
        if self._carried(value):
            return mapping.get(value, value)
        if key in self.carried:
            return args[self.carried[key] + 1]
        return None if key[1] else mapping.get(value, value)

    def _next(self, key: tuple[bool, bool], builder: _Builder,
              mapping: dict[SSAValue, SSAValue]) -> SSAValue | None:
        value = self.tracked[key]
        if value is None:
            return None
        if self._carried(value):
            return mapping.get(self._yield_of(value), self._yield_of(value))

        def next_arg(arg: BlockArgument) -> SSAValue:
            if arg.index == 0:
                step = arith.AddiOp(mapping.get(arg, arg), self.loop.step)
                step.location = self.loop.location
                return builder.insert(step).results[0]
            yielded = self._yield_of(arg)
            return mapping.get(yielded, yielded)
        return self._clone_value(value, builder, next_arg, {})

    def rewrite(self) -> scf.ForOp:
        loop, dot = self.loop, self.dot
        inits = self.loop_inits()
        block = Block(arg_types=[loop.body.block.args[0].type, *(v.type for v in inits)])
        locate_loop_arguments(block, loop.location, dict(zip(block.args[1:], inits)))
        new_loop = scf.ForOp(loop.lb, loop.ub, loop.step, inits, block)
        new_loop.attributes.update(loop.attributes)
        new_loop.location = loop.location
        Rewriter.insert_op(new_loop, InsertPoint.before(loop))
        args = tuple(block.args)
        mapping: dict[SSAValue, SSAValue] = dict(zip(self.body.args, args))
        end = InsertPoint.at_end(block)
        builder = _Builder(end)
        for op in list(self.body.ops)[:-1]:
            if op.regions or any(isinstance(o, OpResult) and o.owner is dot for o in op.operands):
                builder.point = end
            new_op = builder.clone(op, mapping)
            if op is dot:
                new_op = self._split_dot(builder, args, mapping)
            for old, new in zip(op.results, new_op.results):
                mapping[old] = new
        yields = [mapping.get(v, v) for v in self.yield_op.operands]
        nexts = {key: self._next(key, builder, mapping)
                 for key in ((True, False), (False, False), (True, True), (False, True))}
        for key in ((True, False), (False, False), (True, True), (False, True)):
            if key in self.carried:
                yields.append(nexts[key])
        for is_a in (True, False):
            head = self._slice(nexts[(is_a, False)], 0 if is_a else 1, True, builder,
                               nexts[(is_a, True)])
            yields.append(self._through_chain(head, self._chain(is_a), builder))
        terminator = scf.YieldOp(*yields)
        terminator.location = self.yield_op.location
        Rewriter.insert_op(terminator, end)
        for old, new in zip(loop.results, new_loop.results):
            old.replace_all_uses_with(new)
        Rewriter.erase_op(loop)
        return new_loop

    def _split_dot(self, builder: _Builder, args: tuple[BlockArgument, ...],
                   mapping: dict[SSAValue, SSAValue]) -> Operation:
        """After the (now unused) full dot: one dot per K-slice, the first on the carried
        slices; the insertion point ends above the last dot so the rest of the body goes
        before it."""
        dot = self.dot
        first = builder.clone(dot, mapping)
        first.operands[0] = args[self.head_index + 1]
        first.operands[1] = args[self.head_index + 2]
        previous = first
        offset, remaining = self.width, dot.a.type.get_shape()[-1] - self.width
        if remaining == 0:
            builder.point = InsertPoint.before(first)
            return first
        while remaining:
            saved = builder.point
            builder.point = InsertPoint.before(previous)
            slices = []
            for is_a in (True, False):
                buffer = self._current((is_a, False), args, mapping)
                token = self._current((is_a, True), args, mapping)
                part = self._slice(buffer, 0 if is_a else 1, False, builder, token,
                                   offset, self.width)
                slices.append(self._through_chain(part, self._chain(is_a), builder))
            builder.point = saved
            new = builder.clone(dot, mapping)
            new.operands[0], new.operands[1] = slices
            new.operands[2] = previous.results[0]
            previous = new
            offset += self.width
            remaining -= self.width
            if remaining == 0:
                builder.point = InsertPoint.before(previous)
        return previous


@register_pass
class Prefetch(Pass):
    """Split loop dots along K and load the next iteration's first K-slice of the operands
    from shared memory one step ahead."""

    name = "tritongpu-prefetch"

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_patterns_greedily(ctx, op, CONVERT_LAYOUT_PATTERNS)
        capability = _capability(op)
        version_39 = is_version_39(op)
        loops = [o for o in op.walk() if isinstance(o, scf.ForOp)]
        for loop in reversed(loops):  # inner loops first, as MLIR's post-order walk
            prefetcher = _Prefetcher(loop, capability, version_39)
            if prefetcher.initialize():
                prefetcher.emit_prologue()
                prefetcher.rewrite()
