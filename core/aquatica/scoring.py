"""Final scoring and tie-breaks.

1 PP per Character in hand (the King included), the PP of the goal spots held,
the PP of the Locations in the Scoring Pile, and (Tribes module) the Tribes'
PP. Locations still on boards score nothing. Ties: most Mantas still available
to use (ready, not placed), then the lowest-numbered King, then the latest in
turn order. Solo: a title by PP (base) or win/loss by level (Tribes Solo).
"""

from __future__ import annotations

from coldwater.core.state import Scores

from . import goals, mantas, solo, tribes, tribes_solo
from .content import Deck
from .model import AqData

CATEGORIES = ("Characters", "Goals", "Scoring Pile", "Tribes")


def row(d: AqData, k: Deck, seat: int) -> tuple[int, ...]:
    p = d.ps[seat]
    hand = len(p.hand) + (1 if d.playing >= 0 and d.turn == seat else 0)
    pile = sum(k.loc_pp[x] for x in p.scored if x >= 0)
    g = goals.points(d, k, seat) if d.module == "goals" else 0
    t = tribes.pp(d, k, seat) if d.module == "tribes" else 0
    return (hand, g, pile, t)


def tiebreak_key(d: AqData, seat: int, total: int) -> tuple[int, int, int, int]:
    king = d.ps[seat].king or 99
    return (-total, -mantas.available(d, seat), king, -seat)


def scores(d: AqData, k: Deck) -> Scores:
    rows = tuple(row(d, k, s) for s in range(d.players))
    totals = tuple(sum(r) for r in rows)
    ranking = tuple(sorted(range(d.players), key=lambda s: tiebreak_key(d, s, totals[s])))
    final = d.phase == "over"
    labels = tuple(f"Seat {s + 1}" for s in range(d.players))
    outcome = ""
    notes: tuple[str, ...] = ()
    if d.players == 1:
        if d.solo_level:
            name = tribes_solo.LEVELS[d.solo_level]
            got = len(d.ps[0].tribes)
            won = tribes_solo.all_recruited(d)
            outcome = f"Tribes Solo level {d.solo_level} ({name}): " + (
                "won, every Tribe recruited" if won else f"lost, {got} of {len(d.tribes)} Tribes recruited"
            )
            if d.solo_level == 6:
                outcome += f"; {totals[0]} PP"
        else:
            outcome = f"{totals[0]} PP: {solo.title(totals[0])}"
    elif final:
        w = ranking[0]
        outcome = f"Seat {w + 1} wins with {totals[w]} PP"
        if totals[ranking[1]] == totals[w]:
            a, b = tiebreak_key(d, w, 0), tiebreak_key(d, ranking[1], 0)
            why = (
                "more Mantas available" if a[1] != b[1] else ("a lower King" if a[2] != b[2] else "later in turn order")
            )
            outcome += f" (tie broken: {why})"
            notes = (why,)
    return Scores(
        labels,
        CATEGORIES,
        rows,
        totals,
        ranking,
        final,
        outcome=outcome if final or d.players == 1 else "",
        notes=notes,
    )
