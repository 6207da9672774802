"""numba's cache stamps cover all kernel sources (``sakiyomi.compiled.cache_stamp``): an edit of
one kernel file makes every cached kernel of the package stale, not only that file's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sakiyomi.compiled import cache_stamp
from sakiyomi.compiled.bits import JIT_ENABLED, njit


def _edited(path: Path) -> None:
    path.write_text(path.read_text() + "\n# an edit\n")


def test_digest_follows_kernel_files_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for directory in ("compiled", "games"):
        shutil.copytree(cache_stamp.PACKAGE / directory, tmp_path / directory,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache_stamp, "PACKAGE", tmp_path)
    cache_stamp.kernel_digest.cache_clear()
    try:
        before = cache_stamp.kernel_digest()
        assert cache_stamp.kernel_digest() == before  # stable while nothing changes
        _edited(tmp_path / "games" / "chess.py")  # a single-module game: no kernels
        cache_stamp.kernel_digest.cache_clear()
        assert cache_stamp.kernel_digest() == before
        for kernel_file in ("games/othello/rules.py", "compiled/bits.py",
                            "games/shogi_threats.py", "games/shogi_attacks.py"):
            _edited(tmp_path / kernel_file)
            cache_stamp.kernel_digest.cache_clear()
            after = cache_stamp.kernel_digest()
            assert after != before, kernel_file
            before = after
    finally:
        cache_stamp.kernel_digest.cache_clear()


def test_every_module_that_uses_numba_is_a_kernel_source() -> None:
    """The digest leaves out the games' single modules but ``SINGLE_MODULE_SOURCES``: no
    other may hold kernels."""
    sources = set(cache_stamp.kernel_sources())
    package = cache_stamp.PACKAGE
    users = [path for path in package.rglob("*.py")
             if "numba" in (text := path.read_text()) or "sakiyomi.compiled" in text
             or "import njit" in text]
    inside = [path for path in users if path.is_relative_to(package / "games")]
    assert inside, "the game packages use numba"
    assert [path for path in inside if path not in sources] == []


@pytest.mark.skipif(not JIT_ENABLED, reason="numba's cache exists only with numba's JIT on")
def test_package_kernels_are_stamped_with_the_digest() -> None:
    from sakiyomi.games.othello import rules

    assert cache_stamp.install()
    assert cache_stamp.install()  # installing again adds nothing
    locator = rules.flips._cache._impl._locator
    assert type(locator).__name__.startswith("Sakiyomi")
    stamp = locator.get_source_stamp()
    assert stamp[1] == cache_stamp.kernel_digest()

    def outside(x: int) -> int:  # defined in this test file, outside the package
        return x + 1

    compiled = njit(outside)
    assert not type(compiled._cache._impl._locator).__name__.startswith("Sakiyomi")
