"""The turn timer at a fair-dealer table, kept by the seat's own process (docs/fairplay.md, "The turn timer").

At a committed-dealer table the host plays a seat that ran out of time with its bot. At a
fair-dealer table no process but the seat's own holds its view, so only that process can: a
person's seat (a joined peer's, or the host's own) asks its person through a :class:`StandIn`,
which hands the decision to the game's first bot once the person is out of time (turnclock.py:
the move's time and the seat's bank spent) and the table says so — at once at a strict table or
while this process is cut off from it; at a normal table only when another player hands the seat
over (:meth:`StandIn.hand_over`), a present person being free to think on — and goes on giving it
every later decision at once until the person comes back (:meth:`StandIn.submit` or
:meth:`StandIn.take_back`). The bot plays from the seat's own
view, so nothing is revealed. `told(on, ply)` is how the process tells the table (the peer sends
a signed :class:`~coldwater.net.messages.AutoPlay`; the host announces its own seat itself).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any

from coldwater.core.notation import Action
from coldwater.core.rng import Rng
from coldwater.core.state import Game, State

from .turnclock import TurnClock


class StandIn:
    """A person's seat at a fair table: the person's moves, or its own process's bot when they are slow."""

    def __init__(
        self,
        game: Game[Any, Any],
        seconds: int,
        told: Callable[[bool, int], None],
        *,
        clock: TurnClock | None = None,
        strict: bool = True,
        present: Callable[[], bool] = lambda: True,
        out_of_time: Callable[[int], None] = lambda ply: None,
    ) -> None:
        self.bot = game.bot(game.bots[0])
        self.seconds = seconds
        """The table's turn timer (0: none, the seat waits for its person however long)."""
        self.clock = clock if clock is not None else TurnClock(seconds, 0, game.max_players)
        """This process's clock of the table (its bank for this seat is the one that counts here)."""
        self.strict = strict
        """A strict clock: the bot plays as soon as the person is out of time."""
        self.present = present
        """This process is in touch with the table (else the seat is absent: the bot plays after the
        move's own time, as the host's does for an absent seat at a committed table)."""
        self.out_of_time = out_of_time
        """Called once a decision when the person runs out of time and keeps the seat (a normal clock)."""
        self.told = told
        self.playing = False
        """The bot has the seat (its person did not move in time and has not come back)."""
        self.idle = 0.0
        """Seconds the person had not moved when the bot last took the seat (what they are told)."""
        self.person: asyncio.Future[Action] | None = None
        """The move asked of the person now (None or done: none is)."""
        self._early: tuple[int, Action] | None = None
        self._back: asyncio.Future[None] | None = None
        self._hand: asyncio.Future[None] | None = None
        self._handed = -1
        self._taken: tuple[int, float] = (-1, 0.0)
        """(ply, when) the person last took the seat back: that decision gets a move's time afresh."""
        """The ply at which the table handed the seat to the bot (another player asked; hand_over)."""
        self._ply = -1

    @property
    def awaiting(self) -> bool:
        """A move is asked of the person (it is the seat's turn and it has not been made)."""
        return self.person is not None and not self.person.done()

    def submit(self, ply: int, action: Action) -> None:
        """The person's move for the position at `ply` (checked legal by the caller): they are back."""
        self.take_back()
        if self.person is not None and not self.person.done():
            self.person.set_result(action)
        else:
            self._early = (ply, action)  # the screen saw the turn before the move was asked for

    def hand_over(self) -> bool:
        """The table hands this seat, out of time, to the bot (the caller checked its own clock agrees).
        False: no decision of the person's is running, or the bot has the seat already."""
        if self.playing or not self.awaiting:
            return False
        self._handed = self._ply
        if self._hand is not None and not self._hand.done():
            self._hand.set_result(None)
        return True

    def take_back(self) -> bool:
        """The person takes the seat back from the bot (False: the bot did not have it)."""
        if not self.playing:
            return False
        self.playing = False
        self._taken = (self._ply, time.monotonic())
        self._handed = -1  # (handed over again only if asked again)
        if self._back is not None and not self._back.done():
            self._back.set_result(None)  # a decision the bot is thinking over is the person's again
        self.told(False, self._ply)
        return True

    async def choose(self, view: State[Any, Any]) -> Action:
        """The seat's move for `view` (its own view): the person's, or the bot's once the timer ran out."""
        self._ply = view.ply
        self.clock.at(view.ply, view.current, time.monotonic())
        early, self._early = self._early, None
        if early is not None and early[0] == view.ply:
            return early[1]
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Action] = loop.create_future()
        self.person = fut
        try:
            return await self._decide(view, fut)
        finally:
            if self.person is fut:
                self.person = None  # nothing is asked of the person now (the bot may have answered)

    async def _decide(self, view: State[Any, Any], fut: asyncio.Future[Action]) -> Action:
        loop = asyncio.get_running_loop()
        while True:
            if not self.playing:
                if not self.seconds:
                    return await fut
                if not await self._time_out(view, fut):
                    return fut.result()
                self.playing = True
                now = time.monotonic()
                self.idle = now - self._taken[1] if self._taken[0] == view.ply else self.clock.elapsed(now)
                self.told(True, view.ply)
            back: asyncio.Future[None] = loop.create_future()
            self._back = back
            # Off the loop, on a copy: the seat's view stays this process's alone, and nothing waits on it.
            bot: asyncio.Future[Action] = asyncio.ensure_future(
                asyncio.to_thread(self.bot.choose, view.clone(), Rng(os.urandom(16)))
            )
            racing: set[asyncio.Future[Any]] = {fut, bot, back}
            try:
                await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
            finally:
                if not bot.done():
                    bot.cancel()
            if fut.done():  # a move the person made while the bot thought wins: it is their seat
                return fut.result()
            if not back.done():
                result: Action = bot.result()
                return result
            # Taken back while the bot thought: this decision is the person's, on the timer again.

    async def _time_out(self, view: State[Any, Any], fut: asyncio.Future[Action]) -> bool:
        """Wait for the person until the bot is to play (True) or they moved (False; `fut` holds it)."""
        loop = asyncio.get_running_loop()
        announced = False
        while not fut.done():
            if self._handed == view.ply:
                return True
            now = time.monotonic()
            # Cut off from the table, the seat is absent: its bank is for a person the table can wait on.
            left = self.clock.left(now) if self.present() else self.clock.move_left(now)
            if self._taken[0] == view.ply:  # taken back from the bot: a move's time from then on
                left = max(left, self.seconds - (now - self._taken[1]))
            if left <= 0 and (self.strict or not self.present()):
                return True
            if left <= 0 and not announced:
                announced = True
                self.out_of_time(view.ply)
            hand: asyncio.Future[None] = loop.create_future()
            self._hand = hand
            both: set[asyncio.Future[Any]] = {fut, hand}
            await asyncio.wait(both, timeout=min(left, 1.0) if left > 0 else 1.0, return_when=asyncio.FIRST_COMPLETED)
        return False
