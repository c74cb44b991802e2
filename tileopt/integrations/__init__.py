"""Bridges from other compilers into tileopt: each module here is the only place that imports
its host (``triton``: Triton 3.6's CUDA backend compiles through a tileopt pipeline). Nothing
else in tileopt imports these modules, and their hosts stay optional extras."""
