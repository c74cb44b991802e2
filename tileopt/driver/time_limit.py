"""``--timeout=S``: end a run that takes longer than S seconds with a clear error.

An editor's save hook or a lit run must never wait forever on tileopt. The limit is a
real-time timer (SIGALRM) whose handler raises :class:`RunTimedOut`. It derives from
BaseException so that no ``except Exception`` on the way (a pass manager turning a pass's
exception into an internal error, say) can swallow it; the tool's top level reports it.
Where the platform has no SIGALRM the option is refused rather than silently ignored.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager

from tileopt.ir import TileoptError


class RunTimedOut(BaseException):
    def __init__(self, seconds: float):
        super().__init__(f"the run took longer than --timeout={seconds:g} seconds and was stopped")


def parse_timeout(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not seconds > 0 or seconds == float("inf"):
        raise TileoptError(f"--timeout expects a number of seconds above 0, not '{text}'")
    if not hasattr(signal, "setitimer"):
        raise TileoptError("--timeout is not supported on this platform")
    return seconds


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`RunTimedOut` in the main thread once ``seconds`` have passed."""
    if seconds is None:
        yield
        return

    def expire(signum, frame):
        raise RunTimedOut(seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
