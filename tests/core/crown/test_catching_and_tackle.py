"""Routing bait, Master Angler cards, catching, restocking, tackle and its restrictions."""

from __future__ import annotations

import pytest

from coldwater.core.crown.actions import Catch, Lose, Reel, Zone6
from coldwater.core.crown.model import COLOUR_INDEX, MAProgress
from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE

from .helpers import give_tackle, legal_text, play, refresh, set_zones, settle, started, tokens
from .hooks import conservation


def _ready(seed: str = "c", **zones: str) -> object:
    s = started(2, seed=seed)
    set_zones(s, 0, {int(k[1:]): v for k, v in zones.items()})
    give_tackle(s, 0)
    s.data.parties[0].ma = []
    used = {c for v in zones.values() for c in v.split(",") if c}
    free = [sp for sp in ("yellow", "green", "black", "purple", "blue", "red") if sp not in used][:2]
    tokens(s, port=1, **{sp: 1 for sp in free})
    refresh(s)
    return s


def test_each_cast_bait_routes_to_a_master_angler_spot_or_the_discard() -> None:
    s = _ready(z3="blue,blue,red", z4="blue,red,red,red")
    d = s.data
    p = d.parties[0]
    d.ma_deck.remove(13)
    p.ma = [MAProgress(13, [])]  # MA13 Char: blue, yellow, purple
    d.parties[0].token = 2
    refresh(s)
    play(s, "place blue")
    assert d.route_left == 3
    assert legal_text(s) == ["discard", "route 13"]
    play(s, "route 13")
    # The card's only blue spot is full: the other two are discarded without asking.
    assert d.phase == "catch" or d.phase != "route"
    assert p.ma[0].filled == [COLOUR_INDEX["blue"]]


def test_completing_a_master_angler_card_scores_it_and_discards_its_bait() -> None:
    s = _ready(z3="blue,red,green", z4="blue,red,red,red")
    d = s.data
    p = d.parties[0]
    d.ma_deck.remove(13)
    p.ma = [MAProgress(13, [COLOUR_INDEX["yellow"], COLOUR_INDEX["purple"]])]
    d.bag[COLOUR_INDEX["yellow"]] -= 1
    d.bag[COLOUR_INDEX["purple"]] -= 1
    refresh(s)
    before = list(d.discard)
    play(s, "place blue", "route 13")
    assert p.ma == [] and p.ma_done == [13]
    assert d.discard[COLOUR_INDEX["yellow"]] == before[COLOUR_INDEX["yellow"]] + 1
    assert d.discard[COLOUR_INDEX["blue"]] == before[COLOUR_INDEX["blue"]] + 2  # one from the card, one cast
    conservation(d)


def test_several_catches_in_chosen_order_restock_at_end_of_step() -> None:
    s = _ready(z3="red", z4="red", z5="red,red", z6="blue")
    d = s.data
    d.parties[0].token = 2
    refresh(s)
    play(s, "place red")
    assert sorted(p.zone for p in d.pending) == [3, 4, 5]
    assert legal_text(s) == ["catch 3 lake 3", "catch 4 lake 4", "catch 5 lake 5"]
    lake5 = d.zones[2][2]
    play(s, "catch 5 lake 5")
    assert d.parties[0].fish[-1] is lake5
    assert d.zones[2][2] is None  # not restocked yet
    play(s, "tackle n", "catch 3 lake 3", "catch 4 lake 4")
    settle(s)
    assert all(f is not None for f in d.zones[2])  # restocked at the end of the Step
    assert len(d.parties[0].fish) == 3


def test_a_zone_emptied_earlier_in_the_step_cannot_be_caught_from() -> None:
    s = _ready(z3="blue", z4="red,red", z5="", z6="")
    d = s.data
    give_tackle(s, 0, "line")
    d.parties[0].token = 2
    refresh(s)
    play(s, "place blue", "catch 3 lake 3")
    settle(s)
    # Step 2: before restocking? No: restocking happened at the end of Step 1.
    assert d.zones[2][0] is not None
    # Within one Step: empty Lake 3 with a Line from Zone 4, then the Zone 3 catch is lost.
    s2 = _ready(z3="red", z4="red", z5="", z6="")
    d2 = s2.data
    give_tackle(s2, 0, "line")
    d2.parties[0].token = 2
    refresh(s2)
    play(s2, "place red", "catch 4 lake 3")
    assert d2.zones[2][0] is None
    assert legal_text(s2) == ["catch 3 lake 4", "lose 3"] or legal_text(s2) == ["lose 3"]
    with pytest.raises(IllegalAction, match="holds no fish"):
        s2.apply(Catch(3, "lake", 3))
    play(s2, "lose 3")
    assert len(d2.parties[0].fish) == 1


