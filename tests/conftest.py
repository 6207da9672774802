"""Shared test settings: hypothesis profile sized for CI on two cores.

Examples are derandomized (the same ones on every run), so the suite is reproducible and a red
CI means a regression, not an unlucky draw; ``bench/fuzz_cli.py`` and ``bench/fuzz_engines.py``
explore fresh random inputs for longer.  ``SAKIYOMI_FUZZ_RANDOM=1`` turns the random draws back
on for a local exploring run of the suite.
"""

import os

from hypothesis import settings

# No ahead-of-time builds of the compiled search in the background of the suite's processes
# (``sakiyomi.compiled.aot``): tests/test_aot.py builds and checks one on purpose.
os.environ["SAKIYOMI_AOT"] = "0"

settings.register_profile("default", max_examples=200, deadline=None,
                          derandomize=os.environ.get("SAKIYOMI_FUZZ_RANDOM") != "1")
settings.load_profile("default")
