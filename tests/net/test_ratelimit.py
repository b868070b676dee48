"""The one token bucket behind every rate limit in `net` (chat, pings, resyncs, passphrases)."""

from __future__ import annotations

import pytest

from coldwater.net.ratelimit import TokenBucket


def test_a_burst_then_the_rate() -> None:
    now = [0.0]
    b = TokenBucket(2.0, 3, clock=lambda: now[0])
    assert [b.take() for _ in range(4)] == [True, True, True, False]
    assert b.wait() == pytest.approx(0.5)
    now[0] = 0.25
    assert not b.take()  # half a token is not a token
    now[0] = 0.5
    assert b.take() and not b.take()
    now[0] = 100.0
    assert b.level() == 3.0 and b.full()  # never above the burst, however long it rested


def test_give_back_and_a_new_pace_keep_what_was_earned() -> None:
    now = [0.0]
    b = TokenBucket(1.0, 2, clock=lambda: now[0])
    b.take()
    b.take()
    b.give_back()
    assert b.level() == 1.0
    b.give_back()
    b.give_back()
    assert b.level() == 2.0  # capped
    b.take()
    b.take()
    now[0] = 0.5
    b.set_rate(0.1)  # half a token earned at the old pace stays
    assert b.level() == pytest.approx(0.5)
    now[0] = 5.5
    assert b.level() == pytest.approx(1.0)


def test_a_bucket_that_could_never_fill_is_refused() -> None:
    with pytest.raises(ValueError, match="positive rate"):
        TokenBucket(0.0, 3)
    with pytest.raises(ValueError, match="room for a token"):
        TokenBucket(1.0, 0.5)
