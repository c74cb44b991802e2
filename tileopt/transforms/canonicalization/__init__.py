"""Canonicalization patterns for ops of upstream dialects (xDSL's ``arith``, ``scf``) and
those Triton registers with ``ttg.convert_layout``, attached to their ops on import
(``tileopt.dialects.canonicalization``; docs/patterns.md) and run by ``canonicalize``."""
