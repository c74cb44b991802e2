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
