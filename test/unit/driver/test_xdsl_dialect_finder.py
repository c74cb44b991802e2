"""xDSL's ``.irdl`` dialect finder imported as a stand-in
(``tileopt/driver/xdsl_dialect_finder.py``), against xDSL's own, in fresh interpreters."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import xdsl

IRDL_FILE = Path(xdsl.__file__).parent / "dialects" / "cmath.irdl"

SCRIPT = textwrap.dedent("""
    import importlib, json, sys
    if sys.argv[1] == "install":
        from tileopt.driver import xdsl_dialect_finder
        xdsl_dialect_finder.install()
    import xdsl.dialects.builtin
    result = {"light": "importlib.abc" not in sys.modules,
              "finder": type(sys.meta_path[-1]).__module__}
    try:
        import no_such_module_for_this_test
    except ModuleNotFoundError as err:
        result["missing"] = str(err)
    import pkg.cmath as dialect_module  # pkg/cmath.irdl: found by the finder, parsed
    result["names"] = sorted(name for name in vars(dialect_module) if not name.startswith("_"))
    result["ops"] = sorted(op.name for op in dialect_module.Cmath.operations)
    loader = sys.modules["xdsl.utils.dialect_loader"]
    result["loader_class"] = loader.IRDLDialectLoader.__name__
    result["reloaded"] = importlib.reload(loader).IRDLDialectFinder.__module__
    print(json.dumps(result))
""")


def _run(tmp_path, mode: str) -> dict:
    package = tmp_path / mode / "pkg"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copy(IRDL_FILE, package / "cmath.irdl")
    script = tmp_path / mode / "find.py"
    script.write_text(SCRIPT)
    done = subprocess.run([sys.executable, str(script), mode], capture_output=True, text=True,
                          check=True, cwd=tmp_path / mode,
                          env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)))
    return json.loads(done.stdout)


def test_the_stand_in_finds_what_xdsl_finds(tmp_path):
    plain, stand_in = _run(tmp_path, "plain"), _run(tmp_path, "install")
    assert plain["light"] is False and stand_in["light"] is True
    assert plain["finder"] == "xdsl.utils.dialect_loader"
    assert stand_in["finder"] == "tileopt.driver.xdsl_dialect_finder"
    for key in ("missing", "names", "ops", "loader_class", "reloaded"):
        assert stand_in[key] == plain[key], key
    assert "cmath.norm" in plain["ops"]
