"""The import graph of the ``tileopt`` package follows the house rules.

Every ``import`` counts, at module level or inside a function: a lazy import hides a
cycle from Python but not from the reader.

- no cycles;
- dialects never import what is built on them (analysis, transforms, conversion, target,
  passes, pipelines, driver);
- vendor-neutral code never imports vendor code. A vendor module is one whose dotted path
  has a vendor's name as a component or a ``_``-separated word of one
  (``conversion.nvidia.hooks``, ``target.nvptx``, ``target.rocdl_ops``,
  ``transforms.amd.convert_buffer_ops``); dialect modules named after a vendor
  (``dialects.nvvm``, ``dialects.rocdl``, ``dialects.amdgpu``) are dialects, not vendor
  code, and anyone may import them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tileopt

PACKAGE_ROOT = Path(tileopt.__file__).parent

# Path components that make a module vendor code (outside ``tileopt.dialects``).
VENDOR_NAMES = frozenset({"nvidia", "nvptx", "nvvm", "ptxas", "amd", "amdgpu", "amdgcn", "hsaco",
                          "rocdl", "hip", "cuda"})
# The tools at the top, which pick a target, may import vendor code; so may the
# ``tileopt.target`` package itself (not its modules): it picks the backend for --emit.
VENDOR_DISPATCH = ("tileopt.driver", "tileopt.cli", "tileopt.run.launch")
VENDOR_DISPATCH_MODULES = frozenset({"tileopt.target"})
# What is built on the dialects (house rule: dialects -> layouts/analysis -> transforms ->
# conversion -> target -> driver).
ABOVE_DIALECTS = ("tileopt.analysis", "tileopt.transforms", "tileopt.conversion",
                  "tileopt.target", "tileopt.passes", "tileopt.pipelines", "tileopt.driver")



def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def import_graph() -> dict[str, set[str]]:
    """module -> the tileopt modules it imports (module-level and inside functions)."""
    files = {module_name(path): path for path in PACKAGE_ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = name.split(".") if is_package else name.split(".")[:-1]
                    package = package[:len(package) - node.level + 1]
                    base = ".".join(package + ([base] if base else []))
                # ``from pkg import mod`` imports the module pkg.mod when there is one.
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in files else base
                           for alias in node.names]
            for target in targets:
                while target and target not in files:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph[node]):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def is_vendor(module: str) -> bool:
    if module.startswith("tileopt.dialects."):
        return False
    words = (word for part in module.split(".")[1:] for word in part.split("_"))
    return any(word in VENDOR_NAMES for word in words)


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


GRAPH = import_graph()


def test_the_graph_sees_the_package():
    assert "tileopt.dialects.tt" in GRAPH and "tileopt.ir.parse" in GRAPH
    assert "tileopt.dialects.tt" in GRAPH["tileopt.ir.context"]


def test_no_import_cycles():
    found = [sorted(c) for c in cycles(GRAPH)]
    assert found == []


def test_dialects_do_not_import_later_stages():
    edges = [(a, b) for a in GRAPH if a.startswith("tileopt.dialects")
             for b in sorted(GRAPH[a]) if _under(b, ABOVE_DIALECTS)]
    assert edges == []


def test_vendor_neutral_code_does_not_import_vendor_code():
    edges = [(a, b) for a in GRAPH
             if not is_vendor(a) and not _under(a, VENDOR_DISPATCH)
             and a not in VENDOR_DISPATCH_MODULES
             for b in sorted(GRAPH[a]) if is_vendor(b)]
    assert edges == []


# The layers, lowest first (house rule: layouts below dialects; dialects -> analysis ->
# transforms -> conversion -> target -> driver; ir, passes and pipelines are the
# infrastructure between). A module imports only from its own layer or a lower one.
LAYERS = (
    ("tileopt.layouts",),
    ("tileopt.dialects",),
    ("tileopt.ir",),
    ("tileopt.analysis", "tileopt.passes"),
    ("tileopt.pipelines",),
    ("tileopt.transforms",),
    ("tileopt.conversion",),
    ("tileopt.target",),
    ("tileopt.testing", "tileopt.driver", "tileopt.run"),
    ("tileopt.cli", "tileopt.layout_cli", "tileopt.integrations"),
)


def layer_of(module: str) -> int | None:
    for level, prefixes in enumerate(LAYERS):
        if _under(module, prefixes):
            return level
    return None


def test_every_module_has_a_layer():
    assert [m for m in GRAPH if m != "tileopt" and layer_of(m) is None] == []


def test_layers_only_import_downwards():
    upward = [(a, b) for a in GRAPH for b in sorted(GRAPH[a])
              if layer_of(a) is not None and layer_of(b) is not None
              and layer_of(b) > layer_of(a)]
    assert upward == []
