"""Compare tileopt's IR with Triton's own output, ignoring what is not semantics.

Two modules "match" when they hold the same multiset of ops, each op identified by its
name, operand types, result types and attributes (properties included). Order, SSA names
and locations are ignored, and layouts are compared fully expanded (``#blocked1`` in one
file and ``#blocked3`` in the other are equal if their parameters are), because xDSL
prints attributes inline when no alias printer is involved.

``corpus_pass_cases`` turns the per-pass dumps of ``passes.tar.xz`` into test cases for
one pass: the dump taken before the pass is the input, the dump taken before the next
pass is the expected output. A dump equal to the one before it is not stored, so a
missing file stands for the latest stored dump before it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from xdsl.ir import Attribute, Operation

# Attributes that are bookkeeping rather than semantics.
_IGNORED_ATTRIBUTES = frozenset({"sym_visibility_hint", "name_hint"})

OpKey = tuple[str, tuple[str, ...], tuple[str, ...], tuple[tuple[str, str], ...]]


def _text(attr: Attribute) -> str:
    return str(attr)


def op_key(op: Operation, with_attributes: bool = True) -> OpKey:
    attrs: tuple[tuple[str, str], ...] = ()
    if with_attributes:
        merged = {**op.properties, **op.attributes}
        attrs = tuple(sorted((name, _text(value)) for name, value in merged.items()
                             if name not in _IGNORED_ATTRIBUTES))
    return (op.name,
            tuple(_text(v.type) for v in op.operands),
            tuple(_text(r.type) for r in op.results),
            attrs)


def op_multiset(module: Operation, with_attributes: bool = True) -> Counter[OpKey]:
    keys: Counter[OpKey] = Counter()
    for op in module.walk():
        if op is module:
            continue
        keys[op_key(op, with_attributes)] += 1
    return keys


def format_key(key: OpKey) -> str:
    name, operands, results, attrs = key
    text = name
    if attrs:
        text += " {" + ", ".join(f"{k} = {v}" for k, v in attrs) + "}"
    text += " : (" + ", ".join(operands) + ") -> (" + ", ".join(results) + ")"
    return text


@dataclass
class CompareResult:
    missing: Counter[OpKey] = field(default_factory=Counter)
    """Ops the expected module has and the actual one lacks."""
    extra: Counter[OpKey] = field(default_factory=Counter)
    """Ops the actual module has and the expected one lacks."""
    module_attributes_differ: str | None = None

    @property
    def equal(self) -> bool:
        return not self.missing and not self.extra and self.module_attributes_differ is None

    def summary(self, limit: int = 12) -> str:
        if self.equal:
            return "match"
        lines = [f"{sum(self.missing.values())} missing, {sum(self.extra.values())} extra"]
        if self.module_attributes_differ:
            lines.append(f"module attributes: {self.module_attributes_differ}")
        for label, keys in (("missing", self.missing), ("extra", self.extra)):
            for key, count in list(keys.items())[:limit]:
                lines.append(f"  {label} x{count}: {format_key(key)}")
        return "\n".join(lines)


def compare_modules(actual: Operation, expected: Operation,
                    with_attributes: bool = True) -> CompareResult:
    actual_ops = op_multiset(actual, with_attributes)
    expected_ops = op_multiset(expected, with_attributes)
    result = CompareResult(missing=expected_ops - actual_ops, extra=actual_ops - expected_ops)
    actual_attrs = {k: _text(v) for k, v in actual.attributes.items()}
    expected_attrs = {k: _text(v) for k, v in expected.attributes.items()}
    if actual_attrs != expected_attrs:
        result.module_attributes_differ = f"{actual_attrs} != {expected_attrs}"
    return result


def op_order_difference(actual: Operation, expected: Operation) -> str | None:
    """None if both modules hold the same ops (as ``op_key`` sees them) in the same walk
    order, else where they first differ. For passes that only move ops, which the
    multiset comparison of ``compare_modules`` cannot see."""
    actual_keys = [op_key(op) for op in actual.walk()]
    expected_keys = [op_key(op) for op in expected.walk()]
    for n, (a, e) in enumerate(zip(actual_keys, expected_keys)):
        if a != e:
            return f"op #{n} is\n  {format_key(a)}\nwhere Triton has\n  {format_key(e)}"
    if len(actual_keys) != len(expected_keys):
        return f"{len(actual_keys)} ops instead of {len(expected_keys)}"
    return None


@dataclass(frozen=True)
class PassCase:
    target: str
    kernel: str
    index: int
    """Position of the pass in the pipeline (ORDER.txt), counting from 0."""
    input_path: Path
    expected_path: Path
    changed: bool
    """Whether Triton's pass changed the IR (else input and expected are the same dump)."""

    @property
    def id(self) -> str:
        return f"{self.target}-{self.kernel}-{self.index:03d}"


def _pipeline(folder: Path) -> list[tuple[str, Path | None]]:
    entries = []
    for line in (folder / "ORDER.txt").read_text().splitlines()[1:]:
        if not line.strip():
            continue
        file_name = line.split()[0]
        path = folder / file_name
        pass_name = file_name.split("-", 1)[1].removesuffix(".mlir")
        entries.append((pass_name, path if path.exists() else None))
    return entries


def corpus_pass_cases(passes_root: Path, pass_name: str,
                      targets: tuple[str, ...] | None = None,
                      kernels: tuple[str, ...] | None = None) -> Iterator[PassCase]:
    """Every run of ``pass_name`` in the corpus pipelines, as (input, expected) dumps."""
    for target_dir in sorted(p for p in passes_root.iterdir() if p.is_dir()):
        if targets is not None and target_dir.name not in targets:
            continue
        for kernel_dir in sorted((target_dir / "passes").iterdir()):
            if kernels is not None and kernel_dir.name not in kernels:
                continue
            entries = _pipeline(kernel_dir)
            latest: Path | None = None
            stored_at: list[Path | None] = []
            for _, path in entries:
                latest = path or latest
                stored_at.append(latest)
            for index, (name, _) in enumerate(entries):
                if name != pass_name or index + 1 >= len(entries):
                    continue
                before, after = stored_at[index], stored_at[index + 1]
                if before is None or after is None:
                    continue
                yield PassCase(target_dir.name, kernel_dir.name, index, before, after,
                               changed=before != after)
