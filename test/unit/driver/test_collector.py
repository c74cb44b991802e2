"""The collector in a console command (``tileopt/ir/gc_scans.py``'s
``pause_for_start_up``): paused for the start-up, collecting once the work on the IR
starts, the heap frozen at exit. Each case runs a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys
import textwrap

PLUGIN = '''
import gc, sys
from tileopt.passes import Pass, register_pass

@register_pass
class ReportCollector(Pass):
    """Say whether the collector runs while a pass does."""

    name = "test-report-collector"

    def apply(self, ctx, op):
        print("collector on during the pass:", gc.isenabled(), file=sys.stderr)
'''


def run(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args],
                          capture_output=True, text=True)


def test_paused_for_the_start_up_and_resumed_for_the_passes(tmp_path):
    plugin = tmp_path / "report_collector.py"
    plugin.write_text(PLUGIN)
    source = tmp_path / "k.mlir"
    source.write_text("func.func @f() {\n  func.return\n}\n")
    done = run("""
        import gc, sys
        from tileopt.driver import code_cache
        code_cache.install()  # what the console commands do first
        print("collector on after the start:", gc.isenabled(), file=sys.stderr)
        from tileopt.driver.opt import run_opt
        sys.exit(run_opt(sys.argv[1:]))
    """, "--load-pass-plugin", str(plugin), str(source), "--test-report-collector")
    assert done.returncode == 0, done.stderr
    assert "collector on after the start: False" in done.stderr
    assert "collector on during the pass: True" in done.stderr
    assert "func.func @f()" in done.stdout


def test_a_collector_turned_off_by_the_process_stays_off():
    done = run("""
        import gc
        from tileopt.ir import gc_scans
        gc.disable()
        gc_scans.pause_for_start_up()
        gc_scans.heap_frozen(lambda: None)()
        print(gc.isenabled())
    """)
    assert done.stdout.split() == ["False"]


def test_the_heap_is_frozen_at_exit_after_the_other_handlers():
    # An object in a reference cycle with a finalizer: frozen at exit, it is left to the
    # operating system instead of being finalized by the last collection.
    done = run("""
        import atexit, gc
        from tileopt.ir import gc_scans

        class Cycle:
            def __del__(self):
                print("finalized")

        gc_scans.pause_for_start_up()
        atexit.register(lambda: print("handler sees frozen objects:", gc.get_freeze_count()))
        cycle = Cycle()
        cycle.me = cycle
        del cycle
    """)
    assert done.stdout.splitlines() == ["handler sees frozen objects: 0"]
