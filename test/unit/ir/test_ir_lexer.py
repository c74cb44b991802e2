"""tileopt's lexer (``tileopt.ir.lexer``): the same tokens as xDSL's, in linear time.

xDSL 0.74's string-literal rule backtracks exponentially when no closing quote follows
(issue 13: a stray ``"`` hung tileopt). tileopt overrides it; valid strings must lex as
before, to the same token, span and value, and unterminated ones must fail fast.
"""

from __future__ import annotations

import contextlib
import signal
import time

import pytest
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from tileopt.driver.time_limit import time_limit
from tileopt.ir.lexer import FastMLIRLexer


def _tokens(lexer_type: type[MLIRLexer], text: str) -> list[tuple]:
    """Every token of ``text`` as (kind, start, end, value), or the error that stops it."""
    lexer = lexer_type(Input(text, "<test>"))
    tokens: list[tuple] = []
    try:
        while True:
            token = lexer.lex()
            value = None
            if token.kind == MLIRTokenKind.STRING_LIT:
                value = token.kind.get_string_literal_value(token.span)
            tokens.append((token.kind, token.span.start, token.span.end, value))
            if token.kind == MLIRTokenKind.EOF:
                return tokens
    except ParseError as err:
        tokens.append(("error", err.span.start, err.span.end, err.msg))
        return tokens


VALID_STRINGS = [
    '""',
    '"plain text"',
    '"kernel.py"',
    r'"a \"quoted\" word"',
    r'"back\\slash"',
    r'"\\"',
    r'"\"\""',
    r'"newline\n and tab\t"',
    r'"hex \00\0a\0A\7f\7F"',
    r'"\FF\fe bytes"',            # not ASCII: a BYTES_LIT
    r'"caf\C3\A9"',
    '"unicode é ü 漢字"',
    '"a // not a comment"',
    "\"'single' quotes\"",
    '"\r carriage return"',
]


@pytest.mark.parametrize("literal", VALID_STRINGS)
@pytest.mark.parametrize("context", ['{s = %s}', '%s', 'tt.func @%s()', 'loc(%s:1:2)'])
def test_valid_strings_lex_as_xdsl_lexes_them(literal, context):
    text = context % literal
    ours = _tokens(FastMLIRLexer, text)
    assert ours == _tokens(MLIRLexer, text)
    kinds = {token[0] for token in ours}
    assert kinds & {MLIRTokenKind.STRING_LIT, MLIRTokenKind.BYTES_LIT,
                    MLIRTokenKind.AT_IDENT}


@pytest.mark.parametrize("text", [
    '"no end',                  # end of file
    '"no end\n"',               # a newline ends the line first
    '"bad escape \\q"',
    '"short hex \\0"',
    '"vertical\vtab"',
    '"form\ffeed"',
    '@"no end',
    '"a" "b',
])
def test_invalid_strings_fail_as_in_xdsl(text):
    ours = _tokens(FastMLIRLexer, text)
    assert ours[-1][0] == "error"
    assert ours == _tokens(MLIRLexer, text)


def test_whitespace_and_comments_lex_as_in_xdsl():
    text = ('  // a comment\n\n\t%0 = "x" // another "quote\n  // \n"y"\r\n// end'
            '\n  3.5 // after a float\n"z"//no space\n')
    assert _tokens(FastMLIRLexer, text) == _tokens(MLIRLexer, text)


def _time_limit(seconds: float):
    """Fail instead of hanging the test run (the regex engine checks for signals): the
    driver's ``--timeout`` limit, where the platform has one."""
    return time_limit(seconds) if hasattr(signal, "setitimer") else contextlib.nullcontext()


# the rest of a line after a stray quote: no quote of its own, escapes and all
_REST = r', %cst : tensor<1024xf32, #blocked> \" loc(#loc20) \\ \0A '


@pytest.mark.parametrize("length", [40, 1_000, 10_000, 100_000])
def test_unterminated_string_fails_in_linear_time(length):
    """A stray quote with ``length`` characters after it on its line (xDSL's rule took
    seconds at 25 and doubles with each one more)."""
    rest = (_REST * (length // len(_REST) + 1))[:length]
    text = "tt.func @f() {\n  %2 = arith.cmpf ogt, %x_8\"" + rest + "\n  tt.return\n}\n" * 50
    start = time.perf_counter()
    with _time_limit(5):
        tokens = _tokens(FastMLIRLexer, text)
    elapsed = time.perf_counter() - start
    assert tokens[-1][0] == "error"
    assert tokens[-1][3] == "End of file reached before closing string literal."
    assert text[tokens[-1][1]] == '"'
    assert elapsed < 1.0, f"{length} characters took {elapsed:.2f} s"


def test_long_valid_string_is_one_token():
    body = r"ab\"c\\d\0Ae " * 20_000
    text = f'"{body}" x'
    start = time.perf_counter()
    with _time_limit(5):
        tokens = _tokens(FastMLIRLexer, text)
    assert time.perf_counter() - start < 1.0
    assert tokens[0][:3] == (MLIRTokenKind.STRING_LIT, 0, len(body) + 2)
    assert tokens[1][0] == MLIRTokenKind.BARE_IDENT
