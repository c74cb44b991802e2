"""The LinearLayout algebra, checked by enumerating every input of small random layouts.

Every operation is compared with what it means pointwise: a product places the outer
layout's image above the inner one's, a composition is function composition, an inverse
undoes the map, a quotient from ``divide_left`` multiplies back to the dividend, a free
variable is an input bit whose column is spanned by earlier columns, and so on.
"""

from __future__ import annotations

import itertools
import random

import pytest

from tileopt.layouts.linear_layout import (
    LayoutError,
    LinearLayout,
    divide_left,
    divide_right,
    lstsq,
    supremum,
    xor_columns,
    zeros_like,
)
from tileopt.layouts.tiling import (
    ensure_layout_not_larger_than,
    ensure_layout_not_smaller_than,
    identity_standard_nd,
    make_cga_layout,
)

SEEDS = range(40)


def random_layout(rng, ins=(("register", 4), ("lane", 8)), outs=(("dim0", 8), ("dim1", 4)), zero_chance=0.1):
    bases = {}
    for name, size in ins:
        rows = []
        for _ in range(size.bit_length() - 1):
            if rng.random() < zero_chance:
                rows.append(tuple(0 for _ in outs))
            else:
                rows.append(tuple(rng.randrange(s) for _, s in outs))
        bases[name] = rows
    return LinearLayout(bases, list(outs))


def random_invertible(rng, ins, outs):
    while True:
        layout = random_layout(rng, ins, outs, zero_chance=0)
        if layout.is_invertible():
            return layout


def all_inputs(layout):
    names = layout.in_dims
    for values in itertools.product(*(range(layout.in_dim_size(n)) for n in names)):
        yield dict(zip(names, values))


def xor_of_bases(layout, inputs):
    out = [0] * layout.num_out_dims()
    for name, value in inputs.items():
        for bit, basis in enumerate(layout.get_bases(name)):
            if value >> bit & 1:
                out = [a ^ b for a, b in zip(out, basis)]
    return tuple(out)


def image(layout):
    return {tuple(layout.apply(x).values()) for x in all_inputs(layout)}


# ---------------------------------------------------------------------- basics


def test_builders():
    assert [LinearLayout.identity_1d(8, "lane", "dim0").apply({"lane": i})["dim0"] for i in range(8)] == list(range(8))
    assert image(LinearLayout.zeros_1d(4, "warp", "dim1")) == {(0,)}
    strided = LinearLayout.strided_1d(4, 8, "register", "dim0")
    assert [strided.apply({"register": i})["dim0"] for i in range(4)] == [0, 8, 16, 24]
    assert strided.out_dim_size("dim0") == 32
    assert LinearLayout.identity_1d(0, "a", "b") == LinearLayout.empty()
    one = LinearLayout.identity_1d(1, "register", "dim0")
    assert one.in_dims == ["register"] and one.out_dim_sizes() == {"dim0": 1}


@pytest.mark.parametrize("seed", SEEDS)
def test_apply_is_xor_of_bases(seed):
    layout = random_layout(random.Random(seed))
    for x in all_inputs(layout):
        assert tuple(layout.apply(x).values()) == xor_of_bases(layout, x)
        assert layout.apply_flat(x) == sum(v << s for v, s in zip(layout.apply(x).values(), (0, 3)))


def test_inferred_out_sizes_and_surjectivity_check():
    layout = LinearLayout({"register": [(1, 0), (0, 2)], "lane": [(2, 0), (0, 1)]}, ["dim0", "dim1"])
    assert layout.out_dim_sizes() == {"dim0": 4, "dim1": 4}
    with pytest.raises(LayoutError, match="surjective"):
        LinearLayout({"register": [(3, 0)]}, ["dim0", "dim1"])  # reaches 0 and 3 of 4
    # explicit sizes do not require surjectivity
    assert not LinearLayout({"register": [(1, 0), (1, 0)]}, [("dim0", 4), ("dim1", 1)]).is_surjective()


