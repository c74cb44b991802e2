"""The shipped pipelines: they load, name only registered passes, and list Triton 3.6's
passes (enabled or tagged !missing) exactly in the order of the corpus's ORDER.txt."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tileopt.pipelines.loader import BUILTIN_DIR, available_pipelines, load_pipeline

REPO = Path(__file__).resolve().parents[3]
PIPELINES = {"nvidia-sm80": "cuda-sm80", "nvidia-sm90": "cuda-sm90",
             "amd-cdna3": "hip-gfx942", "amd-rdna3": "hip-gfx1100"}
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
    """Triton's pass order without the canonicalize runs the inliner makes internally."""
    from tileopt.testing.corpus_compare import pass_order

    longest: list[str] = []
    for kernel in KERNELS:
        order = [name for name, _ in pass_order(passes_root, target, kernel)]
        while len(order) > 1 and order[0] == "inline" and order[1] == "canonicalize":
            order.pop(1)
        if len(order) > len(longest):
            longest = order
    return longest


@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_listed_in_triton_order(name, passes_root):
    listed = _listed_passes(available_pipelines()[name])
    assert listed == _triton_order(passes_root, PIPELINES[name])



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
