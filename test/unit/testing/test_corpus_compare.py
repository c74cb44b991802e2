"""The corpus comparison must see op, type and attribute differences, and nothing else."""

from pathlib import Path

from tileopt.ir import parse_module
from tileopt.testing.corpus_compare import compare_modules, corpus_pass_cases, op_order_difference

BASE = """
func.func @f(%a: i32, %b: i32) -> i32 {
  %c = arith.addi %a, %b : i32
  %d = arith.constant 3 : i32
  %e = arith.muli %c, %d : i32
  func.return %e : i32
}
"""


def _parse(text: str):
    return parse_module(text, "test.mlir")


def test_names_and_order_are_ignored():
    reordered = """
func.func @f(%x: i32, %y: i32) -> i32 {
  %three = arith.constant 3 : i32
  %sum = arith.addi %x, %y : i32
  %r = arith.muli %sum, %three : i32
  func.return %r : i32
}
"""
    assert compare_modules(_parse(reordered), _parse(BASE)).equal


def test_attribute_difference_is_seen():
    other = BASE.replace("arith.constant 3", "arith.constant 4")
    result = compare_modules(_parse(other), _parse(BASE))
    assert not result.equal
    assert "arith.constant" in result.summary()


def test_order_difference_names_the_first_moved_op():
    swapped = BASE.replace("%c = arith.addi %a, %b : i32\n  %d = arith.constant 3 : i32",
                           "%d = arith.constant 3 : i32\n  %c = arith.addi %a, %b : i32")
    assert swapped != BASE
    assert op_order_difference(_parse(BASE), _parse(BASE)) is None
    difference = op_order_difference(_parse(swapped), _parse(BASE))
    assert difference is not None and difference.startswith("op #2 is\n  arith.constant")


def test_order_difference_sees_ops_past_the_end():
    # module, @f and its 4 ops, against those plus @g and its return
    longer = BASE + "func.func @g() {\n  func.return\n}\n"
    assert op_order_difference(_parse(longer), _parse(BASE)) == "8 ops instead of 6"


def test_attributes_can_be_ignored():
    other = BASE.replace("arith.constant 3", "arith.constant 4")
    assert compare_modules(_parse(other), _parse(BASE), with_attributes=False).equal


def test_type_difference_is_seen():
    other = BASE.replace("i32", "i64")
    result = compare_modules(_parse(other), _parse(BASE))
    # func.func (its type), addi, constant, muli and return all change
    assert sum(result.missing.values()) == 5 and sum(result.extra.values()) == 5


def test_extra_op_is_counted():
    other = BASE.replace("func.return %e", "%z = arith.addi %e, %e : i32\n  func.return %e")
    result = compare_modules(_parse(other), _parse(BASE))
    assert sum(result.extra.values()) == 1 and not result.missing


def _write_pipeline(folder: Path, entries: list[tuple[str, bool]]) -> None:
    folder.mkdir(parents=True)
    lines = ["IR before each pass, in pipeline order."]
    for index, (name, stored) in enumerate(entries):
        file_name = f"{index:03d}-{name}.mlir"
        lines.append(file_name if stored else f"{file_name}  (unchanged: same IR as the previous dump)")
        if stored:
            (folder / file_name).write_text(f"// {index}\n")
    (folder / "ORDER.txt").write_text("\n".join(lines) + "\n")


def test_pass_cases_follow_unstored_dumps(tmp_path):
    # 000 stored, 001 (canonicalize) unchanged, 002 (cse) stored, 003 (canonicalize) unchanged
    _write_pipeline(tmp_path / "t" / "passes" / "k",
                    [("inline", True), ("canonicalize", False), ("cse", True),
                     ("canonicalize", False), ("symbol-dce", True)])
    cases = list(corpus_pass_cases(tmp_path, "canonicalize"))
    assert [(c.index, c.input_path.name, c.expected_path.name, c.changed) for c in cases] == [
        (1, "000-inline.mlir", "002-cse.mlir", True),
        (3, "002-cse.mlir", "004-symbol-dce.mlir", True),
    ]
    cse_cases = list(corpus_pass_cases(tmp_path, "cse"))
    assert [(c.input_path.name, c.expected_path.name, c.changed) for c in cse_cases] == [
        ("002-cse.mlir", "002-cse.mlir", False)]


def test_pass_internal_dumps_are_oracles_not_input(tmp_path):
    # The pipeliner's debug dumps land at the end of the dump taken before it.
    folder = tmp_path / "t" / "passes" / "k"
    _write_pipeline(folder, [("schedule-loops", True), ("pipeline", True), ("cse", True)])
    (folder / "001-pipeline.mlir").write_text(
        "module {}\n\n// -----// SoftwarePipeliner internal IR Dump After: LowerLoops\n"
        "module {lower}\n\n\n// -----// SoftwarePipeliner internal IR Dump After: ExpandLoops\n"
        "module {expand}\n")
    (case,) = corpus_pass_cases(tmp_path, "pipeline")
    assert case.input_text == "module {}\n"
    assert case.phase_dumps == {"LowerLoops": "module {lower}\n",
                                "ExpandLoops": "module {expand}\n"}
    (before,) = corpus_pass_cases(tmp_path, "schedule-loops")
    assert before.expected_text == "module {}\n" and before.phase_dumps == {}
