"""Aquatica's own checks for the generic contract test (tests/core/test_contract.py)."""

from __future__ import annotations

from functools import cache
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


def char_ids(d: AqData) -> list[int]:
    """Every Character id in every place it can be, repeats and all."""
    ids = [*d.char_deck, *d.char_box, *d.char_row, *d.char_discard, *d.king_pool, *d.draft, *d.king_box]
    for p in d.ps:
        ids += p.hand
        ids += p.discard
    if d.playing >= 0:
        ids.append(d.playing)
    return ids


@cache
def _char_universe(players: int) -> list[int]:
    return list(range(STARTING_PER_SEAT * players)) + list(range(OCEAN_BASE, GAME.deck.n_chars))


def conservation(d: AqData) -> None:
    """Every Character, Location and Wild Manta is somewhere, once; placed Mantas are on tracks.

    Called at every position of many whole games, so it compares sorted id lists (a
    Counter per place cost the contract run a third of its time)."""
    assert sorted(char_ids(d)) == _char_universe(d.players), "Characters not conserved"
    locs = [*d.loc_deck, *d.loc_box, *d.loc_top, *d.loc_bottom, *d.loc_discard]
    for p in d.ps:
        locs += [loc.id for loc in p.board]
        locs += p.scored
    assert sorted(locs) == list(range(len(GAME.deck.loc_name))), "Locations not conserved"
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
