"""Writing results: ``-o FILE`` is replaced atomically, and only when the run succeeded.

A failed run must never leave a half-written or truncated output behind (a build system
would take it for a result), so the text goes to a temporary file in the same directory and
is renamed over the target at the end. Outputs that are not regular files (``/dev/null``,
a pipe) are written directly: renaming over them would replace the device.
"""

from __future__ import annotations

import os
import sys
import tempfile

from tileopt.ir import TileoptError


def write_output(data: str | bytes, path: str | None) -> None:
    """Write ``data`` to ``path`` atomically, or to stdout when ``path`` is None or ``-``."""
    if path is None or path == "-":
        if isinstance(data, bytes):
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        else:
            sys.stdout.write(data)
            sys.stdout.flush()
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
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tileopt-", dir=directory)
    except OSError as err:
        raise TileoptError(f"cannot write output file '{path}': {err.strerror}") from err
    try:
        with os.fdopen(fd, mode) as out:
            out.write(data)
        # mkstemp creates 0600 files; give the output the usual permissions.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as err:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise TileoptError(f"cannot write output file '{path}': {err.strerror}") from err
