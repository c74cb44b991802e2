"""Console entry points: the click commands ``tileopt`` and ``tileopt-translate``.

Flags follow LLVM's command line (one or two dashes, every pass is a flag), which click
cannot describe, so each command passes its raw arguments to the driver.
"""

from __future__ import annotations

import sys

import click

_RAW = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}


@click.command(context_settings=_RAW, add_help_option=False)
@click.pass_context
def tileopt_main(ctx: click.Context) -> None:
    """Run passes over an MLIR/Triton file (like mlir-opt / triton-opt)."""
    from tileopt.driver.opt import run_opt

    sys.exit(run_opt(list(ctx.args)))


@click.command(context_settings=_RAW, add_help_option=False)
@click.pass_context
def translate_main(ctx: click.Context) -> None:
    """Translate MLIR (LLVM dialect) to LLVM IR, PTX, AMDGCN or hsaco."""
    from tileopt.driver.translate import run_translate

    sys.exit(run_translate(list(ctx.args)))
