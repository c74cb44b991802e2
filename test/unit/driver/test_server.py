"""The compile server (tileopt/driver/server.py, client.py; docs/server.md).

Each command runs cold (``TILEOPT_SERVER=0``) and through a server this module starts in a
temporary folder: stdout, stderr, exit status and written files must be the same bytes,
and the server must have served it. Then what a server must never do: serve a changed
tileopt, outlive its client's command, or leave processes behind (every server started
here is stopped, and killed if it does not stop).
"""

from __future__ import annotations

import os
import pty
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

import tileopt
from tileopt.driver import client
from tileopt.driver.server import Fingerprint

pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self").exists(),
                                reason="the server needs fork, Unix sockets and /proc")

REPO = Path(tileopt.__file__).resolve().parent.parent
PLUGIN = REPO / "test" / "lit" / "driver" / "Inputs" / "test_passes.py"
SIMPLE = REPO / "test" / "lit" / "driver" / "Inputs" / "simple.mlir"
SOFTMAX = REPO / "examples" / "kernels" / "softmax.ttir"
SLEEPER = '''
import os, time
from tileopt.passes import Pass, register_pass

@register_pass
class Sleep(Pass):
    """Tell the test it runs (a marker file), then take a minute."""

    name = "test-sleep"

    def apply(self, ctx, op):
        open(os.environ["SLEEP_MARKER"], "w").close()
        time.sleep(60)
'''


def tool(name: str) -> str:
    return str(Path(sys.executable).parent / name)


def server_processes(directory: str) -> list[int]:
    """The server processes whose socket is in ``directory``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"serve" in command and any(a.startswith(os.fsencode(directory)) for a in command):
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes
        return (Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]) != "Z"
    except OSError:
        return False


def wait_for(condition, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


class Servers:
    """A private socket folder, the environment that uses it, and the servers in it."""

    def __init__(self, package: Path | None = None, **extra: str):
        self.dir = tempfile.mkdtemp(prefix="tileopt-test-")
        self.env = dict(os.environ, TILEOPT_SERVER="1", TILEOPT_SERVER_DIR=self.dir,
                        TILEOPT_SERVER_IDLE="120", **extra)
        self.env.pop("TILEOPT_DEBUG", None)
        self.cold_env = dict(self.env, TILEOPT_SERVER="0")
        self.socket = client.socket_path(self.env, str(package) if package else None)

    def run(self, args, cold=False, name="tileopt", **kwargs) -> subprocess.CompletedProcess:
        if "stdout" in kwargs or "stderr" in kwargs:
            kwargs.setdefault("stdout", subprocess.PIPE)
            kwargs.setdefault("stderr", subprocess.PIPE)
        else:
            kwargs["capture_output"] = True
        kwargs.setdefault("cwd", REPO)
        env = dict(self.cold_env if cold else self.env, **kwargs.pop("extra_env", {}))
        return subprocess.run([tool(name), *map(str, args)], env=env, timeout=300, **kwargs)

    def status(self) -> dict[str, str] | None:
        answer = client.ask(self.socket, "T")
        return None if answer is None else dict(field.split("=", 1) for field in answer.split())

    def requests(self) -> int:
        return int(self.status()["requests"])

    def start(self) -> dict[str, str]:
        """Run a command with no server (it runs cold and starts one); the server's status."""
        assert self.status() is None
        done = self.run(["--version"])
        assert done.returncode == 0, done.stderr
        assert wait_for(lambda: self.status() is not None), "no server started"
        return self.status()

    def close(self) -> None:
        client.ask(self.socket, "Q")
        if not wait_for(lambda: not server_processes(self.dir), 20):
            for pid in server_processes(self.dir):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="module")
def servers():
    servers = Servers()
    servers.start()
    yield servers
    servers.close()
    assert not server_processes(servers.dir)


