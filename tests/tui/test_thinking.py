"""The gate that holds a bot's search while the app handles a key."""

from __future__ import annotations

import threading
import time

from coldwater.tui.thinking import HOLD_AT_MOST, ThinkGate


def test_an_open_gate_does_not_wait_and_a_held_one_waits_until_released() -> None:
    gate = ThinkGate(hold_at_most=60.0)  # long enough that only a release opens it here
    t0 = time.perf_counter()
    gate.wait()
    assert time.perf_counter() - t0 < 1.0 and not gate.held
    gate.hold()
    gate.hold()  # two keys in flight: open only when both are done
    passed = threading.Event()

    def search() -> None:
        gate.wait()
        passed.set()

    th = threading.Thread(target=search)
    gate.release()
    assert gate.held
    th.start()
    assert not passed.wait(0.2), "the search went on while a key was still held"
    gate.release()
    assert passed.wait(10) and not gate.held
    th.join()
    gate.release()  # one release too many leaves the gate open, never negative
    assert not gate.held


def test_a_gate_never_released_holds_a_search_only_briefly() -> None:
    gate = ThinkGate()
    gate.hold()
    t0 = time.perf_counter()
    gate.wait()
    assert HOLD_AT_MOST * 0.9 <= time.perf_counter() - t0 < HOLD_AT_MOST * 4
    # Once past that, a forgotten hold costs a search nothing more.
    t0 = time.perf_counter()
    for _ in range(100):
        gate.wait()
    assert time.perf_counter() - t0 < HOLD_AT_MOST
