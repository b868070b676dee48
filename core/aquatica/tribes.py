"""The Tribes module (Cold Waters).

- A Recruit effect may recruit a Tribe from the Tribe board instead of a
  Character (that Recruit then recruits no Character).
- Cost: the Tribe's base cost + 1 per Manta other players already placed on it.
- Paid like a Location bought (coins, with the same sources), and also by
  discarding Locations from your Scoring Pile, each worth its PP in coins (lost
  for good). Tribes Solo 4: each is worth 1; Tribes Solo 5+: not allowed.
- Place one of your Trained Mantas on it (retired). Tribes Solo 1-2: or flip the
  card instead (no bonus); 3+: a Trained or a Wild Manta, no flipping.
- Type I: an ongoing bonus usable once in each of your turns, and fixed PP.
  Type II: an instant bonus resolved at once, and PP by a condition.
- Each Tribe at most once per player.
"""

from __future__ import annotations

from . import payment
from .actions import AqAction, Place
from .content import Deck
from .mantas import wild_count
from .model import LOC_TYPES, AqData, Frame, Pay
from .tribe_cards import spec as spec


def cost(d: AqData, k: Deck, t: int, seat: int) -> int:
    i = d.tribes.index(t)
    return spec(k, t).cost + sum(1 for s in d.tribe_mantas[i] if s != seat)


def place_options(d: AqData, seat: int) -> list[AqAction]:
    p = d.ps[seat]
    wild_ok = d.solo_level >= 3
    out: list[AqAction] = [Place(i) for i, m in enumerate(p.mantas) if not m.placed and (m.wild < 0 or wild_ok)]
    if d.solo_level in (1, 2):
        out.append(Place(-1))
    return out


def recruitable(d: AqData, k: Deck, seat: int) -> list[int]:
    if d.module != "tribes":
        return []
    p = d.ps[seat]
    if not place_options(d, seat):
        return []
    out = []
    have = -1
    for t in d.tribes:
        if t in p.tribes:
            continue
        if have < 0:
            have = payment.achievable(d, k, "c", tribe=True)
        if cost(d, k, t, seat) <= have:
            out.append(t)
    return out


def choose(d: AqData, k: Deck, t: int) -> None:
    payment.start(d, Pay("tribe", t, "c", cost(d, k, t, d.turn)))


def paid(d: AqData, k: Deck, t: int) -> None:
    d.placing = t


def place(d: AqData, k: Deck, manta: int) -> None:
    seat = d.turn
    p = d.ps[seat]
    t = d.placing
    d.placing = -1
    p.tribes.append(t)
    if manta < 0:
        p.flipped.append(t)
        return
    p.mantas[manta].placed = True
    d.tribe_mantas[d.tribes.index(t)].append(seat)
    sp = spec(k, t)
    if sp.tier == 2:
        d.stack.append(Frame(list(sp.instant), label=sp.name))


def use_effect(d: AqData, k: Deck, seat: int, t: int) -> None:
    d.ps[seat].tribe_used.append(t)
    e = spec(k, t).ongoing
    assert e is not None
    d.stack.append(Frame([e], label=spec(k, t).name))


def pp(d: AqData, k: Deck, seat: int) -> int:
    """End-game PP of this seat's Tribes (a flipped Tribe card gives none)."""
    p = d.ps[seat]
    total = 0
    for t in p.tribes:
        if t in p.flipped:
            continue
        sp = spec(k, t)
        if sp.tier == 1:
            total += sp.pp
            continue
        per = sp.pp_per
        assert per is not None
        w = per.what
        if w == "wild":
            n = wild_count(d, seat)
        elif w.startswith("type:"):
            ti = LOC_TYPES.index(w[5:])
            n = sum(1 for x in p.scored if k.loc_type[x] == ti)
        elif w == "hand":
            n = len(p.hand)
        elif w == "tribes":
            n = len(p.tribes) - len(p.flipped)
        elif w == "scored":
            n = len(p.scored)
        elif w == "big":
            n = sum(1 for x in p.scored if k.loc_pp[x] >= 5)
        elif w == "risen":
            n = sum(1 for loc in p.board if loc.risen)
        else:  # mantas
            n = sum(1 for m in p.mantas if not m.placed)
        v = (n // per.every) * per.pp
        total += min(v, per.max) if per.max else v
    return total
