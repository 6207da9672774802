"""A line-level engine client with timeouts, shared by the UCI and USI tests, fuzz tests and
benches.

Real clients (python-chess, cshogi) wait forever on a silent engine and send one command at a
time; this one reads in a thread so tests can send during a search and bound every wait.  It
talks bytes, so tests can send any byte sequence (invalid UTF-8 included), and it keeps what
the engine writes on stderr (a traceback there is a bug).
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import threading
import time

STRICT_UTF8 = {"PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}


class EngineProcess:
    """A live engine subprocess; every line it prints goes to a queue, stderr to ``errors``."""

    def __init__(self, argv: list[str], env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, **env} if env else None,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.decode("utf-8", "replace").strip())

    def _read_errors(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.errors.append(line.decode("utf-8", "replace"))

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc.poll() is None

    def send(self, line: str) -> None:
        """Write one command line."""
        self.send_bytes(line.encode("utf-8") + b"\n")

    def send_bytes(self, data: bytes) -> None:
        """Write raw bytes (the caller adds line ends)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
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
        if self.alive:
            with contextlib.suppress(OSError):  # the engine may have just died
                self.send("quit")
        return self.proc.wait(timeout=30)