@pytest.fixture(scope="module")
def work(tmp_path_factory, servers) -> Path:
    """Inputs in a folder of their own (commands run there: relative names in messages)."""
    folder = tmp_path_factory.mktemp("work")
    (folder / "bad.mlir").write_text("func.func @f() {\n  %0 = arith.constant 1 : i32 oops\n}\n")
    shutil.copy(SIMPLE, folder / "simple.mlir")
    shutil.copy(SOFTMAX, folder / "softmax.ttir")
    done = servers.run([SOFTMAX, "--pass-pipeline=nvidia-sm90", "-o",
                        folder / "softmax.llvm.mlir"], cold=True)
    assert done.returncode == 0, done.stderr
    return folder


CASES = {
    "no-pass": (["softmax.ttir"], {}),
    "help": (["--help"], {}),
    "version": (["--version"], {}),
    "list-passes": (["--list-passes"], {}),
    "unknown-flag": (["--no-such-flag", "simple.mlir"], {}),
    "missing-file": (["nothing-here.mlir"], {}),
    "parse-error": (["bad.mlir"], {}),
    "pass-failure": (["simple.mlir", f"--load-pass-plugin={PLUGIN}", "--test-fail"], {}),
    "pass-crash": (["simple.mlir", f"--load-pass-plugin={PLUGIN}", "--test-crash"], {}),
    "pass-crash-debug-env": (["simple.mlir", f"--load-pass-plugin={PLUGIN}", "--test-crash"],
                             {"extra_env": {"TILEOPT_DEBUG": "1"}}),
    "split-input": (["simple.mlir", "--split-input-file", "--cse"], {}),
    # an AMD op in an NVIDIA lowering: the message depends on what the run imported
    "other-vendors-op": ([REPO / "test" / "lit" / "conversion" / "triton_gpu_to_llvm" /
                          "lowering-errors.mlir", "-split-input-file", "--allocate-shared-memory",
                          "--convert-triton-gpu-to-llvm=compute-capability=80"], {}),
    "stdin": (["-", "--canonicalize"], {"input": SOFTMAX.read_bytes()}),
    "emit-ptx-stdout": (["softmax.ttir", "--pass-pipeline=nvidia-sm90", "--emit=ptx", "-o", "-"],
                        {}),
    "stderr-into-stdout": (["softmax.ttir", "--pass-pipeline=nvidia-sm90", "--stop-after=ttgir"],
                           {"stderr": subprocess.STDOUT}),
    "translate-ptx": (["--emit=ptx", "softmax.llvm.mlir"], {"name": "tileopt-translate"}),
    "translate-help": (["--help"], {"name": "tileopt-translate"}),
    "translate-nothing-to-do": (["softmax.llvm.mlir"], {"name": "tileopt-translate"}),
    "translate-stdin": (["--emit=llvm-ir", "-"], {"name": "tileopt-translate",
                                                 "stdin_file": "softmax.llvm.mlir"}),
    "layout-table": (["-l", "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], "
                      "warpsPerCTA = [4, 1], order = [1, 0]}>", "-t", "tensor<16x16xf16>"],
                     {"name": "tileopt-layout"}),
    "layout-error": (["-t", "tensor<16x16xf16>"], {"name": "tileopt-layout"}),
    "layout-help": (["--help"], {"name": "tileopt-layout"}),
    "run-help": (["--help"], {"name": "tileopt-run"}),
}


def same_through_server(servers: Servers, args, work: Path, **kwargs):
    """Run cold and through the server: same outcome, and the server ran it."""
    stdin_file = kwargs.pop("stdin_file", None)
    results = []
    for cold in (True, False):
        before = servers.requests()
        if stdin_file is not None:
            with open(work / stdin_file, "rb") as stdin:
                results.append(servers.run(args, cold=cold, cwd=work, stdin=stdin, **kwargs))
        else:
            results.append(servers.run(args, cold=cold, cwd=work, **kwargs))
        assert servers.requests() == before + (0 if cold else 1), "not served as expected"
    cold, warm = results
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout,
                                                          cold.stderr)
    return warm


