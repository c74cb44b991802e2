"""Command-line parsing the way LLVM's ``cl`` library does it.

Triton's RUN lines are written for ``triton-opt``: one or two dashes (``-split-input-file``
and ``--split-input-file`` are the same flag), values after ``=`` or as the next argument
(``-o out.mlir``), and every registered pass is itself a flag (``--tritongpu-coalesce``,
``-tritongpu-pipeline=num-stages=3``, ``--convert-triton-to-tritongpu="target=hip:gfx942
num-warps=4"``). click cannot express "every pass is a flag", so the click command hands
its raw arguments to this parser.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tileopt import version_line
from tileopt.ir import TileoptError
from tileopt.ir.diagnostics import did_you_mean


@dataclass(frozen=True)
class Flag:
    """A driver flag. ``kind`` is ``bool``, ``value`` (one string) or ``list`` (repeatable)."""

    name: str
    kind: str
    help: str
    metavar: str = ""
    default: object = None
    aliases: tuple[str, ...] = ()

    @property
    def dest(self) -> str:
        return self.name.replace("-", "_")


@dataclass
class ParsedArgs:
    """Flag values by ``Flag.dest``, the positional arguments, and pass flags in order."""

    values: dict[str, object]
    positionals: list[str] = field(default_factory=list)
    # (pass name, option text or None), in command-line order.
    pass_flags: list[tuple[str, str | None]] = field(default_factory=list)

    def __getattr__(self, name: str) -> object:
        try:
            return self.__dict__["values"][name]
        except KeyError:
            raise AttributeError(name) from None


_TRUE = {"true", "1", "yes", "on", ""}
_FALSE = {"false", "0", "no", "off"}


def answered_help_or_version(args: ParsedArgs, usage: Callable[[], str]) -> bool:
    """Print the usage for ``--help`` or the version for ``--version`` (every tool answers
    both the same way); True when one was asked for and the run is over."""
    if args.help:
        sys.stdout.write(usage())
        return True
    if args.version:
        print(version_line())
        return True
    return False


# Every tool's --help: flags from column 3, their help from HELP_COLUMN (on the next line
# when the flag is longer), wrapped at HELP_WIDTH.
HELP_COLUMN = 32
HELP_WIDTH = 100


def spelled(flag: Flag) -> str:
    """How --help shows a flag: ``-o FILE``, ``--emit=KIND``, ``-h, --help``."""
    value = "" if flag.kind == "bool" else flag.metavar or "VALUE"
    names = sorted((flag.name, *flag.aliases), key=len)
    shown = [f"-{name}" if len(name) == 1 else f"--{name}" for name in names]
    if value:
        shown[-1] += f" {value}" if len(names[-1]) == 1 else f"={value}"
    return ", ".join(shown)


def format_help(usage: str, flags: Iterable[Flag], about: str = "") -> str:
    """The help text of a tool: its usage line, a paragraph about it, and its flags."""
    import textwrap  # here: only --help needs it

    lines = [f"usage: {usage}", ""]
    if about:
        lines += textwrap.wrap(about, HELP_WIDTH) + [""]
    lines.append("options:")
    for flag in flags:
        name = f"  {spelled(flag)}"
        help_lines = textwrap.wrap(flag.help, HELP_WIDTH - HELP_COLUMN) or [""]
        if len(name) + 2 > HELP_COLUMN:
            lines.append(name)
            name = ""
        lines.append(f"{name:<{HELP_COLUMN}}{help_lines[0]}".rstrip())
        lines += [" " * HELP_COLUMN + line for line in help_lines[1:]]
    return "\n".join(lines) + "\n"


def parse_bool(flag: str, text: str) -> bool:
    lowered = text.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise TileoptError(f"'{text}' is not a valid value for boolean flag '-{flag}' (use true or false)")


def parse_argv(argv: Iterable[str], flags: list[Flag], is_pass: Callable[[str], bool],
               pass_names: Callable[[], Iterable[str]]) -> ParsedArgs:
    """Parse ``argv`` against ``flags``; any other ``-name`` must be a registered pass."""
    by_name: dict[str, Flag] = {}
    for flag in flags:
        by_name[flag.name] = flag
        for alias in flag.aliases:
            by_name[alias] = flag
    values: dict[str, object] = {}
    for flag in flags:
        values[flag.dest] = list(flag.default or []) if flag.kind == "list" else flag.default
    parsed = ParsedArgs(values)

    args = list(argv)
    i = 0
    only_positionals = False
    while i < len(args):
        arg = args[i]
        i += 1
        if only_positionals or arg == "-" or not arg.startswith("-"):
            parsed.positionals.append(arg)
            continue
        if arg == "--":
            only_positionals = True
            continue
        body = arg[2:] if arg.startswith("--") else arg[1:]
        name, has_value, value = body.partition("=")
        flag = by_name.get(name)
        if flag is not None:
            if flag.kind == "bool":
                values[flag.dest] = parse_bool(name, value) if has_value else True
                continue
            if not has_value:
                if i >= len(args):
                    raise TileoptError(f"flag '-{name}' needs a value ({flag.metavar or 'VALUE'})")
                value = args[i]
                i += 1
            if flag.kind == "list":
                values[flag.dest].append(value)
            else:
                values[flag.dest] = value
            continue
        if is_pass(name):
            parsed.pass_flags.append((name, value if has_value else None))
            continue
        raise TileoptError(unknown_flag_message(arg, name, list(by_name) + list(pass_names())))
    return parsed


def unknown_flag_message(arg: str, name: str, candidates: list[str]) -> str:
    return (f"unknown command line argument '{arg}'"
            + did_you_mean(name, candidates, spelled="'--{}'"))
