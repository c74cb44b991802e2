"""Console entry points: the commands ``tileopt``, ``tileopt-translate``, ``tileopt-layout``
and ``tileopt-run``.

Flags follow LLVM's command line (one or two dashes, every pass is a flag), which an
argument library cannot describe, so each command hands its raw arguments to the driver
(``tileopt.driver.argv``). No such library is imported either: a start-up that answers
``--help`` in a blink is part of the tool (issue 14).

With ``TILEOPT_SERVER=1`` a command first asks a warm compile server to run it
(``tileopt.driver.client``, docs/server.md); only the client is imported then. Without
one it runs here, as always, and starts a server for the next command.
"""

from __future__ import annotations

import sys


def tileopt_main(argv: list[str] | None = None) -> None:
    """Run passes over an MLIR/Triton file (like mlir-opt / triton-opt)."""
    spawn = _through_server("tileopt", argv)
    from tileopt.driver import code_cache
    from tileopt.driver.opt import run_opt  # imports no xDSL: --help reads no cache

    code_cache.install()  # before xDSL defines its attribute classes

    status = run_opt(sys.argv[1:] if argv is None else list(argv))
    _exit(status, spawn, console=argv is None)


def translate_main(argv: list[str] | None = None) -> None:
    """Translate MLIR (LLVM dialect) to LLVM IR, PTX, AMDGCN or hsaco."""
    spawn = _through_server("tileopt-translate", argv)
    from tileopt.driver import code_cache

    code_cache.install()
    from tileopt.driver.translate import run_translate

    status = run_translate(sys.argv[1:] if argv is None else list(argv))
    _exit(status, spawn, console=argv is None)


def layout_main(argv: list[str] | None = None) -> None:
    """Show which thread holds which element of a tensor under a layout (click command)."""
    spawn = _through_server("tileopt-layout", argv)
    from tileopt.layout_cli import main

    _run_click(main, argv, spawn)


def run_main(argv: list[str] | None = None) -> None:
    """Run a compiled kernel on the CPU with GPU semantics (click command)."""
    spawn = _through_server("tileopt-run", argv)
    from tileopt.run.cli import main

    _run_click(main, argv, spawn)


def _run_click(command, argv: list[str] | None, spawn: bool) -> None:
    try:
        command.main(args=argv)  # standalone: ends with SystemExit
        status = 0
    except SystemExit as exit:
        status = exit.code
    _exit(status, spawn)


def _through_server(tool: str, argv: list[str] | None) -> bool:
    """Run the command in a server when ``TILEOPT_SERVER=1`` and one answers (this
    process then exits with its status); else True if a server should be started for the
    next command once this one has run here."""
    import os

    # client.enabled()'s test, made before importing the client (sockets, selectors: 4%
    # of a run without passes), which TILEOPT_SERVER=0 does not need
    if argv is not None or os.environ.get("TILEOPT_SERVER") != "1":
        return False
    from tileopt.driver import client

    if not client.enabled():
        return False
    outcome = client.run(tool, sys.argv)
    if outcome.status is not None:
        sys.exit(outcome.status)
    return outcome.spawn


def _exit(status: int | str | None, spawn: bool, console: bool = False) -> None:
    if spawn:  # after the run: starting it must not slow this command down
        from tileopt.driver import client

        client.spawn_server()
    if console:  # the process ends here: without the interpreter's teardown
        from tileopt.driver.process_exit import end_command

        end_command(status)
    sys.exit(status)
