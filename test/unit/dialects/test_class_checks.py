"""tileopt/dialects/class_checks.py: ``isinstance``/``issubclass`` against xDSL's classes
give ABCMeta's answers.

Every class of the family (after every dialect is loaded and every op class defined) is
asked about every class of the family and a few others, with ``type``'s checks and then
with ``ABCMeta``'s (``restore``): the same answers."""

from __future__ import annotations

import abc
import collections.abc

import pytest
from xdsl.dialects.builtin import IntAttr, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute

from tileopt.dialects import class_checks
from tileopt.ir import make_context
from tileopt.ir.context import DIALECTS


@pytest.fixture
def reinstalled():
    yield
    assert class_checks.install()


def _family() -> list[type]:
    ctx = make_context()
    for name in DIALECTS:
        ctx.load_registered_dialect(name)
    assert ctx.loaded_ops  # the op classes, defined (their definitions built or not)
    import tileopt.transforms.common.canonicalize  # noqa: F401 - rewrite patterns
    return sorted(class_checks._family(), key=lambda cls: (cls.__module__, cls.__qualname__))


def _answers(classes, candidates) -> list[bool]:
    return [issubclass(candidate, cls) for cls in classes for candidate in candidates]


def test_the_family_is_type_checked():
    family = _family()
    assert len(family) > 600
    assert all(type(cls) is class_checks.TypeChecked for cls in family)
    assert type(StringAttr) is class_checks.TypeChecked
    from xdsl.pattern_rewriter import RewritePattern  # patched when first imported

    assert type(RewritePattern) is class_checks.TypeChecked
    assert type(collections.abc.Sequence) is abc.ABCMeta  # others are not touched


def test_answers_are_abcmetas(reinstalled):
    family = _family()
    candidates = [*family, int, str, object, list, tuple, collections.abc.Sequence]
    fast = _answers(family, candidates)
    instances = [isinstance(value, cls) for cls in (Attribute, ParametrizedAttribute,
                                                     StringAttr, collections.abc.Iterable)
                 for value in (IntAttr(1), StringAttr("a"), 3, "a")]
    class_checks.restore()
    assert all(type(cls) is abc.ABCMeta for cls in family)
    assert _answers(family, candidates) == fast
    assert [isinstance(value, cls) for cls in (Attribute, ParametrizedAttribute,
                                                StringAttr, collections.abc.Iterable)
            for value in (IntAttr(1), StringAttr("a"), 3, "a")] == instances
    assert sum(fast) > len(family)  # not only False: each class is its own subclass


def test_a_virtual_subclass_brings_abcmeta_back(reinstalled):
    class Local(Attribute):
        pass

    class Virtual:
        pass

    assert type(Local) is class_checks.TypeChecked
    Local.register(Virtual)
    try:
        assert type(Attribute) is abc.ABCMeta and type(Local) is abc.ABCMeta
        assert isinstance(Virtual(), Local) and isinstance(Virtual(), Attribute)
        assert not class_checks.install()  # the family has a virtual subclass now
    finally:
        Local._abc_registry_clear()  # type: ignore[attr-defined]
        for cls in class_checks._family():
            cls._abc_caches_clear()  # type: ignore[attr-defined]
    assert not isinstance(Virtual(), Attribute)


def test_a_subclass_hook_brings_abcmeta_back(reinstalled):
    class Hooked(Attribute):
        @classmethod
        def __subclasshook__(cls, other):
            return other is int or NotImplemented

    assert type(Attribute) is abc.ABCMeta
    assert issubclass(int, Hooked) and issubclass(int, Attribute)  # ABCMeta's answers
    del Hooked
    import gc

    gc.collect()  # the class goes, and with it the hook


def test_rewrite_patterns_imported_later_are_type_checked():
    import subprocess
    import sys

    code = ("import sys, tileopt.dialects\n"
            "assert 'xdsl.pattern_rewriter' not in sys.modules\n"
            "from xdsl.pattern_rewriter import RewritePattern\n"
            "from tileopt.dialects.class_checks import TypeChecked\n"
            "print(type(RewritePattern) is TypeChecked)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout == "True\n"
