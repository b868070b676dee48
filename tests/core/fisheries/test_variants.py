"""Variant setup (B side) and the preservation-market variant."""

from __future__ import annotations

import pytest

from coldwater.core.errors import IllegalAction
from coldwater.core.fisheries.actions import Preserve, Put
from coldwater.core.state import CHANCE

from .helpers import CTX, G, play, rebuild, settle


def _b(seed: int = 0):
    s = settle(G.new(2, seed=seed, options={"board": "B"}))
    assert s.data.phase == "place"
    return s


def test_b_side_starts_bare_and_the_non_starting_player_places_first() -> None:
    s = _b()
    d = s.data
    assert not any(t in "F^abc" for t in d.terrain)
    assert s.current == 1 - d.initiative
    assert sorted({a.piece for a in s.legal()}) == ["a", "b", "c"]  # islands come first
    first = s.current
    play(s, "put c k4")
    assert s.current == 1 - first and s.data.terrain[CTX.by_name["k4"]] == "c"


def test_b_side_keeps_the_first_two_columns_clear() -> None:
    s = _b()
    assert all(CTX.col(CTX.by_name[a.cell]) >= 2 for a in s.legal())
    with pytest.raises(IllegalAction, match="keep the first 2 columns clear"):
        s.apply(Put("a", "b4"))


def test_b_side_islands_must_stay_reachable_and_leave_room_for_fish() -> None:
    s = _b()
    play(s, "put a e1", "put a d2")
    assert "reach" in s.why_illegal(Put("b", "d1"))  # d1 would be walled in by shore and islands
    assert not s.is_legal(Put("b", "d1"))
    t = _b(1)
    play(t, "put a c3", "put a c4", "put b c5")
    # An island on c6 would close the only way out of the first two columns.
    assert not t.is_legal(Put("b", "c6"))


def test_b_side_full_setup_then_fish_are_drawn_onto_the_chosen_spaces() -> None:
    s = _b(2)
    kinds = []
    while s.data.phase == "place":
        a = s.legal()[len(s.legal()) // 2]
        kinds.append(a.piece)
        play(s, str(a))
    assert sorted(kinds[:6]) == sorted(CTX.content.variant_islands)
    assert kinds.count("rough") == 6 and kinds.count("fish") == 24 and kinds[6:12] == ["rough"] * 6
    t = s.data.terrain
    assert t.count("^") == 6 and t.count("F") == 24 and sum(t.count(x) for x in "abc") == 6
    assert s.data.day == 1 and all(s.data.fish[i] for i, ch in enumerate(t) if ch == "F")


def test_market_row_of_five_refilled_by_chance() -> None:
    s = settle(G.new(2, seed=3, options={"market": True}))
    d = s.data
    assert d.stacks == [] and len([c for c in d.row if c]) == 5 and len(d.pile) == 9
    row = [c for c in d.row if c]
    # Give the seat to move fish of every colour so every card in the row is affordable.
    d.catch[d.turn] = [3, 3, 3, 3]
    s = rebuild(s)
    offered = {a.card for a in s.legal() if isinstance(a, Preserve)}
    assert offered == set(row)
    card = sorted(offered)[0]
    pay = next(a for a in s.legal() if isinstance(a, Preserve) and a.card == card)
    s.apply(pay)
    assert s.current == CHANCE and sorted(a.card for a, _ in s.chance_outcomes()) == sorted(d.pile)
    s.apply(s.sample_chance())
    assert len([c for c in s.data.row if c]) == 5 and len(s.data.pile) == 8 and card not in s.data.row


def test_market_slot_stays_empty_when_the_pile_is_gone() -> None:
    s = settle(G.new(2, seed=3, options={"market": True}))
    s.data.earned[0] = list(s.data.pile)
    s.data.pile = []
    s.data.catch[s.data.turn] = [3, 3, 3, 3]
    s = rebuild(s)
    a = next(a for a in s.legal() if isinstance(a, Preserve))
    s.apply(a)
    assert s.current != CHANCE and None in s.data.row


def test_b_side_fast_island_check_agrees_with_a_full_search() -> None:
    from coldwater.core.fisheries import variant_setup as v
    from coldwater.core.rng import Rng

    refused = 0
    for seed in range(12):
        s = _b(seed)
        rng = Rng(seed)
        while s.data.phase == "place" and s.data.to_place[0] not in ("rough", "fish"):
            d = s.data
            comp = v._component(CTX, d.terrain)
            fish_left = d.to_place.count("fish")
            comp_free = sum(1 for c in comp if v._free(CTX, d, c))
            free = sum(1 for c in range(CTX.n) if v._free(CTX, d, c))
            for c in range(CTX.n):
                if v._free(CTX, d, c):
                    t2 = d.terrain[:c] + "a" + d.terrain[c + 1 :]
                    full = v._all_reachable(CTX, t2) and v._room(CTX, t2, d)
                    assert v._island_ok(CTX, d, c, comp, comp_free, free, fish_left) == full
                    refused += not full
            # Crowd the islands near the shore, where cuts happen.
            near = [a for a in s.legal() if CTX.col(CTX.by_name[a.cell]) <= 3 + seed % 3] or s.legal()
            play(s, str(rng.choice(near)))
    assert refused > 0
