"""sakiyomi (先読み, "reading ahead"): game-tree search for two-player zero-sum games.

When the process is one of sakiyomi's own programs (``sakiyomi``, ``sakiyomi-uci``,
``sakiyomi-usi``, ``python -m sakiyomi``), importing the package asks OpenBLAS (numpy's linear
algebra) for one thread unless the environment already says otherwise: nothing here multiplies
matrices, and OpenBLAS otherwise starts a thread per core at numpy's import that spins for a
while: 0.02-0.03 CPU-s of a 0.17 CPU-s one-position ``sakiyomi solve``, and up to a sixth of a
short batch's CPU time (perf).  A program that imports sakiyomi as a library keeps its own
settings.
"""

import os
import sys

_PROGRAMS = ("sakiyomi", "sakiyomi-uci", "sakiyomi-usi")

if sys.argv and (sys.argv[0] == "-m" or os.path.basename(sys.argv[0]) in _PROGRAMS):
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