@pytest.mark.parametrize("case", CASES)
def test_same_bytes_and_status_as_a_cold_run(servers, work, case):
    args, kwargs = CASES[case]
    done = same_through_server(servers, args, work, **kwargs)
    expect_ok = case in ("no-pass", "help", "version", "list-passes", "split-input", "stdin",
                         "emit-ptx-stdout", "stderr-into-stdout", "translate-ptx",
                         "translate-help", "translate-stdin", "layout-table", "layout-help",
                         "run-help")
    assert (done.returncode == 0) == expect_ok, done.stderr
    if case == "parse-error":
        assert done.stderr.startswith(b"bad.mlir:2:"), done.stderr
    if case == "pass-crash-debug-env":
        assert b"Traceback" in done.stderr and b"deliberate crash" in done.stderr


def test_output_files_as_a_cold_run(servers, work, tmp_path):
    outputs = []
    for cold in (True, False):
        out = tmp_path / f"out-{cold}.ptx"
        done = servers.run(["softmax.ttir", "--pass-pipeline=nvidia-sm90", "--emit=ptx", "-o",
                            out], cold=cold, cwd=work, preexec_fn=lambda: os.umask(0o027))
        assert done.returncode == 0, done.stderr
        outputs.append((out.read_bytes(), out.stat().st_mode & 0o777))
    assert outputs[0] == outputs[1]
    assert outputs[1][1] == 0o640  # the client's umask
    # A failed run leaves an existing -o file alone.
    kept = tmp_path / "kept.mlir"
    kept.write_text("keep me\n")
    done = same_through_server(servers, ["bad.mlir", "-o", kept], work)
    assert done.returncode == 1 and kept.read_text() == "keep me\n"


def test_terminals_are_seen_through_the_server(servers, work):
    """The child has the client's own terminal: binary output to it is refused, and a
    pipeline dump with a terminal on stdin does not wait for input."""
    cases = [(["--emit=cubin", "softmax.llvm.mlir"], "tileopt-translate", "stdout"),
             (["--dump-pass-pipeline", "--cse"], "tileopt", "stdin")]
    outcomes = []
    for args, name, stream in cases:
        results = []
        for cold in (True, False):
            leader, follower = pty.openpty()
            try:
                done = servers.run(args, cold=cold, cwd=work, name=name, **{stream: follower})
            finally:
                os.close(leader)
                os.close(follower)
            results.append((done.returncode, done.stderr))
        assert results[0] == results[1]
        outcomes.append(results[1])
    assert outcomes[0][0] == 1 and b"binary cubin to a terminal" in outcomes[0][1]
    assert outcomes[1] == (0, b"builtin.module(cse)\n")


def test_closed_stdin_as_a_cold_run(servers, work):
    done = same_through_server(servers, ["-"], work, preexec_fn=lambda: os.close(0))
    assert done.returncode == 1 and b"standard input: it is closed" in done.stderr


def _sleeping(servers: Servers, work: Path, tmp_path: Path, cold: bool):
    plugin = tmp_path / "sleeper.py"
    plugin.write_text(SLEEPER)
    marker = tmp_path / f"running-{cold}"
    process = subprocess.Popen([tool("tileopt"), "simple.mlir", f"--load-pass-plugin={plugin}",
                                "--test-sleep"], cwd=work, stderr=subprocess.PIPE,
                               stdout=subprocess.DEVNULL,
                               env=dict(servers.cold_env if cold else servers.env,
                                        SLEEP_MARKER=str(marker)))
    assert wait_for(marker.exists), "the command never reached its pass"
    return process


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM])
def test_signals_reach_the_command(servers, work, tmp_path, number):
    results = []
    for cold in (True, False):
        process = _sleeping(servers, work, tmp_path, cold)
        process.send_signal(number)
        _, stderr = process.communicate(timeout=60)
        results.append((process.returncode, stderr.splitlines()[-1:]))
    assert results[0] == results[1]
    assert results[1][0] == -number
    assert wait_for(lambda: servers.status()["running"] == "0", 20)


