"""Parallel and distributed solving, and the solved-position store (DESIGN.md §2, §11).

``solver`` splits the top of the tree (``split``), turns the frontier into null-window jobs
(``jobs``), combines their results by negamax as they arrive and cancels jobs that no longer
matter (``combine``); ``local`` (worker processes) and ``ray_backend`` (a Ray cluster) run the
jobs behind one interface (``backend``); ``store`` keeps every finished job in SQLite, which is
both the checkpoint of a solve and an opening book (``book``).  ``commands`` is the CLI glue.
"""
