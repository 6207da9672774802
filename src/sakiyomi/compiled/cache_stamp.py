"""numba cache stamps that cover every kernel source file of the package, not just one.

numba's disk cache (``cache=True``) keys a function's compiled code on the stamp of the one
file that defines it.  But a kernel's compiled code also holds every @njit function it calls
from other files: the Othello endgame solver holds ``rules.flips``.  After an edit of
``rules.py`` alone, the endgame's cached code still ran the old ``flips`` (seen in session 18:
a benchmark measured the old move generator).  ``install`` puts locators in front of numba's
own for files inside this package; they keep numba's cache places and add to the stamp a
digest of all of the package's kernel sources (``kernel_sources``), so that any change to one of
them recompiles every cached kernel instead of mixing old and new code.  Kernel sources are
the files of ``compiled/``, of the game packages (``games/<name>/``: a game with kernels is a
package) and the few single modules that hold a kernel or the tables one compiles in
(``SINGLE_MODULE_SOURCES``: shogi's four kernels and the step tables and piece codes they
read, chess's move-list kernels and theirs); editing any other single-module game (the
chess adapter, ...) keeps the cache.  Files outside the package (the generated search
modules, which carry their own dependency hashes in their text,
``template._dependency_stamp``) keep numba's plain stamps.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent


# Single modules of ``games/`` with @njit code (session 27: the shogi evaluation's threat
# kernel; session 28: its evaluation-time terms' kernel, the exchange tests' and the
# rescoring's; session 29: chess's move lists with their hints, their exchange evaluation and
# attack tests) or with tables such code compiles in as constants (chess_see: the exchange
# values; shogi_eval since session 30: the threat features' count, FEATURES, which the threat
# kernel's scratch offsets and loop compile in).
SINGLE_MODULE_SOURCES = ("games/shogi_threats.py", "games/shogi_eval_kernel.py",
                         "games/shogi_exchange.py", "games/shogi_rescore.py",
                         "games/shogi_attacks.py", "games/shogi_facade.py",
                         "games/shogi_eval.py",
                         "games/chess_attack_tables.py", "games/chess_attacks_kernel.py",
                         "games/chess_exchange_kernel.py", "games/chess_movegen_kernel.py",
                         "games/chess_evasion_kernel.py",
                         "games/chess_see.py")


def kernel_sources() -> list[Path]:
    """The ``.py`` files that can hold @njit code or what it reads at compile time: all of
    ``compiled/`` and of every game package ``games/<name>/``, and ``SINGLE_MODULE_SOURCES``,
    in a fixed order.
    """
    games = sorted(d for d in (PACKAGE / "games").iterdir() if (d / "__init__.py").is_file())
    directories = [PACKAGE / "compiled", *games]
    return sorted([*(path for d in directories for path in d.rglob("*.py")),
                   *(PACKAGE / name for name in SINGLE_MODULE_SOURCES)])


@functools.cache
def kernel_digest() -> str:
    """A hash of every file of ``kernel_sources`` (computed once per process)."""
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _in_package(py_file: str) -> bool:
    try:
        return Path(py_file).resolve().is_relative_to(PACKAGE)
    except OSError:  # pragma: no cover - a placeholder name such as "<string>"
        return False


def _stamped(base: Any) -> Any:
    """A subclass of the numba locator ``base`` for this package's files, its source stamp
    extended with ``kernel_digest``.
    """

    class Locator(base):  # type: ignore[misc]
        def get_source_stamp(self) -> Any:
            return (super().get_source_stamp(), kernel_digest())

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            if not _in_package(py_file):
                return None
            return super().from_function(py_func, py_file)

    Locator.__name__ = Locator.__qualname__ = f"Sakiyomi{base.__name__}"
    return Locator


def install() -> bool:
    """Put the stamped locators first in numba's list (once); False when this numba has no
    such list (the plain stamps then stay, as before).
    """
    try:
        caching: Any = importlib.import_module("numba.core.caching")
        classes: list[Any] = caching.CacheImpl._locator_classes
        bases = [caching.UserProvidedCacheLocator, caching.InTreeCacheLocator,
                 caching.UserWideCacheLocator]
    except (ImportError, AttributeError):  # pragma: no cover - another numba layout
        return False
    if any(c.__name__.startswith("Sakiyomi") for c in classes):
        return True
    classes[0:0] = [_stamped(base) for base in bases]
    return True
