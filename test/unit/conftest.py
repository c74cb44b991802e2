"""Shared pytest fixtures: where the reference corpus is, and its per-pass dumps unpacked.

The corpus (real Triton 3.6.0 output) lives beside the repository at ``../shared/corpus``;
``TILEOPT_CORPUS`` overrides that; Triton 3.9.0's is ``../shared/corpus-3.9``
(``TILEOPT_CORPUS_39``). Tests that need one skip with a reason where it is absent.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tileopt.testing.corpus_compare import find_corpus, unpack_passes

# The commands tests run are cold (a compile server would outlive the tests); the server's
# own tests start theirs in a temporary folder and stop it.
os.environ["TILEOPT_SERVER"] = "0"


def _corpus_or_skip(version: str, where: str) -> Path:
    root = find_corpus(version)
    if root is None:
        pytest.skip(f"Triton {version} corpus not found beside the repository ({where})")
    return root


@pytest.fixture(scope="session")
def corpus() -> Path:
    return _corpus_or_skip("3.6", "../shared/corpus")


@pytest.fixture(scope="session")
def passes_root(corpus: Path) -> Path:
    return unpack_passes(corpus)


@pytest.fixture(scope="session")
def corpus39() -> Path:
    """Triton 3.9.0's output for the same kernels (``../shared/corpus-3.9``,
    ``TILEOPT_CORPUS_39`` overrides)."""
    return _corpus_or_skip("3.9", "../shared/corpus-3.9")


@pytest.fixture(scope="session")
def passes_root39(corpus39: Path) -> Path:
    return unpack_passes(corpus39)


def pytest_addoption(parser):
    parser.addoption("--fuzz-cases", type=int, default=150,
                     help="cases for test/unit/fuzz (issue 13's fuzzer); CI runs the default")
    parser.addoption("--fuzz-seed", type=int, default=13,
                     help="seed of the fuzzer's cases (the same seed gives the same cases)")
