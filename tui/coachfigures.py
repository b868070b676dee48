"""The bot levels' own mean loss per decision, as the review measures it: the yardstick
the Review screen compares a player's figure with.

Measured by ``tests/bench/coach.py`` (dated runs in docs/benchmarks.md); a figure is
a measurement of a few games, not a promise, and the screen says so. Kept as data
here so the screen never runs the bench, and a new run changes only this table.
"""

from __future__ import annotations

from typing import Final

MEASURED: Final = "2026-12-05"
"""When the figures below were measured (tests/bench/coach.py, seeds 0-5, default depth)."""

LEVEL_LOSS: Final[dict[str, dict[str, float]]] = {
    # game -> level -> mean loss per decision, points (Aquatica: PP)
    "crown": {"random": 0.71, "greedy": 0.70, "hard": 0.19},
    "fisheries": {"random": 1.11, "greedy": 0.77, "hard": 0.46},
    "aquatica": {"random": 1.71, "greedy": 0.44, "hard": 0.34},
}


def comparison(game: str) -> str:
    """'the bots measured: hard 0.19, greedy 0.70, random 0.71 a decision (2026-12-05)', or ''."""
    levels = LEVEL_LOSS.get(game) or {}
    if not levels:
        return ""
    parts = ", ".join(f"{lv} {levels[lv]:.2f}" for lv in ("hard", "greedy", "random") if lv in levels)
    return f"The bots, measured the same way: {parts} a decision ({MEASURED})."
