"""Typed pass options, spelled the way Triton's ``Passes.td`` spells them.

An option is a dataclass field of the pass declared with :func:`option`. Its command-line
name is the field name with ``_`` turned into ``-`` (``num_warps`` -> ``num-warps``) unless
``name=`` says otherwise (``kPack``). Supported types: ``int``, ``float``, ``bool``, ``str``
and ``tuple[int, ...]`` / ``tuple[str, ...]`` (written ``a=1,2,3``); ``choices=`` restricts
a value to a fixed set.

Option text is what follows a pass flag or sits in ``{...}`` in a pipeline string:
``target=hip:gfx942 num-warps=4`` (space separated, values may be quoted with '...' or
"..." or wrapped in {...}; a bare ``flag`` means ``flag=true``).
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass


@dataclass(frozen=True)
class OptionSpec:
    """One option of a pass: its command-line name, field, type and default."""

    name: str
    field: str
    type: object
    default: object
    help: str
    choices: tuple[object, ...] | None = None

    @property
    def type_name(self) -> str:
        if self.choices:
            return "|".join(str(c) for c in self.choices)
        if typing.get_origin(self.type) is tuple:
            (element, *_rest) = typing.get_args(self.type)
            return f"list<{element.__name__}>"
        return getattr(self.type, "__name__", str(self.type))

    def format_value(self, value: object) -> str:
        return format_option_value(value)

    def parse(self, value: object) -> object:
        """Convert text (or a YAML scalar) to this option's type; ValueError says why."""
        result = _convert(self.type, value, self.name)
        if self.choices is not None and result not in self.choices:
            raise ValueError(f"option '{self.name}' must be one of "
                             f"{', '.join(str(c) for c in self.choices)}, not '{value}'")
        return result


def option(default: object, help: str = "", *, name: str | None = None,
           choices: typing.Iterable[object] | None = None) -> typing.Any:
    """Declare a pass option: ``num_warps: int = option(4, "warps per CTA")``."""
    return dataclasses.field(default=default, metadata={
        "tileopt_option": True, "help": help, "name": name,
        "choices": tuple(choices) if choices is not None else None})


# Per class (not inherited: a subclass's key is itself), built once: a pipeline asks for a
# pass's options several times per run, and evaluating the annotations is most of the cost.
_SPECS: dict[type, tuple[OptionSpec, ...]] = {}


def option_specs(cls: type) -> list[OptionSpec]:
    """The options of a pass class, in declaration order."""
    specs = _SPECS.get(cls)
    if specs is None:
        specs = _SPECS[cls] = tuple(_build_option_specs(cls))
    return list(specs)


def _build_option_specs(cls: type) -> list[OptionSpec]:
    hints = typing.get_type_hints(cls)
    specs = []
    for field in dataclasses.fields(cls):
        meta = field.metadata
        default = field.default
        if default is dataclasses.MISSING and field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        specs.append(OptionSpec(
            name=meta.get("name") or field.name.replace("_", "-"),
            field=field.name,
            type=hints.get(field.name, str),
            default=None if default is dataclasses.MISSING else default,
            help=meta.get("help", ""),
            choices=meta.get("choices"),
        ))
    return specs


def format_option_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(format_option_value(v) for v in value)
    text = str(value)
    if text == "" or any(c.isspace() for c in text) or any(c in text for c in "{}"):
        return '"' + text.replace('"', '\\"') + '"'
    return text


_TRUE = {"true", "1", "on", "yes"}
_FALSE = {"false", "0", "off", "no"}


def _convert(kind: object, value: object, name: str) -> object:
    if typing.get_origin(kind) in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        args = [a for a in typing.get_args(kind) if a is not type(None)]
        if value is None:
            return None
        return _convert(args[0], value, name)
    if typing.get_origin(kind) is tuple:
        element = typing.get_args(kind)[0]
        if isinstance(value, (list, tuple)):
            items = list(value)
        else:
            text = str(value).strip()
            items = [item.strip() for item in text.split(",")] if text else []
        return tuple(_convert(element, item, name) for item in items)
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise ValueError(f"option '{name}' expects a bool (true/false), got '{value}'")
    if kind is int:
        if isinstance(value, bool):
            raise ValueError(f"option '{name}' expects an int, got '{value}'")
        if isinstance(value, int):
            return value
        try:
            return int(str(value).strip(), 0)
        except ValueError:
            raise ValueError(f"option '{name}' expects an int, got '{value}'") from None
    if kind is float:
        if isinstance(value, bool):
            raise ValueError(f"option '{name}' expects a float, got '{value}'")
        try:
            return float(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError(f"option '{name}' expects a float, got '{value}'") from None
    if kind is str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (list, tuple, dict)):
            raise ValueError(f"option '{name}' expects a string, got a list or mapping")
        return str(value)
    raise ValueError(f"option '{name}' has an unsupported type {kind!r}")


@dataclass(frozen=True)
class OptionAssignment:
    """``key=value`` from option text; ``offset`` is where ``key`` starts in the text."""

    key: str
    value: str
    offset: int
    value_offset: int


def split_option_text(text: str) -> list[OptionAssignment]:
    """Split ``a=1 b='x y' c={p q}`` into assignments; ValueError(msg, offset) if malformed."""
    result = []
    i, n = 0, len(text)
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            return result
        start = i
        while i < n and not text[i].isspace() and text[i] != "=":
            i += 1
        key = text[start:i]
        if not key:
            raise OptionTextError("expected an option name", start)
        if i >= n or text[i] != "=":
            result.append(OptionAssignment(key, "true", start, start))
            continue
        i += 1
        value_start = i
        value, i = _read_value(text, i)
        result.append(OptionAssignment(key, value, start, value_start))


class OptionTextError(ValueError):
    def __init__(self, message: str, offset: int):
        super().__init__(message)
        self.message = message
        self.offset = offset


def _read_value(text: str, i: int) -> tuple[str, int]:
    n = len(text)
    if i < n and text[i] in "'\"":
        quote = text[i]
        end = text.find(quote, i + 1)
        if end < 0:
            raise OptionTextError(f"unterminated {quote} in option value", i)
        return text[i + 1:end], end + 1
    if i < n and text[i] == "{":
        depth, j = 0, i
        while j < n:
            if text[j] == "{":
                depth += 1
            elif text[j] == "}":
                depth -= 1
                if depth == 0:
                    return text[i + 1:j], j + 1
            j += 1
        raise OptionTextError("unterminated '{' in option value", i)
    j = i
    while j < n and not text[j].isspace():
        j += 1
    return text[i:j], j
