"""Attribute hashes computed once per object (an override of xDSL 0.74, issue 14).

xDSL makes every attribute a frozen dataclass, and ``dataclasses`` gives each a
``__hash__`` that hashes the tuple of its fields: hashing a tensor type hashes its shape
(an ``ArrayAttr`` of ``IntAttr``), its element type and its layout, and every parameter of
those, each through a Python-level ``__hash__`` again, on every call (a ``#ttg.blocked``
layout ~35 calls, a tensor type of it ~50). Dictionaries and sets keyed by types and
layouts (the verifier's memo, ``find_layout_problem``, constant hoisting, the layout
passes, the LLVM translation's type map) pay that on each look-up: ~130,000 Python-level
hash calls for 11,000 look-ups in one round of six small sm80 kernels.

Attributes are immutable, so here the dataclass-generated ``__hash__`` of each attribute
class is wrapped: the first call computes it with xDSL's own method and keeps the number
on the object (``__cached_hash__``), later calls return it. The numbers are xDSL's (the
order of a set of attributes is unchanged), and ``__eq__`` is untouched. A class whose
``__hash__`` is its own (``FloatData``) keeps it as it is. A pickled attribute leaves the
number out (another process may hash strings differently).

Installed with the dialects (``tileopt/dialects/__init__.py``): the classes defined so
far are wrapped then, and those defined later by ``irdl_attr_definition`` (through its
last step, ``runtime_final``): the parametrized attribute's own ``__hash__``, which it has
just generated, or the one a ``Data`` class inherits (``Data``'s, ``BitEnumAttribute``'s).

Upstream (xDSL): a cached hash on ``ParametrizedAttribute`` and ``Data`` (a field kept
out of ``__eq__``/``__repr__``, or ``__hash__`` defined once on the base over
``parameters``); it would also retire ``tileopt/driver/code_cache.py``'s ``__hash__``
texts. No patch yet (docs/upstream/README.md).
"""

from __future__ import annotations

from xdsl.ir import Attribute
from xdsl.irdl import attributes as _attributes

_KEY = "__cached_hash__"
_set = object.__setattr__
_own_runtime_final = _attributes.runtime_final


def _is_generated(method: object) -> bool:
    """Whether ``method`` is a ``__hash__`` that ``dataclasses`` wrote (compiled from
    text, as ``tileopt/driver/code_cache.py`` keeps it too)."""
    code = getattr(method, "__code__", None)
    return code is not None and code.co_filename == "<string>" and code.co_name == "__hash__"


def remembering(own):
    """``own`` (a class's generated ``__hash__``), computed once per object."""

    def __hash__(self) -> int:
        found = self.__cached_hash__
        if found is None:
            found = own(self)
            _set(self, _KEY, found)
        return found

    __hash__.__qualname__ = own.__qualname__
    __hash__.__wrapped__ = own  # type: ignore[attr-defined]
    return __hash__


def wrap(cls: type) -> None:
    """Give ``cls`` the remembering ``__hash__`` if its own is the generated one."""
    own = cls.__dict__.get("__hash__")
    if _is_generated(own):
        cls.__hash__ = remembering(own)


def runtime_final(cls):
    """xDSL's (the last step of ``irdl_attr_definition``), then the remembering
    ``__hash__`` on the class whose ``__hash__`` the new attribute class uses."""
    defined = _own_runtime_final(cls)
    owner = next((c for c in defined.__mro__ if "__hash__" in c.__dict__), None)
    if owner is not None:
        wrap(owner)
    return defined


def _getstate(self) -> dict:
    state = self.__dict__
    if _KEY in state:
        state = dict(state)
        del state[_KEY]
    return state


def _subclasses(cls: type):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


_installed = False


def install() -> None:
    global _installed
    if _installed:
        return
    _installed = True
    Attribute.__cached_hash__ = None  # the default, until an object has its own
    Attribute.__getstate__ = _getstate
    for cls in {Attribute, *_subclasses(Attribute)}:
        wrap(cls)
    _attributes.runtime_final = runtime_final
