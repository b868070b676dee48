"""Setup A–L, Angler tokens and spaces, Port actions and the bait bag."""

from __future__ import annotations

import pytest

from coldwater.core.crown.actions import Bait, Fill, Place, Remove, Take
from coldwater.core.crown.model import COLOUR_INDEX, SPACE_INDEX, MAProgress
from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE

from .helpers import T, legal_text, play, refresh, set_zones, settle, started, tokens
from .hooks import conservation


@pytest.mark.parametrize("players,stack", [(4, [5, 4, 3, 2]), (3, [5, 3, 2]), (2, [5, 3]), (1, [5, 3])])
def test_setup_trophy_stacks_by_player_count(players: int, stack: list[int]) -> None:
    d = started(players).data
    for kind in ("fastest_to_8", "shore", "lake", "river"):
        assert getattr(d.stacks, kind) == stack
    if players == 1:
        # The silent player starts with the 5-point Small Species trophy.
        assert d.stacks.small_species == [3]
        assert [(t.kind, t.points) for t in d.parties[1].trophies] == [("small_species", 5)]
    else:
        assert d.stacks.small_species == stack
    assert d.stacks.three_same == [2, 2, 2, 2] and d.stacks.four_different == [2, 2, 2, 2]
    assert d.stacks.first_to_12 == [2]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_setup_board_bait_tackle_and_tokens(players: int) -> None:
    s = started(players, seed=f"setup{players}")
    d = s.data
    assert all(f is not None for row in d.zones for f in row)  # four fish at each location
    assert all(T.location_of[f.card] == li for li, row in enumerate(d.zones) for f in row)  # type: ignore[union-attr]
    assert all(t is not None for t in d.tops)  # each deck shows its top card's species
    assert len(d.ma_row) == 4 and len(d.ma_deck) == 26
    assert d.mw_top in T.mw_tiles and len(d.mw_stack) == 5
    assert d.tag in T.content.tag_colours
    for p in d.parties[:players]:
        assert [sum(z) for z in p.zones] == [3, 4, 0, 0]
        assert len(p.tackle) == 1 and not p.tackle[0].fresh
        assert p.token == 1
    assert d.tokens == [0, 0, 1, 0, 1, 1, 0]  # red, yellow and green, "1" showing
    assert d.white_in_bag and not d.white_aside  # L3: clear-white added after the Zones
    if players == 1:
        assert d.box == [7] * 6 and sum(d.discard) == 7 and sum(d.bag) == 54 - 7 - 7
    else:
        assert sum(d.discard) == 0 and sum(d.bag) == 96 - 7 * players
    assert s.current == 0 and d.step == 1
    conservation(d)


def test_setup_never_draws_the_clear_white_bait() -> None:
    from coldwater.core.crown.game import GAME

    s = GAME.new(2, seed="white")
    while s.current == CHANCE:
        outs = [str(a) for a, _ in s.chance_outcomes()]
        assert "bait white" not in outs
        s.apply(s.sample_chance())


def test_starting_tackle_is_hidden_from_other_seats() -> None:
    s = started(3)
    assert s.view(0).data.parties[0].tackle[0].kind is not None
    assert s.view(0).data.parties[1].tackle[0].kind is None
    assert s.view(None).data.parties[0].tackle[0].kind is None


def test_place_only_on_an_open_space_and_remove_another_token() -> None:
    s = started(2)
    with pytest.raises(IllegalAction, match="red space is occupied"):
        s.apply(Place("red"))
    assert legal_text(s)[:4] == ["place black", "place blue", "place port", "place purple"]
    play(s, "place blue")
    while s.data.step == 1:
        play(s, legal_text(s)[0])
        settle(s)
    with pytest.raises(IllegalAction, match="cannot remove the token you placed"):
        s.apply(Remove("blue"))
    with pytest.raises(IllegalAction, match="no Angler token on the purple space"):
        s.apply(Remove("purple"))
    assert {m for m in legal_text(s) if m.startswith("remove")} == {"remove green", "remove red", "remove yellow"}


def test_token_sides_one_and_two_and_the_flip() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {3: "red,red,blue", 4: "red,red,red,green"})
    tokens(s, red=2, yellow=1, green=1)
    refresh(s)
    play(s, "place port", "fill 5")
    settle(s)
    # Removing a "2" from red casts every red bait.
    play(s, "remove red")
    while d.phase == "route":
        play(s, "discard")
    assert [z[COLOUR_INDEX["red"]] for z in d.parties[0].zones] == [0, 0, d.parties[0].zones[2][1], 0]
    play(s, "end")
    assert d.parties[0].token == 1  # the removed "2" is flipped to "1"


def test_fishing_with_a_one_casts_one_bait_from_each_zone() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {3: "red,red,blue", 4: "red,red,red,green"})
    refresh(s)
    play(s, "place purple")  # no purple bait: nothing happens
    assert d.step == 2
    tokens(s, red=1, yellow=1, green=1, purple=1)
    refresh(s)
    play(s, "remove red")
    assert d.route_left == 2 or d.phase != "route"
    zones = d.parties[0].zones
    assert zones[0][COLOUR_INDEX["red"]] == 1 and zones[1][COLOUR_INDEX["red"]] == 2


