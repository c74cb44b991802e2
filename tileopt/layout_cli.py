"""``tileopt-layout``: show which thread holds which element of a tensor under a layout.

The counterpart of Triton's ``triton-tensor-layout``::

    tileopt-layout -l '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4],
                       warpsPerCTA = [4, 1], order = [1, 0]}>' -t 'tensor<16x16xf16>'

prints the tensor with, for every element, the threads holding it (``T<thread>:<register>``,
threads numbered across the CTA). ``--view hw`` lists instead, warp by warp and register by
register, the element each lane holds. Shared-memory layouts show each element's offset
(or, in the hw view, the element at each offset). ``--png`` draws the grid coloured by warp
(or bank) for checking a layout by eye. ``-i FILE`` reads ``#alias = ...`` definitions from
a TritonGPU file so ``-l '#mma'`` and parents like ``parent = #blocked`` resolve; without
``-l`` every layout alias of the file is shown (or those named by ``--alias-names``).

Layout text, tensor types and the ``#alias = ...`` definitions of ``-i`` are read with the
dialect's own parser (``tileopt.ir``), so the tool accepts exactly what the compiler reads;
the linear layout comes from ``linear_layout_of``, as everywhere else.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

import click
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Attribute
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from tileopt import version_line
from tileopt.dialects.layout_of import encoding_of, linear_layout_of
from tileopt.dialects.ttg_attrs import LayoutAttr
from tileopt.dialects.ttg_types import MemDescType
from tileopt.driver.argv import Flag, format_help
from tileopt.ir.aliases import find_alias_definitions
from tileopt.ir.context import make_context
from tileopt.ir.parse import TileoptParser
from tileopt.layouts.encodings import is_distributed
from tileopt.layouts.linear_layout import LayoutError
from tileopt.layouts.views import hardware_view, summary, tensor_view


class ToolError(Exception):
    """A problem to report in one line and exit 1."""


class LayoutTextError(ToolError):
    """Layout or type text the dialect's parser rejects (one line, with its column)."""


# The parser's wording, said the way a layout tool user thinks of it.
_WORDING = [
    (re.compile(r"^#([\w.]+): missing '(\w+)'$"), r"#\1 needs '\2'"),
    (re.compile(r"^undefined symbol alias '(#[\w$.-]+)'$"), r"undefined layout alias '\1'"),
    (re.compile(r"^'([\w.]+)' is not registered$"), r"unknown layout '#\1'"),
]


class LayoutReader:
    """Reads layouts and tensor types with the dialect's parser, ``#alias`` uses resolved
    against ``definitions`` (the text of a TritonGPU file, or nothing)."""

    def __init__(self, definitions: str = "", source: str = "<input>") -> None:
        self.definitions = definitions
        self.source = source
        self._aliases: dict[str, Attribute] = {}  # definitions parsed so far

    def layout(self, text: str) -> LayoutAttr:
        """``#ttg.blocked<{...}>``, ``#alias``, ... as the dialect's attribute."""
        attr = self._parse(text, Parser.parse_attribute)
        if not isinstance(attr, LayoutAttr):
            raise LayoutTextError(f"'{text.strip()}' is not a TritonGPU layout")
        return attr

    def tensor_type(self, text: str) -> TensorType | MemDescType:
        """``tensor<16x16xf16[, #layout]>``, ``!ttg.memdesc<...>``, or a bare ``16x16xf16``."""
        stripped = text.strip()
        if re.fullmatch(r"\d+(x\d+)*(x\w+)?", stripped):
            if not re.search(r"x[a-zA-Z]\w*$", stripped):
                stripped += "xf32"
            stripped = f"tensor<{stripped}>"
        ty = self._parse(stripped, Parser.parse_type) if stripped.startswith(("tensor<", "!")) else None
        if not isinstance(ty, (TensorType, MemDescType)):
            raise LayoutTextError(f"expected a tensor type like tensor<16x16xf16>, got '{stripped}'")
        if any(size < 1 for size in ty.get_shape()):
            raise LayoutTextError(f"tensor type '{stripped}' has a dynamic or bad shape")
        return ty

    def layout_aliases(self) -> list[str]:
        """The aliases of ``definitions`` that name layouts, in file order."""
        names = [name[1:] for name in find_alias_definitions(self.definitions) if name[0] == "#"]
        return [n for n in names if isinstance(self._parse(f"#{n}", Parser.parse_attribute), LayoutAttr)]

    def _parse(self, text: str, parse: Callable[[Parser], Attribute]) -> Attribute:
        # Triton before 3.2 spelled the dialect triton_gpu.
        text = text.strip().replace("#triton_gpu.", "#ttg.").replace("!triton_gpu.", "!ttg.")
        if not text:
            raise LayoutTextError("empty layout text")
        parser = TileoptParser(_context(), text + "\n" + self.definitions, self.source)
        for name, value in self._aliases.items():
            dict.__setitem__(parser.attribute_aliases, name, value)
        try:
            value = parse(parser)
            if parser._current_token.span.start < len(text):
                parser.raise_error("unexpected text after the layout", parser._current_token.span)
        except ParseError as err:
            raise LayoutTextError(self._message(err, text)) from None
        except (VerifyException, ValueError) as err:
            raise LayoutTextError(str(err).strip().splitlines()[0]) from None
        finally:
            self._aliases.update(dict.items(parser.attribute_aliases))
        return value

    def _message(self, err: ParseError, text: str) -> str:
        message = err.msg.strip().splitlines()[0]
        for pattern, wording in _WORDING:
            message = pattern.sub(wording, message)
        start = err.span.start
        unknown = re.fullmatch(r"unknown layout '(#[\w.]+)'", message)
        if unknown is not None:  # the parser points after the name
            start = max(text.rfind(unknown.group(1), 0, start + 1), 0)
        if start <= len(text):
            return f"column {start + 1}: {message}"
        offset = start - len(text) - 1  # inside an alias definition
        line = self.definitions.count("\n", 0, offset) + 1
        column = offset - (self.definitions.rfind("\n", 0, offset) + 1) + 1
        return f"{self.source}:{line}:{column}: {message}"


