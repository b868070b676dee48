"""Every seat's turn clock at a LAN table: a time per move and a bank per game (docs/lan.md, "The turn clock").

Board Game Arena's model, which people who play online expect: a seat has the table's turn timer
(`TableInfo.turn`) for each decision; past it, its time bank (`TableInfo.bank`, for the whole game)
drains; when both are spent the seat is *out of time*. Only time past the per-move timer comes out
of the bank, so a seat that always moves in time keeps all of it. Beside both, a chess clock: each
seat's whole time for the game (`TableInfo.game`), every second of every move counted; when it is
spent the seat is out of time too, however much of the move's time is left (issue 44: a seat moving at
2:59 each time could otherwise stretch a game without limit).

Every process keeps its own clock, from the positions it sees: a seat's move starts when the
position reaches this process (the host orders the steps, so that is a network delay after the host
started it), and ends when the next position does. So every process shows the same figures to within
that delay, and none trusts another's clock: the seat's own process is the authority on its own time
(a host that calls a seat out of time early is contradicted by the seat's own clock, see ``SLACK``).
No I/O and no clock reads here: the caller passes ``now`` (``time.monotonic()``), so tests need no sleep.
"""

from __future__ import annotations

import math
from typing import Final

TIME_BANK: Final = 300
"""Seconds of time bank each seat gets per game by default (five minutes: a few long thinks)."""

GAME_TIME: Final = 5400
"""Seconds each seat may think over the whole game by default (90 minutes, a chess player's classical
clock). A normal game is nowhere near it: a 3-seat game of people thinking 10 s a decision uses
~20 minutes a seat; a seat moving at 2:59 every time meets it after ~30 decisions."""

SLACK: Final = 3.0
"""Seconds a seat's own clock may still show when the table says it is out of time: the delay between
the host seeing the position and the seat seeing it, and a second of rounding. More is the host's haste."""


def fmt(seconds: float) -> str:
    """'1:05' for 64.2 s (rounded up: a clock that shows 0:00 is out)."""
    s = max(0, math.ceil(seconds))
    return f"{s // 60}:{s % 60:02d}"


def out_of_time_text(name: str, seat: int, turn: int) -> str:
    """What everyone is told when a present seat runs out of time at a normal table (the same words at
    every kind of table)."""
    return (
        f"{name} (seat {seat + 1}) is out of time ({turn} s a move and the time bank spent); "
        "the other players may hand the seat to a bot"
    )


def idle_words(idle: float, turn: int, game_spent: int = 0) -> str:
    """How long a seat went without moving when a bot took it: 'did not move for 8:08 (3:00 a move)'. The
    real time, not the per-move timer: with the time bank, or a seat away, it is much longer. (Rounded to
    the nearest second, not up as a countdown is.) `game_spent`, when the seat's time for the whole game
    is what ran out, names it, or a seat moving inside every timer would read as never late."""
    spent = f"; its {fmt(game_spent)} for the game used up" if game_spent > 0 else ""
    return f"did not move for {idle_fmt(idle)} ({fmt(turn)} a move{spent})"


def game_spent(clock: TurnClock, seat: int, now: float) -> int:
    """The table's time for the whole game when `seat` has used it all, else 0 (for :func:`idle_words`)."""
    return clock.game if clock.game > 0 and clock.game_left(now, seat) <= 0 else 0


def idle_fmt(idle: float) -> str:
    """'8:08' for 487.9 s of a seat's idle time: to the nearest second (a countdown rounds up instead)."""
    return fmt(math.floor(idle + 0.5))


