"""tileopt: a Triton-style GPU tile compiler driver on xDSL."""


def version_line() -> str:
    """What ``--version`` prints in every tool: ``tileopt <version>`` from the package metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"tileopt {version('tileopt')}"
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "tileopt (version unknown: not installed)"
