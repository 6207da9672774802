"""The engine loop shared by UCI and USI: a reader on stdin, one search thread, stop and quit.

The main thread reads commands line by line and hands them to a protocol ``Handler``; a ``go``
starts the search in a ``SearchThread`` so that ``stop``, ``isready`` and ``quit`` are answered
while it runs.  A handler error never ends the engine: it is reported on an ``info string``
line and the loop goes on (bad input must not kill a GUI's engine).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Protocol, TextIO

from sakiyomi.search.limits import StopSignal


class ProtocolError(Exception):
    """A line the protocol cannot accept; reported as ``info string`` and ignored."""


class Output:
    """Thread-safe line writer (the search thread and the reader both print)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def send(self, line: str) -> None:
        """Write one line and flush it at once (GUIs wait for whole lines)."""
        with self._lock:
            self._stream.write(line + "\n")
            self._stream.flush()


class SearchThread:
    """Runs one search at a time in the background; ``stop`` ends it and waits for it."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self.signal = StopSignal()

    @property
    def running(self) -> bool:
        """True while a search is in progress."""
        return self._thread is not None and self._thread.is_alive()

    def start(self, work: Callable[[StopSignal], None], signal: StopSignal) -> None:
        """Run ``work(signal)`` in a new thread (after stopping any search still running)."""
        self.stop()
        self.signal = signal
        self._thread = threading.Thread(target=work, args=(signal,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Ask the running search to stop and wait until it has printed its result."""
        if self._thread is not None:
            self.signal.stop()
            self._thread.join()
            self._thread = None

    def wait(self) -> None:
        """Wait for the running search to finish on its own."""
        if self._thread is not None:
            self._thread.join()
            self._thread = None


class Handler(Protocol):
    """One protocol (UCI, USI): answers a command line; returns False on ``quit``."""

    def handle(self, line: str) -> bool:
        """Act on one non-empty line; raise ProtocolError for a line it cannot accept."""
        ...

    def shutdown(self) -> None:
        """Stop any search before the process ends."""
        ...


def serve(handler: Handler, output: Output, stream: TextIO | None = None) -> int:
    """Read commands until ``quit`` or end of input; bad lines become ``info string`` lines."""
    source = stream if stream is not None else sys.stdin
    try:
        for raw in source:
            line = raw.strip()
            if not line:
                continue
            try:
                if not handler.handle(line):
                    break
            except ProtocolError as exc:
                output.send(f"info string error: {exc}")
            except Exception as exc:  # an engine must survive anything a GUI sends
                output.send(f"info string internal error on {line!r}: {type(exc).__name__}: {exc}")
    except KeyboardInterrupt:
        pass
    finally:
        handler.shutdown()
    return 0
