"""numba's cache stamps cover all kernel sources (``sakiyomi.compiled.cache_stamp``): an edit of
one kernel file makes every cached kernel of the package stale, not only that file's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sakiyomi.compiled import cache_stamp
from sakiyomi.compiled.bits import JIT_ENABLED, njit


def test_digest_follows_any_kernel_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for directory in cache_stamp.KERNEL_DIRS:
        shutil.copytree(cache_stamp.PACKAGE / directory, tmp_path / directory,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache_stamp, "PACKAGE", tmp_path)
    cache_stamp.kernel_digest.cache_clear()
    try:
        before = cache_stamp.kernel_digest()
        assert cache_stamp.kernel_digest() == before  # stable while nothing changes
        rules = tmp_path / "games" / "othello" / "rules.py"
        rules.write_text(rules.read_text() + "\n# an edit\n")
        cache_stamp.kernel_digest.cache_clear()
        assert cache_stamp.kernel_digest() != before
    finally:
        cache_stamp.kernel_digest.cache_clear()


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
