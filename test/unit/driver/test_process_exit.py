"""The console commands end without the interpreter's teardown
(``tileopt/driver/process_exit.py``): the exit handlers still run, the output is
flushed, the status is the command's, and nothing is left for a teardown to do. Each case
runs a fresh interpreter as the console script does (``tileopt_main()``, no arguments)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

CONSOLE = """
import atexit, os, sys

class TornDown:
    def __del__(self, write=os.write):  # (module globals may be gone by then)
        write(2, b"torn down\\n")

kept = TornDown()  # a module global: only the interpreter's teardown finalizes it
atexit.register(lambda: print("exit handler", file=sys.stderr))
from tileopt.cli import {entry}
sys.argv[0] = "tileopt"
{entry}()
"""

MODULE = "func.func @f() {\n  func.return\n}\n"


def run(entry: str, *args: str) -> subprocess.CompletedProcess:
    code = textwrap.dedent(CONSOLE.format(entry=entry))
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True,
                          text=True)


@pytest.mark.parametrize("good", [True, False])
def test_the_command_ends_without_the_teardown(tmp_path, good):
    source = tmp_path / "k.mlir"
    source.write_text(MODULE if good else "func.func @f( {\n")
    done = run("tileopt_main", str(source))
    assert done.returncode == (0 if good else 1)
    assert ("func.func @f()" in done.stdout) == good  # a pipe: flushed at the end
    lines = done.stderr.splitlines()
    assert lines[-1] == "exit handler" and "torn down" not in lines
    assert ("error:" in done.stderr) != good


def test_the_translate_command_too(tmp_path):
    source = tmp_path / "k.mlir"
    source.write_text("llvm.func @f() {\n  llvm.return\n}\n")
    done = run("translate_main", str(source), "--mlir-to-llvmir")
    assert done.returncode == 0, done.stderr
    assert "define void @f()" in done.stdout
    assert done.stderr.splitlines() == ["exit handler"]


def test_a_run_in_process_is_not_ended():
    # tileopt_main(argv), as the compile server's child and tests call it: SystemExit.
    code = textwrap.dedent("""
        from tileopt.cli import tileopt_main
        try:
            tileopt_main(["--version"])
        except SystemExit as exit:
            print("still here", exit.code)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines()[-1] == "still here 0", done.stderr


def test_a_standard_output_that_fails_is_left_to_python():
    # A standard output that cannot be flushed: Python's own exit says so and exits with
    # 120, as without the change, and the exit handlers have run once.
    code = textwrap.dedent("""
        import atexit, sys
        from tileopt.driver.process_exit import end_command

        class Failing:
            def flush(self):
                raise BrokenPipeError(32, "Broken pipe")

        atexit.register(lambda: print("exit handler", file=sys.stderr))
        sys.stdout = Failing()
        end_command(0)
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 120, done.stderr
    assert "BrokenPipeError" in done.stderr
    assert done.stderr.count("exit handler") == 1


def test_a_status_python_prints_is_left_to_python():
    code = textwrap.dedent("""
        import sys
        from tileopt.driver.process_exit import end_command
        end_command("a message")
        sys.exit("a message")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (1, "a message\n")
