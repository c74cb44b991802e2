"""Issue 13's fuzzer in CI: mutated corpus kernels, lit inputs, YAML pipelines and LLVM-dialect
modules through every mode of the tools; no hang, no crash, no traceback, no internal
error, no output that does not read back (``tileopt/testing/fuzz.py`` says how).

A few hundred cases by default (``--fuzz-cases=N`` for more, ``--fuzz-seed=S`` for other
cases); each failure prints the seed, the mutation and the command that reproduces it.
"""

from __future__ import annotations

import os
import sys

import pytest

from tileopt.testing import fuzz

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "darwin",
                                reason="the fuzzer forks a child per case (Linux)")


@pytest.fixture(scope="module")
def seeds():
    return fuzz.default_seeds()


def test_mutations_are_deterministic():
    a = fuzz.random.Random(5)
    b = fuzz.random.Random(5)
    text = "%a = arith.addi %b, %c : i32\n%d = tt.splat %a : i32 -> tensor<4xi32>\n"
    assert [fuzz.mutate(a, text) for _ in range(20)] == [fuzz.mutate(b, text) for _ in range(20)]


def test_every_mode_has_seeds(seeds):
    found = {seed.mode for seed in seeds[0]}
    with_corpus = any(seed.name.endswith(".ttir") for seed in seeds[0])
    assert (set(fuzz.MODES) if with_corpus else {"canonicalize", "yaml"}) <= found


def test_classifier_catches_what_it_must(tmp_path):
    """The checks have teeth: a hang, a traceback and unreadable output are failures."""
    add = tmp_path / "in.mlir"
    add.write_text("module {\n}\n")
    # A pipeline text that does not exist is a clean error...
    ok = fuzz.run_case(["tileopt", str(add), "--pass-pipeline=nope"], "parse",
                       time_limit=30, memory_limit=1 << 30, add_ttir=str(add))
    assert ok.outcome == "error"
    # ...a child that never ends is a hang...
    hang = fuzz.run_case(["tileopt", str(add), "--timeout=1000", "--pass-pipeline=nope"],
                         "parse", time_limit=0.001, memory_limit=1 << 30, add_ttir=str(add))
    assert hang.outcome in ("hang", "error")  # the fork may finish first on a fast machine
    # ...and output that does not parse back is caught.
    assert fuzz._output_reads_back("parse", "module {\n") is not None
    assert fuzz._output_reads_back("parse", "module {\n}\n") is None
    assert fuzz._classify_stderr("Traceback (most recent call last):\n  x\nKeyError: 1\n"
                                 ).outcome == "traceback"
    assert fuzz._classify_stderr("error: internal error: KeyError: 1\n").outcome == \
        "internal-error"


def test_fuzz_campaign(seeds, request):
    cases = request.config.getoption("--fuzz-cases")
    seed = request.config.getoption("--fuzz-seed")
    campaign = fuzz.Campaign(seed, cases, time_limit=60.0)
    fuzz.run_campaign(campaign, seeds[0], seeds[1])
    print("\n" + fuzz.format_table(campaign))
    assert not campaign.failures, "\n".join(campaign.failures)