def test_zone_5_tackle_is_optional_and_hidden() -> None:
    s = _ready(z5="green")
    d = s.data
    play(s, "place green", "catch 5 shore 5")
    assert legal_text(s) == ["tackle n", "tackle y"]
    c = s.clone()
    play(c, "tackle n")
    assert c.data.parties[0].tackle == []
    play(s, "tackle y")
    assert s.current == CHANCE
    assert {str(a) for a, _ in s.chance_outcomes()} <= {"draw line", "draw lure", "draw reel", "draw rod"}
    settle(s)
    assert len(d.parties[0].tackle) == 1
    assert s.view(1).data.parties[0].tackle[0].kind is None


def test_zone_6_bonus_is_optional_and_uses_the_bait_deck() -> None:
    s = _ready(z6="purple")
    d = s.data
    give_tackle(s, 0, "rod")
    top = d.tops[0]
    play(s, "place purple")
    moves = legal_text(s)
    assert "zone6" in moves and "catch 6 shore 6" in moves
    # The Rod may change the location of the Zone 6 catch, but never of the deck-top bonus.
    assert "catch 6 lake 6" in moves
    play(s, "zone6")
    assert d.parties[0].fish[-1] is top and d.tops[0] is None
    assert s.current == CHANCE  # the next card of the Shore deck turns up at once
    settle(s)
    assert d.tops[0] is not None


def test_rod_catches_at_another_location_same_zone() -> None:
    s = _ready(z4="black")
    give_tackle(s, 0, "rod")
    refresh(s)
    play(s, "place black")
    assert legal_text(s) == ["catch 4 lake 4", "catch 4 river 4", "catch 4 shore 4"]
    play(s, "catch 4 shore 4")
    assert s.data.tackle_discard == ["rod"] and s.data.parties[0].tackle == []


def test_line_catches_from_an_adjacent_zone_same_location() -> None:
    s = _ready(z4="black")
    give_tackle(s, 0, "line")
    refresh(s)
    play(s, "place black")
    assert legal_text(s) == ["catch 4 river 3", "catch 4 river 4", "catch 4 river 5"]


def test_rod_and_line_together() -> None:
    s = _ready(z3="black")
    give_tackle(s, 0, "line", "rod")
    refresh(s)
    play(s, "place black")
    moves = legal_text(s)
    assert "catch 3 lake 4" in moves and "catch 3 shore 4" in moves
    play(s, "catch 3 lake 4")
    assert sorted(s.data.tackle_discard) == ["line", "rod"]


def test_no_zone_6_bonus_through_a_line() -> None:
    s = _ready(z5="green")
    give_tackle(s, 0, "line")
    refresh(s)
    play(s, "place green")
    assert "zone6" not in legal_text(s)
    play(s, "catch 5 shore 6")
    # Zone 5 itself was emptied, so its tackle bonus is still earned.
    assert legal_text(s) == ["tackle n", "tackle y"]


def test_no_zone_5_bonus_through_a_line() -> None:
    s = _ready(z4="green")
    give_tackle(s, 0, "line")
    refresh(s)
    play(s, "place green", "catch 4 shore 5")
    settle(s)
    assert s.data.step == 2  # no tackle offer: Zone 5 of the player board was not emptied


def test_tackle_drawn_this_step_is_playable_from_the_next_step() -> None:
    s = _ready(z3="blue,blue,red", z5="green", z6="green")
    d = s.data
    d.tackle_stack = sorted(d.tackle_stack)
    play(s, "place green", "catch 5 shore 5", "tackle y", "draw rod")
    assert d.parties[0].tackle[0].fresh
    assert "catch 6 lake 6" not in legal_text(s)  # not in this Step
    with pytest.raises(IllegalAction, match="drew this Step"):
        s.apply(Catch(6, "lake", 6))
    play(s, "catch 6 shore 6")
    settle(s)
    assert not d.parties[0].tackle[0].fresh  # Step 2: it can be played now


def test_reel_removes_two_same_coloured_bait_and_may_catch() -> None:
    s = _ready(z3="red", z4="red,blue,blue,blue")
    give_tackle(s, 0, "reel")
    refresh(s)
    moves = legal_text(s)
    assert "reel red 3 4" in moves and "reel blue 4 4" in moves and "reel red 3 3" not in moves
    play(s, "reel red 3 4")
    assert s.data.tackle_discard == ["reel"]
    assert legal_text(s) == ["catch 3 lake 3"]  # routing skipped (no card), Zone 3 emptied
    play(s, "catch 3 lake 3")
    settle(s)
    assert s.data.step == 1 and s.current == 0  # still Step 1: place your token next
    with pytest.raises(IllegalAction):
        s.apply(Reel("blue", 4, 4))


def test_lure_swaps_two_different_coloured_bait() -> None:
    s = _ready(z3="red,red,red", z4="blue,blue,blue,blue")
    give_tackle(s, 0, "lure")
    refresh(s)
    play(s, "lure 3 red 4 blue")
    z = s.data.parties[0].zones
    assert z[0][COLOUR_INDEX["blue"]] == 1 and z[1][COLOUR_INDEX["red"]] == 1
    assert s.data.tackle_discard == ["lure"]


