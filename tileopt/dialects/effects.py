"""Memory effects of the Triton dialects, on Triton's two resources.

Triton declares its ops' effects as ``MemRead<GlobalMemory>``, ``MemWrite<SharedMemory>``
and so on; the traits here say the same for ``tt``, ``ttg``, ``ttng`` and ``amdg``, so that
generic CSE/DCE/LICM neither merge nor drop nor hoist an op they must not, and analyses
(membar) can tell shared-memory traffic from global.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation
from xdsl.traits import EffectInstance, MemoryEffect, MemoryEffectKind, Resource


@dataclass(frozen=True)
class SharedMemory(Resource):
    """Shared memory (NVIDIA) / LDS (AMD): what local_* and async copies touch."""

    def name(self) -> str:
        return "::mlir::triton::gpu::SharedMemory"


@dataclass(frozen=True)
class GlobalMemory(Resource):
    """Device global memory."""

    def name(self) -> str:
        return "::mlir::triton::GlobalMemory"


@dataclass(frozen=True)
class InaccessibleMemory(Resource):
    """Memory no op of the program reads: what ``llvm.intr.assume`` writes, as LLVM's
    ``inaccessiblemem``, so that the op has an effect and stays."""

    def name(self) -> str:
        return "InaccessibleMemory"


def effects(*kinds_and_resources: tuple[MemoryEffectKind, Resource]) -> type[MemoryEffect]:
    """A MemoryEffect trait class with fixed effects on fixed resources."""
    fixed = frozenset(EffectInstance(kind, resource=res) for kind, res in kinds_and_resources)

    class FixedEffects(MemoryEffect):
        @classmethod
        def get_effects(cls, op: Operation) -> frozenset[EffectInstance]:
            return fixed

    return FixedEffects


READ, WRITE, ALLOC, FREE = (
    MemoryEffectKind.READ,
    MemoryEffectKind.WRITE,
    MemoryEffectKind.ALLOC,
    MemoryEffectKind.FREE,
)
SHARED, GLOBAL, INACCESSIBLE = SharedMemory(), GlobalMemory(), InaccessibleMemory()

ReadsGlobal = effects((READ, GLOBAL))
WritesGlobal = effects((WRITE, GLOBAL))
ReadsWritesGlobal = effects((READ, GLOBAL), (WRITE, GLOBAL))
ReadsShared = effects((READ, SHARED))
WritesShared = effects((WRITE, SHARED))
FreesShared = effects((FREE, SHARED))
ReadsWritesShared = effects((READ, SHARED), (WRITE, SHARED))
ReadsGlobalWritesShared = effects((READ, GLOBAL), (WRITE, SHARED))
# Waits, commit groups and barriers order memory traffic: model them as touching all of it,
# so that nothing is moved across them or deletes them.
Synchronizes = effects((READ, SHARED), (WRITE, SHARED), (READ, GLOBAL), (WRITE, GLOBAL))
