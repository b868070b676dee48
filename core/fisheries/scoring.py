"""Game End: preservation card values, helm icons on cards, and islands reached.

Each island where one of your ships is docked scores 1 point per helm printed on
it. Ties: most fish left on your player board, then the player who took the
initiative card (ended first) on the final day.
"""

from __future__ import annotations

from coldwater.core.state import Scores

from .model import Ctx, Data

CATEGORIES = ("preservation cards", "helm icons", "islands", "fish left (tie-break, not points)")


def breakdown(ctx: Ctx, d: Data, seat: int) -> tuple[int, int, int]:
    cards = sum(ctx.cards[c].vp for c in d.earned[seat])
    helm = sum(ctx.cards[c].action.amount for c in d.earned[seat] if ctx.cards[c].action.kind == "helm")
    islands = sum(ctx.helms[d.terrain[s]] for s in d.ships[seat] if s >= 0 and d.terrain[s] in ctx.helms)
    return cards, helm, islands


def scores(ctx: Ctx, d: Data) -> Scores:
    rows = []
    totals = []
    fish = [sum(d.catch[s]) for s in (0, 1)]
    for seat in (0, 1):
        cards, helm, islands = breakdown(ctx, d, seat)
        rows.append((cards, helm, islands, fish[seat]))
        totals.append(cards + helm + islands)
    final = d.phase == "over"
    init = d.took_initiative if final else -1

    def key(s: int) -> tuple[int, int, int, int]:
        return (-totals[s], -fish[s], 0 if s == init else 1, s)

    ranking = tuple(sorted((0, 1), key=key))
    outcome = ""
    if final:
        w, lo = ranking
        why = ""
        if totals[w] == totals[lo]:
            why = (
                " on fish left (tie-break)"
                if fish[w] != fish[lo]
                else " as the last day's initiative holder (tie-break)"
            )
        outcome = f"Seat {w + 1} wins {totals[w]}-{totals[lo]}{why}"
    return Scores(("Seat 1", "Seat 2"), CATEGORIES, tuple(rows), tuple(totals), ranking, final, outcome)
