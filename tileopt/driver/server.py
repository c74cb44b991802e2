"""The compile server: a warm ``tileopt`` that runs each command in a forked child.

A cold command spends about 0.2 s CPU starting Python and importing xDSL, tileopt's
dialects and passes before any work (issue 14); lit pays it on each of hundreds of RUN
lines. As Gradle's daemon, Bazel's server or mypy's dmypy, a server process imports all
that once (:func:`warm_up`), freezes it out of the garbage collector's view, and listens
on a Unix socket. For each command (``TILEOPT_SERVER=1``; ``client.py`` is the other side)
it forks a child, so every command starts from the same clean warm state and nothing one
leaves behind reaches the next; the child takes the client's arguments, working folder,
environment, umask and standard streams (passed as file descriptors), runs the entry
function the console script runs (``run_opt``, ``run_translate``) and exits with its
status, which the server reports to the client with the child's CPU time.

Staleness: the server answers "stale" and exits as soon as a source file, pipeline or
the pass index of its tileopt (or a file of the xDSL, llvmlite, ... modules it imported)
differs from when it started (:class:`Fingerprint`, checked before every command): a
changed compiler is never served from memory. It exits after ``TILEOPT_SERVER_IDLE``
seconds (default 600) without work, and on SIGTERM or ``python -m tileopt.driver.server
stop`` after its running commands end. docs/server.md has the whole story.

    python -m tileopt.driver.server status|stop
"""

from __future__ import annotations

import fcntl
import gc
import io
import os
import select
import signal
import socket
import sys
import tempfile
import time
import traceback

from tileopt.driver import client

DEFAULT_IDLE = 600.0
# The commands a server runs: console script name -> (module, entry function of argv;
# the click commands take it too).
TOOLS = {
    "tileopt": ("tileopt.driver.opt", "run_opt"),
    "tileopt-translate": ("tileopt.driver.translate", "run_translate"),
    "tileopt-layout": ("tileopt.layout_cli", "main"),
    "tileopt-run": ("tileopt.run.cli", "main"),
}
SOURCE_SUFFIXES = (".py", ".yaml", ".yml", ".json")
LOCK_WAIT = 5.0  # seconds a new server waits for an exiting one to let go of the socket
REQUEST_TIMEOUT = 5.0


# -- what a server must not outlive ------------------------------------------------------

class Fingerprint:
    """Modification times and sizes of tileopt's sources (``.py``, pipelines' ``.yaml``)
    and of the files of the other non-standard-library modules the server imported."""

    def __init__(self, package: str, since_ns: int = 0):
        """``since_ns``: when the server was asked for (before it imported anything): a
        file changed since then may be older or newer than what the server imported."""
        self.package = package
        self.files = self._package_files()
        self.modules: dict[str, tuple[int, int] | None] = {}
        self.new_at_start = min((path for path, (mtime, _) in self.files.items()
                                 if since_ns and mtime >= since_ns), default=None)

    def add_loaded_modules(self) -> None:
        """Watch the files of the imported modules outside tileopt and the standard
        library (xDSL, llvmlite, PyYAML, ...): an upgrade there makes the server stale."""
        stdlib = os.path.join(os.path.dirname(os.__file__), "")
        inside = os.path.join(self.package, "")
        for module in list(sys.modules.values()):
            path = getattr(module, "__file__", None)
            if not isinstance(path, str) or path.startswith(inside):
                continue
            if path.startswith(stdlib) and "-packages" not in path[len(stdlib):]:
                continue
            self.modules[path] = _stat(path)

    def changed(self) -> str | None:
        """The first file that differs from the server's start, else None."""
        if self.new_at_start is not None:
            return self.new_at_start
        files = self._package_files()
        if files != self.files:
            differing = set(files.items()) ^ set(self.files.items())
            return min(path for path, _ in differing)
        for path, stamp in self.modules.items():
            if _stat(path) != stamp:
                return path
        return None

    def _package_files(self) -> dict[str, tuple[int, int]]:
        found = {}
        pending = [self.package]
        while pending:
            try:
                entries = list(os.scandir(pending.pop()))
            except OSError:
                continue
            for entry in entries:
                if entry.name.startswith((".", "__pycache__")):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                elif entry.name.endswith(SOURCE_SUFFIXES):
                    try:
                        info = entry.stat()
                    except OSError:
                        continue
                    found[entry.path] = (info.st_mtime_ns, info.st_size)
        return found