def test_tackle_stack_reshuffles_when_the_last_piece_is_drawn() -> None:
    s = _ready(z5="green")
    d = s.data
    held = [t.kind for p in d.parties for t in p.tackle]
    kinds = list(d.tackle_stack)
    d.tackle_stack = [kinds[0]]
    d.tackle_discard = sorted(kinds[1:])
    refresh(s)
    play(s, "place green", "catch 5 shore 5", "tackle y", f"draw {kinds[0]}")
    assert d.tackle_discard == [] and sorted(d.tackle_stack) == sorted(kinds[1:])
    assert len(held) == 1


def test_default_catch_of_empty_zone_is_lost_without_tackle() -> None:
    s = _ready(z3="yellow")
    d = s.data
    spare = d.zones[1][0]
    d.zones[1][0] = None
    d.thrown.append(spare)  # keep the count: pretend it was thrown back
    refresh(s)
    play(s, "place yellow")
    assert legal_text(s) == ["lose 3"]
    with pytest.raises(IllegalAction):
        s.apply(Zone6())
    play(s, "lose 3")
    assert d.parties[0].fish == []


def test_must_catch_when_the_zone_holds_a_fish() -> None:
    s = _ready(z3="yellow")
    play(s, "place yellow")
    with pytest.raises(IllegalAction, match="you must catch"):
        s.apply(Lose(3))


def test_rod_cannot_be_used_at_the_same_time_as_zone6_bonus_deck_change() -> None:
    s = _ready(z6="red")
    give_tackle(s, 0, "rod")
    refresh(s)
    play(s, "place red")
    # Only one "zone6" action exists: the Lake deck top. No other deck is reachable.
    assert [m for m in legal_text(s) if "zone6" in m] == ["zone6"]
    lake_top = s.data.tops[2]
    play(s, "zone6")
    assert s.data.parties[0].fish[-1] is lake_top
    assert s.data.parties[0].tackle[0].kind == "rod"  # not used


def test_board_and_deck_cards_are_known_to_nobody() -> None:
    s = _ready()
    for seat in (None, 0, 1):
        v = s.view(seat).data
        assert all(f.card is None for row in v.zones for f in row if f is not None)
        assert all(f.card is None for f in v.tops if f is not None)


def test_fish_reveal_weights_each_remaining_card_once_species_public() -> None:
    s = _ready(z6="purple")
    play(s, "place purple", "zone6")
    outs = s.chance_outcomes()
    assert all(w == 1 for _, w in outs) and len(outs) == len(s.data.decks[0])
    v = s.view(1)
    vouts = v.chance_outcomes()
    assert sum(w for _, w in vouts) == len(outs)
    assert all(a.card is None for a, _ in vouts)  # type: ignore[attr-defined]


def test_reel_and_lure_only_between_steps() -> None:
    s = _ready(z3="red,red,blue", z4="blue,blue,green,green")
    give_tackle(s, 0, "reel")
    tokens(s, red=1, yellow=1, black=1)
    refresh(s)
    play(s, "place port")
    with pytest.raises(IllegalAction, match="between the steps"):
        s.apply(Reel("red", 3, 3))


def test_reel_in_step_3_before_ending_the_turn() -> None:
    s = _ready(z3="red,red,blue", z4="blue,blue,green,green")
    d = s.data
    give_tackle(s, 0, "reel")
    refresh(s)
    while d.step != 3:
        moves = legal_text(s)
        play(s, "place port" if "place port" in moves else next(m for m in moves if not m.startswith(("reel", "lure"))))
        settle(s)
    assert "reel red 3 3" in legal_text(s) and "end" in legal_text(s)
    play(s, "reel red 3 3")
    settle(s)
    while "end" not in legal_text(s):  # resolve any catch the Reel caused
        play(s, legal_text(s)[0])
        settle(s)
    assert d.step == 3 and d.tackle_discard == ["reel"]


def test_fresh_reel_cannot_be_played_in_the_step_it_was_drawn() -> None:
    s = _ready(z3="red,red,blue", z5="green", z6="purple")
    d = s.data
    play(s, "place green", "catch 5 shore 5", "tackle y", "draw reel")
    settle(s)
    assert d.step == 2 and "reel red 3 3" in legal_text(s)  # playable from Step 2


def test_port_action_with_nothing_to_do_is_skipped() -> None:
    from coldwater.core.crown.model import MAProgress as MA

    s = _ready(
        z3="red,red,red",
        z4="blue,blue,blue,blue",
        z5="green,green,green,green,green",
        z6="black,black,black,black,black,black",
    )
    d = s.data
    p = d.parties[0]
    for c in list(d.ma_deck[:3]):
        d.ma_deck.remove(c)
        p.ma.append(MA(c, []))
    tokens(s, purple=1, yellow=1, black=1)
    refresh(s)
    play(s, "place port")
    assert legal_text(s) == ["skip"]
    play(s, "skip")
    settle(s)
    assert d.step == 2
