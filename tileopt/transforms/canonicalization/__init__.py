"""Canonicalization patterns and folders, one file per dialect, attached to ops through
xDSL's ``HasCanonicalizationPatternsTrait`` / ``HasFolder`` and run by ``canonicalize``."""
