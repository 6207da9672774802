"""``python -m sakiyomi``: the command-line interface."""

from sakiyomi.cli import main

raise SystemExit(main())
