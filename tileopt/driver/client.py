"""The client side of the compile server (``tileopt/driver/server.py``; docs/server.md).

A cold ``tileopt`` spends about 0.2 s CPU starting Python and importing xDSL before any
work. With ``TILEOPT_SERVER=1`` the console commands first ask a warm server to run them:
:func:`run` connects to the server's Unix socket, hands over the argument vector, the
working directory, the environment, the umask and the process's standard input, output
and error themselves (SCM_RIGHTS), and waits for the exit status. A forked child of the
server runs the command on those file descriptors, so terminals, pipes, ``-o -`` and
binary output behave as in a cold run. Signals the client gets (Ctrl-C, SIGTERM, ...)
are passed on to that child.

When no server answers (none runs, it is stale, anything goes wrong with the socket
before the child starts) :func:`run` returns no status: the command runs in this process
as without a server, and :func:`spawn_server` then starts a detached one for the next run.

This module is imported by the console commands before anything else, so it imports only
``os``, ``sys``, ``socket`` and ``signal`` (``test_server.py`` checks it).
"""

from __future__ import annotations

import os
import signal
import socket
import sys

ENABLE_VARIABLE = "TILEOPT_SERVER"  # "1": use (and start) a server
DIR_VARIABLE = "TILEOPT_SERVER_DIR"  # where the sockets live (default: see server_dir)
IDLE_VARIABLE = "TILEOPT_SERVER_IDLE"  # seconds a server waits for work before it exits

MAGIC = b"TILEOPT-SERVER/1"
# Seconds to wait for the server to start the child (fork); past it the command runs
# here (the server checks that the client is still there before it forks).
START_TIMEOUT = 10.0
# Signals a cold run would get from the terminal or a `kill`: passed on to the child.
FORWARDED = ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGCONT")
# Variables that shape the interpreter's own start-up (the encodings of stdio, the import
# path, warnings): a server only serves clients whose start-up is the one it had.
STARTUP_PREFIXES = ("PYTHON",)
STARTUP_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")


def enabled(environ=os.environ) -> bool:
    return environ.get(ENABLE_VARIABLE, "") == "1"


def server_dir(environ=os.environ) -> str:
    """The folder of this user's server sockets: ``$TILEOPT_SERVER_DIR``, else
    ``tileopt-<uid>`` in ``$XDG_RUNTIME_DIR`` or the temporary folder."""
    explicit = environ.get(DIR_VARIABLE)
    if explicit:
        return explicit
    base = environ.get("XDG_RUNTIME_DIR") or environ.get("TMPDIR") or "/tmp"
    return os.path.join(base, f"tileopt-{os.getuid()}")


