"""Final scoring: trophies at face value, 1 point per completed Master Angler
card, 1 point per submitted fish tagged the Tag tile's colour (not with the
``no_tags`` option). Ties go to the earliest single timestamp submitted; in
Practice Pond you must exceed the silent player's score to win."""

from __future__ import annotations

from coldwater.core.state import Scores

from .content import Tables
from .model import TROPHY_KINDS, TROPHY_TITLES, CrownData, Player

CATEGORIES = tuple(TROPHY_TITLES[k] for k in TROPHY_KINDS) + ("Master Angler cards", "Tagged fish")
NO_TIME = 24 * 60


def tagged(d: CrownData, T: Tables, p: Player) -> int:
    if d.no_tags or d.tag is None:
        return 0
    return sum(1 for f in p.submitted if f.card is not None and T.tag[f.card] == d.tag)


def row(d: CrownData, T: Tables, p: Player) -> tuple[int, ...]:
    by_kind = {k: 0 for k in TROPHY_KINDS}
    for t in p.trophies:
        by_kind[t.kind] += t.points
    return tuple(by_kind[k] for k in TROPHY_KINDS) + (len(p.ma_done), tagged(d, T, p))


def earliest(T: Tables, p: Player) -> int:
    times = [T.time[f.card] for f in p.submitted if f.card is not None]
    return min(times) if times else NO_TIME


def clock(minutes: int) -> str:
    return f"{minutes // 60}:{minutes % 60:02d}"


def scores(d: CrownData, T: Tables) -> Scores:
    labels = tuple("Silent player" if p.silent else f"Seat {i + 1}" for i, p in enumerate(d.parties))
    rows = tuple(row(d, T, p) for p in d.parties)
    totals = tuple(sum(r) for r in rows)
    final = d.phase == "over"
    keys = [(-totals[i], earliest(T, p), i) for i, p in enumerate(d.parties)]
    ranking = tuple(sorted(range(len(d.parties)), key=lambda i: keys[i]))
    outcome = ""
    notes: list[str] = []
    if d.players == 1:
        you, silent = totals
        # "To win the game, your final score must exceed the silent player's score."
        ranking = (0, 1) if you > silent else (1, 0)
        if final:
            outcome = (
                f"You beat the silent player, {you} to {silent}"
                if you > silent
                else f"The silent player wins, {silent} to {you} (you must exceed its score)"
            )
    elif final:
        w = ranking[0]
        outcome = f"{labels[w]} is crowned champion with {totals[w]} points"
        tied = [i for i in ranking[1:] if totals[i] == totals[w]]
        if tied:
            t = earliest(T, d.parties[w])
            outcome += (
                f" (tie broken by the earliest timestamp, {clock(t)})"
                if t < NO_TIME
                else " (tie: nobody submitted a fish; seat order decides)"
            )
    if not final:
        notes.append("provisional: contests and tagged fish are scored at the end")
    if d.no_tags:
        notes.append("variant: tagged fish score nothing")
    return Scores(labels, CATEGORIES, rows, totals, ranking, final, outcome, tuple(notes))
