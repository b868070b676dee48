"""Aquatica's own checks for the generic contract test (tests/test_contract.py)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from coldwater.core.aquatica.game import GAME
from coldwater.core.aquatica.model import OCEAN_BASE, STARTING_PER_SEAT, AqData

CASES: list[tuple[int, dict[str, Any] | None]] = [
    (1, None),
    (2, {"kings": "advanced", "variable_goals": True}),
    (3, None),
    (4, {"module": "tribes"}),
    (5, {"module": "tribes", "kings": "advanced"}),
    (1, {"module": "tribes", "solo_level": 6}),
]


def char_places(d: AqData) -> Counter[int]:
    c: Counter[int] = Counter()
    for lst in (d.char_deck, d.char_box, d.char_row, d.char_discard, d.king_pool, d.draft, d.king_box):
        c.update(lst)
    for p in d.ps:
        c.update(p.hand)
        c.update(p.discard)
    if d.playing >= 0:
        c[d.playing] += 1
    return c


def conservation(d: AqData) -> None:
    """Every Character, Location and Wild Manta is somewhere, once; placed Mantas are on tracks."""
    n_loc = len(GAME.deck.loc_name)
    chars = char_places(d)
    universe = list(range(STARTING_PER_SEAT * d.players)) + list(range(OCEAN_BASE, GAME.deck.n_chars))
    assert sorted(chars.elements()) == universe, "Characters not conserved"
    locs: Counter[int] = Counter()
    for lst in (d.loc_deck, d.loc_box, d.loc_top, d.loc_bottom, d.loc_discard):
        locs.update(lst)
    for p in d.ps:
        locs.update(loc.id for loc in p.board)
        locs.update(p.scored)
    assert sorted(locs.elements()) == list(range(n_loc)), "Locations not conserved"
    wild = list(d.wild_supply)
    for p in d.ps:
        assert sum(m.wild < 0 for m in p.mantas) == 4
        wild += [m.wild for m in p.mantas if m.wild >= 0]
        assert len(p.board) <= 5
    assert sorted(wild) == list(range(len(GAME.deck.wild))), "Wild Mantas not conserved"
    placed = sum(m.placed for p in d.ps for m in p.mantas)
    on_tracks = sum(1 for t in d.tracks for s in t if s < 9) + sum(len(t) for t in d.tribe_mantas)
    assert placed == on_tracks, "placed Mantas and Mantas on tracks/Tribes differ"
    assert d.coins >= 0 and d.power >= 0 and min(d.tpower) >= 0


def secrets(state: Any, v: Any, seat: int | None) -> None:
    """Others' hands (but for open starting cards), every deck, box and pool are sealed."""
    k = GAME.deck
    for s, p in enumerate(v.data.ps):
        if s != seat:
            assert all(c < 0 or k.seat_of_starting(c) >= 0 for c in p.hand), "a hidden hand leaked"
    assert all(c < 0 for c in v.data.char_deck + v.data.loc_deck + v.data.king_pool + v.data.tribe_pool)
    assert v.seed is None