def test_port_two_actions_and_zone_rules() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {3: "", 4: "red", 5: "", 6: ""})
    d.parties[0].token = 2
    refresh(s)
    play(s, "place port", "fill 3")
    settle(s)
    # A "2" may not fill the same Zone twice, nor a full Zone.
    with pytest.raises(IllegalAction, match="Zone 3 is already full"):
        s.apply(Fill(3))
    assert "fill 3" not in legal_text(s) and "fill 4" in legal_text(s)
    play(s, "fill 4")
    settle(s)
    assert [sum(z) for z in d.parties[0].zones] == [3, 4, 0, 0]
    assert d.step == 2


def test_port_fill_partially_filled_zone_only_tops_it_up() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {6: "red,red,blue,green"})
    refresh(s)
    play(s, "place port", "fill 6")
    n = 0
    while s.current == CHANCE:
        settle(s)
        n += 1
    assert sum(d.parties[0].zones[3]) == 6


def test_take_master_angler_from_row_refills_and_max_three() -> None:
    s = started(2)
    d = s.data
    d.parties[0].token = 2
    refresh(s)
    play(s, "place port")
    first = d.ma_row[0]
    play(s, f"take {first}")
    assert s.current == CHANCE  # the top card of the deck replaces it
    settle(s)
    assert len(d.ma_row) == 4 and first not in d.ma_row
    assert [m.card for m in d.parties[0].ma] == [first]
    play(s, "taketop")
    assert s.current == CHANCE  # which card is on top is a chance draw
    settle(s)
    assert len(d.parties[0].ma) == 2 and len(d.ma_row) == 4
    # Three cards in progress at most.
    p = d.parties[0]
    extra = d.ma_deck.pop()
    p.ma.append(MAProgress(extra, []))
    tokens(s, red=1, yellow=1, green=1, purple=2)
    d.placed = SPACE_INDEX["purple"]
    d.parties[1].token = 2
    refresh(s)
    while d.step != 3:
        play(s, legal_text(s)[0])
        settle(s)
    play(s, "end")
    settle(s)
    # Seat 2 plays; then seat 1 comes back to Port with 3 cards.
    while d.turn != 0:
        play(s, legal_text(s)[-1] if d.phase == "port" else legal_text(s)[0])
        settle(s)
    tokens(s, red=1, yellow=1, green=1)
    p.token = 1
    refresh(s)
    play(s, "place port")
    assert not any(m.startswith("take") for m in legal_text(s))
    with pytest.raises(IllegalAction, match="already hold 3 Master Angler cards"):
        s.apply(Take(d.ma_row[0]))


def test_clear_white_bait_returns_discards_then_itself() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {5: ""})
    d.discard[COLOUR_INDEX["red"]] += 5
    d.bag[COLOUR_INDEX["red"]] -= 5
    refresh(s)
    play(s, "place port", "fill 5", "bait blue", "bait white")
    # The discard pile went back into the bag; the clear-white waits beside it.
    assert sum(d.discard) == 0 and not d.white_in_bag and d.white_aside
    outs = [str(a) for a, _ in s.chance_outcomes()]
    assert "bait white" not in outs
    play(s, "bait red", "bait red", "bait red", "bait red")
    assert sum(d.parties[0].zones[2]) == 5
    assert d.white_in_bag and not d.white_aside  # returned after the Zone is full
    conservation(d)


def test_bag_running_out_refills_from_discards_ruling() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {6: ""})
    # Move all but two bait from the bag to the discard pile; take the white out of the bag.
    for c in range(6):
        d.discard[c] += d.bag[c]
        d.bag[c] = 0
    d.discard[0] -= 2
    d.bag[0] = 2
    d.white_in_bag = False
    d.white_aside = True  # as if it had just been drawn
    refresh(s)
    play(s, "place port", "fill 6", "bait blue", "bait blue")
    # The bag is empty: the discards go back in and filling goes on.
    assert s.current == CHANCE and sum(d.bag) > 0 and sum(d.discard) == 0
    settle(s)
    assert sum(d.parties[0].zones[3]) == 6


def test_fill_as_far_as_bag_and_discards_allow_ruling() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {6: ""})
    # Park nearly all bait on seat 2's board (Zones hold any number here) so only 2 are free.
    spare = d.parties[1].zones[3]
    for c in range(6):
        spare[c] += d.bag[c] + d.discard[c]
        d.bag[c] = d.discard[c] = 0
    spare[0] -= 2
    d.bag[0] = 2
    refresh(s)
    play(s, "place port", "fill 6")
    settle(s)
    assert sum(d.parties[0].zones[3]) == 2
    assert d.white_in_bag


def test_bait_chance_weights_are_bag_counts() -> None:
    s = started(2)
    d = s.data
    set_zones(s, 0, {5: ""})
    refresh(s)
    play(s, "place port", "fill 5")
    weights = dict((str(a), w) for a, w in s.chance_outcomes())
    assert weights["bait white"] == 1
    for c, name in enumerate(("blue", "red", "purple", "black", "green", "yellow")):
        assert weights.get(f"bait {name}", 0) == d.bag[c]
    assert Bait("white") in s.legal()
