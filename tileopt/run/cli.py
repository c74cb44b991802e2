"""``tileopt-run``: run a compiled kernel on the CPU, every GPU thread, with checks.

    tileopt-run add.ttir --pass-pipeline=nvidia-sm90 --grid 3 x.npy y.npy out.npy 2512 --out r/
    tileopt-run add.llir --arch gfx942 --grid 3 x.npy y.npy out.npy 2512 --out r/

Arguments after the input file are the kernel's, in order: a ``.npy`` path for a pointer,
a number for a scalar. ``--out DIR`` writes every pointer argument after the launch as
``DIR/arg<i>.npy``. A short summary goes to stdout; an invalid access, a shared-memory
race or an uninitialised shared read is an ``error:`` line on stderr and exit status 1.
"""

from __future__ import annotations

import os
import re
import sys

import click
import numpy as np

from tileopt.driver.argv import Flag, answered_help_or_version, format_help, parse_argv
from tileopt.driver.input import read_input
from tileopt.driver.report import debug_enabled, report_failure
from tileopt.ir import TileoptError
from tileopt.run.launch import compile_source, run_kernel
from tileopt.run.reference import run_reference

# (name, metavar, help) of the flags that take a value
_VALUED = (
    ("pass-pipeline", "PIPELINE", "compile the input with this pipeline first (e.g. "
     "nvidia-sm90); without it the input is LLVM-dialect MLIR or LLVM IR"),
    ("arch", "GPU", "the GPU the module is for where it does not say (AMD LLVM IR: gfx942, "
     "waves of 64, or gfx1100, waves of 32); must agree with the module's target"),
    ("kernel", "NAME", "the kernel to run (default: the only one)"),
    ("grid", "X[,Y,Z]", "the launch grid in blocks"),
    ("out", "DIR", "write every pointer argument after the launch as DIR/arg<i>.npy"),
    ("save-llvm-ir", "FILE", "write the LLVM IR that ran (error messages cite its lines)"),
    ("opt-level", "N", "run the IR after LLVM's -O<N>, as code generation gets it (default 0: "
     "the IR as tileopt-translate --emit=llvm-ir prints it)"),
)
FLAGS = [Flag(name, "value", text, metavar=metavar) for name, metavar, text in _VALUED] + [
    Flag("reference", "bool", "evaluate the .ttir itself with the tile-level numpy reference "
         "(tileopt.run.reference) instead of compiling it: same arguments and outputs, to "
         "compare with a compiled run"),
    Flag("no-checks", "bool", "skip the race and uninitialised-shared-memory checks (faster; "
         "bounds are always checked)"),
    Flag("debug", "bool", "show Python tracebacks (also: TILEOPT_DEBUG=1)"),
    Flag("version", "bool", "print the tileopt version and exit"),
    Flag("help", "bool", "show this help", aliases=("h",)),
]

_NUMBER = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$|^[-+]?0[xX][0-9a-fA-F]+$|^[-+]?(inf|nan)$")


def usage() -> str:
    return format_help("tileopt-run FILE [options] --grid X[,Y,Z] [ARG ...]", FLAGS,
                       "ARG: a .npy file for a pointer parameter, a number for a scalar, "
                       "in order.")


def _parse(argv: list[str]):
    # negative numbers such as -1.5 are arguments of the kernel, not flags
    hidden = {f"\0{i}": a for i, a in enumerate(argv) if a.startswith("-") and _NUMBER.match(a)}
    shown = [f"\0{i}" if a.startswith("-") and _NUMBER.match(a) else a for i, a in enumerate(argv)]
    args = parse_argv(shown, FLAGS, is_pass=lambda name: False, pass_names=lambda: [])
    args.positionals[:] = [hidden.get(p, p) for p in args.positionals]
    for key, value in args.values.items():
        if isinstance(value, str):
            args.values[key] = hidden.get(value, value)
    return args


def _grid(text: str | None) -> tuple[int, int, int]:
    if text is None:
        raise TileoptError("give the launch grid: --grid X[,Y,Z]")
    parts = text.split(",")
    if not 1 <= len(parts) <= 3 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise TileoptError(f"--grid '{text}': expected one to three positive integers, X[,Y,Z]")
    return tuple(int(p) for p in parts) + (1,) * (3 - len(parts))


