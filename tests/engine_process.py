"""A line-level engine client with timeouts, shared by the UCI and USI tests.

Real clients (python-chess, cshogi) wait forever on a silent engine and send one command at a
time; this one reads in a thread so tests can send during a search and bound every wait.
"""

from __future__ import annotations

import queue
import subprocess
import threading
import time


class EngineProcess:
    """A live engine subprocess; every line it prints goes to a queue."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.strip())

    def send(self, line: str) -> None:
        """Write one command line."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix: str, timeout: float) -> str | None:
        """The first line starting with ``prefix`` within ``timeout`` seconds, else None."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                return None
            if line.startswith(prefix):
                return line
        return None

    def until(self, prefix: str, timeout: float = 20.0) -> list[str]:
        """Every line up to and including the first starting with ``prefix`` (raises on timeout)."""
        seen: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            seen.append(self.lines.get(timeout=max(0.01, deadline - time.monotonic())))
            if seen[-1].startswith(prefix):
                return seen

    def close(self) -> int:
        """Send quit and wait for the process to end."""
        self.send("quit")
        return self.proc.wait(timeout=30)
