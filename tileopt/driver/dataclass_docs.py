"""Dataclasses' generated doc strings made when first read, for the commands' start-up.

A class made a dataclass without a doc string of its own gets ``Name(signature)`` as its
``__doc__``: ``dataclasses`` builds its ``inspect.signature`` at once (for one of xDSL's
base classes by parsing a builtin's text signature with ``tokenize``). Nobody reads them
during a command, and the 280 classes a run over a small Triton file defines (xDSL makes
every attribute and type class a dataclass) spend 3% of that run on them (callgrind,
issue 14). ``install`` has ``dataclasses`` skip that step and puts a descriptor in the
class's ``__doc__`` slot instead, which makes the same text, by the same steps, on the
first read (``cls.__doc__``, an instance's ``__doc__``, ``help``, ``inspect.getdoc``) and
keeps it. What differs: ``cls.__dict__['__doc__']`` is that descriptor until then, and a
signature that changes between the class's definition and the first read (an
``__init__`` replaced on the class or a base) shows in the text.

Only the console commands install it (``code_cache.install``, before anything imports
xDSL), on the Python versions whose ``dataclasses`` makes the doc string as
:func:`_generated_doc` does (3.11 to 3.13; the test compares the two for every dataclass
a pipeline run defines).

Upstream (CPython): a lazily made doc string would save every program with many
dataclasses this time; nothing to propose to xDSL.
"""

from __future__ import annotations

import sys

_installed = False
_PENDING = "(dataclass doc string, made when first read)"


def _generated_doc(cls: type) -> str:
    """The doc string ``dataclasses`` (3.11 to 3.13) gives ``cls`` (``_process_class``)."""
    import inspect

    try:
        # In some cases fetching a signature is not possible (as dataclasses says).
        text_sig = str(inspect.signature(cls)).replace(" -> None", "")
    except (TypeError, ValueError):
        text_sig = ""
    return cls.__name__ + text_sig


class _LazyDoc:
    """The ``__doc__`` of a dataclass, made on first read (``type.__doc__`` calls a
    descriptor it finds in the class's dictionary, as attribute lookup does for an
    instance)."""

    __slots__ = ("owner", "text")

    def __init__(self, owner: type) -> None:
        self.owner = owner
        self.text: str | None = None

    def __get__(self, instance, owner=None) -> str:
        if self.text is None:
            self.text = _generated_doc(self.owner)
        return self.text


def _lazily_documented(process_class):
    def _process_class(cls, *args, **kwargs):
        if getattr(cls, "__doc__"):  # its own doc string: dataclasses leaves it
            return process_class(cls, *args, **kwargs)
        cls.__doc__ = _PENDING  # a doc string: dataclasses makes none
        try:
            made = process_class(cls, *args, **kwargs)
        except BaseException:
            cls.__doc__ = None
            raise
        for each in {cls, made}:  # slots=True returns a new class with a copy of the dict
            if each.__dict__.get("__doc__") is _PENDING:
                each.__doc__ = _LazyDoc(each)
        return made

    return _process_class


def install() -> None:
    """Have ``dataclasses`` make doc strings on first read (once per process)."""
    global _installed
    if _installed or not (3, 11) <= sys.version_info[:2] <= (3, 13):
        return
    _installed = True
    import dataclasses

    dataclasses._process_class = _lazily_documented(dataclasses._process_class)
