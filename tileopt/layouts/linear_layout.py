"""Linear layouts: linear maps over GF(2) between named index spaces.

A *linear layout* is how Triton describes where every element of a tensor lives. It maps
hardware indices -- the input dimensions, usually ``register``, ``lane``, ``warp`` and
``block`` (or ``offset`` and ``block`` for shared memory) -- to tensor coordinates, the
output dimensions ``dim0``, ``dim1``, ... Every dimension has a power-of-two size.

The map is linear over GF(2): each input dimension of size ``2**k`` has ``k`` *bases*, one
per bit of the index, and each basis is a tuple with one coordinate per output dimension.
The image of an input is the XOR of the bases of its set bits::

    L(register=5, lane=0) = L(register=1) ^ L(register=4)

This module is the algebra on its own -- products, composition, inversion, division,
reshapes -- written from the semantics of Triton's ``lib/Tools/LinearLayout.cpp`` (and
``LayoutUtils.cpp``), with Triton's names in snake_case, so that every layout conversion,
vector width and shuffle in the lowering follows from one mechanism. It imports nothing
from xDSL so it can be tested exhaustively.

The one deliberate difference from Triton: there is no 64-bit limit on the number of
bits, since Python integers are unbounded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Union

Basis = tuple[int, ...]
BasesInput = Union[Mapping[str, Sequence[Sequence[int]]], Iterable[tuple[str, Sequence[Sequence[int]]]]]
OutDimsInput = Union[Mapping[str, int], Iterable[tuple[str, int]], Iterable[str]]


class LayoutError(ValueError):
    """An invalid layout, or an operation whose preconditions do not hold."""


def is_power_of_2(value: int) -> bool:
    return value > 0 and value & (value - 1) == 0


def log2_exact(value: int) -> int:
    """log2 of a power of two; raises on anything else."""
    if not is_power_of_2(value):
        raise LayoutError(f"expected a power of two, got {value}")
    return value.bit_length() - 1


def _next_power_of_2_above(value: int) -> int:
    """The smallest power of two strictly greater than ``value`` (LLVM's NextPowerOf2)."""
    return 1 << value.bit_length()


def xor_columns(columns: Sequence[int], value: int) -> int:
    """The GF(2) product of a matrix, given by its columns as ints, and the bit vector
    ``value``: the XOR of the columns whose bit is set."""
    acc = 0
    while value:  # one step per set bit, lowest first (bases are mostly single bits)
        low = value & -value
        acc ^= columns[low.bit_length() - 1]
        value ^= low
    return acc


def _check_reshape(what: str, new_dims: Sequence[tuple[str, int]], total: int) -> None:
    """A reshape keeps the total size, and every new size is a power of two."""
    new_total = 1
    for _, size in new_dims:
        new_total *= size
        log2_exact(size)
    if new_total != total:
        raise LayoutError(f"{what}: total size {new_total} differs from {total}")


def rref(rows: Sequence[int], num_cols: int) -> list[int]:
    """Reduced row echelon form over GF(2). Row ``r`` is an int whose bit ``c`` is column ``c``.

    Pivots are taken from column 0 upwards, so the result is the unique RREF of the matrix
    with that column order (the same form f2reduce produces). Zero rows end up at the bottom.
    """
    rows = list(rows)
    pivot_row = 0
    for col in range(num_cols):
        bit = 1 << col
        found = next((r for r in range(pivot_row, len(rows)) if rows[r] & bit), None)
        if found is None:
            continue
        rows[pivot_row], rows[found] = rows[found], rows[pivot_row]
        pivot = rows[pivot_row]
        for r in range(len(rows)):
            if r != pivot_row and rows[r] & bit:
                rows[r] ^= pivot
        pivot_row += 1
        if pivot_row == len(rows):
            break
    return rows


def _lowest_set_bit(value: int) -> int:
    return (value & -value).bit_length() - 1


def supremum(x: Sequence[str], y: Sequence[str]) -> list[str]:
    """Merge two dim-name lists keeping each one's order where possible (Triton's ``supremum``).

    Names only in ``x`` are taken before names only in ``y``. Where both heads are common
    names, the one that comes sooner in the other list goes first. As in Triton, ``[a, b]``
    merged with ``[b, a]`` gives ``[a, b]``: the product of two layouts whose common output
    dims are ordered differently is still defined.
    """
    pos_x = {name: k for k, name in enumerate(x)}
    pos_y = {name: k for k, name in enumerate(y)}
    result: list[str] = []
    seen: set[str] = set()
    i = j = 0
    while True:
        # Everything before i (resp. j) is already placed, so an unplaced common name
        # always lies ahead of the cursor in the other list.
        while i < len(x) and x[i] in seen:
            i += 1
        while j < len(y) and y[j] in seen:
            j += 1
        if i == len(x) and j == len(y):
            return result
        if i == len(x):
            pick = y[j]
        elif j == len(y) or x[i] == y[j] or x[i] not in pos_y:
            pick = x[i]
        elif y[j] not in pos_x:
            pick = y[j]
        else:
            pick = x[i] if pos_y[x[i]] <= pos_x[y[j]] else y[j]
        result.append(pick)
        seen.add(pick)


class LinearLayout:
    """A linear map over GF(2) from named input dims to named output dims.

    ``bases`` maps each input dimension (in order) to its list of bases; ``out_dims`` gives
    the output dimensions in order, either with their sizes (``[("dim0", 16), ...]`` or a
    dict) or as bare names, in which case each size is inferred as the smallest power of two
    above every basis coordinate and the layout must be surjective (as Triton's constructor
    taking only names requires). Instances are immutable and hashable.
    """

    __slots__ = ("_bases", "_out_dims", "_flat_cache", "_rank_cache", "_hash")

    def __init__(
        self,
        bases: BasesInput,
        out_dims: OutDimsInput,
        *,
        require_surjective: bool | None = None,
    ) -> None:
        items = bases.items() if isinstance(bases, Mapping) else bases
        self._bases: dict[str, tuple[Basis, ...]] = {}
        for in_dim, in_bases in items:
            if in_dim in self._bases:
                raise LayoutError(f"input dimension '{in_dim}' given twice")
            self._bases[in_dim] = tuple(tuple(map(int, basis)) for basis in in_bases)

        out_items = list(out_dims.items()) if isinstance(out_dims, Mapping) else list(out_dims)
        inferred = all(isinstance(o, str) for o in out_items) and bool(out_items)
        if not out_items:
            inferred = False
        if inferred:
            names = [str(o) for o in out_items]
            sizes = {name: 1 for name in names}
            for in_bases in self._bases.values():
                for basis in in_bases:
                    if len(basis) != len(names):
                        break
                    for name, value in zip(names, basis):
                        if value > 0:
                            sizes[name] = max(sizes[name], _next_power_of_2_above(value))
            self._out_dims: dict[str, int] = sizes
        else:
            self._out_dims = {}
            for item in out_items:
                name, size = item
                if name in self._out_dims:
                    raise LayoutError(f"output dimension '{name}' given twice")
                self._out_dims[str(name)] = int(size)
        self._flat_cache = None
        self._rank_cache: int | None = None
        self._check_invariants()
        if require_surjective is None:
            require_surjective = inferred
        if require_surjective and not self.is_surjective():
            raise LayoutError(
                "layout is expected to be surjective (every output reachable) but is not:"
                + self.to_string()
            )

    # ------------------------------------------------------------------ construction

    def _check_invariants(self) -> None:
        num_out = len(self._out_dims)
        for name, size in self._out_dims.items():
            if not is_power_of_2(size):
                raise LayoutError(f"size {size} of output dimension '{name}' is not a power of two")
        sizes = list(self._out_dims.values())
        names = list(self._out_dims)
        for in_dim, in_bases in self._bases.items():
            # The common case, valid, checked column by column in C; else basis by basis
            # for the first problem's message.
            if in_bases and set(map(len, in_bases)) == {num_out} and (
                    num_out == 0 or (min(map(min, in_bases)) >= 0 and all(
                        max(column) < size for column, size in zip(zip(*in_bases), sizes)))):
                continue
            for basis in in_bases:
                if len(basis) != num_out:
                    raise LayoutError(
                        f"basis {list(basis)} of input dimension '{in_dim}' has {len(basis)} "
                        f"coordinates but the layout has {num_out} output dimensions"
                    )
                for value, size, out_name in zip(basis, sizes, names):
                    if value < 0:
                        raise LayoutError(f"negative basis value {value} in '{in_dim}'")
                    if value >= size:
                        raise LayoutError(
                            f"basis value {value} of input dimension '{in_dim}' is outside output "
                            f"dimension '{out_name}' of size {size}"
                        )

    @classmethod
    def empty(cls) -> LinearLayout:
        """The layout with no input and no output dimensions (the unit of ``*``)."""
        return cls({}, [])

    @classmethod
    def identity_1d(cls, size: int, in_dim: str, out_dim: str) -> LinearLayout:
        """``in_dim`` of ``size`` mapped one-to-one onto ``out_dim`` of ``size``.

        ``size`` 0 gives the empty layout (as in Triton); ``size`` 1 gives a layout that still
        names both dimensions, which fixes their position in later products.
        """
        if size == 0:
            return cls.empty()
        log2_exact(size)
        return cls({in_dim: [(1 << i,) for i in range(log2_exact(size))]}, [(out_dim, size)])

    @classmethod
    def zeros_1d(cls, size: int, in_dim: str, out_dim: str, out_dim_size: int = 1) -> LinearLayout:
        """Every index of ``in_dim`` (of ``size``) maps to coordinate 0: a broadcast."""
        if size == 0:
            return cls.empty()
        return cls({in_dim: [(0,)] * log2_exact(size)}, [(out_dim, out_dim_size)])

    @classmethod
    def strided_1d(cls, size: int, stride: int, in_dim: str, out_dim: str) -> LinearLayout:
        """``in_dim`` index ``i`` maps to ``i * stride`` (``stride`` a power of two)."""
        if size == 0:
            return cls.empty()
        log2_exact(stride)
        return cls(
            {in_dim: [(stride << i,) for i in range(log2_exact(size))]},
            [(out_dim, size * stride)],
        )

    # ------------------------------------------------------------------ accessors

    @property
    def in_dims(self) -> list[str]:
        return list(self._bases)

    @property
    def out_dims(self) -> list[str]:
        return list(self._out_dims)

    @property
    def bases(self) -> dict[str, list[list[int]]]:
        """A fresh, mutable copy of the bases (in-dim -> list of bases)."""
        return {name: [list(b) for b in bs] for name, bs in self._bases.items()}

    def get_bases(self, in_dim: str) -> tuple[Basis, ...]:
        return self._bases[in_dim]

    def out_dim_sizes(self) -> dict[str, int]:
        return dict(self._out_dims)

    def in_dim_sizes(self) -> dict[str, int]:
        return {name: 1 << len(bs) for name, bs in self._bases.items()}

    def num_in_dims(self) -> int:
        return len(self._bases)

    def num_out_dims(self) -> int:
        return len(self._out_dims)

    def has_in_dim(self, name: str) -> bool:
        return name in self._bases

    def has_out_dim(self, name: str) -> bool:
        return name in self._out_dims

    def in_dim_size_log2(self, name: str) -> int:
        return len(self._bases[name])

    def in_dim_size(self, name: str) -> int:
        return 1 << len(self._bases[name])

    def out_dim_size(self, name: str) -> int:
        return self._out_dims[name]

    def out_dim_size_log2(self, name: str) -> int:
        return self._out_dims[name].bit_length() - 1

    def total_in_dim_size_log2(self) -> int:
        return sum(len(bs) for bs in self._bases.values())

    def total_in_dim_size(self) -> int:
        return 1 << self.total_in_dim_size_log2()

    def total_out_dim_size_log2(self) -> int:
        return sum(size.bit_length() - 1 for size in self._out_dims.values())

    def total_out_dim_size(self) -> int:
        return 1 << self.total_out_dim_size_log2()

    def out_dim_index(self, name: str) -> int:
        try:
            return list(self._out_dims).index(name)
        except ValueError:
            raise LayoutError(f"output dimension '{name}' is not in the layout") from None

    def get_basis(self, in_dim: str, pos: int, out_dim: str | None = None):
        """Basis ``pos`` of ``in_dim``: the whole tuple, or one coordinate of it."""
        basis = self._bases[in_dim][pos]
        return basis if out_dim is None else basis[self.out_dim_index(out_dim)]

    # ------------------------------------------------------------------ flat bit matrix

    def _out_shifts(self) -> list[int]:
        shifts, total = [], 0
        for size in self._out_dims.values():
            shifts.append(total)
            total += size.bit_length() - 1
        return shifts

    def _flat(self) -> tuple[dict[str, tuple[int, ...]], list[int]]:
        """Bases as single ints: the output coordinates' bits concatenated, dim0 lowest."""
        if self._flat_cache is None:
            shifts = self._out_shifts()
            flat = {
                name: tuple(sum(v << s for v, s in zip(basis, shifts)) for basis in bs)
                for name, bs in self._bases.items()
            }
            self._flat_cache = (flat, shifts)
        return self._flat_cache

    def _columns(self) -> list[int]:
        flat, _ = self._flat()
        return [col for cols in flat.values() for col in cols]

    def _matrix_rows(self) -> list[int]:
        """Rows = output bits, columns = input bits (the matrix Triton hands to f2reduce)."""
        columns = self._columns()
        num_rows = self.total_out_dim_size_log2()
        rows = [0] * num_rows
        for c, col in enumerate(columns):
            r = 0
            while col:
                if col & 1:
                    rows[r] |= 1 << c
                col >>= 1
                r += 1
        return rows

    def _rank(self) -> int:
        if self._rank_cache is None:
            rows = rref(self._matrix_rows(), self.total_in_dim_size_log2())
            self._rank_cache = sum(1 for r in rows if r)
        return self._rank_cache

    def is_surjective(self) -> bool:
        """Every output coordinate is reached by some input."""
        return self._rank() == self.total_out_dim_size_log2()

    def is_injective(self) -> bool:
        """No two inputs map to the same output (no broadcasting)."""
        return self._rank() == self.total_in_dim_size_log2()

    def is_invertible(self) -> bool:
        return self.is_surjective() and (
            self.total_in_dim_size_log2() == self.total_out_dim_size_log2()
        )

    # ------------------------------------------------------------------ evaluation

    def apply(self, inputs: Mapping[str, int] | Iterable[tuple[str, int]]) -> dict[str, int]:
        """The output coordinates of one input point, as ``{out_dim: value}`` in order."""
        ins = dict(inputs)
        if set(ins) != set(self._bases):
            raise LayoutError(
                f"apply() needs exactly the input dimensions {self.in_dims}, got {sorted(ins)}"
            )
        flat, shifts = self._flat()
        acc = 0
        for name, value in ins.items():
            cols = flat[name]
            if value < 0 or value >> len(cols):
                raise LayoutError(
                    f"index {value} is outside input dimension '{name}' of size {1 << len(cols)}"
                )
            acc ^= xor_columns(cols, value)
        return {
            name: (acc >> shift) & (size - 1)
            for (name, size), shift in zip(self._out_dims.items(), shifts)
        }

    def apply_flat(self, inputs: Mapping[str, int]) -> int:
        """Like :meth:`apply`, with the outputs packed into one int (dim0 in the lowest bits)."""
        flat, _ = self._flat()
        acc = 0
        for name, value in inputs.items():
            acc ^= xor_columns(flat[name], value)
        return acc

    # ------------------------------------------------------------------ algebra

    def __mul__(self, outer: LinearLayout) -> LinearLayout:
        """Triton's ``operator*``: ``self`` is the inner (minor) layout, ``outer`` the major one.

        Input dims present in both get the inner bases first, then the outer ones; output
        dims present in both get the outer coordinates scaled by the inner size. Dimension
        order is the supremum of the two orders.
        """
        if not isinstance(outer, LinearLayout):
            return NotImplemented
        inner = self
        in_names = supremum(inner.in_dims, outer.in_dims)
        out_names = supremum(inner.out_dims, outer.out_dims)
        out_sizes = {
            name: inner._out_dims.get(name, 1) * outer._out_dims.get(name, 1) for name in out_names
        }
        new_bases: dict[str, list[Basis]] = {}
        for in_dim in in_names:
            rows: list[Basis] = []
            for layout, scale_by in ((inner, None), (outer, inner)):
                if not layout.has_in_dim(in_dim):
                    continue
                idx = [layout.out_dim_index(o) if layout.has_out_dim(o) else None for o in out_names]
                for basis in layout._bases[in_dim]:
                    rows.append(
                        tuple(
                            0
                            if k is None
                            else basis[k] * (scale_by._out_dims.get(o, 1) if scale_by else 1)
                            for k, o in zip(idx, out_names)
                        )
                    )
            new_bases[in_dim] = rows
        return LinearLayout(new_bases, list(out_sizes.items()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LinearLayout):
            return NotImplemented
        return list(self._bases.items()) == list(other._bases.items()) and list(
            self._out_dims.items()
        ) == list(other._out_dims.items())

    def equal_ignoring_out_dim_sizes(self, other: LinearLayout) -> bool:
        return self.out_dims == other.out_dims and list(self._bases.items()) == list(
            other._bases.items()
        )

    def __hash__(self) -> int:
        # Remembered: layouts key the caches of the analyses and the lowering.
        try:
            return self._hash
        except AttributeError:
            self._hash = hash((tuple(self._bases.items()), tuple(self._out_dims.items())))
            return self._hash

    def compose(self, outer: LinearLayout) -> LinearLayout:
        """``outer(self(x))``: ``self``'s output dims must be ``outer``'s input dims."""
        if set(self.out_dims) != set(outer.in_dims):
            raise LayoutError(
                f"compose: output dims {self.out_dims} differ from outer input dims {outer.in_dims}"
            )
        for name in self.out_dims:
            if self.out_dim_size(name) > outer.in_dim_size(name):
                raise LayoutError(f"compose: '{name}' is larger than the outer layout's input")
        new_bases = {
            in_dim: [tuple(outer.apply(zip(self.out_dims, basis)).values()) for basis in bs]
            for in_dim, bs in self._bases.items()
        }
        return LinearLayout(new_bases, list(outer._out_dims.items()))

    def invert_and_compose(self, outer: LinearLayout) -> LinearLayout:
        """A layout ``C`` from ``self``'s inputs to ``outer``'s inputs with ``outer(C(x)) == self(x)``.

        This is what a ``convert_layout`` from ``self`` to ``outer`` needs: for every element
        a thread holds in the source, where it lives in the destination. Input dims on which
        both layouts agree map to themselves (nothing moves along them); the rest are
        solved by least squares, where a free choice goes to index 0, so duplicated data is
        read from one place. Requires ``self``'s image to lie inside ``outer``'s.
        """
        return _invert_and_compose(self, outer)

    def _invert_and_compose(self, outer: LinearLayout) -> LinearLayout:
        out_names = self.out_dims
        if set(out_names) != set(outer.out_dims):
            raise LayoutError(
                f"invert_and_compose: output dims {out_names} and {outer.out_dims} differ"
            )
        a = outer.transpose_outs(out_names)
        b = self
        for name in out_names:
            if a.out_dim_size(name) < b.out_dim_size(name):
                raise LayoutError(
                    f"invert_and_compose: output '{name}' of the outer layout is smaller"
                )
        identity_dims = [
            d
            for d in a.in_dims
            if b.has_in_dim(d)
            and a.sublayout([d], out_names).equal_ignoring_out_dim_sizes(
                b.sublayout([d], out_names)
            )
        ]
        a_rest = [d for d in a.in_dims if d not in identity_dims]
        b_rest = [d for d in b.in_dims if d not in identity_dims]
        if bool(a_rest) != bool(b_rest):
            raise LayoutError("invert_and_compose: the layouts cannot be matched")
        if a_rest:
            ret = lstsq(a.sublayout(a_rest, out_names), b.sublayout(b_rest, out_names))
        else:
            ret = LinearLayout.empty()
        for d in identity_dims:
            ret = ret * LinearLayout.identity_1d(a.in_dim_size(d), d, d)
        return ret.transpose_ins(b.in_dims).transpose_outs(a.in_dims)

    def invert(self) -> LinearLayout:
        """The inverse map; the layout must be a bijection."""
        if not self.is_invertible():
            raise LayoutError("only a bijective layout can be inverted:" + self.to_string())
        return self.pseudo_invert()

    def pseudo_invert(self) -> LinearLayout:
        """A right inverse: for each output, one input mapping to it (free bits set to 0)."""
        identity = LinearLayout.empty()
        for name, size in self._out_dims.items():
            identity = identity * LinearLayout.identity_1d(size, name, name)
        return identity.invert_and_compose(self)

    def get_free_variable_masks(self) -> dict[str, int]:
        """For each input dim, a bit mask of the bits that do not change the output.

        These are the broadcast bits: flipping one of them (after fixing the others to the
        basic variables' values) lands on an element some other input already holds.
        """
        num_cols = self.total_in_dim_size_log2()
        rows = rref(self._matrix_rows(), num_cols)
        basic = {_lowest_set_bit(r) for r in rows if r}
        masks: dict[str, int] = {}
        col = 0
        for name, bs in self._bases.items():
            mask = 0
            for i in range(len(bs)):
                if col not in basic:
                    mask |= 1 << i
                col += 1
            masks[name] = mask
        return masks

    # ------------------------------------------------------------------ reshaping

    def transpose_ins(self, new_in_dims: Sequence[str]) -> LinearLayout:
        """Reorder the input dims (the map is unchanged)."""
        if sorted(new_in_dims) != sorted(self.in_dims):
            raise LayoutError(f"transpose_ins: {list(new_in_dims)} is not a permutation of {self.in_dims}")
        return LinearLayout(
            {d: self._bases[d] for d in new_in_dims}, list(self._out_dims.items())
        )

    def transpose_outs(self, new_out_dims: Sequence[str]) -> LinearLayout:
        """Reorder the output dims (the map is unchanged)."""
        if sorted(new_out_dims) != sorted(self.out_dims):
            raise LayoutError(
                f"transpose_outs: {list(new_out_dims)} is not a permutation of {self.out_dims}"
            )
        perm = [self.out_dim_index(d) for d in new_out_dims]
        return LinearLayout(
            {d: [tuple(b[k] for k in perm) for b in bs] for d, bs in self._bases.items()},
            [(d, self._out_dims[d]) for d in new_out_dims],
        )

    def reshape_ins(self, new_in_dims: Sequence[tuple[str, int]]) -> LinearLayout:
        """Flatten the input dims into one (first dim least significant), then split it."""
        _check_reshape("reshape_ins", new_in_dims, self.total_in_dim_size())
        flat = [b for bs in self._bases.values() for b in bs]
        new_bases, i = {}, 0
        for name, size in new_in_dims:
            n = log2_exact(size)
            new_bases[name] = flat[i : i + n]
            i += n
        return LinearLayout(new_bases, list(self._out_dims.items()))

    def reshape_outs(self, new_out_dims: Sequence[tuple[str, int]]) -> LinearLayout:
        """Flatten the output dims into one (first dim least significant), then split it."""
        _check_reshape("reshape_outs", new_out_dims, self.total_out_dim_size())
        flat, _ = self._flat()
        new_bases = {}
        for name, cols in flat.items():
            rows = []
            for value in cols:
                coords = []
                for _, size in new_out_dims:
                    coords.append(value % size)
                    value //= size
                rows.append(tuple(coords))
            new_bases[name] = rows
        return LinearLayout(new_bases, list(new_out_dims))

    def flatten_ins(self) -> LinearLayout:
        if not self._bases:
            return self
        return self.reshape_ins([(self.in_dims[0], self.total_in_dim_size())])

    def flatten_outs(self) -> LinearLayout:
        if not self._out_dims:
            return self
        return self.reshape_outs([(self.out_dims[0], self.total_out_dim_size())])

    def sublayout(self, in_dims: Sequence[str], out_dims: Sequence[str]) -> LinearLayout:
        """The restriction to some input dims and the projection onto some output dims."""
        for d in in_dims:
            if d not in self._bases:
                raise LayoutError(f"sublayout: '{d}' is not an input dimension")
        for d in out_dims:
            if d not in self._out_dims:
                raise LayoutError(f"sublayout: '{d}' is not an output dimension")
        keep = [k for k, d in enumerate(self._out_dims) if d in set(out_dims)]
        return LinearLayout(
            {
                d: [tuple(b[k] for k in keep) for b in bs]
                for d, bs in self._bases.items()
                if d in set(in_dims)
            },
            [(d, s) for d, s in self._out_dims.items() if d in set(out_dims)],
        )

    def sublayout_is_zero(self, in_dims: Sequence[str], out_dims: Sequence[str]) -> bool:
        """``in_dims`` do not move any of ``out_dims``."""
        sub = self.sublayout(in_dims, out_dims)
        return all(v == 0 for bs in sub._bases.values() for b in bs for v in b)

    def square_sublayout_is_identity(self, dims: Sequence[str]) -> bool:
        """On ``dims`` (both input and output), the layout is the identity."""
        if not dims:
            return True
        for d in dims:
            if not self.has_in_dim(d) or not self.has_out_dim(d):
                return False
            if self.in_dim_size(d) != self.out_dim_size(d):
                return False
        sub = self.sublayout(dims, dims).transpose_outs(
            [d for d in self.in_dims if d in set(dims)]
        )
        flat = sub.flatten_ins().flatten_outs()
        only = next(iter(flat._bases.values()), ())
        return all(b[0] == 1 << i for i, b in enumerate(only))

    def is_trivial_over(self, dims: Sequence[str]) -> bool:
        """The layout is the identity on ``dims`` and keeps them apart from all other dims."""
        for d in dims:
            if d not in self._bases and d not in self._out_dims:
                return False
        rest_in = [d for d in self.in_dims if d not in dims]
        rest_out = [d for d in self.out_dims if d not in dims]
        return (
            self.square_sublayout_is_identity(dims)
            and self.sublayout_is_zero(rest_in, dims)
            and self.sublayout_is_zero(dims, rest_out)
        )

    def quotient(self, dims: Sequence[str]) -> LinearLayout | None:
        """The layout with ``dims`` removed, if it acts trivially on them; else None."""
        if not self.is_trivial_over(dims):
            return None
        return self.sublayout(
            [d for d in self.in_dims if d not in dims], [d for d in self.out_dims if d not in dims]
        )

    def remove_zero_bases_along_dim(self, in_dim: str) -> LinearLayout:
        """Drop the all-zero bases of ``in_dim`` (its broadcast bits); the input shrinks."""
        return LinearLayout(
            {
                d: [b for b in bs if d != in_dim or any(b)]
                for d, bs in self._bases.items()
            },
            list(self._out_dims.items()),
        )

    def resize_in_dim(self, in_dim: str, new_size: int) -> LinearLayout:
        """Grow ``in_dim`` to ``new_size`` by appending zero (broadcast) bases."""
        extra = log2_exact(new_size) - self.in_dim_size_log2(in_dim)
        if extra < 0:
            raise LayoutError("resize_in_dim can only grow a dimension")
        zero = (0,) * self.num_out_dims()
        return LinearLayout(
            {d: list(bs) + ([zero] * extra if d == in_dim else []) for d, bs in self._bases.items()},
            list(self._out_dims.items()),
        )

    def concat_ins(self, other: LinearLayout) -> LinearLayout:
        """Both layouts' input dims side by side (same outputs, distinct input names)."""
        if list(self._out_dims.items()) != list(other._out_dims.items()):
            raise LayoutError("concat_ins needs identical output dimensions")
        bases = dict(self._bases)
        for d, bs in other._bases.items():
            if d in bases:
                raise LayoutError(f"concat_ins: input dimension '{d}' is in both layouts")
            bases[d] = bs
        return LinearLayout(bases, list(self._out_dims.items()))

    def concat_outs(self, other: LinearLayout) -> LinearLayout:
        """Both layouts' output dims side by side (same inputs, distinct output names)."""
        if self.in_dim_sizes() != other.in_dim_sizes() or self.in_dims != other.in_dims:
            raise LayoutError("concat_outs needs identical input dimensions")
        bases = {d: [a + b for a, b in zip(bs, other._bases[d])] for d, bs in self._bases.items()}
        return LinearLayout(bases, list(self._out_dims.items()) + list(other._out_dims.items()))

    def get_num_consecutive_in_out(self) -> int:
        """How many consecutive indices of the first input dim map to consecutive outputs.

        This is the vector width a thread can use: the first register bases must be
        ``1, 2, 4, ...`` along the first output dim (and nothing else), and no other basis may
        touch those low bits of the first output dim.
        """
        if not self._bases or not self._out_dims:
            return 1
        first_name = self.in_dims[0]
        first = self._bases[first_name]
        consec = 0
        while consec < len(first):
            b = first[consec]
            if b[0] != 1 << consec or any(b[1:]):
                break
            consec += 1
        other_bits = 0
        for name, bs in self._bases.items():
            for i, b in enumerate(bs):
                if name != first_name or i >= consec:
                    other_bits |= b[0]
        trailing = _lowest_set_bit(other_bits) if other_bits else 31
        return 1 << min(consec, trailing)

    # ------------------------------------------------------------------ printing

    def to_string(self) -> str:
        """Triton's ``toString``: one line per basis, then the output dims with sizes."""
        out_str = "[" + ", ".join(f"{d} (size {s})" for d, s in self._out_dims.items()) + "]"
        if not self._bases:
            if not self._out_dims:
                return "\n(empty layout)"
            return f"\n(empty layout with out-dims {out_str})"
        ret = "\n"
        for d, bs in self._bases.items():
            if not bs:
                ret += f" - {d} is a size 1 dimension\n"
                continue
            ret += (
                " - "
                + "\n   ".join(
                    f"{d}={1 << i} -> (" + ", ".join(str(v) for v in b) + ")"
                    for i, b in enumerate(bs)
                )
                + "\n"
            )
        return ret + "where out dims are: " + out_str

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        bases = {d: [list(b) for b in bs] for d, bs in self._bases.items()}
        return f"LinearLayout({bases!r}, {list(self._out_dims.items())!r})"


@lru_cache(maxsize=2048)
def _invert_and_compose(inner: LinearLayout, outer: LinearLayout) -> LinearLayout:
    # Remembered: the lowering and the analyses solve the same pairs again and again
    # (layouts are immutable; a failure is not remembered and fails again alike).
    return inner._invert_and_compose(outer)  # noqa: SLF001


def lstsq(a: LinearLayout, b: LinearLayout) -> LinearLayout:
    """Solve ``a(X(x)) == b(x)`` for a layout ``X`` from ``b``'s inputs to ``a``'s inputs.

    Both layouts share output dim names in the same order and ``a``'s outputs are at least
    as large. Free variables are set to 0 (the minimum-norm solution). Raises if some
    ``b(x)`` is outside ``a``'s image.
    """
    num_cols_a = a.total_in_dim_size_log2()
    num_cols_b = b.total_in_dim_size_log2()
    a_rows = a._matrix_rows()
    b_rows = b._matrix_rows()
    combined = list(a_rows)
    row_a = row_b = 0
    for name in a.out_dims:
        a_bits = a.out_dim_size_log2(name)
        b_bits = b.out_dim_size_log2(name) if b.has_out_dim(name) else 0
        for r in range(a_bits):
            if r < b_bits:
                combined[row_a] |= b_rows[row_b] << num_cols_a
                row_b += 1
            row_a += 1
    reduced = rref(combined, num_cols_a + num_cols_b)
    solution = [0] * num_cols_a  # per a-column: the b-columns it takes part in
    for row in reduced:
        if not row:
            continue
        pivot = _lowest_set_bit(row)
        if pivot >= num_cols_a:
            raise LayoutError("lstsq: the image of the second layout is not inside the first's")
        solution[pivot] = row >> num_cols_a
    flat_bases = []
    for c in range(num_cols_b):
        value = 0
        for r in range(num_cols_a):
            value |= ((solution[r] >> c) & 1) << r
        flat_bases.append((value,))
    in_name = b.in_dims[0] if b.in_dims else "in"
    out_name = a.in_dims[0] if a.in_dims else "out"
    flat = LinearLayout({in_name: flat_bases}, [(out_name, a.total_in_dim_size())])
    return flat.reshape_ins([(d, b.in_dim_size(d)) for d in b.in_dims]).reshape_outs(
        [(d, a.in_dim_size(d)) for d in a.in_dims]
    )


def divide_left(a: LinearLayout, b: LinearLayout) -> LinearLayout | None:
    """Triton's ``divideLeft``: the ``C`` with ``b * C == a``, or None if there is none.

    ``C`` has ``a``'s dimensions: for each input dim the first bases of ``a`` must be
    ``b``'s, and the remaining ones, divided by ``b``'s output sizes, are ``C``'s.
    """
    if not all(a.has_in_dim(d) for d in b.in_dims) or not all(
        a.has_out_dim(d) for d in b.out_dims
    ):
        return None
    c_out_sizes = []
    for d in a.out_dims:
        size_a = a.out_dim_size(d)
        size_b = b.out_dim_size(d) if b.has_out_dim(d) else 1
        if size_a % size_b:
            return None
        c_out_sizes.append((d, size_a // size_b))
    c_bases: dict[str, list[Basis]] = {}
    for in_dim in a.in_dims:
        n_a = a.in_dim_size_log2(in_dim)
        n_b = b.in_dim_size_log2(in_dim) if b.has_in_dim(in_dim) else 0
        if n_a < n_b:
            return None
        for i in range(n_b):
            for d in a.out_dims:
                expected = b.get_basis(in_dim, i, d) if b.has_out_dim(d) else 0
                if a.get_basis(in_dim, i, d) != expected:
                    return None
        rows = []
        for i in range(n_b, n_a):
            coords = []
            for d in a.out_dims:
                size_b = b.out_dim_size(d) if b.has_out_dim(d) else 1
                value = a.get_basis(in_dim, i, d)
                if value % size_b:
                    return None
                coords.append(value // size_b)
            rows.append(tuple(coords))
        c_bases[in_dim] = rows
    c = LinearLayout(c_bases, c_out_sizes)
    return c if b * c == a else None


def divide_right(a: LinearLayout, b: LinearLayout) -> LinearLayout | None:
    """Triton's ``divideRight``: the ``C`` with ``C * b == a``, or None if there is none."""
    if not all(a.has_in_dim(d) for d in b.in_dims) or not all(
        a.has_out_dim(d) for d in b.out_dims
    ):
        return None
    c_out_sizes = {}
    for d in a.out_dims:
        size_b = b.out_dim_size(d) if b.has_out_dim(d) else 1
        if a.out_dim_size(d) % size_b:
            return None
        c_out_sizes[d] = a.out_dim_size(d) // size_b
    c_bases: dict[str, list[Basis]] = {}
    for in_dim in a.in_dims:
        n_a = a.in_dim_size_log2(in_dim)
        n_b = b.in_dim_size_log2(in_dim) if b.has_in_dim(in_dim) else 0
        n_c = n_a - n_b
        if n_c < 0:
            return None
        c_bases[in_dim] = [a.get_bases(in_dim)[i] for i in range(n_c)]
        for j in range(n_b):
            for d in b.out_dims:
                value = a.get_basis(in_dim, n_c + j, d)
                if value % c_out_sizes[d] or value // c_out_sizes[d] != b.get_basis(in_dim, j, d):
                    return None
    c = LinearLayout(c_bases, list(c_out_sizes.items()))
    return c if c * b == a else None


def zeros_like(layout: LinearLayout) -> LinearLayout:
    """Same dims and sizes, every basis zero."""
    zero = (0,) * layout.num_out_dims()
    return LinearLayout(
        {d: [zero] * layout.in_dim_size_log2(d) for d in layout.in_dims},
        list(layout.out_dim_sizes().items()),
    )
