"""Value names chosen at print time (issue 12, item 3): what MLIR's printer does, checked
in ``test/lit/ir/value-names.mlir`` against Triton 3.6's MLIR; here the pieces."""

from __future__ import annotations

from tileopt.ir import parse_module, print_module
from tileopt.ir.naming import _name_loc


def _location(loc: str):
    module = parse_module(f"%0 = arith.constant 0 : i32 loc({loc})\n", "n.mlir")
    return next(op for op in module.walk() if op.name == "arith.constant").location


def test_name_location_is_the_first_name_of_a_pre_order_walk():
    assert _name_loc(_location('"x"("y")')) == "x"
    assert _name_loc(_location('fused["k.py":1:1, "m", "n"]')) == "m"
    # Unlike a diagnostic's position, a call site's caller counts too.
    assert _name_loc(_location('callsite("k.py":1:1 at "caller")')) == "caller"
    assert _name_loc(_location('callsite("callee" at "caller")')) == "callee"
    assert _name_loc(_location('""')) == ""  # printed as a number, as MLIR does
    assert _name_loc(_location('"k.py":1:1')) is None
    assert _name_loc(_location("unknown")) is None


def test_input_names_are_never_kept():
    text = ("func.func @f(%x: i32) -> i32 {\n  %zero = arith.constant 0 : i32\n"
            "  %y = arith.addi %x, %zero : i32\n  func.return %y : i32\n}\n")
    printed = print_module(parse_module(text, "n.mlir"))
    assert "%c0_i32 = arith.constant 0 : i32" in printed  # an IntegerAttr of 0 is falsy
    assert "%0 = arith.addi %arg0, %c0_i32 : i32" in printed
    assert "%x" not in printed and "%y" not in printed and "%zero" not in printed


_LOOPS = """tt.func @f(%n: i32 loc("n"), %{iv}: i32) -> i32 {{
  %c0_i32 = arith.constant 0 : i32
  %acc = arith.addi %n, %n : i32 loc("acc")
  %acc_0 = scf.for %{first} = %c0_i32 to %n step %n iter_args(%{carried} = %n) -> (i32)  : i32 {{
    scf.yield %{carried} : i32
  }} loc("acc")
  tt.return %acc_0 : i32
}}
"""


def _argument_names(text: str, arg_name_locs: bool = True) -> list[str | None]:
    """The name location of every block argument, in order (None: none)."""
    module = parse_module(text, "n.mlir", arg_name_locs=arg_name_locs)
    return [_name_loc(arg.location) for op in module.walk() for region in op.regions
            for block in region.blocks for arg in block.args]


def test_arguments_read_as_printed_with_name_locations_get_them_back():
    """``%acc_1`` is ``loc("acc")`` made unique (``acc`` is taken and the conflict counter
    is at 1), ``%x_1`` is ``loc("x_1")`` (``x`` is free), ``%arg1``/``%arg2`` are what the
    printer names an argument without a name location, and ``%n`` carries its own."""
    text = _LOOPS.format(iv="arg1", first="x_1", carried="acc_1")
    assert _argument_names(text) == ["n", None, "x_1", "acc"]
    text = _LOOPS.format(iv="y", first="arg2", carried="arg3")
    assert _argument_names(text) == ["n", "y", None, None]
    # a name that uniquing at this point does not give stays as spelled
    text = _LOOPS.format(iv="arg1", first="x_1", carried="acc_7")
    assert _argument_names(text) == ["n", None, "x_1", "acc_7"]


def test_argument_spellings_no_name_location_explains_are_left_alone():
    # %arg5 where the printer would say %arg1 is a name location "arg5"; a number is never
    # what a name location gives an entry block argument
    text = _LOOPS.format(iv="arg5", first="7", carried="acc_1")
    assert _argument_names(text) == ["n", "arg5", None, "acc"]


def test_without_the_option_arguments_keep_the_locations_of_the_text():
    text = _LOOPS.format(iv="y", first="x_1", carried="acc_1")
    assert _argument_names(text, arg_name_locs=False) == ["n", None, None, None]
    assert "scf.for %arg2 = %c0_i32 to %arg0 step %arg0 iter_args(%arg3 = %arg0)" in \
        print_module(parse_module(text, "n.mlir", arg_name_locs=True))


def test_every_op_of_several_declared_results_has_its_ods_names():
    """mlir-tblgen names the results of every op that declares more than one (and has no
    name hook of its own): each such op of tileopt's dialects must be in RESULT_NAMES,
    with as many names as it declares results."""
    from xdsl.irdl import IRDLOperation

    from tileopt.ir.context import DIALECTS
    from tileopt.ir.naming import RESULT_NAMES

    several = {}
    for load in DIALECTS.values():
        for op in load().operations:
            if issubclass(op, IRDLOperation):
                results = op.get_irdl_definition().results
                if len(results) > 1:
                    several[op.name] = len(results)
    assert several == {name: len(names) for name, names in RESULT_NAMES.items()}
