"""Pass statistics (``--mlir-pass-statistics``) and debug channels (``-debug-only=NAME``).

A pass counts what it did with ``add_statistic("num-cse'd", n, "Number of operations
CSE'd")``; the counts go to the pass execution that is running (the driver collects them
per pipeline step and prints MLIR's "Pass statistics report"). Counting is off unless a
collector runs: ``collecting()`` says whether a pass should spend time on it.

Each pass also has a debug channel named as the pass (LLVM's ``DEBUG_TYPE``):
``debug_log(name)`` is a ``logging.Logger`` whose messages show, as ``[name] message`` on
stderr, only when ``-debug-only`` names that channel (``enable_debug_channels``).
"""

from __future__ import annotations

import logging
import sys
from contextlib import contextmanager

# The statistics of the running pass: name -> [value, description]; None: not collecting.
_current: dict[str, list] | None = None


def collecting() -> bool:
    return _current is not None


def add_statistic(name: str, amount: int, description: str) -> None:
    """Add ``amount`` to the running pass's statistic ``name`` (nothing if not collecting)."""
    if _current is None:
        return
    entry = _current.setdefault(name, [0, description])
    entry[0] += amount


@contextmanager
def statistics_of_pass(into: dict[str, list]):
    """Collect the statistics of the pass run inside the block into ``into``."""
    global _current
    saved, _current = _current, into
    try:
        yield
    finally:
        _current = saved


_DEBUG_ROOT = "tileopt.debug"


def debug_log(channel: str) -> logging.Logger:
    """The logger of debug channel ``channel`` (a pass's name)."""
    return logging.getLogger(f"{_DEBUG_ROOT}.{channel}")


class _ChannelFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return f"[{record.name[len(_DEBUG_ROOT) + 1:]}] {record.getMessage()}"


def enable_debug_channels(channels: list[str]) -> None:
    """Show the messages of these channels on stderr (``-debug-only=a,b``)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_ChannelFormatter())
    for channel in channels:
        logger = debug_log(channel)
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
        logger.propagate = False
