"""lit set-up for tileopt tests, in-tree and out-of-tree: a ``lit.cfg.py`` calls :func:`configure`.

    import lit.formats
    from tileopt.testing.lit_config import configure
    config.name = "my-passes"
    configure(config)

Tools come from the Python environment lit runs in (the scripts beside ``sys.executable``,
else the PATH), so the tileopt installed there is the one tested. Substitutions:

  tileopt, tileopt-translate, tileopt-layout   the console scripts of that environment
  FileCheck                                    the filecheck package's ``filecheck``
  not                                          built into lit's internal shell (inverts the
                                               exit status; ``not --crash`` expects a crash)
  %python                                      the Python running lit
  %corpus                                      the Triton reference corpus: $TILEOPT_CORPUS,
                                               else the ``corpus`` argument
  ptxas                                        the ptxas tileopt.target.ptxas finds

RUN lines use the compile server (``TILEOPT_SERVER=1``, docs/server.md) unless the
environment lit runs in has ``TILEOPT_SERVER=0``.

Features for ``REQUIRES:``: ``corpus``, ``ptxas``, ``ld.lld``, ``nvidia-gpu``, ``amd-gpu``,
``pillow`` (the optional ``png`` extra).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from typing import Any

from tileopt.driver import client
from tileopt.target import external_tools

# Environment variables that would make results depend on the developer's shell.
UNSET_VARIABLES = ("TILEOPT_PIPELINE_PATH", "TILEOPT_DEBUG")
# RUN lines go through the compile server (docs/server.md) unless TILEOPT_SERVER=0 is
# set: hundreds of short commands share one warm tileopt; it exits this many seconds
# after the last one (TILEOPT_SERVER_IDLE overrides).
SERVER_IDLE = "60"


def word(text: str) -> str:
    """A regex matching ``text`` as a whole command word (not in paths, flags or names)."""
    return r"(?<![\w.\-/=%])" + text.replace(".", r"\.") + r"(?![\w.\-/=])"


def tool(name: str) -> str:
    """The console script ``name`` of the environment lit runs in, else the PATH's."""
    beside = os.path.join(os.path.dirname(sys.executable), name)
    return beside if os.path.exists(beside) else shutil.which(name) or name


def configure(config: Any, corpus: str | None = None) -> None:
    """Set up a lit ``config`` (the object lit hands ``lit.cfg.py``) to test with tileopt.

    Leaves ``config.name`` and the test roots to the caller; sets the test format (lit's
    internal shell, which provides ``not``) and the suffixes ``.mlir``, ``.yaml``, ``.test``
    unless already set."""
    import lit.formats

    if config.test_format is None:
        config.test_format = lit.formats.ShTest(execute_external=False)
    if not config.suffixes:
        config.suffixes = [".mlir", ".yaml", ".test"]
    config.excludes = sorted(set(config.excludes) | {"Inputs", "lit.cfg.py", "Output"})

    corpus = os.environ.get("TILEOPT_CORPUS") or corpus
    bin_dir = os.path.dirname(sys.executable)
    config.substitutions.append(("%python", sys.executable))
    if corpus:
        config.substitutions.append(("%corpus", corpus))
    # Longest names first: ``tileopt`` must not eat the front of ``tileopt-translate``.
    for name in ("tileopt-translate", "tileopt-layout", "tileopt"):
        config.substitutions.append((word(name), tool(name)))
    config.substitutions.append((word("FileCheck"), tool("filecheck")))

    config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
    for variable in UNSET_VARIABLES:
        config.environment.pop(variable, None)
    if "TILEOPT_CORPUS" in os.environ:
        config.environment["TILEOPT_CORPUS"] = os.environ["TILEOPT_CORPUS"]
    _configure_server(config)

    if corpus and os.path.exists(os.path.join(corpus, "README.md")):
        config.available_features.add("corpus")
    _add_tool_features(config)


def _configure_server(config: Any) -> None:
    if os.environ.get("TILEOPT_SERVER") == "0":
        config.environment["TILEOPT_SERVER"] = "0"
        return
    config.environment["TILEOPT_SERVER"] = "1"
    config.environment["TILEOPT_SERVER_IDLE"] = os.environ.get("TILEOPT_SERVER_IDLE",
                                                               SERVER_IDLE)
    # Where the user's servers are: lit gives each run a temporary folder of its own
    # (TMPDIR), which would mean a new server per run, its socket deleted under it.
    config.environment["TILEOPT_SERVER_DIR"] = client.server_dir(os.environ)


def _add_tool_features(config: Any) -> None:
    # ptxas and ld.lld as tileopt-translate finds them (the nvidia-cuda-nvcc wheel's ptxas,
    # the ziglang package's ld.lld, ...).
    tools = external_tools()
    config.available_features.update(tools)
    if "ptxas" in tools:
        config.substitutions.append((word("ptxas"), tools["ptxas"]))
    if shutil.which("nvidia-smi"):
        config.available_features.add("nvidia-gpu")
    if shutil.which("rocminfo") or os.path.exists("/dev/kfd"):
        config.available_features.add("amd-gpu")
    if importlib.util.find_spec("PIL") is not None:
        config.available_features.add("pillow")
