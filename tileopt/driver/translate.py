"""``tileopt-translate``: leave MLIR for LLVM IR, PTX, a cubin, AMDGCN or an hsaco object."""

from __future__ import annotations

import sys

from tileopt.driver.argv import Flag, answered_help_or_version, format_help, parse_argv
from tileopt.driver.input import SPLIT_MARKER, read_input, split_input
from tileopt.driver.report import debug_enabled, report_failure
from tileopt.driver.output import quiet_broken_pipe, write_output
from tileopt.ir import TileoptError
from tileopt.target import EMITS, llvm_backend, looks_like_llvm_ir, parse_llvm_dialect, translate

FLAGS = [
    Flag("o", "value", "output file (default: stdout); written only if the run succeeds",
         metavar="FILE"),
    Flag("emit", "value", "what to produce: " + "|".join(EMITS), metavar="KIND"),
    Flag("mlir-to-llvmir", "bool", "the same as --emit=llvm-ir"),
    Flag("arch", "value", "target architecture, e.g. sm_90 or gfx942", metavar="ARCH"),
    Flag("split-input-file", "bool", "split the input at '// -----' lines and translate each "
         "part on its own (text outputs, joined by '// -----' lines)"),
    Flag("print-resource-usage", "bool",
         "print each AMD kernel's registers, spills, scratch, LDS and occupancy to stderr, as "
         "LLVM's kernel-resource-usage remarks (with --emit=amdgcn or --emit=hsaco)"),
    Flag("debug", "bool", "show Python tracebacks (also: TILEOPT_DEBUG=1)"),
    Flag("version", "bool", "print the tileopt version and exit"),
    Flag("help", "bool", "show this help", aliases=("h",)),
]


def run_translate(argv: list[str]) -> int:
    debug = debug_enabled("-debug" in argv or "--debug" in argv)
    try:
        args = parse_argv(argv, FLAGS, is_pass=lambda name: False, pass_names=lambda: [])
        if answered_help_or_version(args, usage):
            return 0
        emit = args.emit
        if args.mlir_to_llvmir:
            if emit not in (None, "llvm-ir"):
                raise TileoptError(f"--mlir-to-llvmir conflicts with --emit={emit}")
            emit = "llvm-ir"
        if emit is None:
            raise TileoptError("nothing to do: give --emit=" + "|".join(EMITS) + " or --mlir-to-llvmir")
        check_emit(emit, args.o)
        llvm_backend.start_worker()  # LLVM loads in it while this process reads its input
        if len(args.positionals) > 1:
            raise TileoptError(f"too many input files: {' '.join(args.positionals)}")
        text, filename = read_input(args.positionals[0] if args.positionals else "-")
        if not text.strip():
            # An empty PTX file from empty input would hide a failed `tileopt ... |`.
            raise TileoptError("the input is empty: nothing to translate", filename, 1, 1)
        if args.print_resource_usage and emit not in ("amdgcn", "hsaco"):
            raise TileoptError(f"--print-resource-usage needs --emit=amdgcn or --emit=hsaco, "
                               f"not --emit={emit}")
        if args.split_input_file:
            if emit in ("hsaco", "cubin") or args.print_resource_usage:
                raise TileoptError("--split-input-file makes text: it takes neither a binary "
                                   "--emit nor --print-resource-usage")
            # Each part keeps its line numbers: it is padded to where it starts.
            result = (SPLIT_MARKER + "\n").join(
                emit_code("\n" * (chunk.first_line - 1) + chunk.text, emit, args.arch, filename)
                for chunk in split_input(text, True))
            write_output(result, args.o)
            return 0
        source, dynamic_lds = text, 0
        if args.print_resource_usage:
            # AMD's metadata reader (msgpack, YAML, the shared-memory analysis): only here
            from tileopt.target.hsaco_metadata import launch_lds, resource_usage_of
        if args.print_resource_usage and not looks_like_llvm_ir(text):
            # The LDS Triton's launcher adds (ttg.shared) is in the MLIR, not the object.
            source = parse_llvm_dialect(text, filename)
            dynamic_lds = launch_lds(source)
        result = emit_code(source, emit, args.arch, filename)
        write_output(result, args.o)
        if args.print_resource_usage:
            sys.stderr.write(resource_usage_of(result, dynamic_lds, filename))
        return 0
    except BrokenPipeError:
        return quiet_broken_pipe()
    except Exception as err:
        return report_failure(err, debug)


def check_emit(emit: str, output: str | None) -> None:
    """Refuse an unknown ``--emit`` kind, and binary output to a terminal, before any work."""
    if emit not in EMITS:
        raise TileoptError(f"unknown --emit kind '{emit}' (expected one of: {', '.join(EMITS)})")
    if emit in ("hsaco", "cubin") and output in (None, "-") and sys.stdout is not None \
            and sys.stdout.isatty():
        raise TileoptError(f"refusing to write binary {emit} to a terminal: use -o FILE or "
                           "a pipe")


def emit_code(module_or_text, emit: str, arch: str | None, filename: str) -> str | bytes:
    """The one code path of both commands from the LLVM dialect (a module in memory, or
    text) to ``emit``: ``tileopt --emit`` hands over its module without printing it."""
    return translate(module_or_text, emit=emit, arch=arch, filename=filename)


def usage() -> str:
    return format_help("tileopt-translate [options] [input-file|-]", FLAGS,
                       "Translate MLIR in the LLVM dialect (or LLVM IR) to LLVM IR, PTX, a "
                       "cubin, AMDGCN or an hsaco.")
