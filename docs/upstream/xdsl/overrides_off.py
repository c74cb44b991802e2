"""Switch tileopt's local overrides of xDSL off, to check an xDSL with the patches of this
folder applied does their work (docs/upstream/README.md says how it was run).

Import it before anything imports ``tileopt.dialects`` (as a pytest plugin:
``PYTHONPATH=docs/upstream/xdsl pytest -p overrides_off ...``); the environment variable
``TILEOPT_XDSL_OVERRIDES_OFF`` names the overrides to leave out, separated by commas, or
``all``. Each name puts back what xDSL itself defines, so that with a patched xDSL the
patched code runs:

- ``formats``: ``tileopt/dialects/lazy_formats.py`` is not installed; xDSL's
  ``defer_assembly_formats()`` (patch 01) is called instead where xDSL has it;
- ``traits``, ``attribute-kind``, ``build-args``: the matching entries of
  ``tileopt/dialects/xdsl_fast_paths.py`` (patches 02, 03, 04);
- ``dce``, ``isolated``: entries with no patch (tried, no gain), for A/B measurements.

Not for tileopt's own use: tileopt installs every override (``tileopt/dialects``).
"""

from __future__ import annotations

import os
import sys
import types

import xdsl.irdl.operations as _ops
from xdsl.ir import Attribute, Operation
from xdsl.ir.core import OpTraits
from xdsl.traits import IsolatedFromAbove
from xdsl.transforms import dead_code_elimination as _dce

NAMES = ("formats", "traits", "dce", "isolated", "attribute-kind", "build-args")

# xDSL's own definitions, taken before tileopt replaces them
_XDSL = {
    "traits": [(Operation, "get_trait", Operation.__dict__["get_trait"]),
               (Operation, "get_traits_of_type", Operation.__dict__["get_traits_of_type"]),
               (OpTraits, "add_trait", OpTraits.__dict__["add_trait"])],
    "dce": [(_dce.LiveSet, "propagate_region_liveness",
             _dce.LiveSet.__dict__["propagate_region_liveness"])],
    "isolated": [(IsolatedFromAbove, "verify", IsolatedFromAbove.__dict__["verify"])],
    "attribute-kind": [(Attribute, "__post_init__", Attribute.__dict__["__post_init__"])],
    "build-args": [(_ops, "irdl_build_arg_list", _ops.irdl_build_arg_list)],
}


def switched_off() -> set[str]:
    value = os.environ.get("TILEOPT_XDSL_OVERRIDES_OFF", "")
    names = set(NAMES) if value == "all" else {n for n in value.split(",") if n}
    unknown = names - set(NAMES)
    if unknown:
        raise SystemExit(f"TILEOPT_XDSL_OVERRIDES_OFF: unknown {sorted(unknown)}")
    return names


def _switch_off(names: set[str]) -> None:
    if "tileopt.dialects" in sys.modules:
        raise SystemExit("overrides_off must be imported before tileopt.dialects")
    if "formats" in names:
        stand_in = types.ModuleType("tileopt.dialects.lazy_formats")
        stand_in.install = getattr(_ops, "defer_assembly_formats", lambda: None)
        sys.modules["tileopt.dialects.lazy_formats"] = stand_in
    import tileopt.dialects  # noqa: F401  (installs the overrides; some are undone below)

    for name in names - {"formats"}:
        for owner, attribute, value in _XDSL[name]:
            setattr(owner, attribute, value)


OFF = switched_off()
_switch_off(OFF)


def pytest_report_header(config) -> str:
    return f"tileopt's xDSL overrides switched off: {', '.join(sorted(OFF)) or 'none'}"
