"""``tileopt``: run passes over an MLIR/Triton file, like ``mlir-opt`` and ``triton-opt``."""

from __future__ import annotations

import os
import sys
import traceback

from tileopt.driver import ir_io
from tileopt.driver.argv import Flag, parse_argv
from tileopt.driver.input import SPLIT_MARKER, read_input, split_input
from tileopt.driver.output import write_output
from tileopt.ir import TileoptError, make_context

FLAGS = [
    Flag("o", "value", "output file (default: stdout); written only if the run succeeds",
         metavar="FILE"),
    Flag("split-input-file", "bool", "split the input at '// -----' lines and run each part "
         "on its own; outputs are joined with '// -----'"),
    Flag("allow-unregistered-dialect", "bool", "accept operations of unknown dialects"),
    Flag("mlir-print-debuginfo", "bool", "print loc(...) locations"),
    Flag("debug", "bool", "show Python tracebacks (also: TILEOPT_DEBUG=1)"),
    Flag("help", "bool", "show this help", aliases=("h",)),
]


def debug_enabled(flag: bool = False) -> bool:
    return flag or os.environ.get("TILEOPT_DEBUG", "") not in ("", "0")


def run_opt(argv: list[str]) -> int:
    """Run ``tileopt`` with ``argv`` (program name excluded); return the exit code."""
    debug = debug_enabled("-debug" in argv or "--debug" in argv)
    try:
        args = parse_argv(argv, FLAGS, is_pass=lambda name: False, pass_names=lambda: [])
        if args.help:
            sys.stdout.write(usage())
            return 0
        if len(args.positionals) > 1:
            raise TileoptError(f"too many input files: {' '.join(args.positionals)}")
        path = args.positionals[0] if args.positionals else "-"
        text, filename = read_input(path)
        outputs = []
        for chunk in split_input(text, args.split_input_file):
            ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
            module = ir_io.parse(chunk.padded_text(), filename, ctx)
            ir_io.verify(module, filename)
            outputs.append(ir_io.render(module, args.mlir_print_debuginfo))
        write_output(f"{SPLIT_MARKER}\n".join(outputs), args.o)
        return 0
    except TileoptError as err:
        if debug:
            traceback.print_exc()
        print(err.format(), file=sys.stderr)
        return 1
    except Exception as err:  # a bug in tileopt, not in the input
        if debug:
            traceback.print_exc()
        print(f"error: internal error: {type(err).__name__}: {err} "
              "(run with --debug for the traceback)", file=sys.stderr)
        return 1


def usage() -> str:
    lines = ["usage: tileopt [options] [input-file|-]", "", "options:"]
    for flag in FLAGS:
        spelled = f"--{flag.name}" + (f"={flag.metavar or 'VALUE'}" if flag.kind != "bool" else "")
        lines.append(f"  {spelled:<34} {flag.help}")
    return "\n".join(lines) + "\n"