def test_a_dead_client_takes_its_command_along(servers, work, tmp_path):
    process = _sleeping(servers, work, tmp_path, cold=False)
    children = servers.status()["children"].split(",")
    assert len(children) == 1 and children[0] != "-"
    child = int(children[0])
    assert alive(child)
    process.kill()
    process.wait(timeout=60)
    assert wait_for(lambda: not alive(child), 20), "the command outlived its client"
    assert wait_for(lambda: servers.status()["running"] == "0", 20)


def test_no_server_runs_here_and_starts_one(work):
    servers = Servers()
    try:
        cold = servers.run(["softmax.ttir"], cold=True, cwd=work)
        # Two commands at once, with no server: both run here, one server stays.
        processes = [subprocess.Popen([tool("tileopt"), "softmax.ttir"], cwd=work,
                                      env=servers.env, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE) for _ in range(2)]
        for process in processes:
            stdout, stderr = process.communicate(timeout=300)
            assert (process.returncode, stdout, stderr) == (0, cold.stdout, cold.stderr)
        assert wait_for(lambda: servers.status() is not None)
        # The second server waits for the first one's lock, then gives up.
        assert wait_for(lambda: len(server_processes(servers.dir)) == 1, 30)
        assert servers.status()["requests"] == "0"
        assert servers.run(["softmax.ttir"], cwd=work).stdout == cold.stdout
        assert servers.status()["requests"] == "1"
    finally:
        servers.close()
    assert not server_processes(servers.dir)


def test_off_touches_no_socket(work):
    directory = Path(tempfile.mkdtemp(prefix="tileopt-test-")) / "unused"
    env = dict(os.environ, TILEOPT_SERVER="0", TILEOPT_SERVER_DIR=str(directory))
    done = subprocess.run([tool("tileopt"), "--version"], env=env, capture_output=True)
    assert done.returncode == 0
    assert not directory.exists()
    directory.parent.rmdir()


def test_a_changed_source_is_never_served(tmp_path):
    """A copy of the package on PYTHONPATH: edit it, and the next command sees the edit."""
    copy = tmp_path / "tree"
    shutil.copytree(REPO / "tileopt", copy / "tileopt")  # byte code too: a quicker start
    servers = Servers(package=copy / "tileopt", PYTHONPATH=str(copy))
    try:
        servers.start()
        usage = servers.run(["--help"], cwd=tmp_path)
        assert usage.returncode == 0 and servers.status()["requests"] == "1"
        first = servers.status()["pid"]
        opt = copy / "tileopt" / "driver" / "opt.py"
        opt.write_text(opt.read_text().replace('"Run passes over', '"Edited: run passes over'))
        edited = servers.run(["--help"], cwd=tmp_path)
        assert edited.returncode == 0 and b"Edited: run passes over" in edited.stdout
        # ... run in-process: the stale server said so and went; a new one took its place
        assert wait_for(lambda: (servers.status() or {}).get("pid") not in (None, first))
        again = servers.run(["--help"], cwd=tmp_path)
        assert again.stdout == edited.stdout and servers.status()["requests"] == "1"
        # A pass module that does not import (being edited): the next server cannot warm
        # up, and serves nothing (commands run in-process) until a source changes.
        second = servers.status()["pid"]
        prefetch = copy / "tileopt" / "transforms" / "ttgir" / "prefetch.py"
        text = prefetch.read_text()
        prefetch.write_text(text + "\nnot python\n")
        assert servers.run(["--help"], cwd=tmp_path).stdout == edited.stdout
        assert wait_for(lambda: (servers.status() or {}).get("pid") not in (None, second))
        assert servers.status()["broken"] == "1"
        assert servers.run(["--help"], cwd=tmp_path).stdout == edited.stdout
        assert servers.status()["requests"] == "0"
        third = servers.status()["pid"]
        prefetch.write_text(text)
        assert servers.run(["--help"], cwd=tmp_path).stdout == edited.stdout
        assert wait_for(lambda: (servers.status() or {}).get("pid") not in (None, third))
        assert servers.status()["broken"] == "0"
    finally:
        servers.close()