@pytest.mark.parametrize(
    "bases,outs,message",
    [
        ({"register": [(1,)]}, [("dim0", 3)], "power of two"),
        ({"register": [(4,)]}, [("dim0", 4)], "outside output"),
        ({"register": [(1, 0)]}, [("dim0", 4)], "coordinates"),
        ({"register": [(-1,)]}, [("dim0", 4)], "negative"),
    ],
)
def test_invalid_layouts_are_rejected(bases, outs, message):
    with pytest.raises(LayoutError, match=message):
        LinearLayout(bases, outs)


def test_apply_checks_its_inputs():
    layout = LinearLayout.identity_1d(4, "lane", "dim0")
    with pytest.raises(LayoutError, match="input dimensions"):
        layout.apply({"warp": 0})
    with pytest.raises(LayoutError, match="outside"):
        layout.apply({"lane": 4})


@pytest.mark.parametrize("seed", SEEDS)
def test_surjective_and_injective_match_the_image(seed):
    rng = random.Random(seed)
    layout = random_layout(rng, ins=(("register", 4), ("lane", 4)), outs=(("dim0", 4), ("dim1", 4)), zero_chance=0.2)
    points = image(layout)
    assert layout.is_surjective() == (len(points) == 16)
    assert layout.is_injective() == (len(points) == 16)  # 16 inputs
    wide = random_layout(rng, ins=(("register", 8), ("lane", 8)), outs=(("dim0", 4), ("dim1", 2)), zero_chance=0.2)
    assert wide.is_surjective() == (len(image(wide)) == 8)
    assert not wide.is_injective()


def test_equality_hash_and_printing():
    a = LinearLayout({"register": [(0, 1)], "lane": [(1, 0), (2, 0)]}, [("dim0", 4), ("dim1", 2)])
    b = LinearLayout({"register": [[0, 1]], "lane": [[1, 0], [2, 0]]}, {"dim0": 4, "dim1": 2})
    assert a == b and hash(a) == hash(b)
    assert a != a.transpose_outs(["dim1", "dim0"])
    assert a != LinearLayout(a.bases, [("dim0", 8), ("dim1", 2)])
    assert a.equal_ignoring_out_dim_sizes(LinearLayout(a.bases, [("dim0", 8), ("dim1", 2)]))
    assert a.to_string() == (
        "\n - register=1 -> (0, 1)\n"
        " - lane=1 -> (1, 0)\n   lane=2 -> (2, 0)\n"
        "where out dims are: [dim0 (size 4), dim1 (size 2)]"
    )
    assert LinearLayout.empty().to_string() == "\n(empty layout)"
    assert eval(repr(a), {"LinearLayout": LinearLayout}) == a


# ---------------------------------------------------------------------- product


def test_supremum_merges_orders():
    assert supremum(["a", "b"], ["a", "c"]) == ["a", "b", "c"]
    assert supremum(["a", "b"], ["b", "c"]) == ["a", "b", "c"]
    assert supremum(["register", "lane"], ["lane", "warp"]) == ["register", "lane", "warp"]
    assert supremum(["x"], ["y", "x"]) == ["y", "x"]
    # Like Triton's, the merge of two opposite orders keeps the first one.
    assert supremum(["a", "b"], ["b", "a"]) == ["a", "b"]


