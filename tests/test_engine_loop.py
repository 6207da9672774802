"""The engine loop's guarantees without a subprocess: one answer per go (search thread, stop,
watchdog, held answers), bounded byte input, an output that survives a closed pipe.

Timing is never asserted here (only that an answer came and came once); waits are bounded by
events so a slow machine cannot make these tests flaky.
"""

from __future__ import annotations

import io
import threading
import time

import pytest

from sakiyomi.protocols.engine_loop import (
    BASE_LEAD,
    DROP_SCALE,
    LATENESS_DECAY,
    MAX_LEAD_SHARE,
    MAX_LINE_BYTES,
    STABLE_ITERATIONS,
    STABLE_SCALE,
    UNSTABLE_SCALE,
    GoSession,
    Output,
    ProtocolError,
    Punctuality,
    Reply,
    SearchThread,
    read_lines,
    serve,
)
from sakiyomi.search.limits import TimePlan


def _reply(held: bool = False) -> tuple[Reply, io.StringIO]:
    stream = io.StringIO()
    return Reply(Output(stream), "7g7f", held=held), stream


def _lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def _until(predicate: object, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate() and time.monotonic() < deadline:  # type: ignore[operator]
        time.sleep(0.005)


def test_the_watchdog_answers_once_with_the_best_move_so_far() -> None:
    reply, stream = _reply()
    reply.info("info depth 1")
    reply.update("2g2f", "8c8d")
    reply.arm(0.01)  # the search thread never answers: the timer must
    _until(lambda: reply.given)
    reply.update("5g5f")  # the late search thread: nothing more is sent
    reply.finish()
    reply.give()
    reply.info("info depth 9")
    assert _lines(stream) == ["info depth 1", "bestmove 2g2f ponder 8c8d"]


def test_a_held_answer_waits_for_release_and_the_end_of_the_search() -> None:
    reply, stream = _reply(held=True)
    reply.finish()  # go infinite: the search ended, the GUI has not said stop
    assert not reply.given
    reply.release()
    assert _lines(stream) == ["bestmove 7g7f"]
    other, other_stream = _reply(held=True)
    other.release()  # ponderhit while the search still runs: the answer waits for the end
    assert not other.given
    other.finish()
    assert _lines(other_stream) == ["bestmove 7g7f"]


def test_a_clock_arms_the_watchdog_and_ponder_starts_it_at_ponderhit() -> None:
    reply, stream = _reply(held=True)
    session = GoSession(reply, TimePlan(0.0, 0.01), clock_running=False)
    assert session.signal.deadline is None and session.pondering and not session.past_soft()
    time.sleep(0.05)
    assert not reply.given  # no clock while pondering
    session.ponderhit()
    assert session.signal.deadline is not None and not session.pondering
    _until(lambda: reply.given)
    assert _lines(stream) == ["bestmove 7g7f"] and session.past_soft()


def test_huge_plans_arm_a_timer_without_overflow() -> None:
    reply, _ = _reply()
    session = GoSession(reply, TimePlan.fixed(float("inf")))
    assert session.hard_left() is not None
    session.stop()
    reply.finish()
    assert reply.given


def test_stop_answers_even_when_the_search_thread_ignores_it() -> None:
    reply, stream = _reply()
    session = GoSession(reply, None)
    release = threading.Event()

    def stubborn(s: GoSession) -> None:
        s.reply.update("1g1f")
        release.wait(30)  # never polls the stop signal
        s.reply.update("9g9f")

    thread = SearchThread()
    thread.start(session, stubborn)
    _until(lambda: reply.best == "1g1f")
    thread.stop()
    assert _lines(stream) == ["bestmove 1g1f"]  # answered by stop, not by the thread
    release.set()
    thread.halt()
    assert _lines(stream) == ["bestmove 1g1f"]


def test_a_crashing_search_still_answers() -> None:
    reply, stream = _reply()

    def broken(s: GoSession) -> None:
        raise RuntimeError("bug")

    thread = SearchThread()
    thread.start(GoSession(reply, None), broken)
    thread.wait()
    assert _lines(stream) == ["info string search error: RuntimeError: bug", "bestmove 7g7f"]


def test_a_new_search_answers_the_previous_one_first() -> None:
    first, stream = _reply(held=True)
    thread = SearchThread()
    thread.start(GoSession(first, None), lambda s: None)
    second = Reply(Output(stream), "2g2f")
    thread.start(GoSession(second, None), lambda s: None)
    thread.wait()
    assert _lines(stream) == ["bestmove 7g7f", "bestmove 2g2f"]


def test_lines_are_capped_and_bytes_decoded_with_replacement() -> None:
    long_line = b"x" * (3 * MAX_LINE_BYTES + 5)
    data = b"uci\n\xff\xfe\x80 junk\n" + long_line + b"\nisready\r\nlast"
    lines = list(read_lines(io.BytesIO(data)))
    assert lines[0] == "uci\n" and lines[1] == "\ufffd\ufffd\ufffd junk\n"
    assert len(lines[2]) == MAX_LINE_BYTES and set(lines[2]) == {"x"}
    assert lines[3:] == ["isready\r\n", "last"]


def test_a_closed_output_is_noted_not_raised() -> None:
    stream = io.StringIO()
    output = Output(stream)
    stream.close()
    output.send("bestmove 0000")
    assert output.closed


class _Echo:
    def __init__(self, output: Output) -> None:
        self.out = output
        self.stopped = False
        self.arrivals: list[tuple[float, float]] = []  # (received, handled)
        self.thread = SearchThread()

    def handle(self, line: str, received: float | None = None) -> bool:
        assert received is not None
        self.arrivals.append((received, time.perf_counter()))
        if line == "slow":
            time.sleep(0.05)  # like a long 'position' line: the next line waits behind it
        if line == "quit":
            return False
        if line == "bad":
            raise ProtocolError("bad line")
        if line == "bug":
            raise ZeroDivisionError("oops")
        self.out.send(f"echo {line}")
        return True

    def shutdown(self) -> None:
        self.stopped = True


def test_serve_reports_errors_and_goes_on() -> None:
    stream = io.StringIO()
    output = Output(stream)
    handler = _Echo(output)
    data = b"a\n\n  \nbad\nbug\n\xc3\x28b\nquit\nnever\n"
    assert serve(handler, output, io.BytesIO(data)) == 0
    assert _lines(stream) == [
        "echo a", "info string error: bad line",
        "info string internal error on 'bug': ZeroDivisionError: oops", "echo \ufffd(b",
    ]
    assert handler.stopped


def test_lines_are_stamped_when_they_arrive_not_when_they_are_handled() -> None:
    output = Output(io.StringIO())
    handler = _Echo(output)
    assert serve(handler, output, io.BytesIO(b"slow\ngo\nquit\n")) == 0
    (slow_in, slow_at), (go_in, go_at), _ = handler.arrivals
    assert slow_in <= slow_at and go_in <= go_at
    assert go_at - go_in >= 0.04  # 'go' arrived while 'slow' was handled, and says so


def test_the_clock_of_a_go_runs_from_its_arrival() -> None:
    reply, _ = _reply()
    arrived = time.perf_counter() - 0.05  # the line came 50 ms ago
    session = GoSession(reply, TimePlan(0.1, 0.2), received=arrived)
    assert session.aim is not None and abs(session.aim - (arrived + 0.2)) < 1e-9
    left = session.hard_left()
    assert left is not None and left < 0.2 - 0.04
    session.stop()


def test_punctuality_aims_earlier_after_late_answers_and_forgets_slowly() -> None:
    punctuality = Punctuality()
    assert punctuality.lead(1.0) == BASE_LEAD
    punctuality.observe(0.08)  # an answer came 80 ms after its aim
    assert punctuality.lead(1.0) == pytest.approx(0.08 + BASE_LEAD)
    assert punctuality.lead(0.1) == pytest.approx(0.1 * MAX_LEAD_SHARE)  # half the time stays
    punctuality.observe(-0.5)  # early answers only let the estimate decay
    assert punctuality.estimate == pytest.approx(0.08 * LATENESS_DECAY)
    for _ in range(400):
        punctuality.observe(0.0)
    assert punctuality.lead(1.0) == pytest.approx(BASE_LEAD, abs=1e-6)


def test_a_session_aims_before_its_hard_limit_and_reports_its_lateness() -> None:
    punctuality = Punctuality()
    punctuality.observe(0.2)
    reply, _ = _reply()
    session = GoSession(reply, TimePlan(10.0, 1.0), punctuality=punctuality)
    assert session.aim is not None and session.signal.deadline == session.aim
    assert 1.0 - 0.2 - BASE_LEAD - 0.05 < session.aim - time.perf_counter() <= 0.8 - BASE_LEAD
    assert session.past_soft() is False  # the soft limit is capped at the aim, not past it
    thread = SearchThread()
    thread.punctuality = punctuality
    thread.start(session, lambda s: None)
    thread.wait()
    assert reply.given_at is not None and reply.given_at < session.aim
    thread.start(GoSession(Reply(Output(io.StringIO()), "x"), None), lambda s: None)
    assert punctuality.estimate == pytest.approx(0.2 * LATENESS_DECAY)  # early: decayed
    thread.wait()


def test_a_late_answer_makes_the_next_clock_plan_keep_a_reserve() -> None:
    thread = SearchThread()
    assert thread.reserve() == 0.0
    reply, _ = _reply()
    session = GoSession(reply, TimePlan(0.01, 0.02), punctuality=thread.punctuality)
    assert session.aim is not None
    thread.start(session, lambda s: time.sleep(0.15))  # the watchdog answers; say it was late:
    thread.wait()
    assert reply.given_at is not None
    reply.given_at = session.aim + 0.3
    assert thread.reserve() == pytest.approx(0.3)
    assert thread.reserve() == pytest.approx(0.3)  # folded in once, not once per call
    thread.start(GoSession(Reply(Output(io.StringIO()), "x"), None), lambda s: None)
    thread.wait()
    assert thread.punctuality.estimate == pytest.approx(0.3)  # still once after the next start


def test_the_soft_limit_grows_while_the_best_move_changes_and_shrinks_when_it_stays() -> None:
    reply, _ = _reply()
    start = time.perf_counter()
    session = GoSession(reply, TimePlan(0.1, 10.0), received=start)

    def soft() -> float:
        assert session._soft_at is not None
        return session._soft_at - start

    session.observe("7g7f", 50)
    assert soft() == pytest.approx(0.1)
    session.observe("2g2f", 50)  # a new best move
    assert soft() == pytest.approx(0.1 * UNSTABLE_SCALE)
    for _ in range(STABLE_ITERATIONS - 1):
        session.observe("2g2f", 50)
    assert soft() == pytest.approx(0.1 * STABLE_SCALE)
    session.observe("2g2f", -100)  # same move, but the score fell
    assert soft() == pytest.approx(0.1 * STABLE_SCALE * DROP_SCALE)
    session.observe("5g5f", -100)
    assert soft() == pytest.approx(0.1 * UNSTABLE_SCALE)
    assert session.aim is not None and session._soft_at is not None
    assert session._soft_at <= session.aim  # never past the hard limit
    session.stop()
    fixed = GoSession(reply, TimePlan.fixed(0.5), received=start)  # movetime: all of it
    for move in ("7g7f", "2g2f", "2g2f", "2g2f", "2g2f", "2g2f"):
        fixed.observe(move, 0)
    assert fixed._soft_at == fixed.aim
    fixed.stop()
