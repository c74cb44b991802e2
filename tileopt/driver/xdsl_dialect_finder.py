"""xDSL's finder of ``.irdl`` dialect files without importing its loader, for the
commands' start-up.

``xdsl/dialects/__init__.py`` (run by the first import of any xDSL dialect) puts an
``IRDLDialectFinder`` last on ``sys.meta_path``: an import that no other finder answers
looks for ``<name>.irdl`` on the path and, if there is one, parses it as a dialect. Its
module, ``xdsl.utils.dialect_loader``, imports ``importlib.abc`` (and so
``importlib.resources``, ``tempfile``, ``shutil``, ``random``, ``bz2``, ``lzma``) and
xDSL's stub generator: 1 to 3% of a command (callgrind, issue 14), for a finder that
finds nothing in a tileopt run. ``install`` (the commands only, before anything imports
xDSL; ``code_cache.install``) has that module imported as a stand-in: its
``IRDLDialectFinder`` answers ``None`` where xDSL's would (no such file), and hands any
other question to xDSL's own finder, whose module then runs into the same module object
(so do the first use of any other name of the module, and ``importlib.reload``).
What differs until then: the finder ``xdsl.dialects`` installs is an instance of the
stand-in class, not of xDSL's.

This module sits in the driver, not beside the other xDSL overrides in
``tileopt/dialects/``: it must be in place before xDSL is first imported, which importing
that package does.

Upstream (xDSL): import ``importlib.abc`` and the stub generator in
``dialect_loader``'s functions that use them (or the loader module from ``find_spec`` on
a hit). No patch yet.
"""

from __future__ import annotations

import os
import sys

MODULE = "xdsl.utils.dialect_loader"
_installed = False


class IRDLDialectFinder:
    """Stand-in for xDSL's ``IRDLDialectFinder`` (same constructor): what xDSL's answers
    for a module without a ``.irdl`` file, and xDSL's own answer otherwise."""

    def __init__(self, get_all_dialects) -> None:
        self.get_all_dialects = get_all_dialects
        self._own = None

    def find_spec(self, fullname: str, path=None, target=None):
        if fullname not in sys.modules:  # (xDSL's first test: a loaded module's spec)
            filename = fullname.split(".")[-1] + ".irdl"
            entries = [os.getcwd()] if path is None else path
            if not any(os.path.isfile(os.path.join(entry, filename)) for entry in entries):
                return None
        if self._own is None:
            self._own = _xdsl_module().IRDLDialectFinder(self.get_all_dialects)
        return self._own.find_spec(fullname, path, target)


def _xdsl_module():
    """xDSL's ``dialect_loader``, its own code run (if it had not)."""
    module = sys.modules[MODULE]
    load = module.__dict__.get("__getattr__")
    if load is not None:
        load("IRDLDialectFinder")
    return module


class _StandInLoader:
    """Runs the stand-in into the module; xDSL's code runs into it on first need."""

    def __init__(self, loader) -> None:
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        loader = self._loader

        def __getattr__(name: str):  # PEP 562: a name the stand-in does not have
            if name.startswith("__") and name.endswith("__"):
                raise AttributeError(name)  # the import system's (__path__): xDSL has none
            del module.__dict__["__getattr__"]
            module.__loader__ = module.__spec__.loader = loader
            loader.exec_module(module)  # xDSL's code, into this module object
            return getattr(module, name)

        module.IRDLDialectFinder = IRDLDialectFinder
        module.__getattr__ = __getattr__

    def __getattr__(self, name: str):  # get_source, get_code, ...: the real loader's
        return getattr(self._loader, name)


class _Finder:
    """First on ``sys.meta_path`` until xDSL's module is imported."""

    def find_spec(self, name, path, target=None):
        if name != MODULE:
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(name)  # through the other finders
        if spec is not None and spec.loader is not None:
            spec.loader = _StandInLoader(spec.loader)
        return spec


def install() -> None:
    """Import xDSL's dialect-file finder as the stand-in (once per process, before xDSL)."""
    global _installed
    if _installed or MODULE in sys.modules:
        return
    _installed = True
    sys.meta_path.insert(0, _Finder())
