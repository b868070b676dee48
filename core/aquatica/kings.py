"""Kings.

- basic: King 1 to the first player, King 2 to the second, and so on.
- advanced: players+1 Kings are drawn face down; the last player in turn order
  picks first, then counter-clockwise (seat N-1, N-2, ..., 0); the leftover is
  boxed. The Kings being passed are seen only by the seat picking.
- solo: draw 3 Kings, keep 1.
A King goes to hand (it is a Character: playable, 1 PP at the end). Fancelot and
Herbert are discarded at setup for a bonus Wild Manta instead (the reading of
"a bonus Manta"). The number of the King a seat took breaks ties even then.
"""

from __future__ import annotations

from .actions import AqAction, PickKing
from .content import Deck
from .model import KING_BASE, AqData, Draw


def deal_basic(d: AqData, k: Deck) -> None:
    for seat in range(d.players):
        take(d, k, seat, seat + 1)


def queue_draft(d: AqData) -> None:
    n = 3 if d.players == 1 else d.players + 1
    d.draws += [Draw("king", "draft") for _ in range(n)]
    d.draft_order = [0] if d.players == 1 else list(range(d.players - 1, -1, -1))


def options(d: AqData) -> list[AqAction]:
    return [PickKing(c - KING_BASE + 1) for c in d.draft if c >= 0]


def pick(d: AqData, k: Deck, number: int) -> None:
    seat = d.draft_order.pop(0)
    d.draft.remove(k.king_id(number))
    take(d, k, seat, number)
    if not d.draft_order:
        d.king_box += d.draft
        d.draft = []


def take(d: AqData, k: Deck, seat: int, number: int) -> None:
    c = k.king_id(number)
    if c in d.king_pool:
        d.king_pool.remove(c)
    d.ps[seat].king = number
    if k.king_discard[c]:
        d.char_discard.append(c)
        d.draws.append(Draw("wild", "wild", seat))
    else:
        d.ps[seat].hand.append(c)
