"""Paying during the Main Action: coins for Characters, Locations and Tribes,
power for Conquering.

Coins and power gained during a Main Action last until it ends; leftovers are
lost. When a price is more than the pool, the player adds sources one at a time
(flip a Manta, exploit a resource Depth, use a type I Tribe, or — for a Tribe —
discard a Scoring-Pile Location): each must pay something toward what is still
owed (a source whose output would be wholly wasted may not be used); the last
one may overpay. A target is only offered if it can be paid in full.
"""

from __future__ import annotations

from . import depths, mantas
from .actions import AqAction, Exploit, Flip, Spend, UseTribe
from .content import Deck
from .model import LOC_TYPES, AqData, Pay
from .raise_ import find
from .tribe_cards import ongoing_resource, use_ongoing_resource


def pool(d: AqData, res: str, ltype: int) -> int:
    if res == "c":
        return d.coins
    return d.power + (d.tpower[ltype] if ltype >= 0 else 0)


def spend_value(d: AqData, k: Deck, loc_id: int) -> int:
    """Coins a Scoring-Pile Location is worth toward a Tribe (Tribes Solo 4: 1)."""
    return 1 if d.solo_level == 4 else k.loc_pp[loc_id]


def can_spend(d: AqData) -> bool:
    return d.solo_level < 5


def sources(d: AqData, k: Deck, res: str, ltype: int, tribe: bool) -> list[tuple[AqAction, int]]:
    """Every source the current player could add now, with what it pays."""
    seat = d.turn
    p = d.ps[seat]
    out: list[tuple[AqAction, int]] = []
    for i, m in enumerate(p.mantas):
        v = mantas.resource_of(k, m, res, ltype)
        if v:
            out.append((Flip(i), v))
    for loc in p.board:
        v = depths.resource_of(k, loc, res, ltype)
        if v:
            out.append((Exploit(loc.id), v))
    for t in p.tribes:
        v = ongoing_resource(d, k, seat, t, res, ltype)
        if v:
            out.append((UseTribe(t), v))
    if tribe and res == "c" and can_spend(d):
        for loc_id in sorted(set(p.scored)):
            v = spend_value(d, k, loc_id)
            if v:
                out.append((Spend(loc_id), v))
    return out


def achievable(d: AqData, k: Deck, res: str, ltype: int = -1, tribe: bool = False) -> int:
    return pool(d, res, ltype) + sum(v for _, v in sources(d, k, res, ltype, tribe))


def start(d: AqData, pay: Pay) -> None:
    d.pay = pay


def options(d: AqData, k: Deck) -> list[AqAction]:
    pay = d.pay
    assert pay is not None
    return [a for a, _ in sources(d, k, pay.res, ltype_index(pay), pay.what == "tribe")]


def ltype_index(pay: Pay) -> int:
    """The location type `pay` is limited to as its index in LOC_TYPES, as `pool` and `sources` take it; -1: any."""
    return LOC_TYPES.index(pay.ltype) if pay.ltype else -1


def add_source(d: AqData, k: Deck, a: AqAction) -> None:
    """Apply one payment source (already known legal)."""
    pay = d.pay
    assert pay is not None
    seat = d.turn
    p = d.ps[seat]
    if isinstance(a, Flip):
        m = p.mantas[a.manta]
        e = mantas.effect(k, m)
        m.ready = False
        _gain(d, e.op, e.n, LOC_TYPES.index(e.t) if e.t else -1)
    elif isinstance(a, Exploit):
        loc = find(d, seat, a.loc)
        assert loc is not None
        loc.used = True
        e = depths.exploit(d, k, seat, loc)
        _gain(d, e.op, e.n, LOC_TYPES.index(e.t) if e.t else -1)
    elif isinstance(a, UseTribe):
        op, n, t = use_ongoing_resource(d, k, seat, a.tribe)
        _gain(d, op, n, t)
    elif isinstance(a, Spend):
        p.scored.remove(a.loc)
        d.loc_discard.append(a.loc)  # lost forever
        d.coins += spend_value(d, k, a.loc)


def _gain(d: AqData, op: str, n: int, t: int) -> None:
    if op == "coins":
        d.coins += n
    elif op == "power":
        d.power += n
    elif op == "tpower":
        d.tpower[t] += n


def settled(d: AqData) -> bool:
    pay = d.pay
    assert pay is not None
    return pool(d, pay.res, ltype_index(pay)) >= pay.cost


def deduct(d: AqData) -> Pay:
    """Deduct the price (typed power first) and end the payment; the caller hands
    over what was bought (main_action.settle), so paying depends on nothing bought."""
    pay = d.pay
    assert pay is not None
    d.pay = None
    lt = ltype_index(pay)
    if pay.res == "c":
        d.coins -= pay.cost
    else:
        typed = min(d.tpower[lt], pay.cost) if lt >= 0 else 0
        if typed:
            d.tpower[lt] -= typed
        d.power -= pay.cost - typed
    return pay
