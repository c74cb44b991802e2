"""YAML pipelines: parameters, target fields, extends/changes, search path, and errors
that name file:line:col."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from tileopt.ir import TileoptError
from tileopt.pipelines import resolve_pass_pipeline, slice_stages
from tileopt.pipelines.loader import available_pipelines, load_definition, load_pipeline
from tileopt.pipelines.model import Where


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


BASE = """\
    name: base
    target: {backend: cuda, arch: "90", warp-size: 32}
    parameters:
      pipeline: {type: str, default: cse}
      enabled: true
    stages:
      ttir:
        - inline: {default-pipeline: "${pipeline}"}
        - cse
      ttgir:
        - canonicalize
        - cse
      llir:
        - symbol-dce
"""


def names(pipeline) -> list[str]:
    return [step.name for step in pipeline.pass_steps()]


def test_stages_parameters_and_stage_labels(tmp_path):
    pipeline = load_pipeline(write(tmp_path, "base.yaml", BASE), [])
    assert pipeline.stages == ["ttir", "ttgir", "llir"]
    assert names(pipeline) == ["inline", "cse", "canonicalize", "cse", "symbol-dce"]
    assert [s.stage for s in pipeline.pass_steps()] == ["ttir", "ttir", "ttgir", "ttgir", "llir"]
    assert pipeline.pass_steps()[0].pass_.default_pipeline == "cse"


def test_overrides_and_interpolation(tmp_path):
    path = write(tmp_path, "base.yaml", BASE.replace('"${pipeline}"', '"${pipeline},sccp"'))
    pipeline = load_pipeline(path, [("pipeline", "canonicalize", Where())])
    assert pipeline.pass_steps()[0].pass_.default_pipeline == "canonicalize,sccp"


def test_target_fields(tmp_path):
    path = write(tmp_path, "t.yaml", BASE.replace('"${pipeline}"', '"${target.backend}-${target.arch}-${target.warp-size}"'))
    assert load_pipeline(path, []).pass_steps()[0].pass_.default_pipeline == "cuda-90-32"


def test_slice_stages(tmp_path):
    pipeline = load_pipeline(write(tmp_path, "base.yaml", BASE), [])
    assert names(slice_stages(pipeline, None, "ttir")) == ["inline", "cse"]
    assert names(slice_stages(pipeline, "ttgir", None)) == ["canonicalize", "cse", "symbol-dce"]
    assert names(slice_stages(pipeline, "ttgir", "ttgir")) == ["canonicalize", "cse"]


def test_extends_changes(tmp_path):
    write(tmp_path, "base.yaml", BASE)
    child = write(tmp_path, "child.yaml", """\
        name: child
        extends: base.yaml
        parameters:
          pipeline: {default: sccp}
        changes:
          - insert-before: ttgir/cse
            passes: [sccp]
          - insert-after: inline
            passes: [triton-licm]
          - remove: [llir/symbol-dce]
          - replace: cse#1
            with: [triton-loop-aware-cse]
          - append: extra
            passes: [convert-scf-to-cf]
        stages:
          ttgir: [canonicalize, cse]
    """)
    pipeline = load_pipeline(child, [])
    # 'stages: ttgir' in the child replaced the base's ttgir before the changes applied.
    assert names(pipeline) == ["inline", "triton-licm", "triton-loop-aware-cse",
                               "canonicalize", "sccp", "cse", "convert-scf-to-cf"]
    assert pipeline.stages == ["ttir", "ttgir", "llir", "extra"]
    assert pipeline.pass_steps()[0].pass_.default_pipeline == "sccp"


def error_of(tmp_path, text: str, overrides=()) -> TileoptError:
    path = write(tmp_path, "bad.yaml", text)
    with pytest.raises(TileoptError) as err:
        load_pipeline(path, list(overrides))
    assert err.value.file is not None and err.value.file.endswith("bad.yaml")
    return err.value


@pytest.mark.parametrize("text, line, col, message", [
    ("name: x\nstages:\n  a:\n    - csee\n", 4, 7, "unknown pass 'csee'; did you mean 'cse'?"),
    ("name: x\nstages:\n  a:\n    - inline: {pipeline: cse}\n", 4, 16, "has no option 'pipeline'"),
    ("name: x\nstages:\n  a:\n    - inline: {default-pipeline: [1, 2]}\n", 4, 34,
     "expects a string"),
    ("name: x\nstages:\n  a:\n    - inline: {default-pipeline: \"${nope}\"}\n", 4, 34,
     "unknown parameter '${nope}'"),
    ("name: x\nparameters:\n  n: {type: int, default: 1.5}\nstages: {a: [cse]}\n", 3, 27,
     "parameter 'n' is an int, not '1.5'"),
    ("name: x\nparameters:\n  n: {type: integer}\nstages: {a: [cse]}\n", 3, 13,
     "unknown parameter type 'integer'"),
    ("name: x\nparameters:\n  n: {type: int}\nstages: {a: [cse]}\n", 3, 3,
     "has no default and was not given"),
    ("name: x\nstages:\n  a: [cse\n", 4, 1, "invalid YAML"),
    ("name: x\nstagez: {}\n", 2, 1, "unknown key 'stagez'"),
    ("stages: {a: [cse]}\n", 1, 1, "needs a 'name:'"),
    ("name: x\nchanges: []\nstages: {a: [cse]}\n", 2, 1, "has no 'extends'"),
    ("name: x\nextends: nowhere-at-all\n", 2, 10, "unknown pipeline 'nowhere-at-all'"),
    ("name: x\ntarget: {backend: rocm}\nstages: {a: [cse]}\n", 2, 19,
     "target backend must be one of cuda, hip"),
    ("name: x\nstages:\n  a: [cse, {cse: {}, inline: {}}]\n", 3, 12, "a pass is written"),
    # Issue 13: no RecursionError from PyYAML on deep nesting, and positions for an empty
    # file and for bytes that are not UTF-8.
    ("name: x\nstages:\n  a: " + "[" * 5000 + "]" * 5000 + "\n", 1, 1,
     "nests 5000 levels deep"),
    ("", 1, 1, "empty pipeline file"),
])
def test_errors_are_located(tmp_path, text, line, col, message):
    err = error_of(tmp_path, text)
    assert (err.line, err.col) == (line, col), err.format()
    assert message in err.message


def test_change_references(tmp_path):
    write(tmp_path, "base.yaml", BASE)
    for change, message in [
        ("- remove: cse", "'cse' occurs 2 times in the pipeline"),
        ("- remove: cse#3", "the pipeline has 2 'cse' pass(es)"),
        ("- remove: nostage/cse", "pipeline has no stage 'nostage'"),
        ("- remove: sccp", "pass 'sccp' is not in the pipeline"),
        ("- insert-after: inline", "needs 'passes:'"),
        ("- {remove: cse#1, replace: cse#2}", "exactly one of"),
        ("- set: inline", "a 'set' change needs 'options:'"),
        ("- {set: inline, options: {no-such: 1}}", "pass 'inline' has no option 'no-such'"),
        ("- {set: cse, options: {}}", "'cse' occurs 2 times in the pipeline (ttir/cse, ttgir/cse)"),
    ]:
        path = write(tmp_path, "child.yaml", f"name: c\nextends: base.yaml\nchanges:\n  {change}\n")
        with pytest.raises(TileoptError, match=message.replace("(", r"\(").replace(")", r"\)")):
            load_definition(path)


def test_set_changes_only_the_options_named(tmp_path):
    write(tmp_path, "base.yaml", """\
        name: base
        parameters:
          iterations: 4
        stages:
          ttgir:
            - canonicalize: {max-iterations: "${iterations}", top-down: false}
            - !missing later
    """)
    child = write(tmp_path, "child.yaml", """\
        name: child
        extends: base.yaml
        parameters:
          iterations: {default: 7}
        changes:
          - set: [ttgir/canonicalize]
            options: {max-num-rewrites: 5, top-down: true}
    """)
    canonicalize = load_pipeline(child, []).pass_steps()[0].pass_
    # max-iterations stays the base's ${iterations} reference (the child's default reaches it).
    assert (canonicalize.max_iterations, canonicalize.max_num_rewrites,
            canonicalize.top_down) == (7, 5, True)
    bad = write(tmp_path, "bad.yaml", "name: b\nextends: base.yaml\nchanges:\n"
                                      "  - {set: later, options: {x: 1}}\n")
    with pytest.raises(TileoptError, match="'later' is tagged !missing") as err:
        load_definition(bad)
    assert (err.value.line, err.value.col) == (4, 11)


def test_cycle(tmp_path):
    write(tmp_path, "a.yaml", "name: a\nextends: b.yaml\n")
    b = write(tmp_path, "b.yaml", "name: b\nextends: a.yaml\n")
    with pytest.raises(TileoptError, match="cycle in 'extends'") as err:
        load_definition(b)
    assert (err.value.line, err.value.col) == (2, 10)


def test_override_errors(tmp_path):
    path = write(tmp_path, "base.yaml", BASE)
    with pytest.raises(TileoptError, match="has no parameter 'pipelin'; did you mean 'pipeline'"):
        load_pipeline(path, [("pipelin", "x", Where())])
    with pytest.raises(TileoptError, match="parameter 'enabled' is a bool"):
        load_pipeline(path, [("enabled", "perhaps", Where())])


def test_search_path(tmp_path, monkeypatch):
    write(tmp_path, "mine.yaml", BASE.replace("name: base", "name: mine"))
    write(tmp_path, "amd-cdna3.yaml", BASE.replace("name: base", "name: amd-cdna3"))
    monkeypatch.setenv("TILEOPT_PIPELINE_PATH", str(tmp_path))
    found = available_pipelines()
    assert found["mine"] == tmp_path / "mine.yaml"
    # Built-in pipelines come first on the search path.
    assert found["amd-cdna3"] != tmp_path / "amd-cdna3.yaml"
    pipeline = resolve_pass_pipeline("mine{pipeline=sccp}")
    assert pipeline.name == "mine" and pipeline.pass_steps()[0].pass_.default_pipeline == "sccp"


MISSING = """\
    name: partial
    stages:
      ttir:
        - cse
      ttgir:
        - !missing not-written-yet: {any: "${undeclared}"}
        - canonicalize
        - !missing not-written-yet
        - !missing other-pass
      llir:
        - !missing lowering
