"""lit configuration for tileopt: ``lit test/lit`` runs every FileCheck test.

The substitutions (tileopt, tileopt-translate, tileopt-layout, FileCheck, not, %python,
%corpus, ptxas) and features come from ``tileopt.testing.lit_config``, the helper
out-of-tree test suites use too (docs/out-of-tree.md). Added here:

  %corpus     default: ../shared/corpus beside the repository ($TILEOPT_CORPUS wins)
  %examples   the repository's examples/ directory
"""

import os

from tileopt.testing.lit_config import configure

config.name = "tileopt"
config.test_source_root = os.path.dirname(__file__)
repo_root = os.path.dirname(os.path.dirname(config.test_source_root))

configure(config, corpus=os.path.join(os.path.dirname(repo_root), "shared", "corpus"))
config.substitutions.insert(0, ("%examples", os.path.join(repo_root, "examples")))
