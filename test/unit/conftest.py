"""Shared pytest fixtures: where the reference corpus is, and its per-pass dumps unpacked.

The corpus (real Triton 3.6.0 output) lives beside the repository at ``../shared/corpus``;
``TILEOPT_CORPUS`` overrides that. Tests that need it skip with a reason where it is absent.
"""

from __future__ import annotations

import os
import tarfile
import tempfile
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
TARGETS = ("cuda-sm80", "cuda-sm90", "hip-gfx942", "hip-gfx1100")


def corpus_root() -> Path | None:
    path = Path(os.environ.get("TILEOPT_CORPUS", REPO_ROOT.parent / "shared" / "corpus"))
    return path if (path / "README.md").exists() else None


def unpacked_passes_root() -> Path | None:
    """Unpack ``passes.tar.xz`` once per machine into a cache under the temp directory."""
    corpus = corpus_root()
    if corpus is None:
        return None
    archive = corpus / "passes.tar.xz"
    stamp = f"{archive.stat().st_size}-{int(archive.stat().st_mtime)}"
    dest = Path(tempfile.gettempdir()) / f"tileopt-corpus-passes-{stamp}"
    done = dest / ".unpacked"
    if not done.exists():
        dest.mkdir(parents=True, exist_ok=True)
        with tarfile.open(archive) as tar:
            tar.extractall(dest, filter="data")
        done.touch()
    return dest


def pass_order(passes_root: Path, target: str, kernel: str) -> list[tuple[str, Path | None]]:
    """The pipeline's passes in order, each with the dump taken before it (None if unchanged)."""
    folder = passes_root / target / "passes" / kernel
    entries = []
    for line in (folder / "ORDER.txt").read_text().splitlines()[1:]:
        name = line.split()[0]
        path = folder / name
        pass_name = name.split("-", 1)[1].removesuffix(".mlir")
        entries.append((pass_name, path if path.exists() else None))
    return entries


@pytest.fixture(scope="session")
def corpus() -> Path:
    root = corpus_root()
    if root is None:
        pytest.skip("reference corpus not found beside the repository (../shared/corpus)")
    return root


@pytest.fixture(scope="session")
def passes_root() -> Path:
    root = unpacked_passes_root()
    if root is None:
        pytest.skip("reference corpus not found beside the repository (../shared/corpus)")
    return root
