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

The layout text is read by ``tileopt.layouts.parse_text``, not by the xDSL dialects, so
the tool works on any layout text Triton prints.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import click

from tileopt.layouts.encodings import is_distributed, to_linear_layout
from tileopt.layouts.linear_layout import LayoutError
from tileopt.layouts.parse_text import (
    LayoutTextError,
    TensorTypeText,
    parse_alias_definitions,
    parse_layout,
    parse_tensor_type,
)
from tileopt.layouts.views import hardware_view, summary, tensor_view


class ToolError(Exception):
    """A problem to report in one line and exit 1."""


def _tensor_type(text: str) -> TensorTypeText:
    """``tensor<16x16xf16>``, ``!ttg.memdesc<...>``, or a bare ``16x16xf16`` / ``16x16``."""
    stripped = text.strip()
    if re.fullmatch(r"\d+(x\d+)*(x\w+)?", stripped):
        if not re.search(r"x[a-zA-Z]\w*$", stripped):
            stripped += "xf32"
        stripped = f"tensor<{stripped}>"
    return parse_tensor_type(stripped)


def _render(
    layout_text: str,
    aliases: dict[str, str],
    tensor: TensorTypeText,
    view: str,
    num_warps: int | None,
    threads_per_warp: int | None,
    show_bases: bool,
) -> tuple[str, object, object]:
    encoding = parse_layout(layout_text, aliases)
    bits = tensor.element_bit_width
    layout = to_linear_layout(encoding, tensor.shape, bits)
    if is_distributed(encoding):
        if num_warps is not None and layout.in_dim_size("warp") != num_warps:
            raise ToolError(
                f"the layout uses {layout.in_dim_size('warp')} warps but --num-warps is {num_warps}"
            )
        if threads_per_warp is not None and layout.in_dim_size("lane") != threads_per_warp:
            raise ToolError(
                f"the layout uses {layout.in_dim_size('lane')} threads per warp but "
                f"--threads-per-warp is {threads_per_warp}"
            )
    shape_text = "x".join(str(s) for s in tensor.shape)
    lines = [f"Layout: {layout_text.strip()}", f"Tensor: {shape_text}x{tensor.element_type}",
             summary(layout, tensor.shape)]
    if show_bases:
        lines.append("Linear layout:" + layout.to_string())
    body = tensor_view(layout, tensor.shape) if view == "tensor" else hardware_view(layout, tensor.shape)
    return "\n".join(lines) + "\n" + body, layout, encoding


@click.command(name="tileopt-layout", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-l", "--layout", "layout_text", help="Layout attribute text, or #alias with -i.")
@click.option("-t", "--tensor-type", "tensor_text", help="Tensor type, e.g. 'tensor<16x16xf16>'.")
@click.option("-i", "--input", "input_path", type=click.Path(dir_okay=False), help="File with #alias definitions.")
@click.option("--alias-names", default="", help="Comma-separated aliases of -i to show (default: all).")
@click.option("--view", type=click.Choice(["tensor", "hw"]), default="tensor", show_default=True,
              help="tensor: who holds each element; hw: what each thread holds.")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), help="Also draw the layout to this PNG.")
@click.option("--num-warps", type=int, help="Check that the layout uses this many warps.")
@click.option("--threads-per-warp", type=int, help="Check that the layout uses this many threads per warp.")
@click.option("--show-bases", is_flag=True, help="Also print the linear layout's bases.")
@click.option("-o", "--output", "output_path", type=click.Path(dir_okay=False), help="Write the text here.")
def main(layout_text, tensor_text, input_path, alias_names, view, png_path, num_warps,
         threads_per_warp, show_bases, output_path) -> None:
    """Show which thread holds which element of a tensor under a TritonGPU layout."""
    try:
        aliases: dict[str, str] = {}
        if input_path is not None:
            try:
                aliases = parse_alias_definitions(Path(input_path).read_text())
            except OSError as exc:
                raise ToolError(f"cannot read {input_path}: {exc.strerror}") from None
        if tensor_text is None:
            raise ToolError("give the tensor type with -t, e.g. -t 'tensor<16x16xf16>'")
        tensor = _tensor_type(tensor_text)
        if layout_text is not None:
            layouts = [layout_text]
        elif tensor.encoding_text is not None:
            layouts = [tensor.encoding_text]
        elif aliases:
            wanted = [a.strip().lstrip("#") for a in alias_names.split(",") if a.strip()]
            for name in wanted:
                if name not in aliases:
                    raise ToolError(f"no layout alias '#{name}' in {input_path}")
            layouts = [f"#{name}" for name in (wanted or aliases)]
        else:
            raise ToolError("give a layout with -l, or a file of layout aliases with -i")
        if png_path is not None and len(layouts) != 1:
            raise ToolError("--png draws one layout: pick it with -l or --alias-names")
        texts = []
        for text in layouts:
            rendered, layout, _ = _render(text, aliases, tensor, view, num_warps, threads_per_warp, show_bases)
            texts.append(rendered)
            if png_path is not None:
                from tileopt.layouts.picture import PictureError, draw_layout

                try:
                    draw_layout(layout, tensor.shape, png_path, tensor.element_bit_width or 32)
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
    except (ToolError, LayoutTextError, LayoutError) as exc:
        click.echo(f"tileopt-layout: error: {exc}", err=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
