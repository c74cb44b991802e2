"""tileopt: a Triton-style GPU tile compiler driver on xDSL."""


def version_line() -> str:
    """What ``--version`` prints in every tool: ``tileopt <version>`` from the package metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"tileopt {version('tileopt')}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "tileopt (version unknown: not installed)"


def cache_path(beside: str, name: str):
    """Where the cache file ``name`` of the module whose file is ``beside`` lives, as Python
    keeps byte code: in that folder's ``__pycache__``, or under ``sys.pycache_prefix``."""
    import sys
    from pathlib import Path

    if sys.pycache_prefix:
        return Path(sys.pycache_prefix) / "tileopt" / name
    return Path(beside).resolve().parent / "__pycache__" / name


def write_cache(path, data: bytes) -> None:
    """Write ``data`` to the cache file ``path`` (a ``Path``) atomically, so that a parallel
    command reads the old file or the new one; a cache that cannot be written is no cache:
    a failure leaves nothing behind and is not an error."""
    import os

    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        try:
            temporary.unlink()
        except OSError:
            pass


def read_entries(path) -> dict:
    """The entries a cache file ``path`` (a ``Path``) written by :func:`write_entries`
    holds; none if it cannot be read or another interpreter wrote it."""
    import marshal
    import sys

    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (isinstance(data, tuple) and len(data) == 2 and data[0] == sys.version
            and isinstance(data[1], dict)):
        return {}
    return data[1]


def write_entries(path, entries: dict) -> None:
    """Write a cache file of marshallable ``entries``, tagged with the interpreter."""
    import marshal
    import sys

    write_cache(path, marshal.dumps((sys.version, entries)))


def lazy_names(package: str, names: dict[str, str]):
    """A package's ``__getattr__`` (PEP 562) that imports the module ``names[name]`` holds
    ``name`` in when ``name`` is first used: a package's front door that costs nothing
    until one of its names is needed (the tools answer ``--help`` without xDSL)."""

    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module '{package}' has no attribute '{name}'")
        import importlib
        import sys

        value = getattr(importlib.import_module(names[name]), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