@lru_cache(maxsize=None)
def _context():
    return make_context()


def encoding_text(type_text: str) -> str | None:
    """The layout written in a tensor/memdesc type's text (``#mma`` of ``tensor<4xf32, #mma>``)."""
    body = type_text[type_text.find("<") + 1 : type_text.rfind(">")]
    depth, items, start = 0, [], 0
    for i, ch in enumerate(body):
        if ch in "<{[(":
            depth += 1
        elif ch in ">}])" and body[i - 1 : i + 1] != "->":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(body[start:i])
            start = i + 1
    items.append(body[start:])
    return items[1].strip() if len(items) > 1 else None


def element_bit_width(element_type: Attribute) -> int | None:
    """Bits of one element (``i1`` is stored in a byte); None for pointers and the like."""
    bits = element_type.width.data if isinstance(element_type, IntegerType) else getattr(
        element_type, "bitwidth", None)
    return None if bits is None else max(bits, 8)


def _render(
    reader: LayoutReader,
    layout_text: str,
    tensor: TensorType | MemDescType,
    view: str,
    num_warps: int | None,
    threads_per_warp: int | None,
    show_bases: bool,
) -> tuple[str, object]:
    shape = list(tensor.get_shape())
    typed = TensorType(tensor.get_element_type(), shape, reader.layout(layout_text))
    layout = linear_layout_of(typed)
    if is_distributed(encoding_of(typed)):
        if num_warps is not None and layout.in_dim_size("warp") != num_warps:
            raise ToolError(
                f"the layout uses {layout.in_dim_size('warp')} warps but --num-warps is {num_warps}"
            )
        if threads_per_warp is not None and layout.in_dim_size("lane") != threads_per_warp:
            raise ToolError(
                f"the layout uses {layout.in_dim_size('lane')} threads per warp but "
                f"--threads-per-warp is {threads_per_warp}"
            )
    shape_text = "x".join(str(s) for s in shape)
    lines = [f"Layout: {layout_text.strip()}", f"Tensor: {shape_text}x{tensor.get_element_type()}",
             summary(layout, shape)]
    if show_bases:
        lines.append("Linear layout:" + layout.to_string())
    body = tensor_view(layout, shape) if view == "tensor" else hardware_view(layout, shape)
    return "\n".join(lines) + "\n" + body, layout


USAGE = "tileopt-layout -t TYPE [-l LAYOUT | -i FILE] [options]"


class _OneLineError(click.ClickException):
    def show(self, file=None) -> None:
        click.echo(f"tileopt-layout: error: {self.format_message()}", err=True)


