"""Op definitions built on first use instead of when an op class is defined.

xDSL's ``irdl_op_definition`` builds each op class's IRDL definition (``OpDef.from_pyrdl``:
every operand, result, attribute and property constraint) and its accessors as the class
is defined: about 150 classes for a run over a small Triton file, which uses a dozen of
them (issue 14). :func:`install` replaces the decorator with one that keeps the class as
written and builds the definition, with xDSL's own decorator, the first time the class is
used as an op, through a stand-in for each way an op object is first made or its
definition read:

- ``__init__``, ``create`` and ``build`` (every op object is made by one of them, or
  copied from one, so none exists before its class has its accessors and ``verify_``);
- ``get_irdl_definition()`` (the parser, the verifier's fast path, tileopt's dialects);
- ``parse`` of an op with a declarative assembly format.

What the class needs before that is set at once, as xDSL sets it: ``traits`` (the same
``OpTraits`` object xDSL would give it, so traits added to the class before its first
use, e.g. by ``tileopt/dialects/traits.py``, stay on it). A class that defines or inherits
its own ``__new__``, or whose ``traits`` are not an ``OpTraits``, is defined at once, as
before; so is every class when ``TILEOPT_EAGER_OP_DEFINITIONS=1`` (for the test that
compares the two). A mistake in a definition surfaces at the first use instead of at import, so
``test/unit/dialects/test_lazy_op_definitions.py`` builds every op of every dialect and
compares it with xDSL's eager definition.

A local override of xDSL 0.74 (``xdsl/irdl/operations.py``, ``irdl_op_definition``); to
propose upstream: build the ``OpDef`` and accessors on first use (a class-level hook as
here, or in ``IRDLOperation.__new__``/``get_irdl_definition``). Not proposed yet. Drop
this module when xDSL does it.
"""

from __future__ import annotations

import os
import threading
from typing import Generic

import xdsl.irdl
from xdsl.ir import Operation
from xdsl.ir.core import OpTraits
from xdsl.irdl import operations as _ops

_eager = _ops.irdl_op_definition
_MISSING = object()
_OPERATION_CLASSES = frozenset(Operation.mro())

_PENDING: dict[type, tuple[dict[str, object], OpTraits]] = {}
"""Op class not built yet -> (its own entries, as written, of the names given stand-ins;
the traits object it was given)."""
_LOCK = threading.RLock()


def _traits_of(cls: type) -> OpTraits | None:
    """The ``OpTraits`` xDSL's ``OpDef.from_pyrdl`` gives ``cls``: the ``traits`` of every
    class in its MRO (outside ``Operation``'s), combined; None if one is not an
    ``OpTraits`` (xDSL's error, raised by defining the class at once)."""
    defs = []
    for parent in cls.mro():
        if parent is Generic or parent in _OPERATION_CLASSES:
            continue
        value = parent.__dict__.get("traits", _MISSING)
        if value is _MISSING:
            continue
        if not isinstance(value, OpTraits):
            return None
        defs.append(value)
    if not defs:
        return _ops.traits_def()
    if len(defs) == 1:
        return defs[0]
    return OpTraits(lambda: tuple(trait for traits in defs for trait in traits.gen_traits()))


def build(cls: type) -> None:
    """Give ``cls`` and the op classes it derives from their definitions now, if they do
    not have them yet (bases first, as they were defined)."""
    if not _PENDING:
        return
    with _LOCK:
        for klass in reversed(cls.__mro__):
            entry = _PENDING.pop(klass, None)
            if entry is None:
                continue
            written, traits = entry
            current = klass.__dict__["traits"]
            # xDSL's decorator skips methods, so the other stand-ins stay while it runs
            # (another thread using the class meanwhile goes through them and waits); it
            # refuses a format beside a parse method, so that one goes first.
            _restore(klass, written, ("parse",))
            _eager(klass)
            _restore(klass, written, ("__init__", "create", "build"))
            # As when xDSL defines the class: the definition keeps the traits object the
            # class was given; the class keeps the one it has now (it may have been replaced).
            klass.get_irdl_definition().traits = traits
            klass.traits = current


def build_all() -> None:
    """Give every op class defined so far its definition now (the compile server does
    this once before it forks, so that no command builds them again)."""
    for cls in list(_PENDING):
        build(cls)


def _restore(cls: type, written: dict[str, object], names: tuple[str, ...]) -> None:
    for name in names:
        value = written.get(name, None)
        if value is _MISSING:
            delattr(cls, name)
        elif value is not None:
            setattr(cls, name, value)


def _init(self, *args, **kwargs):
    build(type(self))
    type(self).__init__(self, *args, **kwargs)


def _create(cls, *args, **kwargs):
    build(cls)
    return cls.create(*args, **kwargs)


def _build(cls, *args, **kwargs):
    build(cls)
    return cls.build(*args, **kwargs)


def _get_irdl_definition(cls):
    build(cls)
    return cls.get_irdl_definition()


def _parse(cls, parser):
    build(cls)
    return cls.parse(parser)


# The stand-ins, by the name they take on a class until it is built.
_STAND_INS = {"__init__": _init, "create": classmethod(_create),
              "build": classmethod(_build),
              "get_irdl_definition": classmethod(_get_irdl_definition)}


def irdl_op_definition(cls):
    """xDSL's ``irdl_op_definition``, deferred to the class's first use (module doc)."""
    assert issubclass(cls, _ops.IRDLOperation), (
        f"class {cls.__name__} should be a subclass of IRDLOperation")
    traits = _traits_of(cls)
    if traits is None or any("__new__" in vars(klass) for klass in cls.__mro__[:-1]):
        return _eager(cls)
    stand_ins = dict(_STAND_INS)
    if cls.assembly_format is not None:
        stand_ins["parse"] = classmethod(_parse)
    with _LOCK:
        _PENDING[cls] = ({name: cls.__dict__.get(name, _MISSING) for name in stand_ins},
                         traits)
        cls.traits = traits
        for name, stand_in in stand_ins.items():
            setattr(cls, name, stand_in)
    return cls


def install() -> None:
    """Define ops lazily from now on (classes defined before keep their definitions)."""
    if os.environ.get("TILEOPT_EAGER_OP_DEFINITIONS") == "1":
        return
    _ops.irdl_op_definition = irdl_op_definition
    xdsl.irdl.irdl_op_definition = irdl_op_definition
