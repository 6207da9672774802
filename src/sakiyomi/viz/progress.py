"""Live progress on a terminal (rich), as an observer: the search never prints.

``Watch`` gets its information two ways the search already offers: the ``SearchInfo`` that
drivers yield per completed iteration (``on_info``), and the engine's live counters
(``follow(engine)``: the status line reads ``engine.stats`` from rich's refresh thread; the
compiled engine releases the GIL while it searches, so this works for it too).  Nothing is
shown unless standard output is a terminal and JSON output was not asked for; the status
line is transient and results print above it.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from types import TracebackType
from typing import Any, TypeVar

from sakiyomi.score import format_score
from sakiyomi.search.limits import Limits, StopSignal
from sakiyomi.search.result import SearchInfo

T = TypeVar("T")


def interactive(as_json: bool) -> bool:
    """Should progress be shown? Only on a terminal and never with ``--json``."""
    return not as_json and sys.stdout.isatty()


class Watch(AbstractContextManager["Watch"]):
    """A status line (nodes, nodes/s, elapsed) plus one printed line per completed iteration.

    With ``enabled=False`` every method is a cheap no-op and nothing is imported from rich.
    """

    def __init__(self, enabled: bool, label: str = "searching",
                 move_text: Callable[[Any], str] = str) -> None:
        self.enabled = enabled
        self.label = label
        self.move_text = move_text
        self.nodes = 0
        self._engine: Any = None
        self.start = time.perf_counter()
        self._live: Any = None
        self._console: Any = None

    def __enter__(self) -> Watch:
        if self.enabled:
            from rich.console import Console
            from rich.live import Live

            self._console = Console()
            self._live = Live(self._status(), console=self._console, transient=True,
                              refresh_per_second=8, get_renderable=self._status)
            self._live.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None

    # ---- observers --------------------------------------------------------------------

    def follow(self, engine: Any) -> None:
        """Show the live node count of ``engine`` (anything with ``stats.nodes``)."""
        self._engine = engine

    def signal(self, limits: Limits | None = None) -> StopSignal:
        """A stop signal enforcing ``limits`` (Ctrl-C ends the command, not just the search)."""
        return StopSignal.from_limits(limits) if limits is not None else StopSignal()

    def on_info(self, info: SearchInfo[Any]) -> None:
        """Print one line for a completed iteration."""
        if not self.enabled or self._console is None:
            return
        self.nodes = info.stats.nodes
        pv = " ".join(self.move_text(m) for m in info.pv)
        self._console.print(
            f"depth {info.depth:>3}  score {format_score(info.value):>10}  "
            f"nodes {info.stats.nodes:>10,}  nps {info.nps:>9,.0f}  "
            f"time {info.seconds:7.2f}s  pv {pv}",
            highlight=False, soft_wrap=True,
        )

    def _status(self) -> Any:
        from rich.text import Text

        elapsed = time.perf_counter() - self.start
        if self._engine is not None:
            self.nodes = self._engine.stats.nodes
        nps = self.nodes / elapsed if elapsed > 0 else 0.0
        return Text(f"⠿ {self.label}: {self.nodes:,} nodes  {nps:,.0f} nodes/s  "
                    f"{elapsed:.1f}s", style="dim")


def batch(items: Iterable[T], enabled: bool, label: str = "solving") -> Iterator[T]:
    """Yield ``items``; on a terminal show a bar (done / total, ETA) while doing so.

    The items are read into a list first when the bar is shown, so that the total is known.
    """
    if not enabled:
        yield from items
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    todo = list(items)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn())
    with Progress(*columns, console=Console(), transient=True) as bar:
        task = bar.add_task(label, total=len(todo))
        for item in todo:
            yield item
            bar.advance(task)
