"""While a bot thinks (issue 45): what it has done so far this turn, and how far its search
for the move at hand is, in words a person at the table reads under the empty list.

Pure: the log's entries and a few numbers in, text out. The bar is the time spent on the
decision now against the search's own cap on one decision (``SearchBot.max_seconds``, the
wall-clock limit a search bot stops at between rounds), so it fills as the search goes and
is full at the latest when the move comes. The quick bots (greedy, easy, random) answer at
once and get no bar.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from functools import cache

from coldwater.tui.widgets.log import LogEntry

SEARCH_LEVELS = frozenset({"normal", "hard"})
"""The bots that search (core/bots.py: a SearchBot per level)."""

BAR = 20
"""Cells in the progress bar."""


@cache
def decision_cap() -> float:
    """Seconds a search bot gives one decision at most (SearchBot's ``max_seconds``)."""
    from coldwater.core.search import SearchBot

    default = inspect.signature(SearchBot.__init__).parameters["max_seconds"].default
    return float(default) if isinstance(default, (int, float)) else 2.0


def so_far(entries: Sequence[LogEntry], who: str) -> list[str]:
    """The moves `who` made in the turn the log is in now (its latest turn), oldest first."""
    out: list[str] = []
    turn = None
    for entry in reversed(entries):
        if entry.kind not in ("move", "chance"):
            continue
        if turn is None:
            turn = entry.turn
        if entry.turn != turn:
            break
        if entry.kind == "move" and entry.who == who:
            text = entry.text[len(who) :].lstrip(" :") if entry.text.startswith(who) else entry.text
            out.append(text)
    return out[::-1]


def bar(fraction: float, cells: int = BAR) -> str:
    """A bar of `cells` cells, `fraction` of it full: "█" and "░" (not colour: NO_COLOR reads it)."""
    full = max(0, min(cells, round(fraction * cells)))
    return "█" * full + "░" * (cells - full)


def watching(who: str, level: str | None, entries: Sequence[LogEntry], on_move: float, *, last: int = 2) -> str:
    """The lines under the empty list while `who` thinks: for a search bot the bar of the
    decision it is on (`on_move` seconds into it) first, then its moves so far this turn
    (the `last` latest; "…" before them when there were more: the full log has all)."""
    lines: list[str] = []
    if level in SEARCH_LEVELS:
        cap = decision_cap()
        fraction = min(1.0, on_move / cap)
        lines.append(f"{bar(fraction, 12)} {round(fraction * 100)}% of its {cap:g} s")
    done = so_far(entries, who)
    shown = "; ".join(done[-last:])
    more = "…; " if len(done) > last else ""
    lines.append(f"This turn: {more}{shown}" if done else "Its turn has just begun.")
    return "\n".join(lines)
