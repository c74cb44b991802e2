"""The table of docs/op-coverage.md: every op of the ``tt``, ``ttg``, ``ttng`` and ``amdg``
dialects (plus the upstream ops Triton's frontend writes), the file whose pattern lowers
it to LLVM, and the lit test that lowers it, or why it is not lowered and which issue
owns it. Made from the registered patterns, so it cannot drift from them:
``test/unit/conversion/test_op_coverage.py`` fails when the document differs.

    python -m tileopt.testing.op_coverage > docs/op-coverage.md
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
LIT_DIR = Path("test") / "lit" / "conversion"

# Ops the lowering does not handle on its own: why, and the issue that owns the gap.
NOT_LOWERED: dict[str, str] = {
    "tt.func": "rebuilt as an `llvm.func` by the driver (`module_lowering.py`)",
    "tt.reduce.return": "terminator of `tt.reduce`'s combiner, inlined by it",
    "tt.scan.return": "terminator of `tt.scan`'s combiner, inlined by it",
    "tt.advance": "removed before the lowering (`triton-rewrite-tensor-pointer`)",
    "tt.make_tensor_ptr": "removed before the lowering (`triton-rewrite-tensor-pointer`)",
    "tt.descriptor_load": "issue 8: TMA (`triton-nvidia-tma-lowering`)",
    "tt.descriptor_store": "issue 8: TMA (`triton-nvidia-tma-lowering`)",
    "tt.dot": "issue 8: tensor cores (mma / wgmma)",
    "tt.dot_scaled": "issue 8: tensor cores",
    "ttg.local_alloc": "issue 8: shared-memory buffers",
    "ttg.local_load": "issue 8: shared-memory buffers",
    "ttg.local_store": "issue 8: shared-memory buffers",
    "ttg.local_dealloc": "issue 8: shared-memory buffers",
    "ttg.memdesc_index": "issue 8: shared-memory views",
    "ttg.memdesc_subslice": "issue 8: shared-memory views",
    "ttg.memdesc_trans": "issue 8: shared-memory views",
    "ttg.memdesc_reshape": "issue 8: shared-memory views",
    "ttg.async_copy_global_to_local": "issue 8: software pipelining (cp.async)",
    "ttg.async_commit_group": "issue 8: software pipelining (cp.async)",
    "ttg.async_wait": "issue 8: software pipelining (cp.async)",
    "ttng.warp_group_dot": "issue 8: wgmma",
    "ttng.warp_group_dot_wait": "issue 8: wgmma",
    "ttng.fence_async_shared": "issue 8: wgmma",
    "ttng.init_barrier": "issue 8: mbarriers (TMA pipelines)",
    "ttng.inval_barrier": "issue 8: mbarriers (TMA pipelines)",
    "ttng.barrier_expect": "issue 8: mbarriers (TMA pipelines)",
    "ttng.wait_barrier": "issue 8: mbarriers (TMA pipelines)",
    "tt.make_tensor_descriptor": "issue 19: device-side descriptors (`desc_matmul`; TMA "
                                 "lowering or the rewrite to pointers)",
    "ttg.global_scratch_alloc": "issue 19: TMA descriptors in global scratch "
                                "(`tritongpu-global-scratch-memory-allocation`)",
    "ttng.tensormap_create": "issue 19: TMA descriptors (`desc_matmul` on sm90)",
    "ttng.tensormap_fenceproxy_acquire": "issue 19: TMA descriptors (`desc_matmul` on sm90)",
    "ttng.reinterpret_tensor_descriptor": "issue 19: TMA descriptors (`desc_matmul` on sm90)",
    "ttng.async_tma_copy_global_to_local": "issue 19: TMA loads (`desc_matmul` on sm90)",
    "ttng.async_tma_copy_local_to_global": "issue 19: TMA stores (`desc_matmul` on sm90)",
    "ttng.async_tma_store_wait": "issue 19: TMA stores (`desc_matmul` on sm90)",
}
AMD_OWNER = "issue 11: the AMD matrix-core path (these ops come from its passes)"

# Upstream ops Triton's frontend writes into a kernel (beside arith/math/scf/cf).
UPSTREAM_OPS = ("gpu.barrier", "llvm.intr.assume")


def dialect_ops() -> list[str]:
    """Every op name of the Triton dialects, dialect by dialect, then the upstream ones."""
    from tileopt.dialects.amdgpu import AMDGPU
    from tileopt.dialects.tt import TT
    from tileopt.dialects.ttg import TTG
    from tileopt.dialects.ttng import TTNG

    names = [op.name for d in (TT, TTG, TTNG, AMDGPU) for op in d.operations]
    return names + list(UPSTREAM_OPS)


def lit_tests(root: Path = REPO) -> dict[str, list[str]]:
    """Op name -> the lowering lit tests whose IR (not comments) uses it."""
    found: dict[str, list[str]] = {}
    for path in sorted((root / LIT_DIR).rglob("*.mlir")):
        text = "\n".join(line for line in path.read_text().splitlines()
                         if not line.lstrip().startswith("//"))
        for name in set(re.findall(r'(?<![\w.%@#!])"?([a-z]+\.[a-z_.]+)"?(?=[\s(<"])', text)):
            found.setdefault(name, []).append(path.relative_to(root).as_posix())
    return found


def _best_test(name: str, lowering: str, tests: list[str]) -> str:
    """The op's own test file if there is one, else its family's, else the first."""
    def rank(test: str) -> tuple[int, str]:
        stem = Path(test).stem
        if stem == name.split(".", 1)[1]:
            return 0, test
        return (1 if stem == Path(lowering).stem else 2), test

    return min(tests, key=rank)


def rows(root: Path = REPO) -> list[tuple[str, str, str]]:
    """(op, lowering file or '-', test or why not lowered) for every op."""
    import tileopt.conversion.triton_gpu_to_llvm.module_lowering  # noqa: F401  (patterns)
    from tileopt.passes.registry import load_builtin_passes

    load_builtin_passes()  # the vendors' lowering passes register their own patterns
    from tileopt.conversion.triton_gpu_to_llvm.lowering import PATTERNS

    tests = lit_tests(root)
    out = []
    for name in dialect_ops():
        pattern = PATTERNS.get(name)
        if pattern is not None:
            source = Path(inspect.getsourcefile(pattern)).resolve().relative_to(REPO)
            found = tests.get(name)
            out.append((name, source.as_posix(),
                        _best_test(name, source.as_posix(), found) if found else "none"))
        elif name.startswith("amdg."):
            out.append((name, "-", f"not lowered: {AMD_OWNER}"))
        else:
            out.append((name, "-", f"not lowered: {NOT_LOWERED.get(name, 'no owner')}"))
    return out


def render(root: Path = REPO) -> str:
    lines = [
        "# Op coverage of the TritonGPU -> LLVM lowering",
        "",
        "Every op of the `tt`, `ttg`, `ttng` and `amdg` dialects (and the upstream ops Triton's",
        "frontend writes), the file whose pattern lowers it (`@lowers(...)`) and the lit test",
        f"under `{LIT_DIR.as_posix()}/` that lowers it; or why it is not lowered and which",
        "issue owns it. `arith`, `math`, `scf` and `cf` are lowered by",
        "`elementwise.py` and `control_flow.py`. Generated by `tileopt/testing/op_coverage.py`",
        "(`python -m tileopt.testing.op_coverage > docs/op-coverage.md`);",
        "`test/unit/conversion/test_op_coverage.py` fails when this file is out of date.",
        "",
        "| op | lowering | test |",
        "|---|---|---|",
    ]
    for name, lowering, test in rows(root):
        shown_lowering = f"`{lowering}`" if lowering != "-" else "-"
        shown_test = f"`{test}`" if test.startswith("test/") else test
        lines.append(f"| `{name}` | {shown_lowering} | {shown_test} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
