"""Writing results: ``-o FILE`` is replaced atomically, and only when the run succeeded.

A failed run must never leave a half-written or truncated output behind (a build system
would take it for a result), so the text goes to a temporary file in the same directory and
is renamed over the target at the end. Outputs that are not regular files (``/dev/null``,
a pipe) are written directly: renaming over them would replace the device.
"""

from __future__ import annotations

import os
import stat
import sys

from tileopt.ir import TileoptError


def write_stdout(data: str | bytes) -> None:
    """Write ``data`` to standard output now. A reader that went away (``| head``) raises
    BrokenPipeError for the tool to end quietly; other failures are errors."""
    if sys.stdout is None:  # started with standard output closed (`>&-`)
        raise TileoptError("cannot write standard output: it is closed")
    try:
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as err:
        raise TileoptError(f"cannot write standard output: {err.strerror}") from err


def quiet_broken_pipe() -> int:
    """After the reader of standard output went away: nothing more may be written there
    (Python would complain at exit), and the run failed."""
    try:
        sys.stdout = open(os.devnull, "w")
    except OSError:
        pass
    return 1


def write_output(data: str | bytes, path: str | None) -> None:
    """Write ``data`` to ``path`` atomically, or to stdout when ``path`` is None or ``-``."""
    if path is None or path == "-":
        write_stdout(data)
        return
    mode = "wb" if isinstance(data, bytes) else "w"
    if os.path.exists(path) and not os.path.isfile(path):
        # /dev/null, a FIFO, /dev/stdout: not a file that can be replaced by a rename.
        try:
            with open(path, mode) as out:
                out.write(data)
        except OSError as err:
            raise TileoptError(f"cannot write output file '{path}': {err.strerror}") from err
        return
    # As LLVM's tools: write through a symbolic link (to the file it names), and keep an
    # existing file's permissions.
    target = os.path.realpath(path)
    try:
        mode_bits = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode_bits = 0o666 & ~umask
    directory = os.path.dirname(target)
    import tempfile  # here: not for stdout or /dev/null (3% of a run without passes)

    try:
        fd, tmp = tempfile.mkstemp(prefix=".tileopt-", dir=directory)
    except OSError as err:
        raise TileoptError(f"cannot write output file '{path}': {err.strerror}") from err
    try:
        with os.fdopen(fd, mode) as out:
            out.write(data)
        os.chmod(tmp, mode_bits)  # mkstemp creates 0600 files
        os.replace(tmp, target)
    except OSError as err:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise TileoptError(f"cannot write output file '{path}': {err.strerror}") from err
