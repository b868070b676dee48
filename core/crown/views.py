"""Sealed values: what each seat may see, and filling the blanks back in.

Known only to nobody: the card (weight, tag, time) of every fish on the board or
in a deck. Known to its owner: a caught fish's card (public once shown for a
Mystery Weight claim or submitted to a contest), a held tackle piece's kind,
contest picks until the contest resolves. The silent player's fish are public.
When the game is over everything is revealed.
"""

from __future__ import annotations

import msgspec

from coldwater.core.rng import Rng

from .content import Tables
from .contests import location, species_counts
from .model import TACKLE_COUNTS, CrownData, Fish, Pick

_enc = msgspec.msgpack.Encoder()
_dec = msgspec.msgpack.Decoder(CrownData)


def copy(d: CrownData) -> CrownData:
    return _dec.decode(_enc.encode(d))


def redact(d: CrownData, seat: int | None) -> CrownData:
    v = copy(d)
    over = v.phase == "over"
    for row in v.zones:
        for f in row:
            if f is not None:
                f.card = None
    for f in v.tops:
        if f is not None:
            f.card = None
    for deck in v.decks:
        for f in deck:
            f.card = None
        deck.sort(key=lambda f: f.species)
    v.tackle_stack = [None] * len(v.tackle_stack)
    if not over:
        for f in v.thrown:
            f.card = None
    for i, p in enumerate(v.parties):
        if p.silent or i == seat:
            continue
        if not over:
            for f in p.fish:
                if not f.shown:
                    f.card = None
        for t in p.tackle:
            t.kind = None
        p.picks = []
    return v


def _fish_slots(d: CrownData) -> list[Fish]:
    out: list[Fish] = []
    for row in d.zones:
        out += [f for f in row if f is not None]
    out += [f for f in d.tops if f is not None]
    for deck in d.decks:
        out += deck
    out += d.thrown
    for p in d.parties:
        out += p.fish + p.submitted
    return out


def determinize(v: CrownData, T: Tables, rng: Rng) -> CrownData:
    """A full position consistent with view `v`: same species, unseen cards only."""
    d = copy(v)
    slots = _fish_slots(d)
    known = {f.card for f in slots if f.card is not None}
    pools: dict[str, list[int]] = {}
    for c in range(1, len(T.weight)):
        if c not in known:
            pools.setdefault(T.species_of[c], []).append(c)
    for pool in pools.values():
        rng.shuffle(pool)
    for f in slots:
        if f.card is None:
            f.card = pools[f.species].pop()
    for deck in d.decks:
        deck.sort(key=lambda f: f.card or 0)
    # Tackle: the kinds not accounted for by the discard pile and known pieces.
    left = dict(TACKLE_COUNTS)
    for k in d.tackle_discard:
        left[k] -= 1
    blanks = []
    for p in d.parties:
        for t in p.tackle:
            if t.kind is None:
                blanks.append(t)
            else:
                left[t.kind] -= 1
    pool_t = [k for k, n in sorted(left.items()) for _ in range(max(n, 0))]
    rng.shuffle(pool_t)
    for t in blanks:
        t.kind = pool_t.pop()
    d.tackle_stack = sorted(pool_t[: len(d.tackle_stack)])  # type: ignore[assignment]
    # Other seats' secret contest picks: assume their heaviest fish.
    if d.phase == "submit":
        li = location(d)
        for p in d.parties:
            if p.picks_made and len(p.picks) < p.picks_made:
                multi = [sp for sp, n in species_counts(T, p, li).items() if n >= 2]
                p.picks = [Pick(sp, 1) for sp in multi[: p.picks_made]]
    return d
