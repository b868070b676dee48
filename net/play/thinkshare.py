"""A review's second core: the bots' worker hands half of a review's decisions to a helper.

A whole seat's review is tens of seconds of playouts, one decision after another, and
each decision's worlds are its own (``core.review.review_decisions``), so two processes
can share them and agree with one: the worker (thinkworker.py) judges the even-numbered
decisions while a helper process, started with ``spawn`` (the worker has threads),
judges the odd ones here; the worker then confirms the costliest itself
(``core.review.finish``). The answer is the same review, bit for bit, as one process
gives (``tests/tui/test_review_screen.py`` checks it through the worker).

The helper is a child of the worker and watches it: if the worker goes (the app closed
it, or died), the helper exits at its next world, so nothing outlives the app for more
than a world. While the app handles a key the worker holds its share but the helper
does not (a key's repaint then shares the machine with one review process, not two).
"""

from __future__ import annotations

import multiprocessing
import os
from typing import Any

import msgspec

from coldwater.core import games, record
from coldwater.core.review import DecisionReview, decisions, default_budget, review_decisions
from coldwater.net.play.files import read_content

HELP_FROM = 8
"""Decisions from which a review is shared with a helper (fewer: starting one costs more)."""


def cores() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def share(
    game_name: str,
    content: str | None,
    record_bytes: bytes,
    seat: int,
    depth: int,
    seed: str,
    part: int,
    parts: int,
    parent: int,
) -> bytes:
    """Decisions `part`, `part + parts`, ... of `seat`'s review (in the helper); MessagePack of their reviews."""
    game = games.get(game_name)
    if content is not None:
        game = game.with_content(read_content(content))
    rec = record.loads(record_bytes)
    budget = default_budget(game).deeper(depth)
    todo = list(decisions(rec, game, seat))[part::parts]

    def pause() -> None:
        if os.getppid() != parent:  # the worker is gone: so is the review
            os._exit(0)

    return msgspec.msgpack.encode(list(review_decisions(game, todo, budget=budget, seed=seed, pause=pause)))


class Helper:
    """One helper process doing a share of one review; :meth:`close` ends it whatever it is doing."""

    def __init__(self, *args: Any) -> None:
        self.pool = multiprocessing.get_context("spawn").Pool(1)
        self.result = self.pool.apply_async(share, args)

    def ready(self, timeout: float) -> bool:
        self.result.wait(timeout)
        return self.result.ready()

    def reviews(self) -> list[DecisionReview]:
        return msgspec.msgpack.decode(self.result.get(), type=list[DecisionReview])

    def close(self) -> None:
        self.pool.terminate()
        self.pool.join()
