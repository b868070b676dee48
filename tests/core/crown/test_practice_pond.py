"""Practice Pond (1 player): the silent player exactly as written."""

from __future__ import annotations

import pytest

from coldwater.core.crown.actions import SilentDraws, WhiteOption
from coldwater.core.crown.anglers import silent_move
from coldwater.core.crown.model import COLOUR_INDEX, SPACE_INDEX
from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE

from .helpers import T, card, give_fish, legal_text, play, refresh, set_discard, settle, started, tokens
from .hooks import conservation


def _to_silent_turn(s: object) -> None:
    """Play a quiet human turn (Port, then the first removable token) up to the silent turn."""
    d = s.data  # type: ignore[attr-defined]
    while not (d.turn == 1 or d.phase in ("submit", "over")):
        if s.current == CHANCE:  # type: ignore[attr-defined]
            if d.tasks and d.tasks[0].kind == "silent":
                return
            settle(s)
            continue
        moves = legal_text(s)
        pick = "place port" if "place port" in moves else moves[0]
        play(s, pick)


@pytest.mark.parametrize(
    "colour,start,moved",
    [
        ("blue", {"green": 1, "red": 1, "yellow": 1}, ("green", "blue")),
        ("red", {"red": 1, "yellow": 1, "black": 1}, ("red", "port")),
        ("purple", {"port": 1, "green": 1, "black": 1}, ("port", "purple")),
        ("purple", {"purple": 1, "green": 1, "blue": 1}, ("purple", "red")),
        ("black", {"port": 1, "purple": 1, "green": 1}, ("green", "black")),
    ],
)
def test_silent_token_path_clockwise(colour: str, start: dict[str, int], moved: tuple[str, str]) -> None:
    s = started(1)
    tokens(s, **start)
    assert silent_move(s.data, COLOUR_INDEX[colour]) == (SPACE_INDEX[moved[0]], SPACE_INDEX[moved[1]])


def test_silent_turn_two_draws_each_with_actions_1_and_2() -> None:
    s = started(1, seed="pp")
    d = s.data
    _to_silent_turn(s)
    assert d.turn == 1 and s.current == CHANCE
    assert [t.kind for t in d.tasks[:3]] == ["silent", "silent", "endturn"]
    tokens(s, red=1, yellow=1, green=1)
    set_discard(s, "purple", 5)
    refresh(s)
    zone6 = d.zones[0][3]
    play(s, "bait purple")
    assert d.discard[COLOUR_INDEX["purple"]] == 6
    assert d.parties[1].fish == [zone6]  # six purple: Zone 6 at the Shore
    assert zone6 is not None and zone6.shown  # the silent player's fish are public
    assert s.view(0).data.parties[1].fish[0].card == zone6.card
    conservation(d)


def test_fewer_fish_lets_you_draw_one_bait_for_the_silent_player() -> None:
    s = started(1, seed="pp2")
    d = s.data
    give_fish(s, 1, [card("pike", 4)])
    _to_silent_turn(s)
    assert s.current == 0 and legal_text(s) == ["silent 1", "silent 2"]
    play(s, "silent 1")
    assert [t.kind for t in d.tasks[:2]] == ["silent", "endturn"]


def test_equal_fish_means_two_draws_without_asking() -> None:
    s = started(1, seed="pp3")
    _to_silent_turn(s)
    assert s.current == CHANCE
    with pytest.raises(IllegalAction):
        s.apply(SilentDraws(1))


@pytest.mark.parametrize("choice", ["card", "bait"])
def test_clear_white_in_silent_turn(choice: str) -> None:
    s = started(1, seed="pp4")
    d = s.data
    _to_silent_turn(s)
    tokens_before = list(d.tokens)
    play(s, "bait white")
    # The top Master Angler card goes to the silent player first (a chance draw).
    assert s.current == CHANCE and d.tasks[0].kind == "ma_silent"
    assert sum(d.discard) == 0 and d.white_aside  # discards back in the bag
    top = d.ma_deck[0]
    play(s, f"flip {top}")
    assert d.parties[1].ma_done == [top]
    assert d.tokens == tokens_before  # no token moves for the clear-white bait
    assert s.current == 0 and legal_text(s) == ["white bait", "white card"]
    play(s, f"white {choice}")
    if choice == "card":
        nxt = d.ma_deck[-1]
        play(s, f"flip {nxt}")
        assert d.parties[1].ma_done == [top, nxt]
    else:
        for _ in range(7):
            assert s.current == CHANCE
            settle_one(s)
        assert sum(d.discard) == 7
    assert d.white_in_bag and not d.white_aside
    conservation(d)


def settle_one(s: object) -> None:
    s.apply(s.sample_chance())  # type: ignore[attr-defined]


def test_clear_white_when_you_fill_also_feeds_the_silent_player() -> None:
    s = started(1, seed="pp5")
    d = s.data
    from .helpers import set_zones

    set_zones(s, 0, {5: ""})
    refresh(s)
    play(s, "place port", "fill 5", "bait white")
    assert d.tasks[0].kind == "ma_silent"
    settle_one(s)
    assert s.current == 0 and len(d.parties[1].ma_done) == 1
    play(s, "white bait")
    settle(s)
    assert sum(d.parties[0].zones[2]) == 5 and d.white_in_bag


def test_white_option_only_when_white_drawn() -> None:
    s = started(1)
    with pytest.raises(IllegalAction, match="clear-white"):
        s.apply(WhiteOption("card"))


def test_silent_player_submits_heaviest_and_is_eligible_for_contests() -> None:
    from coldwater.core.crown.endgame import start_contests

    s = started(1, seed="pp6")
    d = s.data
    for p in d.parties:
        p.fish = []
    give_fish(s, 1, [card("pike", 16), card("pike", 4), card("perch", 5)])
    give_fish(s, 0, [card("pike", 14)])
    start_contests(d)
    refresh(s)
    assert d.phase == "over"
    assert sorted(T.weight[f.card] for f in d.parties[1].submitted) == [5, 16]
    assert [(t.kind, t.points) for t in d.parties[1].trophies if t.kind == "lake"] == [("lake", 5)]
    assert [(t.kind, t.points) for t in d.parties[0].trophies if t.kind == "lake"] == [("lake", 3)]
    sc = s.scores()
    assert sc.labels == ("Seat 1", "Silent player") and sc.final
    assert sc.ranking == (1, 0) and "silent player wins" in sc.outcome


def test_you_must_exceed_the_silent_players_score() -> None:
    from coldwater.core.crown.model import Trophy

    s = started(1)
    d = s.data
    d.phase = "over"
    d.parties[0].trophies = [Trophy("shore", 5)]
    sc = s.scores()
    assert sc.totals == (5, 5) and sc.ranking == (1, 0)
    d.parties[0].trophies.append(Trophy("lake", 3))
    assert s.scores().ranking == (0, 1) and "You beat" in s.scores().outcome


def test_silent_player_triggers_end_then_you_get_a_final_turn() -> None:
    s = started(1, seed="pp7")
    d = s.data
    give_fish(s, 1, [c for c in range(21, 32)] + [card("pike", 4)])  # 12 fish
    _to_silent_turn(s)
    while d.turn == 1:
        if s.current == CHANCE:
            settle_one(s)
        else:
            play(s, legal_text(s)[0])
    assert d.end_triggered and d.final_left == 1 and d.turn == 0
    assert [t.kind for t in d.parties[1].trophies].count("first_to_12") == 1
    while d.phase not in ("submit", "over"):
        if s.current == CHANCE:
            settle_one(s)
        else:
            play(s, legal_text(s)[0])
    assert d.turn == 0  # the silent player did not play again