"""


def test_missing_passes_are_skipped_and_recorded(tmp_path):
    pipeline = load_pipeline(write(tmp_path, "partial.yaml", MISSING), [])
    assert names(pipeline) == ["cse", "canonicalize"]
    assert pipeline.missing == {"ttgir": ["not-written-yet", "other-pass"], "llir": ["lowering"]}
    assert pipeline.incomplete_stages() == [
        "stage 'ttgir' of pipeline 'partial' is incomplete: it skips not-written-yet, "
        "other-pass (not run by tileopt yet)",
        "stage 'llir' of pipeline 'partial' is incomplete: it skips lowering "
        "(not run by tileopt yet)"]
    assert slice_stages(pipeline, None, "ttir").incomplete_stages() == []
    assert list(slice_stages(pipeline, "llir", None).missing) == ["llir"]


def test_a_removed_missing_pass_completes_its_stage(tmp_path):
    write(tmp_path, "partial.yaml", MISSING)
    path = write(tmp_path, "done.yaml", """\
        name: done
        extends: partial.yaml
        changes:
          - remove: lowering
    """)
    assert list(load_pipeline(path, []).missing) == ["ttgir"]


def test_unknown_tag_is_an_error(tmp_path):
    path = write(tmp_path, "bad.yaml", "name: bad\nstages:\n  ttir:\n    - !mising cse\n")
    with pytest.raises(TileoptError, match="unknown tag '!mising' on pass 'cse' "
                                           r"\(the only tag is !missing\)") as err:
        load_pipeline(path, [])
    assert (err.value.line, err.value.col) == (4, 7)


def test_non_utf8_pipeline_file_is_located(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_bytes(b"name: x\n# caf\xe9\nstages: {a: [cse]}\n")
    with pytest.raises(TileoptError) as err:
        load_pipeline(path, [])
    assert (err.value.line, err.value.col) == (2, 6)
    assert "not UTF-8 text (byte 0xe9)" in err.value.message
