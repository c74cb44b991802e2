#!/usr/bin/env python3
"""How tileopt lowers each ``ttg.convert_layout`` of a set of ``.ttgir`` files.

    python benchmarks/inductor/conversion_survey.py DIR_OR_FILES... [--list]

For the kernel caches a GPU run brings back (``kernels.tar.xz``: ``tileopt/<hash>/*.ttgir``)
or any ``.ttgir``: each conversion is a register renaming (``registers``), a transfer
inside each warp (``warp: selects``, ``warp: shuffles``, ``warp: swap`` with a register/
lane swap stage; ``conversion/register_maps.py``), or a trip through shared memory, by
what the conversion moves (``shared: register,lane`` stays inside warps, ``shared:
register,lane,warp`` crosses them). ``--list`` prints the in-warp ones through shared memory.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from tileopt.conversion import register_maps
from tileopt.dialects.layout_of import linear_layout_of
from tileopt.ir.parse import parse_module
from tileopt.layouts.linear_layout import LayoutError
from tileopt.transforms.utils.tensor_layouts import minimal_conversion


def classify(op) -> str:
    src_type, dst_type = op.operands[0].type, op.results[0].type
    try:
        src, dst = linear_layout_of(src_type), linear_layout_of(dst_type)
    except LayoutError:
        return "no linear layout"
    if register_maps.register_map(src, dst) is not None:
        return "registers"
    plan = register_maps.warp_plan(src, dst)
    if plan is not None:
        transfer = plan.transfer
        if plan.after is not None:
            return "warp: swap"
        moves = transfer.lane_map is not None or any(transfer.lane_offset)
        return "warp: shuffles" if moves else "warp: selects"
    conversion = minimal_conversion(src_type, dst_type)
    return "shared: " + ("?" if conversion is None else ",".join(conversion.out_dims))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path)
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    files = [f for p in args.paths for f in (sorted(p.rglob("*.ttgir")) if p.is_dir() else [p])]
    counts: Counter[str] = Counter()
    for path in files:
        module = parse_module(path.read_text(), str(path))
        for op in module.walk():
            if op.name != "ttg.convert_layout":
                continue
            kind = classify(op)
            counts[kind] += 1
            if args.list and kind == "shared: register,lane":
                print(f"{path.name}: {op.operands[0].type} -> {op.results[0].type.encoding}")
    print(f"{sum(counts.values())} conversions in {len(files)} files")
    for kind, n in counts.most_common():
        print(f"  {kind:28} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
