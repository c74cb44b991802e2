"""The one way canonicalization patterns and folders reach an op (see docs/patterns.md).

A module that defines patterns or a folder attaches them to the op *class* with
:func:`add_canonicalization_patterns` / :func:`add_folder`, when it is imported. Both add
an xDSL trait to the class (``OpTraits.add_trait``), so the patterns are found the way
xDSL finds any op's: through ``HasCanonicalizationPatternsTrait`` and ``HasFolder``. This
works alike for tileopt's ops and for upstream xDSL ones (``arith``, ``scf``) whose
classes tileopt does not define, and keeps a dialect module free of imports of its
patterns (the patterns import the dialect, never the reverse).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import Attribute, Operation, OpTraits, SSAValue
from xdsl.pattern_rewriter import RewritePattern
from xdsl.traits import HasCanonicalizationPatternsTrait, HasFolder

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


def add_canonicalization_patterns(op_type: type[Operation], *patterns: RewritePattern) -> None:
    """Attach ``patterns`` (each rooted at an ``op_type`` op) to ``op_type``."""
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