class _Command(click.Command):
    """click parses the arguments; ``--help`` is laid out as the other tools' help."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as err:  # a bad flag or value: one line, as the other errors
            raise _OneLineError(err.format_message()) from None

    def get_help(self, ctx: click.Context) -> str:
        flags = [_as_flag(p) for p in self.get_params(ctx) if isinstance(p, click.Option)]
        return format_help(USAGE, flags, self.help or "").rstrip("\n")


def _as_flag(option: click.Option) -> Flag:
    names = [name.lstrip("-") for name in option.opts]
    metavar = "" if option.is_flag else option.metavar or "|".join(option.type.choices)
    help_text = option.help or ""
    if option.show_default:
        help_text += f" (default: {option.default})"
    return Flag(max(names, key=len), "bool" if option.is_flag else "value", help_text, metavar,
                aliases=tuple(n for n in names if len(n) == 1))


@click.command(name="tileopt-layout", cls=_Command, add_help_option=False)
@click.option("-l", "--layout", "layout_text", metavar="LAYOUT",
              help="layout attribute text, or #alias with -i")
@click.option("-t", "--tensor-type", "tensor_text", metavar="TYPE",
              help="tensor type, e.g. 'tensor<16x16xf16>'")
@click.option("-i", "--input", "input_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="file with #alias definitions")
@click.option("--alias-names", default="", metavar="NAMES",
              help="comma-separated aliases of -i to show (default: all)")
@click.option("--view", type=click.Choice(["tensor", "hw"]), default="tensor", show_default=True,
              help="tensor: who holds each element; hw: what each thread holds")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="also draw the layout to this PNG")
@click.option("--num-warps", type=int, metavar="N",
              help="check that the layout uses this many warps")
@click.option("--threads-per-warp", type=int, metavar="N",
              help="check that the layout uses this many threads per warp")
@click.option("--show-bases", is_flag=True, help="also print the linear layout's bases")
@click.option("-o", "--output", "output_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="write the text here")
@click.version_option(version_line(), "--version", message="%(version)s",
                      help="print the tileopt version and exit")
@click.help_option("-h", "--help", help="show this help")
def main(layout_text, tensor_text, input_path, alias_names, view, png_path, num_warps,
         threads_per_warp, show_bases, output_path) -> None:
    """Show which thread holds which element of a tensor under a TritonGPU layout."""
    try:
        reader = LayoutReader()
        if input_path is not None:
            try:
                reader = LayoutReader(Path(input_path).read_text(), input_path)
            except OSError as exc:
                raise ToolError(f"cannot read {input_path}: {exc.strerror}") from None
        if tensor_text is None:
            raise ToolError("give the tensor type with -t, e.g. -t 'tensor<16x16xf16>'")
        tensor = reader.tensor_type(tensor_text)
        if layout_text is not None:
            layouts = [layout_text]
        elif encoding_text(tensor_text) is not None:
            layouts = [encoding_text(tensor_text)]
        elif input_path is not None:
            aliases = reader.layout_aliases()
            wanted = [a.strip().lstrip("#") for a in alias_names.split(",") if a.strip()]
            for name in wanted:
                if name not in aliases:
                    raise ToolError(f"no layout alias '#{name}' in {input_path}")
            layouts = [f"#{name}" for name in (wanted or aliases)]
        else:
            layouts = []
        if not layouts:
            raise ToolError("give a layout with -l, or a file of layout aliases with -i")
        if png_path is not None and len(layouts) != 1:
            raise ToolError("--png draws one layout: pick it with -l or --alias-names")
        texts = []
        for text in layouts:
            rendered, layout = _render(reader, text, tensor, view, num_warps, threads_per_warp, show_bases)
            texts.append(rendered)
            if png_path is not None:
                from tileopt.layouts.picture import PictureError, draw_layout

                bits = element_bit_width(tensor.get_element_type()) or 32
                try:
                    draw_layout(layout, list(tensor.get_shape()), png_path, bits)
                except PictureError as exc:
                    raise ToolError(str(exc)) from None
                except OSError as exc:
                    raise ToolError(f"cannot write {png_path}: {exc.strerror or exc}") from None
        result = "\n".join(texts)
        if output_path is not None:
            try:
                Path(output_path).write_text(result)
            except OSError as exc:
                raise ToolError(f"cannot write {output_path}: {exc.strerror}") from None
        else:
            click.echo(result, nl=False)
    except (ToolError, LayoutError) as exc:
        click.echo(f"tileopt-layout: error: {exc}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
