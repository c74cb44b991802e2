"""The command-line driver behind ``tileopt`` and ``tileopt-translate``.

``cli.py`` holds only the click commands; everything they do lives here: LLVM-style flag
parsing (``argv``), reading and splitting the input (``input``), running passes with
instrumentation, checking ``expected-error`` comments, and atomic output (``output``).
"""
