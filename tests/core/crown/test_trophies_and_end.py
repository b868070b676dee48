"""Trophies during play, end triggers, final turns, contests, tags and scoring."""

from __future__ import annotations

from coldwater.core.crown.endgame import start_contests
from coldwater.core.crown.game import GAME
from coldwater.core.crown.model import MAProgress, Trophy
from coldwater.core.state import CHANCE

from .helpers import (
    T,
    board,
    card,
    give_fish,
    give_tackle,
    legal_text,
    play,
    refresh,
    set_zones,
    settle,
    started,
    tokens,
)
from .hooks import conservation


def _ready(players: int = 2, seed: str = "t", **zones: str) -> object:
    s = started(players, seed=seed)
    set_zones(s, 0, {int(k[1:]): v for k, v in zones.items()})
    give_tackle(s, 0)
    s.data.parties[0].ma = []
    used = {c for v in zones.values() for c in v.split(",") if c}
    free = [sp for sp in ("yellow", "green", "black", "purple", "blue", "red") if sp not in used][:2]
    tokens(s, port=1, **{sp: 1 for sp in free})
    refresh(s)
    return s


def _set_mw(d: object, w: int) -> None:
    if d.mw_top != w:  # type: ignore[attr-defined]
        d.mw_stack.append(d.mw_top)  # type: ignore[attr-defined]
        d.mw_stack.remove(w)  # type: ignore[attr-defined]
        d.mw_top = w  # type: ignore[attr-defined]
        d.mw_stack.sort()  # type: ignore[attr-defined]


def test_mystery_weight_claimed_on_matching_catch_and_once_per_step() -> None:
    s = _ready(z3="red", z4="red")
    d = s.data
    _set_mw(d, 5)
    board(s, "lake", 3, card("perch", 5))
    board(s, "lake", 4, card("pike", 4))
    d.parties[0].token = 2
    refresh(s)
    play(s, "place red", "catch 3 lake 3")
    p = d.parties[0]
    assert [(t.kind, t.weight) for t in p.trophies] == [("mystery_weight", 5)]
    # The weight is revealed to everyone.
    assert p.fish[0].shown and s.view(1).data.parties[0].fish[0].card == card("perch", 5)
    assert s.current == CHANCE  # the next tile is flipped
    play(s, "mw 4")
    # The 4 lb Pike matches the new tile, but only one Mystery Weight per Step.
    play(s, "catch 4 lake 4")
    assert sum(1 for t in p.trophies if t.kind == "mystery_weight") == 1
    assert not p.fish[1].shown and d.mw_top == 4
    conservation(d)


def test_mystery_weight_fish_caught_before_the_tile_do_not_count() -> None:
    s = _ready(z3="red")
    d = s.data
    give_fish(s, 0, [card("pike", 7)])
    old = d.mw_top
    d.mw_stack.append(old)
    d.mw_stack.remove(7)
    d.mw_top = 7
    d.mw_stack.sort()
    board(s, "lake", 3, card("perch", 1))
    refresh(s)
    play(s, "place red", "catch 3 lake 3")
    assert not any(t.kind == "mystery_weight" for t in d.parties[0].trophies)


def test_fastest_to_8_species_and_small_species() -> None:
    s = _ready(z3="green")
    d = s.data
    seven = [
        card(sp, w)
        for sp, w in [
            ("wrasse", 2),
            ("mackerel", 2),
            ("john_dory", 3),
            ("roach", 1),
            ("perch", 1),
            ("brown", 2),
            ("salmon", 4),
        ]
    ]
    give_fish(s, 0, seven)
    board(s, "shore", 3, card("flounder", 1))
    refresh(s)
    play(s, "place green", "catch 3 shore 3")
    kinds = {t.kind: t.points for t in d.parties[0].trophies}
    assert kinds["fastest_to_8"] == 5 and kinds["small_species"] == 5
    assert d.stacks.fastest_to_8 == [3] and d.stacks.small_species == [3]


