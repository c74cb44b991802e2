"""tileopt-run: compiled kernels executed on the CPU with GPU semantics (docs/tileopt-run.md).

The API is ``tileopt.run.launch``; the command is ``tileopt.run.cli``.
"""