def _opt_level(text: str | None) -> int:
    if text is None:
        return 0
    if text not in ("0", "1", "2", "3"):
        raise TileoptError(f"--opt-level '{text}': expected 0, 1, 2 or 3")
    return int(text)


def _kernel_arg(pos: int, text: str):
    if _NUMBER.match(text):
        try:
            return int(text, 0)
        except ValueError:
            return float(text)
    if text.endswith(".npy"):
        try:
            return np.load(text, allow_pickle=False)
        except FileNotFoundError:
            raise TileoptError(f"argument {pos}: no such file '{text}'") from None
        except (OSError, ValueError) as err:
            raise TileoptError(f"argument {pos}: cannot read '{text}' as a .npy array ({err})") from None
    raise TileoptError(f"argument {pos}: '{text}' is neither a .npy file nor a number")


def run_cli(argv: list[str]) -> int:
    debug = debug_enabled("-debug" in argv or "--debug" in argv)
    try:
        args = _parse(argv)
        if answered_help_or_version(args, usage):
            return 0
        if not args.positionals:
            raise TileoptError("no input file (see --help)")
        path, *rest = args.positionals
        grid = _grid(args.grid)
        kernel_args = [_kernel_arg(i, a) for i, a in enumerate(rest)]
        text, filename = read_input(path)
        if args.reference:
            if args.pass_pipeline or args.arch or args.opt_level or args.save_llvm_ir:
                raise TileoptError("--reference evaluates the .ttir as it is: it takes no "
                                   "--pass-pipeline, --arch, --opt-level or --save-llvm-ir")
            ref = run_reference(text, kernel_args, grid, filename=filename, kernel=args.kernel,
                                arg_names=rest)
            gx, gy, gz = ref.grid
            print(f"{ref.kernel}: grid {gx}x{gy}x{gz}, TTIR reference, {ref.seconds:.3f} s")
            _write_outputs(ref.outputs, args.out)
            return 0
        compiled = compile_source(text, filename, args.pass_pipeline, _opt_level(args.opt_level),
                                  arch=args.arch)
        if args.save_llvm_ir:
            with open(args.save_llvm_ir, "w", encoding="utf-8") as handle:
                handle.write(compiled.llvm_ir)
        result = run_kernel(compiled, kernel_args, grid, kernel=args.kernel, arg_names=rest,
                            checks=not args.no_checks)
        _summary(result, args.out, not args.no_checks)
        for report in result.reports:
            print(f"error: {report}", file=sys.stderr)
        if result.report_count > len(result.reports):
            print(f"note: {result.report_count} reports in all, the first of each kind shown",
                  file=sys.stderr)
        return 1 if result.reports else 0
    except Exception as err:
        return report_failure(err, debug)


def _summary(result, out_dir: str | None, checks: bool) -> None:
    gx, gy, gz = result.grid
    blocks = gx * gy * gz
    print(f"{result.kernel}: grid {gx}x{gy}x{gz}, {result.threads} threads per block, "
          f"{blocks * result.threads} threads, {result.seconds:.3f} s")
    _write_outputs(result.outputs, out_dir)
    if not checks:
        print("checks: bounds only (--no-checks)")
    elif not result.reports:
        print("checks: no invalid access, shared-memory race or uninitialised shared read")


def _write_outputs(outputs: dict, out_dir: str | None) -> None:
    if out_dir:
        os.makedirs(out_dir, exist_ok=True)
    for pos, array in outputs.items():
        where = ""
        if out_dir:
            dest = os.path.join(out_dir, f"arg{pos}.npy")
            np.save(dest, array)
            where = f" -> {dest}"
        print(f"  arg{pos}: {array.dtype}{list(array.shape)}{where}")


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                 "help_option_names": []}, add_help_option=False)
@click.pass_context
def main(ctx: click.Context) -> None:
    """Run a compiled kernel on the CPU with GPU semantics (see --help)."""
    sys.exit(run_cli(list(ctx.args)))