def test_fingerprint_sees_edits_additions_and_removals(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    source = package / "sub" / "a.py"
    source.write_text("x = 1\n")
    (package / "pipe.yaml").write_text("name: p\n")
    fingerprint = Fingerprint(str(package))
    assert fingerprint.changed() is None
    (package / ".a.py.swp").write_text("editor state")  # not a source
    (package / "sub" / "__pycache__").mkdir()
    (package / "sub" / "__pycache__" / "a.cpython-311.pyc").write_bytes(b"")
    assert fingerprint.changed() is None
    source.write_text("x = 22\n")
    assert fingerprint.changed() == str(source)
    fingerprint = Fingerprint(str(package))
    (package / "new.py").write_text("")
    assert fingerprint.changed() == str(package / "new.py")
    fingerprint = Fingerprint(str(package))
    (package / "pipe.yaml").unlink()
    assert fingerprint.changed() == str(package / "pipe.yaml")
    # A file changed after the server was asked for, before it looked: it may have
    # imported the old text; it counts as changed from the start.
    since = time.time_ns()
    time.sleep(0.01)
    source.write_text("x = 333\n")
    assert Fingerprint(str(package), since).changed() == str(source)
    assert Fingerprint(str(package), time.time_ns() + 10**9).changed() is None


def _after_warm_up(code: str) -> str:
    """What ``code`` prints in a fresh interpreter that has run the server's warm-up."""
    done = subprocess.run([sys.executable, "-c", f"from tileopt.driver.server import warm_up; "
                           f"warm_up(); {code}"],
                          capture_output=True, text=True, cwd="/", timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_warming_up_leaves_each_vendors_lowering_to_the_child():
    """A cold NVIDIA lowering has no pattern for an AMD op (and says so); a server that
    imported both vendors' patterns would answer with the AMD one's message."""
    assert _after_warm_up(
        "from tileopt.conversion.triton_gpu_to_llvm.lowering import PATTERNS; "
        "print(sorted(n for n in PATTERNS if n.startswith(('amdg.', 'ttng.'))))") == "[]\n"


def test_warming_up_does_the_dialects_first_use_work_once():
    """Op definitions and pattern modules that a cold run builds on first use are built in
    the server, before it forks, so no child builds them again."""
    assert _after_warm_up(
        "from tileopt.dialects import canonicalization, lazy_op_definitions; "
        "print(len(lazy_op_definitions._PENDING), len(canonicalization._PENDING))") == "0 0\n"


def test_the_client_imports_only_what_it_needs(servers):
    """With a server, a command costs Python's start-up and the client: no xDSL, no
    driver, only ``socket`` and ``signal`` besides tileopt's client modules."""
    def imported(code: str) -> set[str]:
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", code],
                              env=servers.env, capture_output=True, text=True, cwd="/")
        assert done.returncode == 0, done.stderr
        rows = [line.split("|") for line in done.stderr.splitlines()
                if line.startswith("import time:")]
        return {row[2].strip() for row in rows if row[0].split(":")[1].strip().isdigit()}

    before = servers.requests()
    loaded = imported("import sys; sys.argv = ['tileopt', '--version']; "
                      "from tileopt.cli import tileopt_main; tileopt_main()")
    assert servers.requests() == before + 1  # it went through the server
    baseline = imported("import socket, signal")
    assert loaded - baseline == {"tileopt", "tileopt.cli", "tileopt.driver",
                                 "tileopt.driver.client"}


def test_private_dir_refuses_a_shared_folder(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    os.chmod(shared, 0o777)
    assert not client.private_dir(str(shared))
    assert client.private_dir(str(tmp_path / "fresh"))
    assert (tmp_path / "fresh").stat().st_mode & 0o777 == 0o700
