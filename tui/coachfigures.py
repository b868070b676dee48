"""The bot levels' own points behind the evaluator per decision, as the review measures
it: the yardstick the Review screen compares a player's figure with.

Measured by ``tests/bench/coach.py`` (dated runs in docs/benchmarks.md); a figure is
a measurement of a few games, not a promise, and the screen says so. Kept as data
here so the screen never runs the bench, and a new run changes only this table.
"""

from __future__ import annotations

from typing import Final

MEASURED: Final = "2026-12-06"
"""When the figures below were measured (tests/bench/coach.py, seeds 0-2, default depth;
docs/benchmarks.md, "The coach's evaluator")."""

LEVEL_LOSS: Final[dict[str, dict[str, float]]] = {
    # game -> level -> points behind the evaluator's own choices per decision, points
    # (Aquatica: PP); three games a level, so the second decimal is noise.
    "crown": {"random": 0.56, "greedy": 0.35, "hard": 0.03},
    "fisheries": {"random": 1.16, "greedy": 0.41, "hard": 0.17},
    "aquatica": {"random": 1.47, "greedy": 0.20, "hard": 0.13},
}


def comparison(game: str) -> str:
    """'the bots measured: hard 0.19, greedy 0.70, random 0.71 a decision (2026-12-05)', or ''."""
    levels = LEVEL_LOSS.get(game) or {}
    if not levels:
        return ""
    parts = ", ".join(f"{lv} {levels[lv]:.2f}" for lv in ("hard", "greedy", "random") if lv in levels)
    return f"The bots, measured the same way: {parts} a decision ({MEASURED})."
