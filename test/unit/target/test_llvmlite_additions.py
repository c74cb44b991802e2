"""The printing shortcuts of ``tileopt.target.llvmlite_additions`` against their rules."""

from __future__ import annotations

from tileopt.target.llvmlite_additions import escape_llvm_string


def _escaped_byte_by_byte(text: str) -> str:
    """LLVM's rule for a string literal's body: printable ASCII but ``"`` and ``\\`` kept,
    every other byte of the UTF-8 encoding as ``\\XX``."""
    return "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}"
                   for b in text.encode("utf-8"))


def test_escape_keeps_plain_text_and_escapes_everything_else():
    samples = ["", "mov.u32 $0, %tid.x;", "@$2 st.shared.b32 [ $0 + 0 ], $1;", "=r,r,b",
               'a"b', "a\\b", "tab\there", "line\nbreak", "\x7f", "\x1f", "é", "∑ 𝄞",
               "".join(chr(c) for c in range(0x100))]
    for text in samples:
        assert escape_llvm_string(text) == _escaped_byte_by_byte(text), text


def test_name_scope_gives_llvmlites_names():
    """The same requests, including names that take the ``.N`` an unnamed value would get
    next, give the same names as llvmlite's scope."""
    import random

    from llvmlite.ir import _utils

    from tileopt.target.llvmlite_additions import NameScope

    rng = random.Random(7)
    ours, theirs = NameScope(), _utils.NameScope()
    for _ in range(2000):
        name = rng.choice(["", "", "", "bb1", "x", f".{rng.randrange(1, 60)}"])
        deduplicate = rng.random() < 0.9 or name == ""
        if not deduplicate and theirs.is_used(name):
            continue
        assert ours.register(name, deduplicate) == theirs.register(name, deduplicate)
    assert ours._useset == theirs._useset
    assert dict(ours._basenamemap) == dict(theirs._basenamemap)