def _grab_ma(d: object, c: int) -> None:
    if c in d.ma_deck:  # type: ignore[attr-defined]
        d.ma_deck.remove(c)  # type: ignore[attr-defined]
    else:
        d.ma_row.remove(c)  # type: ignore[attr-defined]
        d.ma_row.append(d.ma_deck.pop())  # type: ignore[attr-defined]


def test_master_angler_three_same_and_four_different_once_each() -> None:
    s = _ready(z3="red,green,blue")
    d = s.data
    p = d.parties[0]
    for c in (1, 2, 7, 13):  # Crab, Crab, Conger Eel, Char: done
        _grab_ma(d, c)
        p.ma_done.append(c)
    _grab_ma(d, 19)
    p.ma = [MAProgress(19, [3, 5])]  # MA19 Dogfish: red, black, yellow; black+yellow filled
    d.bag[3] -= 1
    d.bag[5] -= 1
    refresh(s)
    play(s, "place red", "route 19")
    assert [t.kind for t in p.trophies] == ["four_different"]
    _grab_ma(d, 3)
    p.ma_done.append(3)  # a third Crab
    from coldwater.core.crown.trophies import check_master_angler

    check_master_angler(d, T, p)
    check_master_angler(d, T, p)
    assert sorted(t.kind for t in p.trophies) == ["four_different", "three_same"]
    assert d.stacks.three_same == [2, 2, 2] and d.stacks.four_different == [2, 2, 2]


def test_first_to_12_fish_checked_at_end_of_turn_triggers_final_turns() -> None:
    s = _ready(players=3, z3="green")
    d = s.data
    give_fish(s, 0, [c for c in range(21, 32)])  # 11 river fish
    board(s, "shore", 3, card("wrasse", 2))
    refresh(s)
    play(s, "place green", "catch 3 shore 3")
    settle(s)
    assert len(d.parties[0].fish) == 12 and not any(t.kind == "first_to_12" for t in d.parties[0].trophies)
    while d.step != 3:
        play(s, legal_text(s)[0])
        settle(s)
    play(s, "end")
    assert "first_to_12" in [t.kind for t in d.parties[0].trophies]
    assert d.end_triggered and d.final_left == 2
    # Seats 2 and 3 get one final turn each; then the contests.
    turns_seen = []
    while d.phase not in ("submit", "over"):
        if s.current == CHANCE:
            settle(s)
            continue
        if d.step == 1 and d.phase == "idle" and (not turns_seen or turns_seen[-1] != d.turn):
            turns_seen.append(d.turn)
        play(s, legal_text(s)[0])
    assert turns_seen == [1, 2]


def test_location_that_cannot_be_restocked_ends_the_game() -> None:
    s = _ready(players=2, z3="green")
    d = s.data
    # Empty the Shore deck (move its cards to the thrown-back pile) and its top.
    d.thrown += d.decks[0]
    d.decks[0] = []
    d.thrown.append(d.tops[0])
    d.tops[0] = None
    refresh(s)
    play(s, "place green", "catch 3 shore 3")
    settle(s)
    assert d.zones[0][0] is None and d.restock_failed
    while d.step != 3:
        play(s, legal_text(s)[0])
        settle(s)
    play(s, "end")
    assert d.end_triggered and d.final_left == 1 and d.turn == 1
    while d.turn == 1 and d.phase not in ("submit", "over"):
        if s.current == CHANCE:
            settle(s)
        else:
            play(s, legal_text(s)[0])
    assert d.phase in ("submit", "over")


def _contest(players: int, fish: dict[int, list[int]], **opts: bool) -> object:
    s = started(players, seed="contest", **opts)
    d = s.data
    for p in d.parties:
        p.fish = []
    for seat, cards in fish.items():
        give_fish(s, seat, cards)
    start_contests(d)
    refresh(s)
    return s


