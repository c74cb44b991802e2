"""The commands' cache of compiled regular expressions (``tileopt/driver/regex_cache.py``).

Each case that writes the cache runs a fresh interpreter with its own ``pycache_prefix``,
so the cache file is a temporary one and the repository's ``__pycache__`` is left alone.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from re import _compiler

import _sre

from tileopt.driver import regex_cache

PATTERNS = [
    (r"(?P<word>[A-Za-z_]\w*)\s*=\s*(\d+)", 0),
    (r"^\s*//\s*-----", re.MULTILINE),
    (r"[^\x00-\x7f]+|\bx\b", re.IGNORECASE | re.ASCII),
    (r"(a|b)*?c{2,5}(?=d)(?!e)", re.DOTALL),
    (r"(?x) a  # a comment\n b", 0),
    (rb"\x00(?P<n>\d\d)", 0),
    (r"(?i:[a-f0-9]{2})+\Z", 0),
]


def _sre_arguments_of_re(pattern, flags):
    """The arguments ``re``'s own compiler hands to ``_sre.compile``."""
    seen = []
    original = _sre.compile

    def capture(*args):
        seen.append(args)
        return original(*args)

    _sre.compile = capture
    try:
        _compiler.compile(pattern, flags)
    finally:
        _sre.compile = original
    (args,) = seen
    return args


def test_the_kept_arguments_are_those_re_compiles_with():
    for pattern, flags in PATTERNS:
        expected = _sre_arguments_of_re(pattern, flags)
        kept = regex_cache._arguments(pattern, flags)
        assert (pattern, *kept) == (expected[0], expected[1], list(expected[2]),
                                    *expected[3:]), pattern
        # and they survive the file's format
        import marshal
        assert marshal.loads(marshal.dumps(kept)) == kept


SCRIPT = textwrap.dedent("""
    import json, re, sys
    if sys.argv[1] == "install":
        from tileopt.driver import regex_cache
        regex_cache.install()
    cases = json.loads(sys.argv[2])
    results = []
    for pattern, flags, text in cases:
        compiled = re.compile(pattern, flags)
        match = compiled.search(text)
        results.append([compiled.pattern, compiled.flags, compiled.groups,
                        dict(compiled.groupindex), match and [match.span(), match.groups()],
                        compiled.findall(text)])
    result = {"results": results}
    if sys.argv[1] == "install":
        result["new"] = regex_cache._new
        regex_cache.save()
        result["file"] = str(regex_cache.cache_file())
    print(json.dumps(result))
""")

CASES = [
    [r"(?P<word>[A-Za-z_]\w*)\s*=\s*(\d+)", 0, "x = 1; yy=22"],
    [r"^\s*//\s*-----", re.MULTILINE, "a\n// -----\nb"],
    [r"(a|b)*?c{2,5}(?=d)", re.DOTALL, "ababcccd"],
    [r"[^\x00-\x7f]+|\bx\b", re.IGNORECASE, "X é"],
    [r"tileopt-cache-test-\d{3}", 0, "tileopt-cache-test-123"],
]


def _run(tmp_path, mode: str, *flags: str) -> dict:
    script = tmp_path / "compile.py"
    script.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, *flags, "-X", f"pycache_prefix={tmp_path / 'pyc'}",
                           str(script), mode, json.dumps(CASES)], capture_output=True,
                          text=True, check=True, env=env)
    return json.loads(done.stdout)


def test_cached_patterns_match_as_re_s_own(tmp_path):
    plain = _run(tmp_path, "plain")
    first = _run(tmp_path, "install")
    assert first["new"] >= len(CASES)
    second = _run(tmp_path, "install")
    assert second["new"] == 0  # every pattern came from the file the first run wrote
    assert first["results"] == plain["results"] == second["results"]


def test_no_file_under_dont_write_bytecode(tmp_path):
    result = _run(tmp_path, "install", "-B")
    assert result["new"] > 0 and not Path(result["file"]).exists()


def test_a_damaged_file_is_ignored_and_replaced(tmp_path):
    path = _run(tmp_path, "install")["file"]
    with open(path, "wb") as file:
        file.write(b"not marshal data")
    plain = _run(tmp_path, "plain")
    assert _run(tmp_path, "install")["results"] == plain["results"]
    assert _run(tmp_path, "install")["new"] == 0


def test_a_damaged_entry_is_made_again(tmp_path):
    import marshal

    path = _run(tmp_path, "install")["file"]
    version, entries = marshal.loads(open(path, "rb").read())
    for key in entries:
        entries[key] = (0, "not code", 0, {}, ())
    with open(path, "wb") as file:
        file.write(marshal.dumps((version, entries)))
    plain = _run(tmp_path, "plain")
    again = _run(tmp_path, "install")
    assert again["results"] == plain["results"]
    assert again["new"] >= len(CASES)
