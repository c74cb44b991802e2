"""tileopt's dialects: tt, ttg, ttng, amdg, rocdl, nvvm and the tensor arith ops.

A dialect owns its canonicalization patterns and folders (as MLIR's ``Dialect/X/IR``);
they are attached to the ops when their module is imported (docs/patterns.md). The
dialect module names that module (``canonicalization.attach_on_first_use``) and it is
imported at the first lookup of a folder or pattern on one of the dialect's ops, so that
any use of the ops -- tileopt's context or a Context of one's own with ``TT`` loaded --
sees them, as loading a dialect does in MLIR, and a run that only parses and prints
does not import them.
"""

from tileopt.dialects import (attribute_hashes, class_checks, lazy_formats,
                              lazy_op_definitions, xdsl_fast_paths)

# Before any of tileopt's ops is defined: their definitions are built and their assembly
# formats compiled on first use.
lazy_formats.install()
lazy_op_definitions.install()
xdsl_fast_paths.install()
attribute_hashes.install()
class_checks.install()
