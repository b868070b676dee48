"""Recruit: take a Character from the row into hand, paying its slot's price.

Row prices, leftmost first: 0, 1, 2, 3, 4, 5 (the leftmost is free). The row
slides left and refills from the Character deck (a chance draw). A free Recruit
takes any Character without paying. In the Tribes module a Recruit may recruit
a Tribe instead (see ``tribes.py``).
"""

from __future__ import annotations

from . import payment, tribes
from .actions import AqAction, Recruit, RecruitTribe
from .content import Deck
from .model import AqData, Draw, Pay


def price(slot: int) -> int:
    return slot


def options(d: AqData, k: Deck, free: bool) -> list[AqAction]:
    out: list[AqAction] = []
    if free:
        out += [Recruit(i) for i in range(len(d.char_row))]
    else:
        have = payment.achievable(d, k, "c")
        out += [Recruit(i) for i in range(len(d.char_row)) if price(i) <= have]
        out += [RecruitTribe(t) for t in tribes.recruitable(d, k, d.turn)]
    return out


def choose(d: AqData, k: Deck, slot: int, free: bool) -> None:
    if free:
        take(d, k, slot, 0)
    else:
        payment.start(d, Pay("char", slot, "c", price(slot)))


def take(d: AqData, k: Deck, slot: int, paid: int) -> None:
    p = d.ps[d.turn]
    c = d.char_row.pop(slot)
    p.hand.append(c)
    p.recruited_cost = max(p.recruited_cost, paid)
    d.draws.append(Draw("cd", "crow"))
