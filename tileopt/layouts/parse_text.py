"""Read Triton's layout attribute text into the encoding dataclasses, without xDSL.

A small recursive-descent reader of the syntax Triton prints::

    #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
    #ttg.slice<{dim = 1, parent = #ttg.slice<{dim = 2, parent = #blocked}>}>
    #ttg.linear<{register = [[0, 1]], lane = [[1, 0], ...], warp = [], block = []}>

``#name`` references resolve through alias definitions (``#blocked = #ttg.blocked<...>``),
which :func:`parse_alias_definitions` collects from a whole ``.ttgir`` file. The
``triton_gpu`` dialect prefix of older Triton is accepted as well as ``ttg``. Errors raise
:class:`LayoutTextError`, one line, with the column of the problem.

Used by the ``tileopt-layout`` tool, which must not depend on the xDSL dialects.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tileopt.layouts.encodings import (
    AmdMfma,
    AmdRotatingShared,
    AmdWmma,
    Blocked,
    DotOperand,
    Encoding,
    Linear,
    NvidiaMma,
    NvmmaShared,
    Slice,
    SwizzledShared,
)


class LayoutTextError(ValueError):
    """Text that is not a layout attribute Triton would print; ``column`` is 1-based."""

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.column = column

    def __str__(self) -> str:
        return self.message if self.column is None else f"column {self.column}: {self.message}"


@dataclass(frozen=True)
class TensorTypeText:
    """``tensor<16x16xf16>`` (or ``!ttg.memdesc<...>``) read as shape and element type."""

    shape: tuple[int, ...]
    element_type: str
    encoding_text: str | None = None

    @property
    def element_bit_width(self) -> int | None:
        return element_bit_width(self.element_type)


def element_bit_width(element_type: str) -> int | None:
    """Bits of an MLIR scalar type name (``f16`` -> 16, ``f8E4M3FN`` -> 8, ``i1`` -> 8)."""
    if element_type in ("bf16", "f16"):
        return 16
    if element_type == "tf32":
        return 32
    match = re.fullmatch(r"[su]?i(\d+)|f(\d+)(?:E\d+M\d+\w*)?", element_type)
    if match is None:
        return None
    bits = int(match.group(1) or match.group(2))
    return 8 if bits == 1 else bits  # i1 tensors are stored one byte per element


_DIALECTS = ("ttg", "triton_gpu")


class _Reader:
    """Cursor over the text with the few token kinds attribute syntax needs."""

    def __init__(self, text: str, aliases: Mapping[str, str]) -> None:
        self.text = text
        self.pos = 0
        self.aliases = aliases
        self.resolving: tuple[str, ...] = ()

    def error(self, message: str, pos: int | None = None) -> LayoutTextError:
        return LayoutTextError(message, (self.pos if pos is None else pos) + 1)

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self, token: str) -> bool:
        self.skip_space()
        return self.text.startswith(token, self.pos)

    def expect(self, token: str) -> None:
        self.skip_space()
        if not self.text.startswith(token, self.pos):
            found = self.text[self.pos : self.pos + 12] or "end of text"
            raise self.error(f"expected '{token}' but found '{found}'")
        self.pos += len(token)

    def identifier(self) -> str:
        self.skip_space()
        match = re.compile(r"[A-Za-z_][A-Za-z0-9_.$]*").match(self.text, self.pos)
        if match is None:
            raise self.error("expected a name")
        self.pos = match.end()
        return match.group(0)

    def integer(self) -> int:
        self.skip_space()
        match = re.compile(r"-?\d+").match(self.text, self.pos)
        if match is None:
            raise self.error("expected an integer")
        self.pos = match.end()
        if self.peek(":"):  # an explicit type, `8 : i32`
            self.expect(":")
            self.identifier()
        return int(match.group(0))

    def at_end(self) -> bool:
        self.skip_space()
        return self.pos >= len(self.text)

    # -------------------------------------------------------------- values

    def value(self):
        """An int, a bool, a (nested) list, or a layout attribute (``#...``)."""
        self.skip_space()
        if self.peek("["):
            return self.list_value()
        if self.peek("#"):
            return self.layout()
        if self.peek("true"):
            self.pos += 4
            return True
        if self.peek("false"):
            self.pos += 5
            return False
        return self.integer()

    def list_value(self) -> list:
        self.expect("[")
        items = []
        if self.peek("]"):
            self.expect("]")
            return items
        while True:
            items.append(self.value())
            if self.peek(","):
                self.expect(",")
                continue
            self.expect("]")
            return items

    def dictionary(self) -> tuple[dict[str, object], dict[str, int]]:
        """``{key = value, ...}`` and where each key started (for error messages)."""
        self.expect("{")
        entries: dict[str, object] = {}
        where: dict[str, int] = {}
        if self.peek("}"):
            self.expect("}")
            return entries, where
        while True:
            self.skip_space()
            start = self.pos
            key = self.identifier()
            if key in entries:
                raise self.error(f"key '{key}' given twice", start)
            self.expect("=")
            entries[key] = self.value()
            where[key] = start
            if self.peek(","):
                self.expect(",")
                continue
            self.expect("}")
            return entries, where

    # -------------------------------------------------------------- layouts

    def layout(self) -> Encoding:
        self.skip_space()
        start = self.pos
        self.expect("#")
        name = self.identifier()
        dialect, _, kind = name.partition(".")
        if not kind:
            return self.alias(name, start)
        if dialect not in _DIALECTS:
            raise self.error(f"'#{name}' is not a TritonGPU layout (expected #ttg.<layout>)", start)
        builder = _BUILDERS.get(kind)
        if builder is None:
            known = ", ".join(sorted(_BUILDERS))
            raise self.error(f"unknown layout '#{name}' (known: {known})", start)
        self.expect("<")
        entries, where = self.dictionary()
        self.expect(">")
        try:
            return builder(_Params(kind, entries, where, self))
        except LayoutTextError:
            raise
        except (TypeError, ValueError) as exc:
            raise self.error(f"invalid #{name}: {exc}", start) from None

    def alias(self, name: str, start: int) -> Encoding:
        if name not in self.aliases:
            raise self.error(f"undefined layout alias '#{name}'", start)
        if name in self.resolving:
            raise self.error(f"alias '#{name}' refers to itself", start)
        inner = _Reader(self.aliases[name], self.aliases)
        inner.resolving = self.resolving + (name,)
        try:
            encoding = inner.layout()
            if not inner.at_end():
                raise inner.error("unexpected text after the layout")
        except LayoutTextError as exc:
            raise self.error(f"in alias '#{name}': {exc}", start) from None
        return encoding


class _Params:
    """The key/value pairs of one attribute, read with type checks and defaults."""

    def __init__(self, kind: str, entries: dict, where: dict, reader: _Reader) -> None:
        self.kind, self.entries, self.where, self.reader = kind, entries, where, reader
        self.used: set[str] = set()

    def _fail(self, key: str, message: str) -> LayoutTextError:
        return self.reader.error(f"#ttg.{self.kind}: '{key}' {message}", self.where.get(key))

    def get(self, key: str, kind: str, default=...):
        self.used.add(key)
        if key not in self.entries:
            if default is ...:
                raise self.reader.error(f"#ttg.{self.kind} needs '{key}'")
            return default
        value = self.entries[key]
        if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise self._fail(key, "must be an integer")
        if kind == "bool" and not isinstance(value, bool):
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise self._fail(key, "must be true or false")
        if kind == "ints" and not (
            isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise self._fail(key, "must be a list of integers")
        if kind == "bases" and not (
            isinstance(value, list)
            and all(isinstance(b, list) and all(isinstance(v, int) for v in b) for b in value)
        ):
            raise self._fail(key, "must be a list of integer lists")
        if kind == "layout" and isinstance(value, (int, list)):
            raise self._fail(key, "must be a layout attribute")
        return value

    def cta(self) -> dict:
        return {
            "ctas_per_cga": self.get("CTAsPerCGA", "ints", None),
            "cta_split_num": self.get("CTASplitNum", "ints", None),
            "cta_order": self.get("CTAOrder", "ints", None),
        }

    def done(self, encoding: Encoding) -> Encoding:
        unknown = [k for k in self.entries if k not in self.used]
        if unknown:
            raise self._fail(unknown[0], "is not a parameter of this layout")
        return encoding


def _blocked(p: _Params) -> Encoding:
    return p.done(
        Blocked(
            p.get("sizePerThread", "ints"),
            p.get("threadsPerWarp", "ints"),
            p.get("warpsPerCTA", "ints"),
            p.get("order", "ints"),
            **p.cta(),
        )
    )


def _slice(p: _Params) -> Encoding:
    return p.done(Slice(p.get("dim", "int"), p.get("parent", "layout")))


def _dot_op(p: _Params) -> Encoding:
    return p.done(DotOperand(p.get("opIdx", "int"), p.get("parent", "layout"), p.get("kWidth", "int", 0)))


def _nvidia_mma(p: _Params) -> Encoding:
    return p.done(
        NvidiaMma(
            p.get("versionMajor", "int"),
            p.get("versionMinor", "int", 0),
            p.get("warpsPerCTA", "ints"),
            p.get("instrShape", "ints"),
            **p.cta(),
        )
    )


def _amd_mfma(p: _Params) -> Encoding:
    return p.done(
        AmdMfma(
            p.get("version", "int"),
            p.get("warpsPerCTA", "ints"),
            p.get("instrShape", "ints"),
            p.get("isTransposed", "bool"),
            tiles_per_warp=p.get("tilesPerWarp", "ints", None),
            element_bit_width=p.get("elementBitWidth", "int", 32),
            **p.cta(),
        )
    )


def _amd_wmma(p: _Params) -> Encoding:
    return p.done(
        AmdWmma(
            p.get("version", "int"),
            p.get("isTranspose", "bool", False),
            p.get("warpsPerCTA", "ints"),
            p.get("instrShape", "ints", (16, 16, 16)),
            **p.cta(),
        )
    )


def _linear(p: _Params) -> Encoding:
    return p.done(
        Linear(
            p.get("register", "bases"),
            p.get("lane", "bases"),
            p.get("warp", "bases"),
            p.get("block", "bases", []),
        )
    )


def _swizzled(cls) -> Callable[[_Params], Encoding]:
    def build(p: _Params) -> Encoding:
        return p.done(
            cls(
                p.get("vec", "int"),
                p.get("perPhase", "int"),
                p.get("maxPhase", "int"),
                p.get("order", "ints"),
                **p.cta(),
            )
        )

    return build


def _nvmma_shared(p: _Params) -> Encoding:
    return p.done(
        NvmmaShared(
            p.get("swizzlingByteWidth", "int"),
            p.get("transposed", "bool", False),
            p.get("elementBitWidth", "int", None),
            p.get("fp4Padded", "bool", False),
            **p.cta(),
        )
    )


_BUILDERS: dict[str, Callable[[_Params], Encoding]] = {
    "blocked": _blocked,
    "slice": _slice,
    "dot_op": _dot_op,
    "nvidia_mma": _nvidia_mma,
    "amd_mfma": _amd_mfma,
    "amd_wmma": _amd_wmma,
    "linear": _linear,
    "swizzled_shared": _swizzled(SwizzledShared),
    "amd_rotating_shared": _swizzled(AmdRotatingShared),
    "nvmma_shared": _nvmma_shared,
}


def parse_layout(text: str, aliases: Mapping[str, str] | None = None) -> Encoding:
    """One layout attribute (or ``#alias`` with ``aliases`` giving alias -> text)."""
    reader = _Reader(text, aliases or {})
    if reader.at_end():
        raise LayoutTextError("empty layout text")
    encoding = reader.layout()
    if not reader.at_end():
        raise reader.error("unexpected text after the layout")
    return encoding


_ALIAS_LINE = re.compile(r"^\s*#([A-Za-z_][A-Za-z0-9_$.]*)\s*=\s*(#.*?)\s*$", re.MULTILINE)


def parse_alias_definitions(text: str) -> dict[str, str]:
    """``{alias: attribute text}`` for every ``#alias = #ttg...`` line of a file.

    Only layout aliases are kept (``#loc`` and ``#smem`` lines are other attributes).
    """
    aliases = {}
    for match in _ALIAS_LINE.finditer(text):
        body = match.group(2)
        if any(body.startswith(f"#{d}.") for d in _DIALECTS) and "<" in body:
            aliases[match.group(1)] = body
    return aliases


_TENSOR = re.compile(r"^\s*(tensor|!ttg\.memdesc|!triton_gpu\.memdesc)<(.*)>\s*$", re.DOTALL)


def parse_tensor_type(text: str) -> TensorTypeText:
    """``tensor<16x64xf16>``, optionally with an encoding: ``tensor<16x64xf16, #blocked>``."""
    match = _TENSOR.match(text)
    if match is None:
        raise LayoutTextError(f"expected a tensor type like tensor<16x16xf16>, got '{text.strip()}'")
    body = match.group(2)
    head, _, rest = body.partition(",")
    parts = head.strip().split("x")
    if len(parts) < 2:
        raise LayoutTextError(f"tensor type '{text.strip()}' has no shape")
    try:
        shape = tuple(int(p) for p in parts[:-1])
    except ValueError:
        raise LayoutTextError(f"tensor type '{text.strip()}' has a dynamic or bad shape") from None
    if any(s <= 0 for s in shape):
        raise LayoutTextError(f"tensor type '{text.strip()}' has a non-positive size")
    return TensorTypeText(shape, parts[-1].strip(), _first_attribute(rest))


def _first_attribute(text: str) -> str | None:
    """The first comma-separated item of ``text``, commas inside ``<>``, ``{}``, ``[]`` kept."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "<{[(":
            depth += 1
        elif ch in ">}])":
            depth -= 1
        elif ch == "," and depth == 0:
            return text[:i].strip() or None
    return text.strip() or None


# ---------------------------------------------------------------------- printing


def _ints_text(values) -> str:
    return "[" + ", ".join(str(v) for v in values) + "]"


def _bool_text(value: bool) -> str:
    return "true" if value else "false"


def format_layout(encoding: Encoding, aliases: Mapping[str, Encoding] | None = None) -> str:
    """The attribute text Triton prints for ``encoding`` (the inverse of :func:`parse_layout`).

    Keys come in Triton's order, optional ones only when they differ from their default.
    A parent equal to one of ``aliases`` (name -> encoding) is printed as ``#name``.
    """
    parent_names = {enc: name for name, enc in (aliases or {}).items()}

    def parent(enc: Encoding) -> str:
        return f"#{parent_names[enc]}" if enc in parent_names else format_layout(enc, aliases)

    def cta(enc) -> list[str]:
        if enc.cta_order is None:
            return []
        return [f"CTAsPerCGA = {_ints_text(enc.ctas_per_cga)}", f"CTASplitNum = {_ints_text(enc.cta_split_num)}",
                f"CTAOrder = {_ints_text(enc.cta_order)}"]

    e = encoding
    if isinstance(e, Blocked):
        keys = [f"sizePerThread = {_ints_text(e.size_per_thread)}", f"threadsPerWarp = {_ints_text(e.threads_per_warp)}",
                f"warpsPerCTA = {_ints_text(e.warps_per_cta)}", f"order = {_ints_text(e.order)}", *cta(e)]
    elif isinstance(e, Slice):
        keys = [f"dim = {e.dim}", f"parent = {parent(e.parent)}"]
    elif isinstance(e, DotOperand):
        keys = [f"opIdx = {e.op_idx}", f"parent = {parent(e.parent)}"]
        if e.k_width:
            keys.append(f"kWidth = {e.k_width}")
    elif isinstance(e, NvidiaMma):
        keys = [f"versionMajor = {e.version_major}", f"versionMinor = {e.version_minor}",
                f"warpsPerCTA = {_ints_text(e.warps_per_cta)}", *cta(e), f"instrShape = {_ints_text(e.instr_shape)}"]
    elif isinstance(e, AmdMfma):
        keys = [f"version = {e.version}", f"warpsPerCTA = {_ints_text(e.warps_per_cta)}",
                f"instrShape = {_ints_text(e.instr_shape)}", f"isTransposed = {_bool_text(e.is_transposed)}", *cta(e)]
        if e.tiles_per_warp is not None:
            keys.append(f"tilesPerWarp = {_ints_text(e.tiles_per_warp)}")
        if e.element_bit_width != 32:
            keys.append(f"elementBitWidth = {e.element_bit_width}")
    elif isinstance(e, AmdWmma):
        keys = [f"version = {e.version}", f"isTranspose = {_bool_text(e.is_transposed)}",
                f"warpsPerCTA = {_ints_text(e.warps_per_cta)}", *cta(e)]
        if tuple(e.instr_shape) != (16, 16, 16):
            keys.append(f"instrShape = {_ints_text(e.instr_shape)}")
    elif isinstance(e, Linear):
        keys = [f"{d} = [" + ", ".join(_ints_text(b) for b in getattr(e, d)) + "]"
                for d in ("register", "lane", "warp", "block")]
    elif isinstance(e, SwizzledShared):  # and AmdRotatingShared
        keys = [f"vec = {e.vec}", f"perPhase = {e.per_phase}", f"maxPhase = {e.max_phase}",
                f"order = {_ints_text(e.order)}", *cta(e)]
    elif isinstance(e, NvmmaShared):
        keys = [f"swizzlingByteWidth = {e.swizzling_byte_width}", f"transposed = {_bool_text(e.transposed)}"]
        if e.element_bit_width is not None:
            keys.append(f"elementBitWidth = {e.element_bit_width}")
        if e.fp4_padded:
            keys.append("fp4Padded = true")
        keys += cta(e)
    else:
        raise LayoutTextError(f"cannot print a {type(e).__name__}")
    return f"#{e.name}<{{" + ", ".join(keys) + "}>"
