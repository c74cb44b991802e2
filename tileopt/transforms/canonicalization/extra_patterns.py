"""Canonicalization patterns for ops tileopt does not define (xDSL's ``arith``, ``scf``...).

Patterns of tileopt's own dialects hang off their ops through
``HasCanonicalizationPatternsTrait``. For upstream ops whose classes we do not own, a
module registers patterns here by op name with ``register_patterns``; ``canonicalize``
runs them beside the ops' own ones.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

from xdsl.pattern_rewriter import RewritePattern

# Modules that call ``register_patterns`` when imported.
PATTERN_MODULES: tuple[str, ...] = (
    "tileopt.transforms.canonicalization.arith_patterns",
    "tileopt.transforms.canonicalization.scf_patterns",
    "tileopt.transforms.ttgir.convert_layout_patterns",
)

_providers: list[Callable[[], Iterable[RewritePattern]]] = []
_loaded = False


def register_patterns(provider: Callable[[], Iterable[RewritePattern]]) -> None:
    """Register a function returning patterns (each matching the ops it handles)."""
    _providers.append(provider)


def extra_canonicalization_patterns() -> list[RewritePattern]:
    global _loaded
    if not _loaded:
        _loaded = True
        for module_name in PATTERN_MODULES:
            try:
                importlib.import_module(module_name)
            except ModuleNotFoundError as err:
                if err.name != module_name:
                    raise
    return [pattern for provider in _providers for pattern in provider()]