def test_contest_tie_goes_to_earliest_timestamp() -> None:
    # Seat 1: Salmon 10 lb at 6:53; seat 2: Salmon 8 (12:57) + Roach 2 (17:12): both 10 lb.
    s = _contest(2, {0: [card("salmon", 10)], 1: [card("salmon", 8), card("roach", 2)]})
    d = s.data
    assert d.phase == "over"
    river = {i: [t.points for t in p.trophies if t.kind == "river"] for i, p in enumerate(d.parties)}
    assert river == {0: [5], 1: [3]}


def test_no_submission_no_trophy() -> None:
    s = _contest(3, {0: [card("pike", 4)], 1: [card("pike", 5)]})
    d = s.data
    assert [t.kind for t in d.parties[2].trophies] == []
    assert [t.points for t in d.parties[1].trophies] == [5] and [t.points for t in d.parties[0].trophies] == [3]


def test_submission_is_secret_until_all_have_submitted() -> None:
    s = _contest(2, {0: [card("pike", 4), card("pike", 16)], 1: [card("pike", 5), card("pike", 6)]})
    d = s.data
    assert s.current == 0 and legal_text(s) == ["submit pike 1", "submit pike 2"]
    play(s, "submit pike 2")  # seat 1 throws its 16 lb Pike back, keeping the 4
    assert s.current == 1
    v = s.view(1)
    assert v.data.parties[0].picks == [] and v.data.parties[0].picks_made == 1
    assert v.legal() == s.legal()
    play(s, "submit pike 1")
    assert d.phase == "over"
    assert [T.weight[f.card] for f in d.parties[0].submitted] == [4]
    assert [T.weight[f.card] for f in d.parties[1].submitted] == [6]
    assert [t.points for t in d.parties[1].trophies] == [5]


def test_tag_bonus_and_no_tags_variant() -> None:
    fish = {0: [card("pike", 4)], 1: [card("pike", 5)]}
    s = _contest(2, fish)
    s.data.tag = T.tag[card("pike", 4)]
    sc = s.scores()
    assert sc.final and sc.rows[0][sc.categories.index("Tagged fish")] == 1
    s2 = _contest(2, fish, no_tags=True)
    s2.data.tag = T.tag[card("pike", 4)]
    sc2 = s2.scores()
    assert sc2.rows[0][sc2.categories.index("Tagged fish")] == 0
    assert "no_tags" not in sc2.outcome and any("tagged fish score nothing" in n for n in sc2.notes)


def test_final_tie_broken_by_earliest_timestamp() -> None:
    # Equal totals: seat 2's 6:32 Roach is the earliest submitted fish.
    s = _contest(2, {0: [card("wrasse", 7)], 1: [card("roach", 3)]})
    d = s.data
    d.tag = "none"
    d.parties[0].trophies = [Trophy("shore", 5)]
    d.parties[1].trophies = [Trophy("river", 5)]
    sc = s.scores()
    assert sc.totals == (5, 5)
    assert sc.ranking == (1, 0) and "earliest timestamp, 6:32" in sc.outcome


def test_scores_categories_named_like_the_rulebook() -> None:
    s = started(3)
    sc = s.scores()
    assert not sc.final and sc.labels == ("Seat 1", "Seat 2", "Seat 3")
    for name in (
        "First to 12 Fish Challenge",
        "Mystery Weight Challenge",
        "Master Angler: Three Same",
        "Master Angler: Four Different",
        "Small Species Challenge",
        "Fastest to 8 Species Challenge",
        "Shore Contest",
        "Lake Contest",
        "River Contest",
        "Master Angler cards",
        "Tagged fish",
    ):
        assert name in sc.categories


def test_game_ends_with_final_scores_in_random_play() -> None:
    from coldwater.core.rng import Rng
    from coldwater.core.simulate import play_out

    s = GAME.new(4, seed="end")
    play_out(s, [GAME.bot("greedy") for _ in range(4)], Rng(1))
    sc = s.scores()
    assert sc.final and sc.outcome and s.legal() == []
    assert s.data.end_triggered
