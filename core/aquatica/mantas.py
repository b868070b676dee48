"""Mantas: Trained (4 per player, the same effects) and Wild (from the supply).

A ready Manta may be flipped any number of times a turn (once until readied):
its resource only while paying (anything else would be wholly wasted), its
effect before or after the Main Action. Placed Mantas (goal tracks, Tribes)
are retired for good.
"""

from __future__ import annotations

from .content import Deck
from .depths import k_type
from .model import AqData, Eff, Manta


def effect(k: Deck, m: Manta) -> Eff:
    return k.trained[m.kind] if m.wild < 0 else k.wild[m.wild]


def usable(m: Manta) -> bool:
    return m.ready and not m.placed


def ready_all(d: AqData, seat: int) -> None:
    for m in d.ps[seat].mantas:
        if not m.placed:
            m.ready = True


def gain_wild(d: AqData, seat: int, wild_id: int) -> None:
    d.wild_supply.remove(wild_id)
    d.ps[seat].mantas.append(Manta(wild=wild_id, kind=0, ready=True))


def wild_count(d: AqData, seat: int) -> int:
    return sum(m.wild >= 0 for m in d.ps[seat].mantas)


def available(d: AqData, seat: int) -> int:
    """Mantas still available to use (the first tie-break)."""
    return sum(usable(m) for m in d.ps[seat].mantas)


def resource_of(k: Deck, m: Manta, res: str, ltype: int) -> int:
    if not usable(m):
        return 0
    e = effect(k, m)
    if res == "c" and e.op == "coins":
        return e.n
    if res == "p" and e.op == "power":
        return e.n
    if res == "p" and e.op == "tpower" and ltype >= 0:
        return e.n if k_type(e.t) == ltype else 0
    return 0
