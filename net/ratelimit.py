"""The one token bucket every rate limit in `net` uses.

A bucket holds up to ``burst`` tokens and gains ``rate`` tokens a second; an event that
finds a whole token takes it, one that does not is refused. The host's per-seat limits
(chat, pings, resync requests), a watcher's, and the listening table's passphrase
attempts (per address and per table) are all such buckets. The clock is passed in, so
tests drive time by hand and nothing here reads a global.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    __slots__ = ("_clock", "at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"a bucket needs a positive rate and room for a token, not rate={rate} burst={burst}")
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self.tokens = float(burst)
        self.at = clock()

    def level(self) -> float:
        """Tokens now (refilled up to `burst` since the last look; nothing is taken)."""
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        return self.tokens

    def full(self) -> bool:
        return self.level() >= self.burst

    def take(self) -> bool:
        """Take a token if a whole one is there; False (and nothing taken) if not."""
        if self.level() < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def give_back(self) -> None:
        """Return one token (an attempt that turned out not to count), never above `burst`."""
        self.tokens = min(self.burst, self.level() + 1.0)

    def wait(self) -> float:
        """Seconds until a whole token is there (0 if one is)."""
        return max(0.0, (1.0 - self.level()) / self.rate)

    def set_rate(self, rate: float) -> None:
        """Change the pace from now on; the tokens earned so far are kept."""
        self.level()
        self.rate = rate
