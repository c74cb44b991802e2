"""The one way canonicalization patterns and folders reach an op (see docs/patterns.md).

A module that defines patterns or a folder attaches them to the op *class* with
:func:`add_canonicalization_patterns` / :func:`add_folder`, when it is imported. Both add
an xDSL trait to the class (``OpTraits.add_trait``), so the patterns are found the way
xDSL finds any op's: through ``HasCanonicalizationPatternsTrait`` and ``HasFolder``. This
works alike for tileopt's ops and for upstream xDSL ones (``arith``, ``scf``) whose
classes tileopt does not define, and keeps a dialect module free of imports of its
patterns (the patterns import the dialect, never the reverse).

A dialect's own pattern module is imported when it is first needed:
:func:`attach_on_first_use` (called by the dialect module) makes the first lookup of a
folder or of canonicalization patterns on any of the dialect's ops import it, so a run
that only parses and prints does not pay for the patterns (issue 14), while every lookup,
from tileopt's passes, xDSL's rewriter or a Context of one's own, still sees them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from importlib import import_module
from typing import TYPE_CHECKING

from xdsl.ir import Attribute, Dialect, Operation, OpTraits, SSAValue
from xdsl.traits import HasCanonicalizationPatternsTrait, HasFolder

from tileopt.dialects import xdsl_fast_paths

if TYPE_CHECKING:
    from xdsl.pattern_rewriter import RewritePattern

FoldResult = Sequence[SSAValue | Attribute] | None


class TileoptCanonicalization(HasCanonicalizationPatternsTrait):
    """The patterns tileopt attached to one op class, in the order they were added."""

    def __init__(self):
        object.__setattr__(self, "patterns", [])

    # One instance per op class: compared and hashed by identity.
    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def get_patterns(self, op: type[Operation]) -> tuple[RewritePattern, ...]:
        return tuple(self.patterns)  # type: ignore[attr-defined]

    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        return ()  # the patterns belong to the instance (see get_patterns)


class TileoptFolder(HasFolder):
    """A folder function attached to an op class."""

    def __init__(self, function: Callable[[Operation], FoldResult]):
        object.__setattr__(self, "function", function)

    __eq__ = object.__eq__
    __hash__ = object.__hash__

    def fold(self, op: Operation) -> FoldResult:  # type: ignore[override]
        return self.function(op)  # type: ignore[attr-defined]


# Op classes given their own ``OpTraits``: sibling classes may share one object (an IRDL
# base class's), and a trait added for one op must not reach the others.
_OWN_TRAITS: set[type[Operation]] = set()


def _add_trait(op_type: type[Operation], trait) -> None:
    if op_type not in _OWN_TRAITS:
        current = tuple(op_type.traits)
        op_type.traits = OpTraits(lambda: current)
        _OWN_TRAITS.add(op_type)
    op_type.traits.add_trait(trait)


_GENERATION = [0]


def patterns_generation() -> tuple[int, int]:
    """Changes whenever an op class gains patterns, a folder or any other trait: what was
    derived from an op class's patterns and traits before (the greedy driver's plans) is
    stale then. (Patterns added to a class that has some already add no trait.)"""
    return _GENERATION[0], xdsl_fast_paths.trait_generation()


def add_canonicalization_patterns(op_type: type[Operation], *patterns: RewritePattern) -> None:
    """Attach ``patterns`` (each rooted at an ``op_type`` op) to ``op_type``."""
    _GENERATION[0] += 1
    trait = op_type.get_trait(TileoptCanonicalization)
    if trait is None:
        trait = TileoptCanonicalization()
        _add_trait(op_type, trait)
    trait.patterns.extend(patterns)  # type: ignore[attr-defined]


def add_folder(op_type: type[Operation], function: Callable[..., FoldResult]) -> None:
    """Make ``function(op)`` the folder of ``op_type`` (an op has one folder)."""
    if op_type.get_trait(HasFolder) is not None:
        raise ValueError(f"{op_type.name} already has a folder")
    _add_trait(op_type, TileoptFolder(function))


def canonicalization_patterns(op_type: type[Operation]) -> tuple[RewritePattern, ...]:
    """Every canonicalization pattern of ``op_type``: tileopt's first (they fold as MLIR
    does where xDSL's own patterns for upstream ops would not), then xDSL's."""
    traits = op_type.get_traits_of_type(HasCanonicalizationPatternsTrait)
    traits.sort(key=lambda trait: not isinstance(trait, TileoptCanonicalization))
    return tuple(pattern for trait in traits for pattern in trait.get_patterns(op_type))


# -- pattern modules imported on first use ------------------------------------------------

_PENDING: dict[type[Operation], str] = {}
"""Op class -> the module that attaches its dialect's patterns, not imported yet."""
_LOADING: set[str] = set()
_LOCK = threading.RLock()
_PATTERN_TRAITS = (HasFolder, HasCanonicalizationPatternsTrait)
_ASKS: dict[type, bool] = {}


def _asks_for_patterns(trait) -> bool:
    """Whether a trait query may be answered by a folder or pattern trait (a query for a
    base class such as ``OpTrait`` may be)."""
    kind = trait if isinstance(trait, type) else type(trait)
    asks = _ASKS.get(kind)
    if asks is None:
        asks = _ASKS[kind] = any(issubclass(kind, base) or issubclass(base, kind)
                                 for base in _PATTERN_TRAITS)
    return asks


def _load_patterns(op_type: type[Operation]) -> None:
    module = _PENDING.get(op_type)
    if module is None:
        return
    with _LOCK:  # another thread waits until the patterns are attached
        if module in _LOADING or _PENDING.get(op_type) is None:
            return  # asked by the pattern module itself while it attaches them
        _LOADING.add(module)
        try:
            import_module(module)
        finally:
            _LOADING.discard(module)
        for pending in [op for op, name in _PENDING.items() if name == module]:
            del _PENDING[pending]
            for method in ("get_trait", "get_traits_of_type"):
                if method in vars(pending):
                    delattr(pending, method)


def load_all_patterns() -> None:
    """Import every pattern module still waiting for its first use (the compile server
    does this once before it forks)."""
    for op_type in list(_PENDING):
        _load_patterns(op_type)


def _pending_get_trait(cls, trait):
    if _asks_for_patterns(trait):
        _load_patterns(cls)
    return Operation.get_trait.__func__(cls, trait)


def _pending_get_traits_of_type(cls, trait_type):
    if _asks_for_patterns(trait_type):
        _load_patterns(cls)
    return Operation.get_traits_of_type.__func__(cls, trait_type)


def attach_on_first_use(dialect: Dialect, module: str) -> None:
    """Import ``module``, which attaches ``dialect``'s own folders and patterns, at the
    first lookup of a folder or pattern trait on any op of ``dialect``.

    Until then each op class has its own ``get_trait``/``get_traits_of_type`` (and so
    ``has_trait``), which imports the module when the query is for ``HasFolder``,
    ``HasCanonicalizationPatternsTrait`` or a base of theirs, then answers as
    ``Operation``'s does; afterwards the class's methods are ``Operation``'s again.
    Other queries (the verifier's) answer as before, without the import."""
    for op_type in dialect.operations:
        _PENDING[op_type] = module
        op_type.get_trait = classmethod(_pending_get_trait)
        op_type.get_traits_of_type = classmethod(_pending_get_traits_of_type)
