"""The LLVM worker (``llvm_backend.run_isolated``): one forked child runs LLVM's code
generation for call after call; an LLVM abort kills only the worker and becomes an error,
and the next call gets a new worker. A translation reaches code generation as llvmlite
prints it, parsed only in the worker (``llvm_backend.TranslatedIR``); a process that has not
loaded LLVM's library leaves all LLVM work to the worker (``llvm_backend.llvm_call``),
which a command starts early."""

from __future__ import annotations

import os
import signal

import pytest

from tileopt.ir import TileoptError
from tileopt.ir import parse_module
from tileopt.target import llvm_backend, translate
from tileopt.target.llvm_ir import module_to_llvm_ir

# wgmma exists only on sm_90a: LLVM aborts in instruction selection for sm_80.
WGMMA = """module {
  llvm.func @k() attributes {nvvm.kernel} {
    nvvm.wgmma.fence.aligned
    llvm.return
  }
}"""
EMPTY = """module {
  llvm.func @k() attributes {nvvm.kernel} {
    llvm.return
  }
}"""


@pytest.fixture(autouse=True)
def forked(monkeypatch):
    monkeypatch.delenv("TILEOPT_LLVM_IN_PROCESS", raising=False)


def _worker_pid() -> int | None:
    worker = llvm_backend._Worker.live  # noqa: SLF001
    return worker.pid if worker is not None else None


def test_one_worker_serves_several_calls_and_reports_its_cpu_time():
    translate(EMPTY, "ptx", "sm_80")
    first = _worker_pid()
    assert first is not None and first != os.getpid()
    before = llvm_backend.worker_cpu_seconds()
    translate(WGMMA, "ptx", "sm_90a")
    assert _worker_pid() == first
    assert llvm_backend.worker_cpu_seconds() > before > 0


def test_an_abort_is_an_error_and_the_next_call_gets_a_new_worker():
    translate(EMPTY, "ptx", "sm_80")
    first = _worker_pid()
    with pytest.raises(TileoptError, match="LLVM failed during PTX generation for sm_80: "
                                           "Cannot select: intrinsic %llvm.nvvm.wgmma.fence"):
        translate(WGMMA, "ptx", "sm_80")
    assert _worker_pid() is None
    assert "wgmma.fence.sync.aligned" in translate(WGMMA, "ptx", "sm_90a")
    assert _worker_pid() not in (None, first)


def test_the_message_of_an_abort_is_that_calls_own():
    # What an earlier call wrote on the worker's stderr is not taken for the reason.
    assert llvm_backend.run_isolated(_say, (b"LLVM ERROR: stale\n",), "the probe") == b""
    with pytest.raises(TileoptError) as caught:
        llvm_backend.run_isolated(_abort, (), "the probe")
    assert caught.value.message == "LLVM failed during the probe: exit status -6"


def _say(text: bytes) -> bytes:
    os.write(2, text)
    return b""


def _abort() -> bytes:
    os.abort()


def test_a_worker_killed_between_calls_is_replaced_silently():
    translate(EMPTY, "ptx", "sm_80")
    first = _worker_pid()
    os.kill(first, signal.SIGKILL)
    assert "wgmma.fence.sync.aligned" in translate(WGMMA, "ptx", "sm_90a")
    assert _worker_pid() not in (None, first)


def test_errors_raised_in_the_worker_keep_their_kind():
    def raising(kind):
        return llvm_backend.run_isolated(_raise, (kind,), "the probe")

    with pytest.raises(TileoptError) as caught:
        raising("tileopt")
    assert caught.value.message == "at the probe"
    with pytest.raises(TileoptError, match="the probe failed: ValueError: other"):
        raising("other")
    assert llvm_backend.run_isolated(_echo, (b"back",), "the probe") == b"back"


def _raise(kind: str) -> bytes:
    if kind == "tileopt":
        raise TileoptError("at the probe")
    raise ValueError("other")


def _echo(data: bytes) -> bytes:
    return data