class TurnClock:
    """The seat to move's time at one table, and every seat's bank, as this process measures them."""

    def __init__(self, turn: int, bank: int, players: int, game: int = 0) -> None:
        self.restart(turn, bank, players, game)

    def restart(self, turn: int, bank: int, players: int, game: int = 0) -> None:
        """A fresh clock on new terms (a game starts, or a save is restored): the same object, so that
        everything handed this clock keeps reading the table's."""
        if turn < 0 or bank < 0 or players < 1 or game < 0:
            raise ValueError(f"a clock needs a turn timer and a bank of 0 s or more, not {turn} s and {bank} s")
        self.game = game
        """Seconds each seat may think over the whole game (0: no limit but the timer and the bank)."""
        self.used: list[float] = [0.0] * players
        """Each seat's thinking time so far, every second of every move (charged when the move ends)."""
        self.turn = turn
        """Seconds per move (0: no clock at all; then nobody is ever out of time)."""
        self.banks: list[float] = [float(bank)] * players
        """Each seat's bank left, as of the start of its move now running (charged when the move ends)."""
        self.seat = -1
        """The seat whose move runs (-1: none, a draw or the end)."""
        self.ply = -1
        self.since = 0.0

    @property
    def running(self) -> bool:
        """A seat's move is being timed."""
        return self.turn > 0 and self.seat >= 0

    def at(self, ply: int, seat: int | None, now: float) -> None:
        """The position at `ply` reached this process at `now`, `seat` to move (None or below 0: no seat's
        move). The same ply again changes nothing, so every caller may say it."""
        if ply == self.ply:
            return
        self._charge(now)
        self.ply = ply
        self.seat = seat if seat is not None and 0 <= seat < len(self.banks) else -1
        self.since = now

    def stop(self, now: float) -> None:
        """The game ended (or this clock stops being told): the move running is charged."""
        self._charge(now)
        self.seat = -1

    def _charge(self, now: float) -> None:
        if self.running:
            over = max(0.0, now - self.since - self.turn)
            self.banks[self.seat] = max(0.0, self.banks[self.seat] - over)
            self.used[self.seat] += max(0.0, now - self.since)

    def used_at(self, now: float, seat: int) -> float:
        """Seconds `seat` has thought so far, the move running included (what a save keeps)."""
        if not 0 <= seat < len(self.used):
            return 0.0
        return self.used[seat] + (self.elapsed(now) if seat == self.seat else 0.0)

    def game_left(self, now: float, seat: int | None = None) -> float:
        """Seconds left of `seat`'s whole time for the game (the seat to move's by default; inf without one)."""
        s = self.seat if seat is None else seat
        if self.game <= 0 or not 0 <= s < len(self.used):
            return math.inf
        running = self.elapsed(now) if s == self.seat else 0.0
        return max(0.0, self.game - self.used[s] - running)

    def elapsed(self, now: float) -> float:
        return max(0.0, now - self.since) if self.running else 0.0

    def move_left(self, now: float) -> float:
        """Seconds left of the per-move timer (0 once the bank drains)."""
        return max(0.0, self.turn - self.elapsed(now)) if self.running else 0.0

    def bank_left(self, now: float, seat: int | None = None) -> float:
        """Seconds left in `seat`'s bank (the seat to move's by default), what this move took included."""
        s = self.seat if seat is None else seat
        if not 0 <= s < len(self.banks):
            return 0.0
        over = max(0.0, self.elapsed(now) - self.turn) if s == self.seat else 0.0
        return max(0.0, self.banks[s] - over)

    def left(self, now: float) -> float:
        """Seconds until the seat to move is out of time (inf with no move timed)."""
        if not self.running:
            return math.inf
        return min(max(0.0, self.turn + self.banks[self.seat] - self.elapsed(now)), self.game_left(now))

    def out(self, now: float) -> bool:
        """The seat to move has spent its move's time and its bank."""
        return self.running and self.left(now) <= 0.0

    def over_by(self, now: float) -> float:
        """Seconds the seat to move has been out of time (0 while it is not)."""
        if not self.running:
            return 0.0
        allowed = self.turn + self.banks[self.seat]
        if self.game > 0:
            allowed = min(allowed, self.game - self.used[self.seat])
        return max(0.0, self.elapsed(now) - allowed)

    def text(self, now: float) -> str:
        """The seat to move's countdown, short enough for a title at 80 columns: '0:42' while the move's
        own time runs, 'bank 3:12' while the bank drains, 'out of time' after; '' with nothing timed."""
        if not self.running:
            return ""
        if self.game > 0 and 0 < self.game_left(now) < self.move_left(now) + self.bank_left(now):
            return f"game {fmt(self.game_left(now))}"  # the whole game's time runs out first
        if self.move_left(now) > 0:
            return fmt(self.move_left(now))
        if self.bank_left(now) > 0:
            return f"bank {fmt(self.bank_left(now))}"
        return "out of time"
