"""Canonicalization patterns and folders of the ``tt`` dialect (filled in next commit).

``tileopt.dialects.tt`` looks patterns up here by op name; until the real ones land every
op has none and no folder fires.
"""

PATTERNS: dict[str, tuple] = {k: () for k in ("broadcast", "expand_dims", "reshape", "load", "store")}
FOLDERS = {
    k: (lambda op: None)
    for k in ("make_range", "splat", "broadcast", "expand_dims", "reshape", "trans", "addptr", "advance")
}
