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
