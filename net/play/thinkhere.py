"""Thinking in this process: a search bot's clock, and a review or hint in a thread.

A :class:`~.thinker.Thinker` thinks in its worker process; what is here is the
fallback it (or an app without one) uses when the worker cannot, giving the same
answer (a review, hint or move is deterministic for its seed and budget), and the
wall clock behind a search bot's safety cap, which core does not read itself.
A thread's search is stopped at its next world or iteration through the bot's or
review's `pause` hook, raising :class:`ThinkingStopped`.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from typing import Any

from coldwater.core.notation import Action
from coldwater.core.record import GameRecord
from coldwater.core.review import Hint, SeatReview, default_budget, hint, hint_budget, review_seat, summarize
from coldwater.core.search import SearchBot
from coldwater.core.state import Bot, Game, State


def timed(bot: Bot) -> Bot:
    """`bot`, with the wall clock behind a search bot's safety cap (`SearchBot.max_seconds`):
    every bot that plays for a person who is waiting goes through here, since core reads no
    clock. Other bots answer at once and are returned as they are."""
    if isinstance(bot, SearchBot):
        bot.clock = time.perf_counter
    return bot


class ThinkingStopped(Exception):
    """Raised where a bot's move was awaited when its table has closed."""


async def review_here(
    game: Game[Any, Any],
    rec: GameRecord,
    seat: int,
    *,
    depth: int = 1,
    seed: str = "0",
    progress: Callable[[int, int], None] | None = None,
) -> SeatReview:
    """A review in a thread of this process (the fallback); cancelling stops it at its next world."""
    loop = asyncio.get_running_loop()
    stop = threading.Event()

    def pause() -> None:
        if stop.is_set():
            raise ThinkingStopped

    def run() -> SeatReview:
        done = []
        for k, n, r in review_seat(rec, game, seat, budget=default_budget(game).deeper(depth), seed=seed, pause=pause):
            done.append(r)
            if progress is not None:
                loop.call_soon_threadsafe(progress, k, n)
        return summarize(game.name, seat, done)

    try:
        return await asyncio.to_thread(run)
    except asyncio.CancelledError:
        stop.set()
        raise


async def hint_here(
    game: Game[Any, Any], view: State[Any, Any], *, depth: int = 1, include: Action | None = None
) -> Hint:
    """A hint in a thread of this process (the fallback); cancelling stops it at its next world."""
    stop = threading.Event()

    def pause() -> None:
        if stop.is_set():
            raise ThinkingStopped

    try:
        budget = hint_budget(game).deeper(depth)
        return await asyncio.to_thread(hint, game, view, budget=budget, pause=pause, include=include)
    except asyncio.CancelledError:
        stop.set()
        raise
