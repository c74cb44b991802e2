"""Passes: the base class, typed options and the registry (see README "Writing a pass").

Public names: ``Pass``, ``PassFailure``, ``option``, ``register_pass``, ``register_op_pass``,
``get_pass``, ``all_passes``.
"""

from tileopt.passes.base import Pass, PassFailure
from tileopt.passes.options import OptionSpec, option
from tileopt.passes.registry import all_passes, get_pass, register_op_pass, register_pass

__all__ = ["Pass", "PassFailure", "OptionSpec", "option", "register_pass", "register_op_pass",
           "get_pass", "all_passes"]
