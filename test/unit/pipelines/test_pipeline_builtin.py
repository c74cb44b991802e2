"""The shipped pipelines: they load, name only registered passes, and list their Triton
version's passes (enabled or tagged !missing) exactly in the order of that version's
corpus ORDER.txt (3.6: ``NAME``, ../shared/corpus; 3.9: ``NAME-triton39``,
../shared/corpus-3.9)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tileopt.pipelines.loader import BUILTIN_DIR, available_pipelines, load_pipeline
from tileopt.testing.corpus_compare import find_corpus, unpack_passes

REPO = Path(__file__).resolve().parents[3]
TARGETS = {"nvidia-sm80": "cuda-sm80", "nvidia-sm90": "cuda-sm90",
           "amd-cdna3": "hip-gfx942", "amd-rdna3": "hip-gfx1100"}
# pipeline -> (corpus target, Triton version)
PIPELINES = {**{name: (target, "3.6") for name, target in TARGETS.items()},
             **{f"{name}-triton39": (target, "3.9") for name, target in TARGETS.items()}}
# Kernels whose pipelines between them run every pass of the target.
KERNELS = ("matmul", "softmax", "add")
_ENTRY = re.compile(r"^\s+- (?:!missing )?([A-Za-z0-9_.\-]+)")


def test_builtin_directory_is_the_top_level_pipelines_folder():
    assert BUILTIN_DIR.resolve() == (REPO / "pipelines").resolve()


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_loads_with_three_stages(name):
    assert name in available_pipelines()
    pipeline = load_pipeline(available_pipelines()[name], [])
    assert pipeline.stages == ["ttir", "ttgir", "llir"]
    assert pipeline.pass_steps()


def _listed_passes(path: Path) -> list[str]:
    """Every pass in the stages section, enabled or tagged !missing, in file order."""
    text = path.read_text().split("\nstages:", 1)[1]
    return [m.group(1) for line in text.splitlines() if (m := _ENTRY.match(line))]


def _triton_order(passes_root: Path, target: str) -> list[str]:
    """Triton's pass order without the canonicalize runs the inliner makes internally
    (one in 3.6, a few in 3.9, as many as it iterates): those right after ``inline``,
    but for the make_ttir canonicalizer that comes right before ``triton-combine``."""
    from tileopt.testing.corpus_compare import pass_order

    longest: list[str] = []
    for kernel in KERNELS:
        order = [name for name, _ in pass_order(passes_root, target, kernel)]
        while len(order) > 2 and order[0] == "inline" and order[1] == "canonicalize" \
                and order[2] != "triton-combine":
            order.pop(1)
        if len(order) > len(longest):
            longest = order
    return longest


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_listed_in_triton_order(name):
    target, version = PIPELINES[name]
    corpus = find_corpus(version)
    if corpus is None:
        pytest.skip(f"the Triton {version} corpus is not beside the repository")
    listed = _listed_passes(available_pipelines()[name])
    assert listed == _triton_order(unpack_passes(corpus), target)


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_names_its_triton_version(name):
    assert load_pipeline(available_pipelines()[name], []).triton_version == PIPELINES[name][1]



@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_registered_passes_tagged_missing_say_why(name):
    """A pass tileopt has should run: if its !missing tag stays, a comment says why."""
    from tileopt.passes.registry import get_pass, load_builtin_passes

    load_builtin_passes()
    path = available_pipelines()[name]
    assert load_pipeline(path, []).missing, "the shipped pipelines all lack passes today"
    tagged = [line for line in path.read_text().splitlines()
              if _ENTRY.match(line) and "- !missing " in line]
    unexplained = [line.strip() for line in tagged
                   if get_pass(_ENTRY.match(line).group(1)) is not None and "#" not in line]
    assert unexplained == []
