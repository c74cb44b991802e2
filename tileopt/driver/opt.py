"""``tileopt``: run passes over an MLIR/Triton file, like ``mlir-opt`` and ``triton-opt``.

One run: read the input (a file or ``-``), split it at ``// -----`` if asked, and for each
part parse, verify, run the pipeline (verifying after each pass), and print. Output goes to
``-o`` atomically, only if every part succeeded (or, with ``--verify-diagnostics``, if the
diagnostics were exactly the expected ones).
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

from tileopt.driver.argv import (Flag, ParsedArgs, answered_help_or_version, format_help,
                                 parse_argv)
from tileopt.driver.output import quiet_broken_pipe, write_output, write_stdout
from tileopt.driver.report import InternalPassError, debug_enabled, report_failure
from tileopt.driver.time_limit import RunTimedOut, parse_timeout, time_limit
from tileopt.ir import TileoptError
from tileopt.passes import registry
from tileopt.passes.registry import get_pass, load_plugin_file

if TYPE_CHECKING:
    from tileopt.driver.input import InputChunk
    from tileopt.driver.instrumentation import IRPrinter, Timer
    from tileopt.driver.ir_io import PrintOptions
    from tileopt.driver.verify_diagnostics import DiagnosticChecker
    from tileopt.pipelines.model import Pipeline

# What a run over IR needs (xDSL, the dialects, pipelines) is imported in _run, after the
# flags are read: --help, --version and argument errors answer without it.

FLAGS = [
    Flag("o", "value", "output file (default: stdout); written only if the run succeeds",
         metavar="FILE"),
    Flag("pass-pipeline", "value", "passes to run: MLIR pipeline text "
         "'builtin.module(cse,tt.func(canonicalize))', a YAML pipeline name (amd-cdna3), "
         "NAME{param=value ...}, or a path to a .yaml file", metavar="PIPELINE"),
    Flag("stop-after", "value", "run a YAML pipeline up to the end of this stage",
         metavar="STAGE"),
    Flag("start-at", "value", "run a YAML pipeline from the start of this stage",
         metavar="STAGE"),
    Flag("emit", "value", "after the pipeline, translate its result (the LLVM dialect) "
         "in this process, as tileopt-translate --emit=KIND does: llvm-ir, ptx, cubin, "
         "amdgcn or hsaco", metavar="KIND"),
    Flag("arch", "value", "the GPU --emit compiles for, e.g. sm_90a or gfx942 (default: the "
         "YAML pipeline's target, else the module's ttg.target)", metavar="ARCH"),
    Flag("split-input-file", "bool", "split the input at '// -----' lines, run each part on "
         "its own and join the outputs with '// -----'"),
    Flag("verify-diagnostics", "bool", "check the diagnostics against expected-error/"
         "-warning/-remark/-note comments in the input"),
    Flag("allow-unregistered-dialect", "bool", "accept operations of unknown dialects"),
    Flag("no-implicit-module", "bool", "the input must be one 'builtin.module' (ops are not "
         "wrapped in one)"),
    Flag("verify-each", "bool", "verify the IR after each pass (default: true)", default=True),
    Flag("load-pass-plugin", "list", "load a Python file that registers passes (repeatable)",
         metavar="FILE"),
    Flag("triton-version", "value", "compile and print as this Triton release does: 3.6 "
         "or 3.9 (default: the YAML pipeline's triton-version, else what the input's text "
         "shows, else 3.6; docs/triton-versions.md)", metavar="VERSION"),
    Flag("mlir-print-debuginfo", "bool", "print loc(...) locations"),
    Flag("mlir-pretty-debuginfo", "bool", "with --mlir-print-debuginfo, print locations in "
         "MLIR's pretty form (file:line:col, no loc(...) and no aliases)"),
    Flag("mlir-elide-elementsattrs-if-larger", "value", "print a non-splat dense attribute "
         "with more than N elements as dense_resource<__elided__>", metavar="N"),
    Flag("mlir-print-value-users", "bool", "after each op, a comment naming the users of "
         "its results (and of block arguments), as MLIR prints them"),
    Flag("mlir-print-local-scope", "bool", "print every attribute, type and location in place "
         "(no #alias definitions)"),
    Flag("mlir-print-op-generic", "bool", "print every operation in the generic form"),
    Flag("mlir-use-nameloc-as-prefix", "bool", "name values after their loc(\"name\") "
         "locations, as Triton's Python prints its files (default: %0, %arg0, %c1_i32, as "
         "triton-opt)"),
    Flag("input-uses-nameloc-as-prefix", "bool", "the input was printed with names from "
         "loc(\"name\") locations, as Triton's Python prints its files: a block argument "
         "the text gives no location (scf.for %off) gets back the loc(\"off\") its name "
         "shows (default: none, as triton-opt)"),
    Flag("show-dialects", "bool", "list the dialects tileopt reads and exit"),
    Flag("emit-bytecode", "bool", "MLIR bytecode output (refused: tileopt writes text only)"),
    Flag("mlir-print-ir-before", "list", "print the IR before these passes (comma separated, "
         "repeatable)", metavar="PASS"),
    Flag("mlir-print-ir-after", "list", "print the IR after these passes (comma separated, "
         "repeatable)", metavar="PASS"),
    Flag("mlir-print-ir-before-all", "bool", "print the IR before every pass"),
    Flag("mlir-print-ir-after-all", "bool", "print the IR after every pass"),
    Flag("mlir-print-ir-after-change", "bool", "print the IR after a pass only if the pass "
         "changed it (alone: after every pass that changed it)"),
    Flag("mlir-print-ir-after-failure", "bool", "print the IR after a pass that failed"),
    Flag("mlir-print-ir-tree-dir", "value", "write the IR dumps of --mlir-print-ir-* into "
         "a tree of files under this directory (a directory per op, as MLIR)",
         metavar="DIR"),
    Flag("mlir-print-ir-module-scope", "bool", "accepted for compatibility (IR dumps always "
         "print the whole module)"),
    Flag("mlir-timing", "bool", "print a per-pass wall-time report on stderr"),
    Flag("mlir-pass-statistics", "bool", "print what each pass counted (MLIR's pass "
         "statistics report) on stderr"),
    Flag("debug-only", "list", "show the debug messages of these passes (each pass's "
         "channel is its name; comma separated, repeatable)", metavar="PASS"),
    Flag("mlir-timing-display", "value", "how --mlir-timing shows it: tree (passes under "
         "their pipelines, the default) or list (each pass once, longest first)",
         metavar="tree|list"),
    Flag("mlir-disable-threading", "bool", "accepted for compatibility (tileopt runs on one "
         "thread)"),
    Flag("dump-pass-pipeline", "bool", "print the pipeline to run on stderr"),
    Flag("list-passes", "bool", "list registered passes with their options and exit"),
    Flag("list-pipelines", "bool", "list the YAML pipelines found and exit"),
    Flag("run-reproducer", "bool", "run the pipeline named in the input's mlir_reproducer "
         "entry (a reproducer written by MLIR, Triton or tileopt)"),
    Flag("mlir-pass-pipeline-crash-reproducer", "value", "when a pass fails, write the IR it "
         "started from and that pass as a reproducer to this file", metavar="FILE"),
    Flag("timeout", "value", "stop with an error after this many seconds", metavar="S"),
    Flag("debug", "bool", "show Python tracebacks (also: TILEOPT_DEBUG=1)"),
    Flag("version", "bool", "print the tileopt version and exit"),
    Flag("help", "bool", "show this help", aliases=("h",)),
]


def run_opt(argv: list[str]) -> int:
    """Run ``tileopt`` with ``argv`` (program name excluded); return the exit code."""
    debug = debug_enabled(any(a in ("-debug", "--debug", "--debug=true") for a in argv))
    try:
        # Plugins first: the passes they register are valid flags.
        for arg_index, arg in enumerate(argv):
            for prefix in ("-load-pass-plugin", "--load-pass-plugin"):
                if arg == prefix and arg_index + 1 < len(argv):
                    load_plugin_file(argv[arg_index + 1])
                elif arg.startswith(prefix + "="):
                    load_plugin_file(arg[len(prefix) + 1:])
        # Pass flags are told from typos by name: a pass's module is imported when the
        # pipeline is built, and only for the passes it runs.
        args = parse_argv(argv, FLAGS, is_pass=registry.is_builtin_or_registered,
                          pass_names=registry.pass_names)
        with time_limit(parse_timeout(args.timeout)):
            return _run(args)
    except RunTimedOut as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (``tileopt ... | head``): stop quietly, as other tools do.
        return quiet_broken_pipe()
    except Exception as err:
        return report_failure(err, debug)


def _run(args: ParsedArgs) -> int:
    if answered_help_or_version(args, usage):
        return 0
    if args.list_passes or args.list_pipelines:
        from tileopt.driver.listing import list_passes_text, list_pipelines_text

        sys.stdout.write(list_passes_text() if args.list_passes else list_pipelines_text())
        return 0
    if args.show_dialects:
        from tileopt.ir import make_context

        names = sorted(make_context().registered_dialect_names)
        sys.stdout.write("Available Dialects: " + ", ".join(names) + "\n")
        return 0
    if args.emit_bytecode:
        raise TileoptError("--emit-bytecode is not supported: tileopt reads and writes MLIR "
                           "text only")
    if len(args.positionals) > 1:
        raise TileoptError(f"too many input files: {' '.join(args.positionals)}")
    path = args.positionals[0] if args.positionals else "-"
    _check_emit_flags(args)
    if args.triton_version is not None:
        from tileopt.dialects.triton_version import check_version

        try:
            args.values["triton_version"] = check_version(args.triton_version)
        except ValueError as err:
            raise TileoptError(f"--triton-version: {err}") from None
    from tileopt.driver.input import SPLIT_MARKER, read_input, split_input
    from tileopt.driver.reproducer import split_reproducer

    verify_each = args.verify_each
    if args.run_reproducer:
        # The pipeline is in the input: read it first.
        if args.pass_pipeline is not None or args.pass_flags:
            raise TileoptError("--run-reproducer runs the pipeline the input names: it "
                               "cannot be combined with --pass-pipeline or pass flags")
        text, filename = read_input(path)
        text, reproducer = split_reproducer(text, filename)
        if reproducer is None:
            raise TileoptError("--run-reproducer: the input has no 'mlir_reproducer' entry "
                               "in a {-# external_resources: ... #-} block", filename)
        from tileopt.pipelines import resolve_pass_pipeline

        pipeline = _sliced(resolve_pass_pipeline(reproducer.pipeline), args)
        verify_each = reproducer.verify_each
        if args.dump_pass_pipeline:
            sys.stderr.write(pipeline.text() + "\n")
    else:
        pipeline = _build_pipeline(args)
        if args.dump_pass_pipeline:
            sys.stderr.write(_or_empty(pipeline).text() + "\n")
            if path == "-" and sys.stdin is not None and sys.stdin.isatty():
                return 0  # nothing to run it on: don't wait for a terminal to type IR
        text, filename = read_input(path)
        text, _ = split_reproducer(text, filename)  # an input may carry one: parse it too

    if args.mlir_timing_display not in (None, "tree", "list"):
        raise TileoptError(f"--mlir-timing-display must be tree or list, not "
                           f"'{args.mlir_timing_display}'")
    timer = crash_reproducer = checker = None
    if args.mlir_timing:
        from tileopt.driver.instrumentation import Timer

        timer = Timer()
    printer = _ir_printer(args)
    if args.mlir_pass_pipeline_crash_reproducer:
        from tileopt.driver.crash_reproducer import CrashReproducer

        crash_reproducer = CrashReproducer(args.mlir_pass_pipeline_crash_reproducer,
                                           verify_each)
    instrumentations = [i for i in (printer, timer, crash_reproducer) if i is not None]

    if args.verify_diagnostics:
        from tileopt.driver.verify_diagnostics import DiagnosticChecker

        checker = DiagnosticChecker(filename)
    statistics: dict[int, dict[str, list]] | None = {} if args.mlir_pass_statistics else None
    if args.debug_only:
        from tileopt.passes.statistics import enable_debug_channels

        enable_debug_channels([name.strip() for value in args.debug_only
                               for name in value.split(",") if name.strip()])
    # As mlir-opt: every part is processed even when an earlier one failed; on stdout each
    # part's output appears as soon as it is done (so it interleaves with its errors), while
    # an -o file is written once, at the end, only if every part succeeded.
    streaming = args.o in (None, "-") and checker is None and args.emit is None
    outputs: list[str] = []
    failed = False
    for chunk in split_input(text, args.split_input_file):
        try:
            output = _run_chunk(chunk, filename, pipeline, args, instrumentations, timer,
                                checker, verify_each, statistics)
        except (TileoptError, InternalPassError) as err:
            if checker is not None and isinstance(err, TileoptError):
                checker.add_error(err)
                continue
            report_failure(err, args.debug)
            failed = True
            continue
        if streaming:
            write_stdout(SPLIT_MARKER + "\n" + output if outputs else output)
        outputs.append(output)

    if outputs and pipeline is not None:
        # Once per run, not per part, and only over output that was made: it is not what
        # the stage names promise (a run that failed says why, and nothing more).
        for line in pipeline.incomplete_stages():
            sys.stderr.write(f"warning: {line}\n")
    ok = not failed
    if checker is not None:
        ok = checker.check_expectations(text, args.split_input_file) and ok
        checker.report(sys.stderr)
    start = time.perf_counter()
    if ok and not streaming:
        write_output(outputs[0] if args.emit else f"{SPLIT_MARKER}\n".join(outputs), args.o)
    if statistics is not None:
        from tileopt.driver.instrumentation import statistics_report

        sys.stderr.write(statistics_report(_or_empty(pipeline), statistics))
    if timer is not None:
        timer.add_phase("Output", time.perf_counter() - start)
        sys.stderr.write(timer.report(_or_empty(pipeline), args.mlir_timing_display or "tree"))
    return 0 if ok else 1


def _run_chunk(chunk: InputChunk, filename: str, pipeline: Pipeline | None, args: ParsedArgs,
               instrumentations: list, timer: Timer | None,
               checker: DiagnosticChecker | None, verify_each: bool,
               statistics: dict[int, dict[str, list]] | None = None) -> str | bytes:
    """Parse, verify, run the pipeline over, and print one part of the input (or, with
    ``--emit``, translate it)."""
    from tileopt.driver import ir_io
    from tileopt.ir import make_context

    start = time.perf_counter()
    ctx = make_context(allow_unregistered=args.allow_unregistered_dialect)
    module = ir_io.parse(chunk.padded_text(), filename, ctx,
                         implicit_module=not args.no_implicit_module,
                         arg_name_locs=args.input_uses_nameloc_as_prefix)
    if timer is not None:
        timer.add_phase("Parser", time.perf_counter() - start)
    start = time.perf_counter()
    # Without a pass, nothing observing passes and no version to set, the pass manager
    # would do nothing: it is not imported (issue 14: a run that parses and prints).
    if pipeline is not None or instrumentations or statistics is not None or \
            args.triton_version is not None:
        from tileopt.driver.pass_manager import PassManager

        manager = PassManager(_or_empty(pipeline), filename, verify_each, instrumentations,
                              diagnostics=checker, statistics=statistics,
                              triton_version=args.triton_version)
        try:
            manager.run(ctx, module)
        finally:
            if timer is not None:
                timer.add_phase("Pipeline", time.perf_counter() - start)
    start = time.perf_counter()
    if args.emit is not None:
        from tileopt.driver.translate import emit_code

        target = pipeline.target if pipeline is not None else None
        result = emit_code(module, args.emit, args.arch or target, filename)
        if timer is not None:
            timer.add_phase("Translate", time.perf_counter() - start)
        return result
    text = ir_io.render(module, _print_options(args))
    if timer is not None:
        timer.add_phase("Output", time.perf_counter() - start)
    return text


def _check_emit_flags(args: ParsedArgs) -> None:
    """``--emit`` makes code of one module; refuse what it cannot mean before any work."""
    if args.emit is None:
        if args.arch is not None:
            raise TileoptError("--arch is for --emit: give --emit=KIND too")
        return
    from tileopt.driver.translate import check_emit  # the back ends, only when emitting
    from tileopt.target import llvm_backend

    check_emit(args.emit, args.o)
    for flag in ("split-input-file", "verify-diagnostics"):
        if args.values[flag.replace("-", "_")]:
            raise TileoptError(f"--emit cannot be combined with --{flag}: it makes code of "
                               "one module")
    llvm_backend.start_worker()  # LLVM loads in it while this process runs the passes


def _ir_printer(args: ParsedArgs) -> IRPrinter | None:
    before = _pass_names(args.mlir_print_ir_before, "mlir-print-ir-before")
    after = _pass_names(args.mlir_print_ir_after, "mlir-print-ir-after")
    if not (before or after or args.mlir_print_ir_before_all or args.mlir_print_ir_after_all
            or args.mlir_print_ir_after_change or args.mlir_print_ir_after_failure):
        return None
    from tileopt.driver.instrumentation import IRPrinter

    return IRPrinter(before=before, after=after, before_all=args.mlir_print_ir_before_all,
                     after_all=args.mlir_print_ir_after_all,
                     only_if_changed=args.mlir_print_ir_after_change,
                     after_failure=args.mlir_print_ir_after_failure,
                     print_options=_print_options(args), tree_dir=args.mlir_print_ir_tree_dir)


def _print_options(args: ParsedArgs) -> PrintOptions:
    from tileopt.driver import ir_io

    elide = None
    if args.mlir_elide_elementsattrs_if_larger is not None:
        try:
            elide = int(args.mlir_elide_elementsattrs_if_larger)
        except ValueError:
            elide = -1
        if elide < 0:
            raise TileoptError("--mlir-elide-elementsattrs-if-larger takes a number of "
                               f"elements, not '{args.mlir_elide_elementsattrs_if_larger}'")
    return ir_io.PrintOptions(args.mlir_print_debuginfo, args.mlir_print_local_scope,
                              args.mlir_print_op_generic, elide, args.mlir_pretty_debuginfo,
                              args.mlir_print_value_users,
                              args.mlir_use_nameloc_as_prefix)


def _pass_names(values: list[str], flag: str) -> set[str]:
    names = set()
    for value in values:
        for name in filter(None, (part.strip() for part in value.split(","))):
            if get_pass(name) is None:
                from tileopt.pipelines.model import Where, unknown_pass_error
                raise unknown_pass_error(name, Where("<command line>"))
            names.add(name)
    return names


def _build_pipeline(args: ParsedArgs) -> Pipeline | None:
    """The pipeline the flags ask for; None for none (no pass, no stage slicing)."""
    if args.pass_pipeline is None and not args.pass_flags and args.start_at is None \
            and args.stop_after is None:
        return None
    from tileopt.driver import code_cache
    from tileopt.pipelines import definition_cache, resolve_pass_pipeline
    from tileopt.pipelines.model import Pipeline

    if code_cache.installed():  # a command (not tileopt used as a library) keeps its caches
        definition_cache.enable()
    if args.pass_pipeline is not None and args.pass_flags:
        flags = " ".join(f"--{name}" for name, _ in args.pass_flags)
        raise TileoptError(f"--pass-pipeline cannot be combined with pass flags ({flags})")
    if args.pass_pipeline is not None:
        pipeline = resolve_pass_pipeline(args.pass_pipeline)
    else:
        pipeline = Pipeline([_flag_step(name, value) for name, value in args.pass_flags])
    return _sliced(pipeline, args)


def _or_empty(pipeline: Pipeline | None) -> Pipeline:
    from tileopt.pipelines.model import Pipeline

    return Pipeline([]) if pipeline is None else pipeline


def _sliced(pipeline: Pipeline, args: ParsedArgs) -> Pipeline:
    from tileopt.pipelines import slice_stages

    if args.stop_after is not None or args.start_at is not None:
        pipeline = slice_stages(pipeline, args.start_at, args.stop_after)
    return pipeline


def _flag_step(name: str, value: str | None):
    """``--pass`` or ``--pass="a=1 b=2"`` (or LLVM's ``-pass=a=1``)."""
    from tileopt.passes.options import OptionTextError, split_option_text
    from tileopt.pipelines.model import OptionInput, Where, make_step

    where = Where("<command line>")
    if value is None:
        return make_step(name, [], where)
    text = value[1:-1] if value.startswith("{") and value.endswith("}") else value
    try:
        assignments = split_option_text(text)
    except OptionTextError as err:
        raise where.error(f"in options of --{name}: {err.message}") from None
    options = [OptionInput(a.key, a.value, where, where) for a in assignments]
    return make_step(name, options, where)


def usage() -> str:
    return format_help("tileopt [options] [--PASS[=OPTIONS] ...] [input-file|-]", FLAGS,
                       "Run passes over an MLIR/Triton file, as mlir-opt and triton-opt do. "
                       "Flags take one or two dashes; every registered pass is a flag too "
                       "(see --list-passes).")
