"""``isinstance`` and ``issubclass`` against xDSL's classes as ``type`` answers them (an
override of xDSL 0.74, issue 14).

xDSL's attributes, ops, values and operand definitions are abstract base classes: their
metaclass is ``ABCMeta``, whose ``__instancecheck__`` is a Python-level method that asks
the class's registry of virtual subclasses and its caches (weak sets) before the class's
MRO. Every ``isinstance(x, TensorType)``, ``isinstance(op, scf.ForOp)``,
``isinstance(attr, ParametrizedAttribute)`` pays it unless ``x`` is exactly of that
class: ~80,000 times in one round of six small sm80 kernels, four in five of them
answering False.

None of these classes has a virtual subclass (``ABCMeta.register``) or a
``__subclasshook__`` of its own, so ABCMeta's answer is the MRO's, which is
``type.__instancecheck__``'s. Here they get a metaclass derived from ``ABCMeta`` (so
abstract methods and ``register`` stay) whose two checks are ``type``'s, C code without
caches; a class defined later from one of them gets it too (Python takes the most derived
metaclass of the bases). Should a class of the family ever get a virtual subclass or
define a ``__subclasshook__``, every class goes back to ``ABCMeta`` first, so that the
answers are ABCMeta's from then on (``restore``). A family in which one class has either
already is left as it is.

Installed with the dialects (``tileopt/dialects/__init__.py``), for the classes under
the roots below defined so far (xDSL's core; the dialects' classes are defined after it
and inherit the metaclass), and for xDSL's rewrite patterns when their module is
imported.

Upstream (xDSL): the same metaclass for these roots (xDSL registers no virtual subclass
of them), or
plain classes with ``abstractmethod`` checks where ABC is used only for those. No patch
yet (docs/upstream/README.md).
"""

from __future__ import annotations

from abc import ABCMeta, _get_dump  # type: ignore[attr-defined]

from xdsl.dialects.builtin import ContainerType
from xdsl.ir import Attribute
from xdsl.ir.core import IRWithName, IRWithUses, _IRNode
from xdsl.irdl.operations import IRDLOption, OperandOrResultDef

from tileopt.dialects import xdsl_fast_paths

ROOTS: list[type] = [Attribute, IRWithUses, IRWithName, _IRNode, OperandOrResultDef,
                     IRDLOption, ContainerType]
"""the classes whose subclasses are the family (with ``RewritePattern`` once
``xdsl.pattern_rewriter`` is imported: a run without passes does not import it)"""


class TypeChecked(ABCMeta):
    """ABCMeta with ``type``'s ``isinstance``/``issubclass`` (for classes without
    virtual subclasses or subclass hooks)."""

    __instancecheck__ = type.__instancecheck__
    __subclasscheck__ = type.__subclasscheck__

    def __new__(mcls, name, bases, namespace, /, **kwargs):
        cls = super().__new__(mcls, name, bases, namespace, **kwargs)
        if "__subclasshook__" in namespace:
            restore()
        return cls

    def register(cls, subclass):
        restore()
        return ABCMeta.register(cls, subclass)


def _family() -> set[type]:
    found: set[type] = set()
    stack = list(ROOTS)
    while stack:
        cls = stack.pop()
        if cls not in found:
            found.add(cls)
            stack.extend(cls.__subclasses__())
    return found


def _plain(cls: type) -> bool:
    """No virtual subclass registered, and the subclass hook is ``object``'s or one of
    ``collections.abc``'s (each answers only for its own class)."""
    if _get_dump(cls)[0]:
        return False
    owner = next(c for c in cls.__mro__ if "__subclasshook__" in c.__dict__)
    return owner is object or (owner.__module__ == "collections.abc" and owner is not cls)


def install() -> bool:
    """Give the family ``TypeChecked``; False (nothing changed) where one of its classes
    has a virtual subclass or a subclass hook of its own."""
    xdsl_fast_paths._patch_on_import(_PATTERNS, _add_patterns)  # noqa: SLF001
    family = _family()
    if not all(type(cls) in (ABCMeta, TypeChecked) and _plain(cls) for cls in family):
        return False
    for cls in family:
        cls.__class__ = TypeChecked
    return True


_PATTERNS = "xdsl.pattern_rewriter"


def _add_patterns(module) -> None:
    if module.RewritePattern not in ROOTS:
        ROOTS.append(module.RewritePattern)
        if type(Attribute) is TypeChecked:  # not restored since
            install()


def restore() -> None:
    """Every class back to ``ABCMeta`` (and its registries and caches)."""
    for cls in _family():
        if type(cls) is TypeChecked:
            cls.__class__ = ABCMeta
