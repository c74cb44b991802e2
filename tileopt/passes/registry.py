"""The pass registry: every pass known by name.

Adding a pass is one file: put a module with an ``@register_pass`` class anywhere under
``tileopt/transforms/`` or ``tileopt/conversion/``; :func:`load_builtin_passes` imports
those packages' modules on first use. Plugins add passes the same way from outside the
package: ``--load-pass-plugin=FILE.py`` executes a Python file, and installed
distributions can name a module (or a ``register()`` function, or a Pass class) in the
``tileopt.passes`` entry-point group.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.metadata
import importlib.util
import pkgutil
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

from xdsl.context import Context
from xdsl.ir import Operation

from tileopt.ir import TileoptError
from tileopt.passes.base import Pass

# Packages whose modules may define passes (searched recursively).
PASS_PACKAGES = ("tileopt.transforms", "tileopt.conversion")
ENTRY_POINT_GROUP = "tileopt.passes"

_passes: dict[str, type[Pass]] = {}
_builtin_loaded = False
_entry_points_loaded = False


def register_pass(cls: type[Pass]) -> type[Pass]:
    """Class decorator: make ``cls`` a frozen dataclass (if it is not yet) and register it."""
    if "__dataclass_fields__" not in cls.__dict__:
        cls = dataclasses.dataclass(frozen=True)(cls)
    name = getattr(cls, "name", None)
    if not isinstance(name, str) or not name:
        raise TypeError(f"pass class {cls.__qualname__} needs a class attribute 'name'")
    existing = _passes.get(name)
    if existing is not None and _qualified(existing) != _qualified(cls):
        raise TileoptError(f"pass '{name}' is registered twice: by {_qualified(existing)} "
                           f"and by {_qualified(cls)}")
    for spec in cls.options():
        if spec.default is None and "None" not in repr(spec.type):
            raise TypeError(f"option '{spec.name}' of pass '{name}' needs a default")
    _passes[name] = cls
    return cls


def register_op_pass(class_name: str, name: str, summary: str,
                     run: Callable[[Operation], object]) -> type[Pass]:
    """Register a pass without options, for any op it is nested under (``anchor = None``),
    that calls ``run(op)``: the generic passes that wrap one function (``cse``, ``sccp``...).
    Returns the pass class, defined in the calling module (its name shows in IR dumps)."""

    def apply(self, ctx: Context, op: Operation) -> None:
        run(op)

    cls = type(class_name, (Pass,), {
        "__doc__": summary, "name": name, "anchor": None, "apply": apply,
        "__module__": sys._getframe(1).f_globals.get("__name__", __name__),
    })
    return register_pass(cls)


def _qualified(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def load_builtin_passes() -> None:
    """Import every module of the pass packages once (each registers its passes)."""
    global _builtin_loaded
    if _builtin_loaded:
        return
    _builtin_loaded = True
    for package_name in PASS_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            importlib.import_module(info.name)


def load_entry_point_plugins() -> None:
    """Load passes that installed distributions declare in the ``tileopt.passes`` group."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as err:
            raise TileoptError(f"cannot load pass plugin entry point '{entry.name} = "
                               f"{entry.value}': {type(err).__name__}: {err}") from err
        if isinstance(loaded, type) and issubclass(loaded, Pass):
            register_pass(loaded)
        elif callable(loaded):
            loaded()


def load_plugin_file(path: str) -> None:
    """Execute a Python file that registers passes (``--load-pass-plugin=FILE``)."""
    file = Path(path)
    if not file.is_file():
        raise TileoptError(f"cannot load pass plugin '{path}': no such file")
    module_name = f"tileopt_plugin_{file.stem}_{abs(hash(str(file.resolve())))}"
    if module_name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(module_name, file)
    if spec is None or spec.loader is None:
        raise TileoptError(f"cannot load pass plugin '{path}': not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except TileoptError:
        raise
    except SyntaxError as err:
        del sys.modules[module_name]
        raise TileoptError(f"syntax error in pass plugin: {err.msg}", path, err.lineno,
                           err.offset) from err
    except Exception as err:
        del sys.modules[module_name]
        line = _plugin_line(err, file)
        raise TileoptError(f"cannot load pass plugin: {type(err).__name__}: {err}",
                           path, line) from err


def _plugin_line(err: Exception, file: Path) -> int | None:
    for frame in reversed(traceback.extract_tb(err.__traceback__)):
        if Path(frame.filename).resolve() == file.resolve():
            return frame.lineno
    return None


def get_pass(name: str) -> type[Pass] | None:
    load_builtin_passes()
    return _passes.get(name)


def all_passes() -> dict[str, type[Pass]]:
    load_builtin_passes()
    return dict(sorted(_passes.items()))

