"""The commands' cache of dataclass-generated methods (``tileopt/driver/code_cache.py``).

Each case runs a fresh interpreter with its own ``pycache_prefix``, so the cache file is
a temporary one and the repository's ``__pycache__`` is left alone.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

# A frozen dataclass as xDSL makes its attributes: what it does and what the cache did.
SCRIPT = textwrap.dedent("""
    import dataclasses, json, sys
    if sys.argv[1] == "install":
        from tileopt.driver import code_cache
        code_cache.install()

    @dataclasses.dataclass(frozen=True)
    class Pair:
        first: int
        second: "list[str]"

    a, b = Pair(1, ["x"]), Pair(1, ["x"])
    try:
        a.first = 2
        frozen = False
    except dataclasses.FrozenInstanceError:
        frozen = True
    result = {
        "repr": repr(a), "eq": a == b, "ne": a == Pair(2, ["x"]), "frozen": frozen,
        "annotations": {k: str(v) for k, v in Pair.__init__.__annotations__.items()},
    }
    if sys.argv[1] == "install":
        result["compiled"] = len(code_cache._new)
        result["file"] = str(code_cache.cache_file())
        result["unmarshalled"] = len(code_cache._code)
        result["stored"] = len(code_cache._stored)
    print(json.dumps(result))
""")


def _run(tmp_path, mode: str, *flags: str) -> dict:
    script = tmp_path / "define.py"
    script.write_text(SCRIPT)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, *flags, "-X", f"pycache_prefix={tmp_path / 'pyc'}",
                           str(script), mode], capture_output=True, text=True, check=True,
                          env=env)
    return json.loads(done.stdout)


def test_cached_methods_behave_as_the_plain_ones(tmp_path):
    plain = _run(tmp_path, "plain")
    first = _run(tmp_path, "install")
    assert first["compiled"] > 0
    second = _run(tmp_path, "install")
    assert second["compiled"] == 0  # every text came from the file the first run wrote
    for cached in (first, second):
        assert {k: cached[k] for k in plain} == plain
    # compiled as dataclasses compiles them: annotations are objects, not strings
    assert plain["annotations"]["first"] == "<class 'int'>"


def test_no_file_under_dont_write_bytecode(tmp_path):
    result = _run(tmp_path, "install", "-B")
    assert result["compiled"] > 0
    assert not (tmp_path / "pyc").exists() or not list((tmp_path / "pyc").rglob("*.marshal"))


def test_an_unreadable_file_is_ignored_and_replaced(tmp_path):
    path = _run(tmp_path, "install")["file"]
    with open(path, "wb") as file:
        file.write(b"not marshal data")
    assert _run(tmp_path, "install")["compiled"] > 0
    assert _run(tmp_path, "install")["compiled"] == 0


def test_only_the_entries_a_run_uses_are_unmarshalled(tmp_path):
    # The file holds entries of other classes (here: made up) and one broken entry: a run
    # decodes only its own texts, and compiles again a text whose entry is broken.
    import marshal

    path = _run(tmp_path, "install")["file"]
    version, entries = marshal.loads(open(path, "rb").read())
    own = len(entries)
    extra = {f"def other_{i}(): return {i}\n": marshal.dumps(compile(
        f"def other_{i}(): return {i}\n", "<string>", "exec")) for i in range(50)}
    broken = next(iter(entries))
    entries[broken] = b"not code"
    with open(path, "wb") as file:
        file.write(marshal.dumps((version, {**entries, **extra})))
    again = _run(tmp_path, "install")
    assert again["stored"] == own + 50
    assert again["unmarshalled"] == own and again["compiled"] == 1
    assert _run(tmp_path, "install")["compiled"] == 0  # the broken entry was replaced