@pytest.mark.parametrize("seed", SEEDS)
def test_product_places_outer_above_inner(seed):
    rng = random.Random(seed)
    inner = random_layout(rng, ins=(("register", 4), ("lane", 2)), outs=(("dim0", 4), ("dim1", 2)))
    outer = random_layout(rng, ins=(("lane", 4), ("warp", 2)), outs=(("dim1", 2), ("dim2", 4)))
    product = inner * outer
    assert product.in_dims == ["register", "lane", "warp"]
    assert product.out_dims == ["dim0", "dim1", "dim2"]
    assert product.in_dim_sizes() == {"register": 4, "lane": 8, "warp": 2}
    assert product.out_dim_sizes() == {"dim0": 4, "dim1": 4, "dim2": 4}
    for x in all_inputs(product):
        i = {d: x[d] % inner.in_dim_size(d) for d in inner.in_dims}
        o = {d: x[d] // (inner.in_dim_size(d) if inner.has_in_dim(d) else 1) for d in outer.in_dims}
        ri, ro = inner.apply(i), outer.apply(o)
        got = product.apply(x)
        assert got["dim0"] == ri["dim0"]
        assert got["dim1"] == ri["dim1"] + 2 * ro["dim1"]
        assert got["dim2"] == ro["dim2"]


def test_product_of_identities_is_identity_nd():
    layout = identity_standard_nd("lane", [4, 8], [1, 0])
    assert layout.out_dims == ["dim1", "dim0"]
    for lane in range(32):
        assert layout.apply({"lane": lane}) == {"dim1": lane % 8, "dim0": lane // 8}


# ---------------------------------------------------------------------- compose / invert


@pytest.mark.parametrize("seed", SEEDS)
def test_compose_is_function_composition(seed):
    rng = random.Random(seed)
    first = random_layout(rng, ins=(("register", 4), ("lane", 4)), outs=(("x", 4), ("y", 8)))
    second = random_layout(rng, ins=(("x", 4), ("y", 8)), outs=(("dim0", 8), ("dim1", 4)))
    composed = first.compose(second)
    assert composed.in_dims == first.in_dims and composed.out_dims == second.out_dims
    for x in all_inputs(first):
        assert composed.apply(x) == second.apply(first.apply(x))


@pytest.mark.parametrize("seed", SEEDS)
def test_invert_undoes_the_layout(seed):
    rng = random.Random(seed)
    layout = random_invertible(rng, (("register", 4), ("lane", 8)), (("dim0", 8), ("dim1", 4)))
    inverse = layout.invert()
    assert inverse.in_dims == ["dim0", "dim1"] and inverse.out_dims == ["register", "lane"]
    for x in all_inputs(layout):
        assert inverse.apply(layout.apply(x)) == x
    identity = layout.compose(inverse)
    assert identity == LinearLayout.identity_1d(4, "register", "register") * LinearLayout.identity_1d(8, "lane", "lane")


def test_invert_rejects_non_bijections():
    with pytest.raises(LayoutError, match="bijective"):
        LinearLayout({"lane": [(1,), (0,)]}, [("dim0", 2)]).invert()


@pytest.mark.parametrize("seed", SEEDS)
def test_pseudo_invert_is_a_right_inverse(seed):
    rng = random.Random(seed)
    while True:
        layout = random_layout(rng, ins=(("register", 8), ("lane", 8)), outs=(("dim0", 4), ("dim1", 4)), zero_chance=0.3)
        if layout.is_surjective():
            break
    right = layout.pseudo_invert()
    for y0 in range(4):
        for y1 in range(4):
            x = right.apply({"dim0": y0, "dim1": y1})
            assert layout.apply(x) == {"dim0": y0, "dim1": y1}
    # Broadcast (free) input bits are never used by the chosen preimages.
    masks = layout.get_free_variable_masks()
    for y in itertools.product(range(4), range(4)):
        x = right.apply(dict(zip(["dim0", "dim1"], y)))
        assert all(x[d] & masks[d] == 0 for d in x)


@pytest.mark.parametrize("seed", SEEDS)
def test_invert_and_compose_solves_a_conversion(seed):
    rng = random.Random(seed)
    while True:
        dst = random_layout(rng, ins=(("register", 4), ("lane", 8), ("warp", 2)), outs=(("dim0", 8), ("dim1", 4)), zero_chance=0.2)
        if dst.is_surjective():
            break
    # A source holding elements of the same tensor in another arrangement.
    src_bases = {
        "register": [tuple(dst.apply(random_point(rng, dst)).values()) for _ in range(3)],
        "lane": [tuple(dst.apply(random_point(rng, dst)).values()) for _ in range(2)],
    }
    src = LinearLayout(src_bases, [("dim0", 8), ("dim1", 4)])
    conversion = src.invert_and_compose(dst)
    assert conversion.in_dims == src.in_dims and conversion.out_dims == dst.in_dims
    for x in all_inputs(src):
        assert dst.apply(conversion.apply(x)) == src.apply(x)


def random_point(rng, layout):
    return {d: rng.randrange(layout.in_dim_size(d)) for d in layout.in_dims}


def test_invert_and_compose_keeps_equal_dims_in_place():
    # Both layouts broadcast over warps the same way: warps map to themselves, not to warp 0.
    src = LinearLayout({"lane": [(1,), (2,)], "warp": [(0,), (0,)]}, [("dim0", 4)])
    dst = LinearLayout({"lane": [(2,), (1,)], "warp": [(0,), (0,)]}, [("dim0", 4)])
    conversion = src.invert_and_compose(dst)
    for warp in range(4):
        for lane in range(4):
            assert conversion.apply({"lane": lane, "warp": warp})["warp"] == warp
    # Swapping the two lane bits is what moves data.
    assert conversion.get_bases("lane") == ((2, 0), (1, 0))


def test_invert_and_compose_needs_the_image_inside():
    src = LinearLayout({"lane": [(1,), (2,)]}, [("dim0", 4)])
    dst = LinearLayout({"lane": [(1,), (0,)]}, [("dim0", 4)])
    with pytest.raises(LayoutError, match="image"):
        src.invert_and_compose(dst)


def test_lstsq_chooses_the_minimum_norm_solution():
    a = LinearLayout({"x": [(1,), (1,), (2,)]}, [("o", 4)])  # bit 1 duplicates bit 0
    b = LinearLayout({"y": [(3,)]}, [("o", 4)])
    solution = lstsq(a, b)
    assert solution.get_bases("y") == ((0b101,),)  # bits 0 and 2, never the duplicate


# ---------------------------------------------------------------------- free variables


def spanned_by_earlier(columns, index):
    span = {0}
    for col in columns[:index]:
        span |= {s ^ col for s in span}
    return columns[index] in span


@pytest.mark.parametrize("seed", SEEDS)
def test_free_variable_masks_are_the_redundant_bits(seed):
    rng = random.Random(seed)
    layout = random_layout(rng, ins=(("register", 8), ("lane", 8), ("warp", 4)), outs=(("dim0", 8), ("dim1", 8)), zero_chance=0.25)
    columns = [b[0] | b[1] << 3 for d in layout.in_dims for b in layout.get_bases(d)]
    masks = layout.get_free_variable_masks()
    index = 0
    for d in layout.in_dims:
        for bit in range(layout.in_dim_size_log2(d)):
            assert bool(masks[d] >> bit & 1) == spanned_by_earlier(columns, index)
            index += 1


def test_free_variables_of_a_broadcast_layout():
    layout = LinearLayout({"register": [(1,), (0,)], "lane": [(2,), (4,), (2,)], "warp": [(0,)]}, [("dim0", 8)])
    assert layout.get_free_variable_masks() == {"register": 0b10, "lane": 0b100, "warp": 0b1}


# ---------------------------------------------------------------------- division


@pytest.mark.parametrize("seed", SEEDS)
def test_divide_left_inverts_the_product(seed):
    rng = random.Random(seed)
    b = random_layout(rng, ins=(("register", 4), ("lane", 2)), outs=(("dim0", 4), ("dim1", 2)))
    c = random_layout(rng, ins=(("register", 2), ("lane", 4), ("warp", 2)), outs=(("dim0", 2), ("dim1", 4)))
    a = b * c
    assert divide_left(a, b) == c
    assert divide_right(a, c) is not None and divide_right(a, c) * c == a


def test_divide_left_fails_where_there_is_no_quotient():
    b = LinearLayout.identity_1d(4, "register", "dim0")
    a = LinearLayout({"register": [(2,), (1,), (4,)]}, [("dim0", 8)])  # first bases are not b's
    assert divide_left(a, b) is None
    a = LinearLayout({"register": [(1,), (2,), (5,)]}, [("dim0", 8)])  # 5 is not a multiple of 4
    assert divide_left(a, b) is None
    assert divide_left(b, LinearLayout.identity_1d(2, "lane", "dim0")) is None  # lane not in a


def test_divide_left_by_the_vector_tile():
    # A thread's first four registers along dim1 are a 4-wide vector; the rest is the quotient.
    layout = LinearLayout({"register": [(0, 1), (0, 2), (0, 16)], "lane": [(1, 0), (0, 4)]}, [("dim0", 2), ("dim1", 32)])
    tile = LinearLayout.identity_1d(4, "register", "dim1")
    quotient = divide_left(layout, tile)
    assert quotient.get_bases("register") == ((0, 4),)
    assert quotient.get_bases("lane") == ((1, 0), (0, 1))
    assert tile * quotient == layout


# ---------------------------------------------------------------------- reshapes and views


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_reshape_ins_and_outs_keep_the_flat_map(seed):
    layout = random_layout(random.Random(seed))
    flat_in = layout.reshape_ins([("all", 32)])
    for x in all_inputs(layout):
        assert flat_in.apply({"all": x["register"] + 4 * x["lane"]}) == layout.apply(x)
    flat_out = layout.reshape_outs([("flat", 32)])
    split = layout.reshape_outs([("a", 2), ("b", 16)])
    for x in all_inputs(layout):
        y = layout.apply(x)
        value = y["dim0"] + 8 * y["dim1"]
        assert flat_out.apply(x) == {"flat": value}
        assert split.apply(x) == {"a": value % 2, "b": value // 2}
    assert layout.flatten_ins().flatten_outs().in_dims == ["register"]
    with pytest.raises(LayoutError):
        layout.reshape_outs([("flat", 16)])


@pytest.mark.parametrize("seed", SEEDS[:10])
def test_transposes_and_sublayouts(seed):
    layout = random_layout(random.Random(seed), ins=(("register", 4), ("lane", 4), ("warp", 2)))
    t = layout.transpose_outs(["dim1", "dim0"]).transpose_ins(["warp", "register", "lane"])
    for x in all_inputs(layout):
        y = layout.apply(x)
        assert t.apply(x) == {"dim1": y["dim1"], "dim0": y["dim0"]}
    sub = layout.sublayout(["lane"], ["dim1"])
    for lane in range(4):
        full = layout.apply({"register": 0, "lane": lane, "warp": 0})
        assert sub.apply({"lane": lane}) == {"dim1": full["dim1"]}
    assert layout.sublayout_is_zero(["lane"], ["dim1"]) == all(b[1] == 0 for b in layout.get_bases("lane"))


def test_quotient_and_trivial_dims():
    block = LinearLayout.identity_1d(2, "block", "block")
    inner = LinearLayout.identity_1d(4, "lane", "dim0")
    layout = inner * block
    assert layout.is_trivial_over(["block"])
    assert layout.quotient(["block"]) == inner
    mixed = LinearLayout({"lane": [(1, 0), (0, 1)], "block": [(0, 1)]}, [("dim0", 2), ("block", 2)])
    assert not mixed.is_trivial_over(["block"]) and mixed.quotient(["block"]) is None


def test_zero_bases_resize_and_concat():
    layout = LinearLayout({"register": [(1,), (0,), (2,)], "lane": [(4,)]}, [("dim0", 8)])
    stripped = layout.remove_zero_bases_along_dim("register")
    assert stripped.get_bases("register") == ((1,), (2,))
    assert layout.resize_in_dim("lane", 8).get_bases("lane") == ((4,), (0,), (0,))
    assert zeros_like(layout).get_bases("register") == ((0,), (0,), (0,))
    other = LinearLayout({"warp": [(1,)]}, [("dim0", 8)])
    assert layout.concat_ins(other).in_dims == ["register", "lane", "warp"]
    twin = LinearLayout({"register": [(0,), (1,), (0,)], "lane": [(0,)]}, [("dim1", 2)])
    both = layout.concat_outs(twin)
    assert both.get_bases("register") == ((1, 0), (0, 1), (2, 0))


# ---------------------------------------------------------------------- vector width


def consecutive_brute_force(layout):
    """The largest k such that every aligned run of k indices of the first input dim maps to
    k consecutive values of the first output dim, the other outputs unchanged."""
    first_in, first_out = layout.in_dims[0], layout.out_dims[0]
    best = 1
    k = 2
    while k <= layout.in_dim_size(first_in):
        ok = True
        for x in all_inputs(layout):
            if x[first_in] % k:
                continue
            base = layout.apply(x)
            for i in range(1, k):
                y = layout.apply({**x, first_in: x[first_in] + i})
                expect = dict(base, **{first_out: base[first_out] + i})
                if y != expect:
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            break
        best = k
        k *= 2
    return best


@pytest.mark.parametrize("seed", SEEDS)
def test_num_consecutive_in_out_matches_brute_force(seed):
    rng = random.Random(seed)
    lead = rng.randrange(4)
    register = [(1 << i, 0) for i in range(lead)]
    register += [(rng.randrange(16), rng.randrange(4)) for _ in range(3 - lead)]
    lane = [(rng.choice([0, 1, 2, 4, 8]), rng.randrange(4)) for _ in range(2)]
    layout = LinearLayout({"register": register, "lane": lane}, [("dim0", 16), ("dim1", 4)])
    assert layout.get_num_consecutive_in_out() == consecutive_brute_force(layout)


# ---------------------------------------------------------------------- fitting to shapes


def test_ensure_layout_not_larger_than_wraps_like_modulo():
    tile = identity_standard_nd("lane", [8, 4], [1, 0]) * identity_standard_nd("warp", [4, 1], [1, 0])
    small = ensure_layout_not_larger_than(tile, {"dim0": 8, "dim1": 2})
    for lane in range(32):
        for warp in range(4):
            full = tile.apply({"lane": lane, "warp": warp})
            assert small.apply({"lane": lane, "warp": warp}) == {"dim1": full["dim1"] % 2, "dim0": full["dim0"] % 8}
    regs = LinearLayout({"register": [(1,), (2,)], "lane": [(4,)]}, [("dim0", 8)])
    dropped = ensure_layout_not_larger_than(regs, {"dim0": 2}, broadcast_registers=False)
    assert dropped.get_bases("register") == ((1,),) and dropped.get_bases("lane") == ((0,),)


def test_ensure_layout_not_smaller_than_repeats_in_registers():
    tile = identity_standard_nd("register", [1, 2], [1, 0]) * identity_standard_nd("lane", [4, 2], [1, 0])
    big = ensure_layout_not_smaller_than(tile, {"dim1": 16, "dim0": 8})
    assert big.get_bases("register") == ((1, 0), (4, 0), (8, 0), (0, 4))
    assert big.out_dim_sizes() == {"dim1": 16, "dim0": 8}


def test_cga_layout_splits_and_broadcasts_blocks():
    cga = make_cga_layout([2, 4], [2, 2], [1, 0])
    assert cga.get_bases("block") == ((0, 1), (0, 0), (1, 0))


def test_invert_and_compose_between_real_layouts():
    """A blocked -> mma convert_layout: every source element is found where the mma holds it."""
    from tileopt.layouts.encodings import Blocked, NvidiaMma, to_linear_layout

    src = to_linear_layout(Blocked([1, 4], [8, 4], [4, 1], [1, 0]), [64, 64])
    dst = to_linear_layout(NvidiaMma(2, 0, [2, 2], [16, 8]), [64, 64])
    conversion = src.invert_and_compose(dst)
    assert conversion.in_dims == ["register", "lane", "warp", "block"]
    assert conversion.out_dims == ["register", "lane", "warp", "block"]
    for x in all_inputs(src):
        assert dst.apply(conversion.apply(x)) == src.apply(x)
    # Converting a layout to itself moves nothing.
    identity = LinearLayout.empty()
    for name, size in (("register", 32), ("lane", 32), ("warp", 4), ("block", 1)):
        identity = identity * LinearLayout.identity_1d(size, name, name)
    assert src.invert_and_compose(src) == identity


def test_xor_columns_is_the_gf2_product():
    # the xor of the columns of the set bits, bit by bit (the definition), on all 8-bit
    # vectors; a set bit past the columns is an IndexError
    columns = [0b1, 0b110, 0b1000, 0b1001, 0b10000, 0b100000, 0b1, 0b11111111]
    for value in range(256):
        want = 0
        for bit in range(8):
            if value >> bit & 1:
                want ^= columns[bit]
        assert xor_columns(columns, value) == want
    with pytest.raises(IndexError):
        xor_columns(columns[:3], 0b1001)
