"""Delayed Effects (Cold Waters).

A Character's Delayed Effect is active while it is the top card of its owner's
discard pile, even if an opponent's effect put it there. It resolves before the
owner's next Main Action: when they play their next Character, first. Once any
card covers it, it is off.
"""

from __future__ import annotations

from .content import Deck
from .model import AqData, Eff


def pending(d: AqData, k: Deck, seat: int) -> tuple[Eff, ...]:
    pile = d.ps[seat].discard
    if not pile or pile[-1] < 0:
        return ()
    return k.char_delayed[pile[-1]]
