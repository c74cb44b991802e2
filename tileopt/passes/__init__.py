"""Passes: the base class, typed options and the registry (see README "Writing a pass").

Public names: ``Pass``, ``PassFailure``, ``option``, ``register_pass``, ``register_op_pass``,
``get_pass``, ``all_passes``.
"""

from tileopt import lazy_names

# Imported on first use (PEP 562): the registry alone (for the driver's flags) must not
# cost the Pass base class's import of xDSL.
_LAZY = {
    "Pass": "tileopt.passes.base", "PassFailure": "tileopt.passes.base",
    "OptionSpec": "tileopt.passes.options", "option": "tileopt.passes.options",
    "register_pass": "tileopt.passes.registry", "register_op_pass": "tileopt.passes.registry",
    "get_pass": "tileopt.passes.registry", "all_passes": "tileopt.passes.registry",
}

__getattr__ = lazy_names(__name__, _LAZY)

__all__ = ["Pass", "PassFailure", "OptionSpec", "option", "register_pass", "register_op_pass",
           "get_pass", "all_passes"]
