"""lit configuration for tileopt: ``lit test/lit`` runs every FileCheck test.

Tools come from the Python environment lit runs in (the ``bin`` directory beside
``sys.executable``), so an activated or a plain ``.venv/bin/lit`` both test the tileopt
installed there. Substitutions:

  tileopt, tileopt-translate, tileopt-layout   the console scripts of that environment
  FileCheck                                    the filecheck package's ``filecheck``
  not                                          built into lit's internal shell (inverts the
                                               exit status; ``not --crash`` expects a crash)
  %python                                      the Python running lit
  %corpus                                      the Triton reference corpus (../shared/corpus
                                               beside the repository, or $TILEOPT_CORPUS)
  %examples                                    the repository's examples/ directory
  ptxas                                        the ptxas tileopt.target.ptxas finds (the
                                               nvidia-cuda-nvcc wheel's first)

Features for ``REQUIRES:``: ``corpus``, ``ptxas``, ``ld.lld``, ``nvidia-gpu``, ``amd-gpu``,
``pillow`` (the optional ``png`` extra).
"""

import importlib.util
import os
import shutil
import sys

import lit.formats

config.name = "tileopt"
# lit's internal shell: portable, and it provides ``not`` (and ``env``, ``cd``) itself.
config.test_format = lit.formats.ShTest()
config.suffixes = [".mlir", ".yaml", ".test"]
config.excludes = ["Inputs", "lit.cfg.py", "Output"]
config.test_source_root = os.path.dirname(__file__)

repo_root = os.path.dirname(os.path.dirname(config.test_source_root))
bin_dir = os.path.dirname(sys.executable)


def word(text: str) -> str:
    """A regex matching ``text`` as a whole command word (not in paths, flags or names)."""
    return r"(?<![\w.\-/=%])" + text.replace(".", r"\.") + r"(?![\w.\-/=])"


def tool(name: str) -> str:
    return os.path.join(bin_dir, name)


corpus = os.environ.get("TILEOPT_CORPUS") or os.path.join(os.path.dirname(repo_root), "shared", "corpus")

# Longest names first: ``tileopt`` must not eat the front of ``tileopt-translate``.
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%corpus", corpus))
config.substitutions.append(("%examples", os.path.join(repo_root, "examples")))
config.substitutions.append((word("tileopt-translate"), tool("tileopt-translate")))
config.substitutions.append((word("tileopt-layout"), tool("tileopt-layout")))
config.substitutions.append((word("tileopt"), tool("tileopt")))
config.substitutions.append((word("FileCheck"), tool("filecheck")))

config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
# A developer's own pipeline directories must not change test results.
config.environment.pop("TILEOPT_PIPELINE_PATH", None)
config.environment.pop("TILEOPT_DEBUG", None)
if "TILEOPT_CORPUS" in os.environ:
    config.environment["TILEOPT_CORPUS"] = os.environ["TILEOPT_CORPUS"]

if os.path.exists(os.path.join(corpus, "README.md")):
    config.available_features.add("corpus")
# ld.lld as tileopt-translate finds it: PATH, ROCm, or the ziglang package (the amd extra).
from tileopt.ir import TileoptError  # noqa: E402
from tileopt.target.amdgpu import find_lld  # noqa: E402

try:
    find_lld()
    config.available_features.add("ld.lld")
except TileoptError:
    pass
# ptxas as the unit tests find it: the nvidia-cuda-nvcc wheel's, else the PATH's.
from tileopt.target.ptxas import find_ptxas  # noqa: E402

if ptxas := find_ptxas():
    config.available_features.add("ptxas")
    config.substitutions.append((word("ptxas"), ptxas))
if shutil.which("nvidia-smi"):
    config.available_features.add("nvidia-gpu")
if shutil.which("rocminfo") or os.path.exists("/dev/kfd"):
    config.available_features.add("amd-gpu")
if importlib.util.find_spec("PIL") is not None:
    config.available_features.add("pillow")
