"""Buy (coins) and Conquer (power) a Location from either row.

The Location goes to an empty slot of the player's board (5 slots), first
Depth showing. A top-row Location costs 1 less power to conquer (not less coins
to buy). Slots emptied in the rows are refilled only by Scouting.
"""

from __future__ import annotations

from . import payment
from .actions import AqAction, Buy, Conquer
from .content import Deck
from .model import BOARD_SLOTS, LOC_TYPES, AqData, Loc, Pay
from .raise_ import check_risen


def price(d: AqData, k: Deck, loc_id: int, conquer: bool) -> int:
    if not conquer:
        return k.loc_coins[loc_id]
    return max(0, k.loc_power[loc_id] - (1 if loc_id in d.loc_top else 0))


def offered(d: AqData) -> list[int]:
    return d.loc_top + d.loc_bottom


def options(d: AqData, k: Deck, conquer: bool) -> list[AqAction]:
    if len(d.ps[d.turn].board) >= BOARD_SLOTS:
        return []
    out: list[AqAction] = []
    if conquer:
        have_by_type: dict[int, int] = {}
        for loc_id in offered(d):
            t = k.loc_type[loc_id]
            if t not in have_by_type:
                have_by_type[t] = payment.achievable(d, k, "p", t)
            if price(d, k, loc_id, True) <= have_by_type[t]:
                out.append(Conquer(loc_id))
    else:
        have = payment.achievable(d, k, "c")
        out = [Buy(loc_id) for loc_id in offered(d) if price(d, k, loc_id, False) <= have]
    return out


def choose(d: AqData, k: Deck, loc_id: int, conquer: bool) -> None:
    lt = LOC_TYPES[k.loc_type[loc_id]]
    payment.start(d, Pay("loc", loc_id, "p" if conquer else "c", price(d, k, loc_id, conquer), lt if conquer else ""))


def take(d: AqData, k: Deck, loc_id: int) -> None:
    if loc_id in d.loc_top:
        d.loc_top.remove(loc_id)
    else:
        d.loc_bottom.remove(loc_id)
    loc = Loc(loc_id)
    d.ps[d.turn].board.append(loc)
    check_risen(d, k, d.turn, loc)  # a Location with no Depths arrives fully risen
