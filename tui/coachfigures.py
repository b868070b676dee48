"""The bot levels' own points behind the evaluator per decision, as the review measures
it: the yardstick the Review screen compares a player's figure with.

Measured by ``tests/bench/coach.py`` (dated runs in docs/benchmarks.md); a figure is
a measurement of a few games, not a promise, and the screen says so. Each game's book
keeps its own figures (``BOT_LOSS`` in ``tui/games/<game>/lessons.py``), so the screen
never runs the bench and a new run changes only those tables.
"""

from __future__ import annotations

from typing import Final

from coldwater.tui import tutor

MEASURED: Final = "2026-12-06"
"""When the books' figures were measured (tests/bench/coach.py, seeds 0-2, default depth;
docs/benchmarks.md, "The coach's evaluator"); three games a level, so the second decimal is noise."""


def comparison(game: str) -> str:
    """'The bots, measured the same way: hard 0.19, greedy 0.70, random 0.71 a decision (2026-12-05)',
    or '' for a game without figures."""
    try:
        levels = tutor.book(game).BOT_LOSS
    except KeyError:
        return ""
    parts = ", ".join(f"{lv} {levels[lv]:.2f}" for lv in ("hard", "greedy", "random") if lv in levels)
    return f"The bots, measured the same way: {parts} a decision ({MEASURED})." if parts else ""