def private_dir(path: str) -> bool:
    """Create ``path`` (mode 0700) if needed; True if it is a folder only this user can
    use (anyone who can write there could answer in the server's place)."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return False
    try:
        info = os.lstat(path)
    except OSError:
        return False
    is_dir = (info.st_mode & 0o170000) == 0o040000
    return is_dir and info.st_uid == os.getuid() and info.st_mode & 0o077 == 0


def package_dir() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def server_key(environ=os.environ, package: str | None = None) -> str:
    """What a server must share with its clients, hashed: the interpreter and environment,
    its version and flags, this tileopt's folder and the variables of the interpreter's start-up. (A
    changed source file, pipeline, or xDSL or llvmlite installation is the server's
    staleness check: ``server.Fingerprint``.)"""
    startup = sorted(f"{name}={value}" for name, value in environ.items()
                     if name.startswith(STARTUP_PREFIXES) or name in STARTUP_VARIABLES)
    # sys.prefix tells virtual environments apart (they share the interpreter's binary).
    text = "\0".join([sys.prefix, os.path.realpath(sys.executable), package or package_dir(),
                      sys.version, repr(sys.flags), *startup])
    digest = 0xCBF29CE484222325  # 64-bit FNV-1a: no hashlib to import
    for byte in text.encode("utf-8", "surrogateescape"):
        digest = ((digest ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return f"{digest:016x}"


def socket_path(environ=os.environ, package: str | None = None) -> str:
    """The socket of the server for this interpreter, ``environ`` and tileopt (this one
    unless ``package``, a folder, is given)."""
    return os.path.join(server_dir(environ), f"server-{server_key(environ, package)}.sock")


def ask(path: str, kind: str) -> str | None:
    """A management request (``T``: status, ``Q``: stop) to the server at ``path``: its
    one-line answer, or None if none answered."""
    sock = connect(path, START_TIMEOUT)
    if sock is None:
        return None
    with sock:
        try:
            send_message(sock, kind, [])
            return read_line(sock, bytearray())
        except OSError:
            return None


# -- the wire format (shared with server.py) ----------------------------------------------

def encode_fields(fields: list[str]) -> bytes:
    """Strings joined by NUL (which no argument, path or variable can hold)."""
    return b"\0".join(os.fsencode(field) for field in fields)


def decode_fields(data: bytes) -> list[str]:
    return [os.fsdecode(field) for field in data.split(b"\0")]


def send_message(sock: socket.socket, kind: str, fields: list[str], fds: list[int] = ()) -> None:
    """A header (magic, kind, body length, which of stdin/stdout/stderr follow) with the
    file descriptors attached, then the body."""
    body = encode_fields(fields)
    header = MAGIC + kind.encode() + len(body).to_bytes(8, "big")
    if fds:
        socket.send_fds(sock, [header], list(fds))
        sock.sendall(body)
    else:  # in one piece: the server may answer (and close) once it has the header
        sock.sendall(header + body)


def read_line(sock: socket.socket, buffer: bytearray) -> str | None:
    """The next line the server sent (without its newline); None at end of stream."""
    while b"\n" not in buffer:
        data = sock.recv(4096)
        if not data:
            return None
        buffer += data
    line, _, rest = bytes(buffer).partition(b"\n")
    buffer[:] = rest
    return line.decode()


def connect(path: str, timeout: float | None = None) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    try:
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    return sock


# -- running a command ---------------------------------------------------------------------

class Outcome:
    """How :func:`run` ended: ``status`` (the exit code) when the server ran the command,
    else None, with ``spawn`` telling whether starting a server is worth it."""

    def __init__(self, status: int | None, spawn: bool = False):
        self.status = status
        self.spawn = spawn


def run(tool: str, argv: list[str]) -> Outcome:
    """Run ``tool`` with ``argv`` (``sys.argv``: program name first) in a server child."""
    try:
        directory = server_dir()
        if len(directory) > 80 or not private_dir(directory):
            return Outcome(None)  # no safe place for a socket (AF_UNIX paths are short)
        path = socket_path()
        cwd = os.getcwd()
    except OSError:
        return Outcome(None)
    # Before the socket exists: it would take the number of a closed stream.
    present = "".join("1" if _is_open(fd) else "0" for fd in (0, 1, 2))
    sock = connect(path, START_TIMEOUT)
    if sock is None:
        return Outcome(None, spawn=True)
    with sock:
        try:
            return _converse(sock, tool, argv, cwd, present)
        except OSError:  # before the child started: nothing ran, run here
            return Outcome(None)


def _is_open(fd: int) -> bool:
    try:
        os.fstat(fd)
    except OSError:  # started with it closed (`<&-`): the child's is closed too
        return False
    return True


def _converse(sock: socket.socket, tool: str, argv: list[str], cwd: str,
              present: str) -> Outcome:
    fds = [fd for fd, flag in zip((0, 1, 2), present) if flag == "1"]
    umask = os.umask(0o022)
    os.umask(umask)
    fields = [tool, cwd, str(umask), present, str(len(argv)), *argv,
              *(f"{name}={value}" for name, value in os.environ.items())]
    send_message(sock, "R", fields, fds)
    buffer = bytearray()
    line = read_line(sock, buffer)
    if line is None or not line.startswith("P"):
        # "S": the server's sources changed (it exits); "B": it cannot serve; nothing ran
        return Outcome(None, spawn=line == "S")
    child = int(line.split()[1])
    # From here the command runs: whatever happens, it must not run here again.
    previous = _forward_signals(child)
    try:
        sock.settimeout(None)
        line = read_line(sock, buffer)
    except OSError:
        line = None
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
    if line is None:  # the server went away during the run (killed): its child too
        sys.stderr.write("error: the tileopt compile server stopped during the run "
                         "(TILEOPT_SERVER=0 runs without it)\n")
        return Outcome(1)
    kind, code, _ = line.split()  # X or K, the exit code or signal, the child's CPU time
    if kind == "K":  # the child was killed by a signal: so is this process, as a cold one
        number = int(code)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        return Outcome(128 + number)
    return Outcome(int(code))


def _forward_signals(child: int) -> dict:
    """Pass the signals a cold run would get on to the child's process group (its own:
    subprocesses such as ptxas get them too, as from a terminal)."""

    def forward(number, frame):
        try:
            os.killpg(child, number)
        except OSError:
            pass
        if number == signal.SIGTSTP:  # Ctrl-Z: stop the child, then this process
            signal.signal(signal.SIGTSTP, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTSTP)
            signal.signal(signal.SIGTSTP, forward)

    previous = {}
    for name in (*FORWARDED, "SIGTSTP"):
        number = getattr(signal, name, None)
        if number is not None:
            previous[number] = signal.signal(number, forward)
    return previous


# -- starting a server ---------------------------------------------------------------------

def spawn_server() -> None:
    """Start a detached server for the next run (double fork, new session, stdio on
    /dev/null); it gives up if another one keeps the socket's lock. Never raises."""
    import time  # only here: the client's own path imports nothing it can do without

    try:
        path = socket_path()
        since = str(time.time_ns())  # a source changed after this: the server never saw it
        sys.stdout.flush()  # the forks must not inherit unwritten output
        sys.stderr.flush()
        pid = os.fork()
    except (OSError, ValueError, AttributeError):
        return
    if pid:
        try:
            os.waitpid(pid, 0)
        except OSError:
            pass
        return
    try:  # the first child: a new session, then the server as its child
        os.setsid()
        if os.fork():
            os._exit(0)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        # Nothing else this process inherited (a pipe a parent waits on, a jobserver)
        # may stay open in a long-lived server.
        os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 1024)
        os.chdir("/")
        # As the console script: sys.path[0] is the script's folder, not the cwd.
        bootstrap = ("import sys; sys.path[0] = sys.argv.pop(1); "
                     "from tileopt.driver.server import main; sys.exit(main(sys.argv[1:]))")
        os.execv(sys.executable, [sys.executable, "-c", bootstrap, sys.path[0], "serve",
                                  path, package_dir(), since])
    finally:
        os._exit(127)
