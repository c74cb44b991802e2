"""AMD matrix cores in tileopt-run against the register layouts of AMD's documents, worked
out by hand: one wave, one operand element set to 1 so that D picks one row of B, whose
elements name their own lane and register."""

from __future__ import annotations

import numpy as np
import pytest

from tileopt.run.launch import compile_source, run_kernel
from tileopt.run.memory import KernelFault


def _launch(body: str, arch: str, threads: int, items: int, guard: str = ""):
    """One wave; %t = lane; ``body`` computes %d (<items x float>), stored at out[t * items]."""
    kernel = f"""target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %out) #0 {{
entry:
  %t = call i32 @llvm.amdgcn.workitem.id.x()
{guard}
{body}
  %i = mul i32 %t, {items}
  %p = getelementptr float, ptr addrspace(1) %out, i32 %i
  store <{items} x float> %d, ptr addrspace(1) %p, align 4
  ret void
}}
attributes #0 = {{ "amdgpu-flat-work-group-size"="1,{threads}" }}
"""
    out = np.zeros(threads * items, np.float32)
    r = run_kernel(compile_source(kernel, "k.ll", arch=arch), [out], (1,))
    return r.outputs[0].reshape(threads, items)


def _vector(name: str, count: int, elems: list[str], ty: str = "half") -> str:
    """%name = <count x ty> of the given element values (SSA names or constants)."""
    lines, prev = [], "poison"
    for k, e in enumerate(elems):
        cur = f"%{name}{k}" if k < count - 1 else f"%{name}"
        lines.append(f"  {cur} = insertelement <{count} x {ty}> {prev}, {ty} {e}, i64 {k}")
        prev = cur
    return "\n".join(lines)


def _b_elements(count: int, per_lane: int, lane: str = "%t") -> tuple[str, list[str]]:
    """B element i of lane l = per_lane * l + i, as half."""
    lines = [f"  %bl = mul i32 {lane}, {per_lane}"]
    for i in range(count):
        lines += [f"  %bi{i} = add i32 %bl, {i}", f"  %bh{i} = sitofp i32 %bi{i} to half"]
    return "\n".join(lines), [f"%bh{i}" for i in range(count)]


def _one_at(lanes: tuple[int, ...], item: int, count: int) -> tuple[str, list[str]]:
    """A = 1 at element ``item`` of the given lanes, 0 elsewhere."""
    cond = " ".join(f"  %is{n} = icmp eq i32 %t, {lane}\n" for n, lane in enumerate(lanes))
    ors = "%is0"
    for n in range(1, len(lanes)):
        cond += f"  %or{n} = or i1 {ors}, %is{n}\n"
        ors = f"%or{n}"
    cond += f"  %one = select i1 {ors}, half 1.0, half 0.0\n"
    return cond, ["%one" if k == item else "0.0" for k in range(count)]


@pytest.mark.parametrize("shape,lane,item", [("32x32x8", 0, 0), ("32x32x8", 33, 2),
                                             ("16x16x16", 0, 0), ("16x16x16", 37, 3)])
def test_mfma_layout(shape, lane, item):
    """With M = N = 32 or 16, lane l holds A[l % M][4 (l // M) + i] and
    B[4 (l // M) + i][l % M]; item v of lane l is D[v % 4 + 4 (l // M) + 4 (64 / M) (v // 4)]
    [l % M]. With A = 1 at (row, k) only, D's row ``row`` is B's row k: D[row][n] = B[k][n],
    held by lane M (k // 4) + n as its item k % 4, whose value is 4 * lane + item."""
    size = int(shape.split("x")[0])
    items = size * size // 64
    row, k = lane % size, 4 * (lane // size) + item
    acond, aelems = _one_at((lane,), item, 4)
    bcode, belems = _b_elements(4, 4)
    d = _launch(acond + _vector("a", 4, aelems) + "\n" + bcode + "\n" + _vector("b", 4, belems) + f"""
  %d = call <{items} x float> @llvm.amdgcn.mfma.f32.{shape}f16(<4 x half> %a, <4 x half> %b, <{items} x float> zeroinitializer, i32 0, i32 0, i32 0)""",
                "gfx942", 64, items)
    want = np.zeros((64, items))
    span = 4 * 64 // size           # rows covered by one group of 4 items
    for n in range(size):
        want[n + size * ((row % span) // 4), row % 4 + 4 * (row // span)] = \
            4 * (size * (k // 4) + n) + k % 4
    assert (d == want).all() and want.any()


def test_mfma_accumulates_into_c():
    bcode, belems = _b_elements(4, 4)
    d = _launch(bcode + "\n" + _vector("b", 4, belems) + """
  %c = insertelement <16 x float> zeroinitializer, float 0.5, i64 3
  %d = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> zeroinitializer, <4 x half> %b, <16 x float> %c, i32 0, i32 0, i32 0)""",
                "gfx942", 64, 16)
    assert (d[:, 3] == 0.5).all() and (np.delete(d, 3, axis=1) == 0).all()


def test_mfma_needs_the_whole_wave():
    with pytest.raises(KernelFault, match="mfma needs every lane of its wave"):
        _launch("""  %d = call <16 x float> @llvm.amdgcn.mfma.f32.32x32x8f16(<4 x half> zeroinitializer, <4 x half> zeroinitializer, <16 x float> zeroinitializer, i32 0, i32 0, i32 0)
  br label %join
join:""", "gfx942", 64, 16, guard="""  %c = icmp ult i32 %t, 32
  br i1 %c, label %low, label %out
out:
  ret void
low:""")


def test_wmma_16x16x16_layout():
    """Lane l holds row l % 16 of A and column l % 16 of B (all 16 K each, lanes 16-31 the
    same); item v of lane l is D[2v + l // 16][l % 16]. With A = 1 at (0, 5) only,
    D[0][n] = B[5][n] = element 5 of lane n = 16 n + 5, at item 0 of lanes 0-15."""
    acond, aelems = _one_at((0, 16), 5, 16)
    bcode, belems = _b_elements(16, 16, "%tl")
    d = _launch("  %tl = and i32 %t, 15\n" + acond + _vector("a", 16, aelems) + "\n" + bcode
                + "\n" + _vector("b", 16, belems) + """
  %d = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half> %a, <16 x half> %b, <8 x float> zeroinitializer)""",
                "gfx1100", 32, 8)
    want = np.zeros((32, 8))
    want[:16, 0] = 16 * np.arange(16) + 5
    assert (d == want).all()


def test_wmma_operands_must_be_replicated():
    acond, aelems = _one_at((0,), 5, 16)   # lane 0 only, not lane 16
    with pytest.raises(KernelFault, match="wmma operands must be the same in lanes 16-31"):
        _launch(acond + _vector("a", 16, aelems) + """
  %d = call <8 x float> @llvm.amdgcn.wmma.f32.16x16x16.f16.v8f32.v16f16(<16 x half> %a, <16 x half> %a, <8 x float> zeroinitializer)""",
                "gfx1100", 32, 8)