def test_a_forked_copy_of_this_process_does_not_use_its_worker():
    translate(EMPTY, "ptx", "sm_80")
    parents = _worker_pid()
    read_end, write_end = os.pipe()
    child = os.fork()
    if child == 0:
        try:
            ok = llvm_backend.worker_cpu_seconds() == 0.0 and _worker_pid() is None and \
                "wgmma.fence.sync.aligned" in translate(WGMMA, "ptx", "sm_90a") and \
                _worker_pid() not in (None, parents)
            os.write(write_end, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(write_end)
    answer = os.read(read_end, 1)
    os.waitpid(child, 0)
    os.close(read_end)
    assert answer == b"1"
    assert _worker_pid() == parents
    assert "wgmma.fence.sync.aligned" in translate(WGMMA, "ptx", "sm_90a")


def test_in_process_mode_has_no_worker(monkeypatch):
    monkeypatch.setenv("TILEOPT_LLVM_IN_PROCESS", "1")
    if llvm_backend._Worker.live is not None:  # noqa: SLF001
        llvm_backend._Worker.live.close()  # noqa: SLF001
    assert "wgmma.fence.sync.aligned" in translate(WGMMA, "ptx", "sm_90a")
    assert _worker_pid() is None


BRANCHES = """module {
  llvm.func @k(%c: i1, %a: i32, %p: !llvm.ptr<1>) attributes {rocdl.kernel} {
    llvm.cond_br %c, ^bb1, ^bb2(%a : i32)
  ^bb1:
    %0 = llvm.mul %a, %a : i32
    llvm.br ^bb2(%0 : i32)
  ^bb2(%r: i32):
    llvm.store %r, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}"""


def test_code_from_a_translation_is_parsed_only_in_the_worker(monkeypatch):
    # The parent prints the translation and hands the text over: no parse, no LLVM form.
    parsed = []
    real = llvm_backend.llvm.parse_assembly
    monkeypatch.setattr(llvm_backend.llvm, "parse_assembly",
                        lambda text: parsed.append(text) or real(text))
    code = translate(parse_module(BRANCHES), "amdgcn", "gfx942")
    assert parsed == []
    # What the worker compiles is the module that --emit=llvm-ir prints (values unnamed:
    # a named block would show in the assembly's comments).
    monkeypatch.undo()
    llvm_ir = module_to_llvm_ir(parse_module(BRANCHES), "gfx942")
    assert code == translate(llvm_ir, "amdgcn", "gfx942", opt_level=3)


# In a fresh interpreter (pytest's own has loaded LLVM by now): translate with and without
# the worker, and say whether the process itself ever loaded LLVM's library.
_FRESH = """
import json, sys
from tileopt.ir import TileoptError
from tileopt.target import translate
out = {"ptx": translate(sys.argv[1], "ptx", "sm_80")}
try:
    translate(sys.argv[2], "ptx", "sm_80", "bad.ll")
except TileoptError as err:
    out["error"] = err.format()
out["loaded"] = "llvmlite.binding" in sys.modules
print(json.dumps(out))
"""
BAD_LLVM_IR = "define void @f() {\n  ret i32 0\n}\n"


def _fresh(in_process: bool) -> dict:
    import json
    import subprocess
    import sys

    env = dict(os.environ, TILEOPT_LLVM_IN_PROCESS="1" if in_process else "0")
    done = subprocess.run([sys.executable, "-c", _FRESH, EMPTY, BAD_LLVM_IR], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def test_a_process_that_never_loaded_llvm_leaves_all_llvm_work_to_its_worker():
    forked, in_process = _fresh(in_process=False), _fresh(in_process=True)
    assert not forked["loaded"] and in_process["loaded"]
    # The same PTX, and LLVM's parse error with its location, from either process.
    assert forked["ptx"] == in_process["ptx"] and ".entry k" in forked["ptx"]
    assert forked["error"] == in_process["error"]
    assert forked["error"].startswith("bad.ll:2:7: error: invalid LLVM IR: ")


def test_the_command_starts_its_worker_before_the_passes_and_never_loads_llvm(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    example = Path(__file__).resolve().parents[3] / "examples" / "kernels" / "softmax.ttir"
    script = ("import sys\n"
              "from tileopt.driver.opt import run_opt\n"
              "from tileopt.target import llvm_backend\n"
              "import tileopt.driver.pass_manager as pm\n"
              "run_pass = pm.PassManager._run_pass\n"
              "seen = []\n"
              "def spy(self, *args, **kwargs):\n"
              "    seen.append(llvm_backend._Worker.live is not None)\n"
              "    return run_pass(self, *args, **kwargs)\n"
              "pm.PassManager._run_pass = spy\n"
              "status = run_opt(sys.argv[1:])\n"
              "print(status, seen[0], 'llvmlite.binding' in sys.modules)\n")
    env = dict(os.environ, TILEOPT_LLVM_IN_PROCESS="0")
    done = subprocess.run([sys.executable, "-c", script, str(example),
                           "--pass-pipeline=nvidia-sm90", "--emit=ptx", "-o",
                           str(tmp_path / "k.ptx")], env=env, capture_output=True, text=True)
    assert done.stdout.split() == ["0", "True", "False"], done.stderr
    assert ".entry" in (tmp_path / "k.ptx").read_text()


def test_a_worker_started_early_and_never_used_is_not_waited_for(monkeypatch):
    if llvm_backend._Worker.live is not None:  # noqa: SLF001
        llvm_backend._Worker.live.close()  # noqa: SLF001
    llvm_backend.start_worker()  # LLVM is loaded here (pytest's process): nothing to start
    assert llvm_backend._Worker.live is None  # noqa: SLF001
    monkeypatch.setattr(llvm_backend, "loaded_here", lambda: False)  # as a command's process
    llvm_backend.start_worker()
    worker = llvm_backend._Worker.live  # noqa: SLF001
    assert worker is not None and worker.calls == 0
    llvm_backend._end_worker()  # noqa: SLF001  (what happens at exit)
    assert worker.pid is None and llvm_backend._Worker.live is None  # noqa: SLF001
    assert "wgmma.fence.sync.aligned" in translate(WGMMA, "ptx", "sm_90a")


def test_a_call_interrupted_midway_leaves_no_reply_for_the_next(monkeypatch):
    translate(EMPTY, "ptx", "sm_80")
    first = _worker_pid()

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(llvm_backend, "_receive", interrupted)
    with pytest.raises(KeyboardInterrupt):
        translate(EMPTY, "ptx", "sm_90a")
    monkeypatch.undo()
    assert _worker_pid() is None  # the worker that still owed a reply is gone
    # (were it kept, this call would read the interrupted call's reply: no wgmma)
    assert "wgmma.fence.sync.aligned" in translate(WGMMA, "ptx", "sm_90a")
    assert _worker_pid() not in (None, first)


def test_calls_from_threads_take_turns():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        texts = list(pool.map(lambda kernel: translate(kernel, "ptx", "sm_90a"),
                              [WGMMA, EMPTY] * 4))
    assert all(("wgmma.fence.sync.aligned" in text) == (i % 2 == 0)
               for i, text in enumerate(texts))
