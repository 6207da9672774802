"""A missing optional library (here cshogi, the shogi extra) is one clear line naming it and
the extra to install, with status 2: from the CLI and from the ``sakiyomi-usi`` entry point,
never a traceback (the module is hidden with ``sys.modules[name] = None``, which makes any
import of it fail as if it were not installed).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

HIDE = "import sys; sys.modules['cshogi'] = None; from sakiyomi import cli; "


def run(code: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``code`` after hiding cshogi, in a fresh interpreter."""
    return subprocess.run([sys.executable, "-c", HIDE + code], input=stdin, text=True,
                          capture_output=True, timeout=120)


@pytest.mark.parametrize("code, stdin", [
    ("sys.exit(cli.main(['search', 'shogi', 'startpos', '--depth', '1']))", ""),
    ("sys.exit(cli.usi_main())", "usi\nquit\n"),
])
def test_missing_shogi_extra_is_one_clear_line(code: str, stdin: str) -> None:
    done = run(code, stdin)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "cshogi" in done.stderr and "sakiyomi[shogi]" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_usi_entry_point_still_speaks_usi() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys; from sakiyomi import cli; "
                           "sys.exit(cli.usi_main())"], input="usi\nquit\n", text=True,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "usiok" in done.stdout.split()
