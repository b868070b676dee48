"""A Tribe card's text and its ongoing resource bonus, read by payments and Tribes.

Kept apart from tribes.py so that paying (payment.py), which may draw on a
Tribe's ongoing coins or power, does not depend on recruiting Tribes, which
starts payments.
"""

from __future__ import annotations

from .content import Deck
from .model import LOC_TYPES, AqData, TribeSpec


def spec(k: Deck, t: int) -> TribeSpec:
    return k.content.tribes.tribes[t]


def active(d: AqData, k: Deck, seat: int, t: int) -> bool:
    p = d.ps[seat]
    return t in p.tribes and t not in p.flipped and t not in p.tribe_used and spec(k, t).tier == 1


def ongoing_resource(d: AqData, k: Deck, seat: int, t: int, res: str, ltype: int) -> int:
    if not active(d, k, seat, t):
        return 0
    e = spec(k, t).ongoing
    assert e is not None
    if res == "c" and e.op == "coins":
        return e.n
    if res == "p" and e.op == "power":
        return e.n
    if res == "p" and e.op == "tpower" and ltype >= 0 and LOC_TYPES.index(e.t) == ltype:
        return e.n
    return 0


def use_ongoing_resource(d: AqData, k: Deck, seat: int, t: int) -> tuple[str, int, int]:
    d.ps[seat].tribe_used.append(t)
    e = spec(k, t).ongoing
    assert e is not None
    return e.op, e.n, LOC_TYPES.index(e.t) if e.t else -1
