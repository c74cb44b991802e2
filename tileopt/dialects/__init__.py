"""tileopt's dialects: tt, ttg, ttng, amdg, rocdl, nvvm and the tensor arith ops.

A dialect owns its canonicalization patterns and folders (as MLIR's ``Dialect/X/IR``);
they are attached to the ops when their module is imported (docs/patterns.md). tt's are
imported here, with the package, so that any use of the tt ops -- tileopt's context or a
Context of one's own with ``TT`` loaded -- sees them, as loading a dialect does in MLIR.
"""

from tileopt.dialects import lazy_formats, xdsl_fast_paths

# Before any of tileopt's ops is defined: their assembly formats compile on first use.
lazy_formats.install()
xdsl_fast_paths.install()

import tileopt.dialects.tt_canonicalize  # noqa: E402,F401  (attaches tt's patterns)
import tileopt.dialects.ttg_canonicalize  # noqa: E402,F401  (attaches ttg's patterns)
import tileopt.dialects.amdgpu_canonicalize  # noqa: E402,F401  (attaches amdg's folders)
