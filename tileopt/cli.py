"""Console entry points: the commands ``tileopt`` and ``tileopt-translate``.

Flags follow LLVM's command line (one or two dashes, every pass is a flag), which an
argument library cannot describe, so each command hands its raw arguments to the driver
(``tileopt.driver.argv``). No such library is imported either: a start-up that answers
``--help`` in a blink is part of the tool (issue 14).
"""

from __future__ import annotations

import sys


def tileopt_main(argv: list[str] | None = None) -> None:
    """Run passes over an MLIR/Triton file (like mlir-opt / triton-opt)."""
    from tileopt.driver import code_cache
    from tileopt.driver.opt import run_opt  # imports no xDSL: --help reads no cache

    code_cache.install()  # before xDSL defines its attribute classes

    sys.exit(run_opt(sys.argv[1:] if argv is None else list(argv)))


def translate_main(argv: list[str] | None = None) -> None:
    """Translate MLIR (LLVM dialect) to LLVM IR, PTX, AMDGCN or hsaco."""
    from tileopt.driver import code_cache

    code_cache.install()
    from tileopt.driver.translate import run_translate

    sys.exit(run_translate(sys.argv[1:] if argv is None else list(argv)))
