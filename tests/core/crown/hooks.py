"""Coldwater Crown's own checks for the generic contract test (tests/core/test_contract.py).

`CASES` are the player counts and options random play covers; `conservation`
counts every component; `secrets` says what a view must hide.
"""

from __future__ import annotations

from typing import Any

import msgspec

from coldwater.core.crown.game import GAME
from coldwater.core.crown.model import TACKLE_COUNTS, CrownData
from coldwater.core.crown.setup import contest_stack

CASES: list[tuple[int, dict[str, Any] | None]] = [(1, None), (2, None), (3, None), (4, None), (2, {"no_tags": True})]
T = GAME.tables
_TR = T.content.trophies
_START = {
    n: {
        k: sorted(
            contest_stack(getattr(_TR, k), n)
            if k in ("small_species", "fastest_to_8", "shore", "lake", "river")
            else getattr(_TR, k)
        )
        for k in (
            "first_to_12",
            "three_same",
            "four_different",
            "small_species",
            "fastest_to_8",
            "shore",
            "lake",
            "river",
        )
    }
    for n in (2, 3, 4)
}
_MW = sorted(_TR.mystery_weight)
_CARDS = list(range(1, 61))
_TACKLE = sorted(k for k, n in TACKLE_COUNTS.items() for _ in range(n))
_MAS = list(range(1, 31))


def conservation(d: CrownData) -> None:
    """Every bait, fish card, tackle piece, Master Angler card, trophy and token is somewhere, once."""
    bait = sum(d.bag) + sum(d.discard) + sum(d.box) + 1 + d.route_left  # clear-white; cast bait in hand
    for p in d.parties:
        z3, z4, z5, z6 = p.zones
        bait += sum(z3) + sum(z4) + sum(z5) + sum(z6) + sum(len(m.filled) for m in p.ma)
        assert min(min(z3), min(z4), min(z5), min(z6)) >= 0
    assert bait == 97, bait
    assert min(d.bag) >= 0 and min(d.discard) >= 0 and min(d.box) >= 0
    assert not (d.white_in_bag and d.white_aside)
    fish = [f for row in d.zones for f in row if f is not None] + [f for f in d.tops if f is not None]
    fish += [f for deck in d.decks for f in deck] + d.thrown
    for p in d.parties:
        fish += p.fish + p.submitted
    assert len(fish) == 60
    cards = [f.card for f in fish]
    if None not in cards:
        assert sorted(cards) == _CARDS  # type: ignore[type-var]
        sp = T.species_of
        assert [sp[c] for c in cards] == [f.species for f in fish]  # type: ignore[index]
    held = [t.kind for p in d.parties for t in p.tackle]
    assert len(d.tackle_stack) + len(d.tackle_discard) + len(held) == 15
    kinds = list(d.tackle_stack) + list(d.tackle_discard) + held
    if None not in kinds:
        assert sorted(kinds) == _TACKLE  # type: ignore[type-var]
    ma = d.ma_row + d.ma_deck + [m.card for p in d.parties for m in p.ma] + [c for p in d.parties for c in p.ma_done]
    assert sorted(ma) == _MAS
    assert max(len(p.ma) for p in d.parties) <= 3
    # Trophies: every one is in its stack or with exactly one party (at most one of a kind each).
    won: dict[str, list[int]] = {}
    mw = list(d.mw_stack) + ([d.mw_top] if d.mw_top is not None else [])
    for p in d.parties:
        seen = set()
        for t in p.trophies:
            if t.kind == "mystery_weight":
                mw.append(t.weight)
                continue
            assert t.kind not in seen, t.kind
            seen.add(t.kind)
            won.setdefault(t.kind, []).append(t.points)
    for kind, start in _START[2 if d.players == 1 else d.players].items():
        assert sorted(getattr(d.stacks, kind) + won.get(kind, [])) == start, kind
    assert sorted(mw) == _MW
    # Angler tokens: 3 on the board plus one per player (in hand, on the board, or just removed).
    limbo = 1 if d.removed and d.parties[d.turn].token == 0 and not d.parties[d.turn].silent else 0
    hands = sum(1 for p in d.parties if p.token)
    assert sum(1 for t in d.tokens if t) + hands + limbo == 3 + d.players, (d.tokens, hands, limbo)


def secrets(s: Any, v: Any, seat: int | None) -> None:
    """What `seat`'s view must hide: fish cards in decks and on the board, others' weights and tackle."""
    # Check what leaves the process: the encoded bytes, decoded afresh.
    d = msgspec.msgpack.decode(v.encode(), type=CrownData)
    over = d.phase == "over"
    for row in d.zones:
        assert all(f is None or f.card is None for f in row)
    assert all(f is None or f.card is None for f in d.tops)
    assert all(f.card is None for deck in d.decks for f in deck)
    assert all(k is None for k in d.tackle_stack)
    for i, p in enumerate(d.parties):
        if i == seat or p.silent:
            assert p.fish == s.data.parties[i].fish
            continue
        if not over:
            assert all(f.card is None for f in p.fish if not f.shown)
        assert all(t.kind is None for t in p.tackle)
        assert p.picks == []
