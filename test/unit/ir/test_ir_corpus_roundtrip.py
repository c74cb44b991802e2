"""Every real Triton file reads back and prints the way Triton printed it, for both
Triton versions tileopt reads (3.6: ``../shared/corpus``, 3.9: ``../shared/corpus-3.9``).

One test per file of each corpus: each ``.ttir``/``.ttgir`` and each per-pass dump taken
before the pipeline's first LLVM-lowering pass. Each is parsed, verified, printed as its
Triton version prints, parsed and printed again; the second print must equal the first (a
fixpoint), and the first must equal Triton's own text once locations are removed and SSA
values renamed in order of appearance (``tileopt.testing.corpus_compare.normalise``).
Printing by the version the parser read off the text (what ``tileopt`` does without
``--triton-version``) must give the same text. Printed with locations and names from name
locations, the text must even be Triton's byte for byte, names included: the file is read
as printed so (``arg_name_locs``), since the text writes no location for an
``scf.for``'s induction variable and iter_args and the reader gives back the name
locations their names show (a plain reader, as MLIR's, prints them as ``%argN``).
"""

from __future__ import annotations

import pytest

from tileopt.ir import make_context
from tileopt.testing.corpus_compare import (
    CORPORA,
    LLVM_LOWERING_PASSES,
    TARGETS,
    check_file,
    corpus_files,
    find_corpus,
    tt_level_dumps,
    unpack_passes,
)


def _file_ids() -> list:
    ids = []
    for version in CORPORA:
        corpus = find_corpus(version)
        if corpus is None:
            ids.append(pytest.param(version, "(corpus not found)", id=f"{version}-absent"))
            continue
        ids += [pytest.param(version, file_id, id=f"{version}/{file_id}")
                for file_id, _ in corpus_files(corpus, unpack_passes(corpus))]
    return ids


@pytest.fixture(scope="module")
def ctx():
    return make_context()


def _path(file_id: str, corpus, passes_root):
    if file_id.startswith("passes/"):
        return passes_root / file_id.split("/", 1)[1].replace("/", "/passes/", 1)
    return corpus / file_id


@pytest.mark.parametrize(("version", "file_id"), _file_ids())
def test_round_trip_matches_triton(version, file_id, ctx):
    corpus = find_corpus(version)
    if corpus is None:
        pytest.skip(f"the Triton {version} corpus is not beside the repository")
    path = _path(file_id, corpus, unpack_passes(corpus))
    outcome = check_file(file_id, path.read_text(), ctx, triton_version=version)
    assert outcome.ok, outcome.detail
    assert outcome.fixpoint, outcome.detail
    assert outcome.matches, outcome.detail
    # stricter than asked: with locations, the print is Triton's text byte for byte
    assert outcome.exact_with_locations, "printed with debuginfo, the text differs"


@pytest.mark.parametrize("version", sorted(CORPORA))
def test_every_pipeline_contributes_dumps(version):
    """The file list covers each target and kernel, and stops at the LLVM lowering."""
    from tileopt.testing.corpus_compare import pass_order

    corpus = find_corpus(version)
    if corpus is None:
        pytest.skip(f"the Triton {version} corpus is not beside the repository")
    passes_root = unpack_passes(corpus)
    for target in TARGETS:
        kernels = sorted(p.name for p in (passes_root / target / "passes").iterdir())
        assert len(kernels) >= 10
        for kernel in kernels:
            order = pass_order(passes_root, target, kernel)
            cut = next((i for i, (name, _) in enumerate(order)
                        if name in LLVM_LOWERING_PASSES), len(order))
            expected = [path for _, path in order[:cut] if path is not None]
            assert tt_level_dumps(passes_root, target, kernel) == expected
            assert expected, f"{target}/{kernel}: no TritonGPU-level dump"
    assert len(corpus_files(corpus, passes_root)) > 800
