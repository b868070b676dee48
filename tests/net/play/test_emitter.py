"""The one event emitter: order, unsubscribing, and what a failing listener does."""

from __future__ import annotations

import logging

import pytest

from coldwater.net.play.emitter import Emitter


def test_listeners_hear_every_event_in_order_until_they_unsubscribe() -> None:
    heard: list[tuple[str, int]] = []
    em: Emitter[int] = Emitter()
    stop_a = em.subscribe(lambda e: heard.append(("a", e)))
    em.subscribe(lambda e: heard.append(("b", e)))
    em.emit(1)
    stop_a()
    stop_a()  # twice is harmless
    em.emit(2)
    assert heard == [("a", 1), ("b", 1), ("b", 2)]


def test_a_listener_may_unsubscribe_while_called() -> None:
    heard: list[int] = []
    em: Emitter[int] = Emitter()

    def once(e: int) -> None:
        heard.append(e)
        stop()

    stop = em.subscribe(once)
    em.subscribe(heard.append)
    em.emit(7)
    em.emit(8)
    assert heard == [7, 7, 8]


def test_a_contained_failure_is_logged_and_the_rest_still_hear(caplog: pytest.LogCaptureFixture) -> None:
    heard: list[int] = []
    em: Emitter[int] = Emitter()

    def broken(e: int) -> None:
        raise RuntimeError("broken screen")

    em.subscribe(broken)
    em.subscribe(heard.append)
    with caplog.at_level(logging.ERROR, logger="coldwater.net"):
        em.emit(3)
    assert heard == [3]
    assert "listener failed" in caplog.text


def test_an_uncontained_failure_reaches_the_caller() -> None:
    em: Emitter[int] = Emitter(contain=False)

    def broken(e: int) -> None:
        raise RuntimeError("broken screen")

    em.subscribe(broken)
    with pytest.raises(RuntimeError, match="broken screen"):
        em.emit(1)
