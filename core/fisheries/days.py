"""Days and turns: Phase I (take ocean tiles), Phase II (add time), turn order.

Phase I flips a chart card (a chance draw from the cards not yet flipped) and
both players take its tiles from the general supply. If the supply has run out
of a shape, the first player of the day takes first and the other goes without
(the rulebook is silent; the stand-in piles never run out).
Phase II: the first player adds ``time_first`` hours, the other ``time_second``,
capped at ``time_max``. The initiative card goes back to the supply.
"""

from __future__ import annotations

from .actions import Flip
from .model import Ctx, Data
from .setup import take_tile


def flip_outcomes(d: Data) -> list[tuple[Flip, int]]:
    return [(Flip(k), 1) for k in d.chart_deck]


def add_time(ctx: Ctx, d: Data, seat: int, hours: int) -> None:
    d.time[seat] = min(ctx.content.time_max, d.time[seat] + hours)


def apply_flip(ctx: Ctx, d: Data, card: str) -> None:
    d.chart_deck.remove(card)
    d.chart_card = card
    d.day += 1
    first = d.first
    for seat in (first, 1 - first):
        for t in ctx.charts[card]:
            take_tile(ctx, d, seat, t)
    add_time(ctx, d, first, ctx.content.time_first)
    add_time(ctx, d, 1 - first, ctx.content.time_second)
    d.initiative = -1
    d.took_initiative = -1
    d.ended = [False, False]
    d.preserved = [False, False]
    begin_turn(d, first)


def begin_turn(d: Data, seat: int) -> None:
    d.turn = seat
    d.phase = "turn"
    d.double = False


def pass_turn(d: Data) -> None:
    """The next player acts; once one has ended the day the other keeps acting."""
    p = d.turn
    o = 1 - p
    begin_turn(d, o if not d.ended[o] else p)