def _stat(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_mtime_ns, info.st_size


# Not imported by the server: each vendor's lowering patterns. A cold run imports them only
# when it lowers for that vendor, and an op of another vendor then has no pattern ("no
# lowering to LLVM for 'amdg.buffer_load'"); with both imported, that op would meet the
# other vendor's pattern and its message instead. A child imports what its command needs.
NOT_PRELOADED = ("tileopt.conversion.nvidia", "tileopt.conversion.amd")


def preloaded(module: str) -> bool:
    return not module.startswith(tuple(f"{package}." for package in NOT_PRELOADED)) \
        and module not in NOT_PRELOADED


def warm_up() -> None:
    """Import what typical commands need: the driver, every dialect (their assembly
    formats compiled), the pass modules (but :data:`NOT_PRELOADED`), the YAML pipelines'
    reader, the LLVM back ends (llvmlite initialised); then check that nothing of
    :data:`NOT_PRELOADED` came along."""
    import importlib

    from tileopt.driver import code_cache

    code_cache.install()  # as the console commands: before xDSL defines its classes
    for module, _ in TOOLS.values():
        importlib.import_module(module)
    import tileopt.driver.input  # noqa: F401
    import tileopt.driver.instrumentation  # noqa: F401
    import tileopt.driver.ir_io  # noqa: F401
    import tileopt.driver.pass_manager  # noqa: F401
    import tileopt.driver.reproducer  # noqa: F401
    import tileopt.driver.crash_reproducer  # noqa: F401
    import tileopt.driver.verify_diagnostics  # noqa: F401
    from tileopt.ir.context import DIALECTS, make_context
    from tileopt.passes.index import PASS_MODULES
    from tileopt.target import llvm_backend

    for load in DIALECTS.values():
        load()
    make_context()
    for module in sorted(set(PASS_MODULES.values())):
        if preloaded(module):
            importlib.import_module(module)
    import tileopt.pipelines  # noqa: F401 - the reader of YAML pipelines
    import tileopt.pipelines.yaml_file  # noqa: F401 - (loading one imports its passes)
    import xdsl.transforms.canonicalization_patterns.arith  # noqa: F401 - canonicalize's
    llvm_backend.initialize()
    # What the dialects otherwise do on first use, done once here for every child: the op
    # definitions (dialects/lazy_op_definitions.py), the dialects' pattern modules
    # (dialects/canonicalization.py) and every op's assembly format (lazy_formats.py).
    from tileopt.dialects.canonicalization import load_all_patterns
    from tileopt.dialects.lazy_op_definitions import build_all

    build_all()
    load_all_patterns()
    # Every op's assembly format, compiled once here rather than in every child (the
    # dialects compile them on first use: dialects/lazy_formats.py).
    from tileopt.dialects.lazy_formats import LazyFormatProgram

    for program in gc.get_objects():
        if isinstance(program, LazyFormatProgram):
            program.compiled()
    code_cache.save()  # now, or every child would write what the warm-up compiled
    imported = [name for name in sys.modules if name.startswith("tileopt.") and not preloaded(name)]
    if imported:
        raise RuntimeError(f"warming up imported {', '.join(sorted(imported))}: a cold run "
                           "imports it only when needed (NOT_PRELOADED)")


# -- the server ----------------------------------------------------------------------------

class Server:
    """The accept loop: a child per command, its status to its client when it ends."""

    def __init__(self, path: str, listener: socket.socket, lock_fd: int,
                 fingerprint: Fingerprint, broken: str | None, idle: float):
        self.path = path
        self.listener = listener
        self.lock_fd = lock_fd
        self.fingerprint = fingerprint
        self.broken = broken  # why warming up failed: every command then runs in-process
        self.idle = idle
        self.inode = os.stat(path).st_ino
        self.started = time.time()
        self.last_active = time.monotonic()
        self.children: dict[int, socket.socket | None] = {}  # pid -> its client's socket
        self.connections: dict[int, tuple[socket.socket, int]] = {}  # fd -> (socket, pid)
        self.requests = 0
        self.child_cpu = [0.0, 0.0]  # user, system
        self.stopping = False
        self.wake_read, self.wake_write = os.pipe()
        os.set_blocking(self.wake_read, False)
        os.set_blocking(self.wake_write, False)
        self.poller = select.poll()
        self.poller.register(self.listener, select.POLLIN)
        self.poller.register(self.wake_read, select.POLLIN)

    def serve(self) -> None:
        signal.set_wakeup_fd(self.wake_write, warn_on_full_buffer=False)
        signal.signal(signal.SIGCHLD, lambda number, frame: None)
        for name in ("SIGTERM", "SIGINT", "SIGHUP"):
            signal.signal(getattr(signal, name), lambda number, frame: self.stop())
        while True:
            if not self.children:
                if self.stopping:
                    break
                remaining = self.idle - (time.monotonic() - self.last_active)
                if remaining <= 0:
                    break
                timeout = max(1, int(remaining * 1000))
            else:
                timeout = None
            for fd, _ in self.poller.poll(timeout):
                if fd == self.wake_read:
                    _drain(self.wake_read)
                    self.reap()
                elif self.listener is not None and fd == self.listener.fileno():
                    self.accept()
                elif fd in self.connections:
                    self.client_gone(fd)
        self.stop()

    def stop(self) -> None:
        """Take no more commands (the socket goes away); exit once the running ones end."""
        self.stopping = True
        if self.listener is None:
            return
        self.poller.unregister(self.listener)
        self.listener.close()
        self.listener = None
        try:
            if os.stat(self.path).st_ino == self.inode:
                os.unlink(self.path)
        except OSError:
            pass

    def accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        fds: list[int] = []
        try:
            conn.settimeout(REQUEST_TIMEOUT)
            kind, fields, fds = _receive(conn)
            conn.settimeout(None)  # blocking again: MSG_DONTWAIT asks without waiting
            self.last_active = time.monotonic()
            if kind == "R":
                if self.start_child(conn, fields, fds):
                    conn = None  # kept until the child ends
            elif kind == "T":
                conn.sendall(self.status_line().encode() + b"\n")
            elif kind == "Q":
                conn.sendall(b"stopping\n")
                self.stop()
        except (OSError, ValueError) as err:
            _log(f"request failed: {err!r}")
        finally:
            for fd in fds:
                os.close(fd)
            if conn is not None:
                conn.close()

    def start_child(self, conn: socket.socket, fields: list[str], fds: list[int]) -> bool:
        changed = self.fingerprint.changed()
        if changed is not None:
            _log(f"stale: {changed} changed since the server started")
            self.stop()
            conn.sendall(b"S\n")
            return False
        if self.broken is not None:
            conn.sendall(b"B\n")
            return False
        if _peer_gone(conn):  # the client gave up waiting: it runs the command itself
            return False
        self.requests += 1
        pid = os.fork()
        if pid == 0:
            self.run_child(conn, fields, fds)  # never returns
        try:
            os.setpgid(pid, pid)  # the child does it too: whoever runs first
        except OSError:
            pass
        self.children[pid] = conn
        self.connections[conn.fileno()] = (conn, pid)
        self.poller.register(conn, select.POLLIN)
        try:
            conn.sendall(f"P {pid}\n".encode())
        except OSError:
            self.client_gone(conn.fileno())
        return True

    def client_gone(self, fd: int) -> None:
        """The client's end closed before its child ended (it was killed): so is the child."""
        conn, pid = self.connections[fd]
        try:
            if conn.recv(4096, socket.MSG_DONTWAIT):
                return  # not the end: a client sends nothing more, ignore it
        except BlockingIOError:
            return
        except OSError:
            pass
        self.forget(fd)
        self.children[pid] = None
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass

    def forget(self, fd: int) -> None:
        conn, _ = self.connections.pop(fd)
        self.poller.unregister(fd)
        conn.close()

    def reap(self) -> None:
        while self.children:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            self.last_active = time.monotonic()
            self.child_cpu[0] += usage.ru_utime
            self.child_cpu[1] += usage.ru_stime
            conn = self.children.pop(pid, None)
            if conn is None:
                continue
            cpu = usage.ru_utime + usage.ru_stime
            if os.WIFSIGNALED(status):
                line = f"K {os.WTERMSIG(status)} {cpu:.6f}\n"
            else:
                line = f"X {os.waitstatus_to_exitcode(status)} {cpu:.6f}\n"
            try:
                conn.sendall(line.encode())
            except OSError:
                pass
            self.forget(conn.fileno())

    def status_line(self) -> str:
        return (f"pid={os.getpid()} socket={self.path} uptime={time.time() - self.started:.1f} "
                f"requests={self.requests} running={len(self.children)} "
                f"children={','.join(map(str, self.children)) or '-'} "
                f"idle_limit={self.idle:g} child_user={self.child_cpu[0]:.6f} "
                f"child_sys={self.child_cpu[1]:.6f} broken={int(self.broken is not None)}")

    # -- in the child ---------------------------------------------------------------------

    def run_child(self, conn: socket.socket, fields: list[str], fds: list[int]) -> None:
        """Become the command: the client's streams, folder, environment; run; exit."""
        status = 1
        try:
            os.setpgid(0, 0)  # signals for the command reach what it starts too
            signal.set_wakeup_fd(-1)
            for name in ("SIGCHLD", "SIGTERM", "SIGHUP"):
                signal.signal(getattr(signal, name), signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            # conn stays open (not inherited by subprocesses): the client sees its end
            # only once this process is gone, even if the server dies first.
            for other, _ in self.connections.values():
                other.close()
            if self.listener is not None:
                self.listener.close()
            for fd in (self.lock_fd, self.wake_read, self.wake_write):
                os.close(fd)
            tool, cwd, umask, present, count, *rest = fields
            argv, environment = rest[:int(count)], rest[int(count):]
            _take_streams(present, fds)
            from tileopt.ir import gc_scans

            gc_scans.one_shot_process()
            os.umask(int(umask))
            os.environ.clear()
            os.environ.update(entry.split("=", 1) for entry in environment)
            tempfile.tempdir = None  # found again from the client's TMPDIR when needed
            os.chdir(cwd)
            sys.argv = argv
            status = _run_tool(tool, argv)
        except BaseException:  # noqa: BLE001 - a bug here: say so where the user looks
            try:
                traceback.print_exc()
                sys.stderr.flush()
            except BaseException:  # noqa: BLE001
                pass
        finally:
            os._exit(status)


def _take_streams(present: str, fds: list[int]) -> None:
    """The client's stdin, stdout and stderr as this process's, as Python makes them."""
    received = iter(fds)
    templates = (sys.__stdin__, sys.__stdout__, sys.__stderr__)
    streams = []
    for fd, flag, template in zip((0, 1, 2), present, templates):
        if flag == "1":
            os.dup2(next(received), fd)
            streams.append(_std_stream(fd, template))
        else:
            try:
                os.close(fd)
            except OSError:
                pass
            streams.append(None)
    for fd in fds:
        os.close(fd)
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams


def _std_stream(fd: int, template) -> io.TextIOWrapper:
    """A text stream over ``fd`` as CPython's start-up makes ``sys.stdin``/``stdout``/
    ``stderr`` (``create_stdio``): the server's encodings (its start-up environment is
    the client's), line-buffered on a terminal and always for stderr."""
    writing = fd != 0
    unbuffered = writing and template is not None and template.write_through
    buffer = io.open(fd, "wb" if writing else "rb", buffering=0 if unbuffered else -1,
                     closefd=False)
    encoding = template.encoding if template is not None else "utf-8"
    errors = template.errors if template is not None else "strict"
    line_buffering = not unbuffered and (fd == 2 or os.isatty(fd))
    return io.TextIOWrapper(buffer, encoding=encoding, errors=errors, newline="\n",
                            line_buffering=line_buffering, write_through=unbuffered)


def _run_tool(tool: str, argv: list[str]) -> int:
    """Run the console command ``tool`` as ``sys.exit(entry(argv[1:]))`` in a cold
    interpreter would, up to the exit status (including Python's own exit steps)."""
    import importlib

    from tileopt.driver.process_exit import exit_steps

    module, name = TOOLS[tool]
    interrupted = False
    try:
        code = getattr(importlib.import_module(module), name)(argv[1:])
    except SystemExit as exit:
        code = exit.code
    except BaseException as err:  # noqa: BLE001 - uncaught: as Python reports it
        sys.excepthook(type(err), err, err.__traceback__)
        interrupted = isinstance(err, KeyboardInterrupt)
        code = 1
    if code is None:
        code = 0
    elif not isinstance(code, int):
        print(code, file=sys.stderr)
        code = 1
    failed = exit_steps()
    if failed is not None:  # as Python: it says so on stderr, and the status is 120
        code = 120
        try:
            sys.stderr.write(f"Exception ignored in: {sys.stdout!r}\n"
                             f"{type(failed).__name__}: {failed}\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
    if interrupted:  # as Python: after the exit steps, die of SIGINT (a shell sees 130)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return code


def _receive(conn: socket.socket) -> tuple[str, list[str], list[int]]:
    header_size = len(client.MAGIC) + 1 + 8
    data, fds, _, _ = socket.recv_fds(conn, header_size, 3, socket.MSG_CMSG_CLOEXEC)
    data = bytearray(data)
    try:
        while len(data) < header_size:
            more = conn.recv(header_size - len(data))
            if not more:
                raise ValueError("the request ended early")
            data += more
        if not data.startswith(client.MAGIC):
            raise ValueError("not a tileopt client")
        kind = chr(data[len(client.MAGIC)])
        length = int.from_bytes(data[-8:], "big")
        body = bytearray()
        while len(body) < length:
            more = conn.recv(min(length - len(body), 1 << 20))
            if not more:
                raise ValueError("the request ended early")
            body += more
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
    return kind, client.decode_fields(bytes(body)), fds


def _peer_gone(conn: socket.socket) -> bool:
    try:
        return conn.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        pass


def _log(message: str) -> None:
    """A line in the server's log (its stderr: ``<socket>.log``)."""
    try:
        sys.stderr.write(f"{time.strftime('%H:%M:%S')} [{os.getpid()}] {message}\n")
        sys.stderr.flush()
    except Exception:  # noqa: BLE001
        pass


def _take_lock(path: str) -> int | None:
    """Hold ``path``'s lock for this server's lifetime (one server per socket)."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                return None
            time.sleep(0.05)


def serve(path: str, package: str, since_ns: int) -> int:
    """Run a server on socket ``path`` (``client.spawn_server`` starts this, detached)."""
    if package != client.package_dir():  # the interpreter found another tileopt
        return 1
    stem = path[:-len(".sock")] if path.endswith(".sock") else path
    lock_fd = _take_lock(stem + ".lock")
    if lock_fd is None:
        return 0  # another server holds it (a running one, or one that is finishing)
    log = os.open(stem + ".log", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(log, 2)
    os.close(log)
    fingerprint = Fingerprint(package, since_ns)
    broken = None
    start = time.perf_counter()
    try:
        warm_up()
    except BaseException:  # noqa: BLE001 - a source being edited: serve nothing until fixed
        broken = traceback.format_exc()
        _log(f"warming up failed; commands run in-process until a source changes:\n{broken}")
    fingerprint.add_loaded_modules()
    try:
        idle = float(os.environ.get(client.IDLE_VARIABLE) or DEFAULT_IDLE)
    except ValueError:
        idle = DEFAULT_IDLE
    gc.freeze()  # the warm heap: shared with the children, never scanned by them
    try:
        os.unlink(path)  # a dead server's (the lock says no live one uses it)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    _log(f"serving {path} (warm-up {time.perf_counter() - start:.2f} s, "
         f"{len(fingerprint.files) + len(fingerprint.modules)} files watched)")
    server = Server(path, listener, lock_fd, fingerprint, broken, idle)
    server.serve()
    _log("exiting")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``status`` / ``stop``: every server in the socket folder (one per interpreter,
    start-up environment and tileopt: lit's commands have another environment than a
    shell's). ``serve`` is what ``client.spawn_server`` runs."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["serve"] and len(argv) == 4:
        return serve(argv[1], argv[2], int(argv[3]))
    if argv not in (["status"], ["stop"]):
        print("usage: python -m tileopt.driver.server status|stop", file=sys.stderr)
        return 2
    directory = client.server_dir()
    answers = []
    if os.path.isdir(directory):
        for name in sorted(os.listdir(directory)):
            if name.endswith(".sock"):
                answer = client.ask(os.path.join(directory, name),
                                    "T" if argv == ["status"] else "Q")
                if answer is not None:
                    answers.append(f"{name}: {answer}")
    if not answers:
        print(f"no tileopt server is running (sockets in {directory})")
        return 1
    print("\n".join(answers))
    return 0


if __name__ == "__main__":
    sys.exit(main())
