"""sakiyomi (先読み, "reading ahead"): game-tree search for two-player zero-sum games.

Importing the package asks OpenBLAS (numpy's linear algebra) for one thread unless the
environment already says otherwise: nothing here multiplies matrices, and OpenBLAS otherwise
starts a thread per core at numpy's import that spins for a while: 0.02-0.03 CPU-s of a
0.17 CPU-s one-position ``sakiyomi solve``, and up to a sixth of a short batch's CPU time
(perf).  It only takes effect when numpy is imported after sakiyomi, as the command line does.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
