"""Helpers the passes share (rewrite drivers, op motion, loop and layout utilities).

Not passes: each pass is one module of ``transforms/<stage>/``; what two or more passes
use lives here (MLIR keeps the like in ``mlir/Transforms/Utils``).
"""
