"""One test (or a few) per rule of the rulebook, on the A side."""

from __future__ import annotations

import pytest

from coldwater.core.errors import IllegalAction
from coldwater.core.fisheries.actions import (
    BonusSail,
    BonusTile,
    Chart,
    Done,
    EndDay,
    Fish,
    Flip,
    Keep,
    Lobster,
    Pass,
    Preserve,
    Sail,
    Stock,
)
from coldwater.core.fisheries.chart_a_course import shape_matches
from coldwater.core.fisheries.state import FisheriesState
from coldwater.core.state import CHANCE

from .helpers import CTX, G, cell, play, rebuild, scenario, settle

COL = CTX.colour_index


def _to_phase(s: FisheriesState, phase: str) -> FisheriesState:
    while s.data.phase != phase:
        assert s.current == CHANCE
        s.apply(s.sample_chance())
    return s


# ---- setup ------------------------------------------------------------------------


def test_basic_setup_fish_tiles_ships_time_lobsters_and_stacks() -> None:
    s = _to_phase(G.new(2, seed=11), "dawn")
    d = s.data
    starter = d.initiative
    other = 1 - starter
    fish_spaces = [i for i, t in enumerate(d.terrain) if t == "F"]
    assert len(fish_spaces) == 24 and all(d.fish[i] for i in fish_spaces)
    assert sorted(d.fish[i] for i in fish_spaces) == sorted(c for c in CTX.colours for _ in range(6))
    assert d.supply[starter] == [1, 1, 0, 0] and d.supply[other] == [2, 1, 0, 0]
    assert d.ships[starter] == [cell("a2"), cell("a4"), cell("a6")]  # the 1s
    assert d.ships[other] == [cell("a3"), cell("a5"), cell("a7")]  # the 2s
    assert d.time == [0, 0] and d.lobster == [1, 1]
    assert all(st.top is not None for st in d.stacks)
    assert [len(st.rest) for st in d.stacks] == [3, 1, 1, 1, 1, 1]
    assert d.first == starter


def test_setup_fish_are_chance_draws_weighted_by_the_bag() -> None:
    s = _to_phase(G.new(2, seed=1), "stock")
    out = s.chance_outcomes()
    assert [w for _, w in out] == [6, 6, 6, 6]
    assert all(isinstance(a, Stock) and a.cell == "f1" for a, _ in out)
    s.apply(Stock("f1", "blue"))
    assert dict((a.colour, w) for a, w in s.chance_outcomes())["blue"] == 5


def test_starting_player_is_a_chance_draw_and_goes_first_on_day_one() -> None:
    firsts = set()
    for seed in range(6):
        s = settle(G.new(2, seed=seed))
        assert s.data.day == 1 and s.current == s.data.first == s.data.turn
        firsts.add(s.data.first)
    assert firsts == {0, 1}


# ---- phases I and II ------------------------------------------------------------------


def test_example_flip_a_chart_card_and_both_players_take_its_tiles() -> None:
    s = _to_phase(G.new(2, seed=2), "dawn")
    assert sorted(a.card for a, _ in s.chance_outcomes()) == ["C1", "C2", "C3", "C4", "C5", "C6"]
    before = [list(x) for x in s.data.supply]
    s.apply(Flip("C6"))
    for seat in (0, 1):
        assert s.data.supply[seat][CTX.shape_index["I3"]] == before[seat][2] + 1
        assert s.data.supply[seat][CTX.shape_index["L3"]] == before[seat][3] + 1
    assert "C6" not in s.data.chart_deck and s.data.day == 1


def test_time_first_adds_six_second_adds_seven_capped_at_twelve() -> None:
    s = settle(G.new(2, seed=4))
    f = s.data.first
    assert s.data.time[f] == 6 and s.data.time[1 - f] == 7


# ---- chart a course -------------------------------------------------------------------


def test_chart_must_touch_a_ship_orthogonally() -> None:
    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]), supply={"1sq": 1})
    assert s.why_illegal(Chart("1sq", ("e3",))) == "a tile must be placed orthogonally next to a ship"
    assert s.chart_options("1sq") == [(n,) for n in ("b2", "b3", "b4", "b5", "b6", "b7")]


def test_chart_never_covers_rough_island_start_or_tile_but_may_cover_an_emptied_fish_space() -> None:
    s = scenario(
        turn=0, ships=(["g2", "a4", "a6"], ["a3", "a5", "a7"]), tiles=["g2"], supply={"1sq": 2}, fish={"h3": "red"}
    )
    assert s.why_illegal(Chart("1sq", ("h2",))) == "that tile would cover rough water (h2)"
    assert s.why_illegal(Chart("1sq", ("g2",))) == "that tile would cover a ship (g2)"
    s2 = scenario(turn=0, ships=(["h2", "a4", "a6"], ["a3", "a5", "a7"]), supply={"1sq": 2})
    assert s2.why_illegal(Chart("1sq", ("h1",))) == "that tile would cover an island (h1)"
    assert s2.why_illegal(Chart("1sq", ("a3",))) == "that tile would cover a ship (a3)"
    # i2 holds a fish; once it is caught the space is calm water again.
    assert ("i2",) not in s2.chart_options("1sq")
    s2.data.fish[cell("i2")] = ""
    s2 = rebuild(s2)
    assert ("i2",) in s2.chart_options("1sq")
    s3 = scenario(turn=0, ships=(["b2", "a4", "a6"], ["a3", "a5", "a7"]), tiles=["b2", "b3"], supply={"1sq": 1})
    assert s3.why_illegal(Chart("1sq", ("b3",))) == "b3 already has an ocean tile"
    assert s3.why_illegal(Chart("1sq", ("a2",))) == "that tile would cover a starting space (a2)"


def test_chart_tiles_may_be_rotated_and_reflected_and_stay_inside_the_grid() -> None:
    s = scenario(
        turn=0, ships=(["g5", "a4", "a6"], ["a3", "a5", "a7"]), clear_fish=True, tiles=["g5"], supply={"L3": 1, "I3": 1}
    )
    ls = s.chart_options("L3")
    shapes = {
        tuple(
            sorted(
                (
                    cell(c) // CTX.cols - min(cell(x) // CTX.cols for x in p),
                    cell(c) % CTX.cols - min(cell(x) % CTX.cols for x in p),
                )
                for c in p
            )
        )
        for p in ls
    }
    assert len(shapes) == 4  # every rotation of the bent tile
    for p in ls + s.chart_options("I3"):
        assert shape_matches(CTX, "L3" if p in ls else "I3", tuple(cell(c) for c in p))
    # Near the edge no placement wraps round to the next row.
    e = scenario(
        turn=0, ships=(["n4", "a4", "a6"], ["a3", "a5", "a7"]), clear_fish=True, tiles=["n4"], supply={"I3": 1}
    )
    near_n4 = [p for p in e.chart_options("I3") if any(cell(c) in CTX.neighbours[cell("n4")] for c in p)]
    # Islands on n2/n7 and rough water on m4/m5 leave one way; none wraps to column a.
    assert near_n4 == [("l3", "m3", "n3")]
    for p in near_n4:
        assert {c[0] for c in p} <= {"l", "m", "n"}


def test_chart_one_tile_per_action_and_repeatable_in_a_day() -> None:
    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]), supply={"1sq": 2})
    play(s, "chart 1sq b2")
    assert s.data.phase == "lobster" and s.data.supply[0][0] == 1
    play(s, "pass")
    assert s.current == 1
    play(s, "end first")
    play(s, "chart 1sq b4")  # the opponent has ended: our turns follow one another
    assert s.data.supply[0][0] == 0 and s.current == 0


# ---- sail -------------------------------------------------------------------------------


def test_sail_only_on_tiles_rough_islands_and_starts_never_calm_water() -> None:
    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]))
    assert s.sail_options("a2") == {}  # every neighbour is calm water or a ship
    assert s.why_illegal(Sail("a2", "b2")) == "b2 is calm water: chart an ocean tile there before sailing onto it"
    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["c3", "c5", "c6"]), tiles=["c3", "c5", "c6"])
    opts = s.sail_options("a2")
    assert opts["a3"] == (1, ("a3",))  # a vacated starting space: 1 hour
    assert opts["a5"] == (4, ("a3", "a4", "a5"))  # through our own ship on a4: 2 hours
    assert "a4" not in opts


def test_sail_island_costs_one_hour_and_the_ship_stays_for_the_rest_of_the_game() -> None:
    s = scenario(turn=0, ships=(["g1", "f4", "e5"], ["a3", "a5", "a7"]), tiles=["g1"])
    assert s.sail_options("g1")["h1"] == (1, ("h1",))
    play(s, "sail g1 h1", "pass")
    assert s.data.ships[0][0] == cell("h1")
    s.data.turn, s.data.phase = 0, "turn"
    s = rebuild(s)
    assert s.sail_options("h1") == {}
    assert "stays there for the rest of the game" in s.why_illegal(Sail("h1", "g1"))
    assert s.scores().rows[0][2] == 1  # 1 helm on island a


def test_sail_rough_water_costs_two_and_may_be_passed_through() -> None:
    s = scenario(turn=0, ships=(["b4", "a2", "a6"], ["a3", "a5", "a7"]), tiles=["b4", "d4"])
    opts = s.sail_options("b4")
    assert opts["c4"] == (2, ("c4",))
    assert opts["d4"] == (3, ("c4", "d4"))
    assert opts["c5"] == (4, ("c4", "c5"))


def test_sail_moves_one_ship_per_action_and_time_never_goes_negative() -> None:
    s = scenario(turn=0, ships=(["b4", "a2", "a6"], ["a3", "a5", "a7"]), tiles=["b4", "d4"], time=(2, 7))
    assert "d4" not in s.sail_options("b4")
    with pytest.raises(IllegalAction, match="Sailing there costs 3 hours; you have 2"):
        s.apply(Sail("b4", "d4"))
    play(s, "sail b4 c4")
    assert s.data.time[0] == 0 and s.data.phase == "lobster"
    play(s, "pass")
    assert s.current == 1


def test_fleet_rule_allows_moving_backwards() -> None:
    # The leftmost ship went back to a4; the ship on f4 may still sail back to e4.
    s = scenario(turn=0, ships=(["a4", "f4", "e5"], ["a3", "a5", "a7"]), tiles=["f4", "e4", "e5"])
    assert "e4" in s.sail_options("f4")
    assert "f5" not in s.sail_options("e5")


# ---- fish ---------------------------------------------------------------------------------


def test_fish_from_several_ships_in_one_action_one_hour_each_then_done() -> None:
    s = scenario(
        turn=0,
        clear_fish=True,
        ships=(["b3", "b6", "a2"], ["a3", "a5", "a7"]),
        tiles=["b3", "b6"],
        fish={"c3": "red", "c6": "blue", "n1": "red"},
        time=(3, 7),
    )
    play(s, "fish c6")
    assert s.data.phase == "fishing"
    assert sorted(str(a) for a in s.legal()) == ["done", "fish c3"]
    play(s, "fish c3")
    assert s.data.time[0] == 1 and s.data.catch[0][COL["red"]] == 1 and s.data.catch[0][COL["blue"]] == 1


def test_fish_needs_an_hour_per_fish() -> None:
    s = scenario(
        turn=0,
        clear_fish=True,
        ships=(["b3", "b6", "a2"], ["a3", "a5", "a7"]),
        tiles=["b3", "b6"],
        fish={"c3": "red", "c6": "blue"},
        time=(1, 7),
    )
    play(s, "fish c6")
    assert s.data.time[0] == 0 and s.data.phase == "lobster"  # no hour left: the action ends
    z = scenario(
        turn=0,
        clear_fish=True,
        ships=(["b3", "b6", "a2"], ["a3", "a5", "a7"]),
        tiles=["b3"],
        fish={"c3": "red"},
        time=(0, 7),
    )
    assert not any(isinstance(a, Fish) for a in z.legal())
    assert z.why_illegal(Fish("c3")) == "Fishing costs 1 hour per fish; you have 0"


# ---- preserve -----------------------------------------------------------------------------


def _with_fish(s: FisheriesState, seat: int, **counts: int) -> FisheriesState:
    for colour, n in counts.items():
        s.data.catch[seat][COL[colour]] = n
    return rebuild(s)


def _top(s: FisheriesState, card: str) -> FisheriesState:
    for st in s.data.stacks:
        if card in st.rest:
            st.rest.remove(card)
            st.rest.append(st.top)  # type: ignore[arg-type]
            st.top = card
    return rebuild(s)


def test_preserve_requirements_same_different_and_coloured() -> None:
    s = _with_fish(scenario(turn=0), 0, silver=3, blue=1, black=1, red=0)
    s = _top(_top(_top(_top(s, "P01"), "P05"), "P08"), "P10")
    pres = {(a.card, a.fish) for a in s.legal() if isinstance(a, Preserve)}
    assert ("P01", ("silver",)) in pres
    assert ("P05", ("silver", "silver")) in pres and ("P05", ("blue", "blue")) not in pres
    assert ("P10", ("silver", "silver", "silver")) in pres
    assert ("P08", ("black", "blue")) in pres and ("P08", ("blue", "silver")) in pres
    assert ("P11", ("black", "blue", "silver")) in pres
    assert not any(c == "P14" for c, _ in pres)  # no red: 4 different is out of reach
    assert s.why_illegal(Preserve("P05", ("blue", "silver"))) == "P05 needs 2 fish of the same colour"
    assert s.why_illegal(Preserve("P14", ("black", "blue", "red", "silver"))) == "you do not have 1 red fish"


def test_preserve_once_a_day_even_with_a_lobster() -> None:
    s = _top(_with_fish(scenario(turn=0), 0, silver=2, blue=1), "P01")
    play(s, "preserve P01 silver", "lobster")
    assert s.data.preserved[0] and s.current == 0 and s.data.double
    assert not any(isinstance(a, Preserve) for a in s.legal())
    assert "only once per day" in s.why_illegal(Preserve("P06", ("silver", "silver")))
    assert "cannot be the lobster's extra action" in s.why_illegal(EndDay("first"))
    assert Pass() in s.legal()
    assert s.data.time[0] == 7  # P01's sand timer: +1 hour


def test_preserve_takes_the_card_and_the_next_is_revealed_by_chance() -> None:
    s = _top(_with_fish(scenario(turn=0), 0, silver=1), "P01")
    s.apply(Preserve("P01", ("silver",)))
    assert s.current == CHANCE
    assert sorted(a.card for a, _ in s.chance_outcomes()) == ["P02", "P03", "P04"]
    settle(s)
    assert s.data.earned[0] == ["P01"] and s.data.spent[COL["silver"]] == 1


def test_preserve_sand_timer_is_capped_at_twelve() -> None:
    s = _top(_with_fish(scenario(turn=0, time=(11, 7)), 0, red=4, silver=1, blue=1, black=1), "P14")
    play(s, "preserve P14 black,blue,red,silver")
    assert s.data.time[0] == 12


def test_preserve_ship_power_cannot_be_raised_with_time_and_is_optional() -> None:
    s = _top(
        _with_fish(
            scenario(turn=0, ships=(["b4", "a2", "a6"], ["a3", "a5", "a7"]), tiles=["b4", "b5"], time=(12, 7)),
            0,
            blue=1,
        ),
        "P02",
    )
    play(s, "preserve P02 blue")
    assert s.data.phase == "bonus" and s.data.bonus_move == 1
    moves = {(a.frm, a.to) for a in s.legal() if isinstance(a, BonusSail)}
    assert ("b4", "b5") in moves and ("b4", "c4") not in moves  # rough water needs power 2
    assert "the card gives 1 (time cannot add to it)" in s.why_illegal(BonusSail("b4", "c4"))
    play(s, "done")
    assert s.data.phase == "lobster" and s.data.time[0] == 12 and s.data.ships[0][0] == cell("b4")


@pytest.mark.parametrize(
    "order", [("bsail b4 b5", "btile b3"), ("btile b3", "bsail b4 b5"), ("btile b3", "done"), ("bsail b4 b5", "done")]
)
def test_preserve_ship_and_tile_in_either_order_or_only_one(order: tuple[str, str]) -> None:
    s = _top(
        _with_fish(scenario(turn=0, ships=(["b4", "a2", "a6"], ["a3", "a5", "a7"]), tiles=["b4", "b5"]), 0, black=1),
        "P03",
    )
    general = s.data.general[0]
    play(s, "preserve P03 black", order[0])
    assert s.data.phase == "bonus"
    play(s, order[1])
    assert s.data.phase == "lobster"
    placed = "btile b3" in order
    assert s.data.cover[cell("b3")] == placed
    assert s.data.general[0] == general - placed
    assert (s.data.ships[0][0] == cell("b5")) == ("bsail b4 b5" in order)


def test_a_tile_on_no_squares_is_refused_in_words() -> None:
    s = scenario(turn=0, supply={"1sq": 1})
    before = s.digest()
    with pytest.raises(IllegalAction, match="name the squares"):
        s.apply(G.parse_action("chart 1sq ()"))
    s = _top(
        _with_fish(scenario(turn=0, ships=(["b4", "a2", "a6"], ["a3", "a5", "a7"]), tiles=["b4", "b5"]), 0, black=1),
        "P03",
    )
    play(s, "preserve P03 black")
    assert s.data.phase == "bonus"
    before = s.digest()
    with pytest.raises(IllegalAction, match="name the squares"):
        s.apply(G.parse_action("btile ()"))
    assert s.digest() == before
    assert not shape_matches(CTX, "1sq", ())


def test_a_tampered_record_with_an_empty_tile_gives_the_record_error() -> None:
    from coldwater.core import record
    from coldwater.core.errors import RecordError

    s = G.new(2, seed="tamper")
    rec = record.start(G, s)
    while s.current == CHANCE:
        a = s.sample_chance()
        seat = s.current
        s.apply(a)
        record.append(rec, seat, a, s)
    rec.entries.append(record.Entry(s.current, "chart 1sq ()", s.digest()))
    with pytest.raises(RecordError, match="illegal"):
        record.replay(rec)


def test_helm_cards_score_at_game_end() -> None:
    s = scenario(turn=0)
    s.data.earned[0] = ["P13", "P04"]
    s.data.earned[1] = ["P09"]
    sc = rebuild(s).scores()
    assert sc.rows[0][:3] == (6, 3, 0) and sc.totals[0] == 9
    assert sc.totals[1] == 4 and not sc.final


# ---- lobster ------------------------------------------------------------------------------


def test_lobster_gives_an_immediate_second_action_once_per_game() -> None:
    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]), supply={"1sq": 3})
    play(s, "chart 1sq b2", "lobster", "chart 1sq b4")
    assert s.data.lobster[0] == 0 and s.current == 1
    play(s, "end first")
    play(s, "chart 1sq b6")
    assert s.current == 0 and s.data.phase == "turn"  # opponent ended: no lobster question, no lobster anyway
    with pytest.raises(IllegalAction, match="already used your lobster"):
        s.apply(Lobster())


def test_lobster_question_is_skipped_once_the_opponent_has_ended() -> None:
    s = scenario(turn=1, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]), supply={"1sq": 3})
    play(s, "end second")
    play(s, "chart 1sq b2")
    assert s.data.phase == "turn" and s.current == 0 and s.data.lobster[0] == 1


# ---- ending the day ----------------------------------------------------------------------


def test_first_to_end_takes_initiative_and_chooses_order_other_keeps_acting() -> None:
    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]))
    assert {str(a) for a in s.legal() if isinstance(a, EndDay)} == {"end first", "end second"}
    play(s, "end second")
    assert s.data.took_initiative == 0 and s.data.initiative == 0 and s.current == 1
    assert [str(a) for a in s.legal() if isinstance(a, EndDay)] == ["end"]
    assert "already took the initiative card" in s.why_illegal(EndDay("first"))
    play(s, "end")
    while s.data.phase == "keep":
        play(s, str(s.legal()[0]))
    assert s.data.day == 2 and s.current == 1  # seat 1 goes first, as seat 0 chose second
    assert s.data.initiative == -1  # the card went back to the supply


def test_keep_at_most_one_tile_overnight() -> None:
    s = scenario(turn=0, supply={"1sq": 2, "2sq": 1, "L3": 1})
    s.data.supply[1] = [0, 3, 0, 0]
    s = rebuild(s)
    general = list(s.data.general)
    play(s, "end first", "end")
    assert s.data.phase == "keep" and s.current == 0  # two shapes: seat 0 chooses
    assert sorted(str(a) for a in s.legal()) == ["keep -", "keep 1sq", "keep 2sq", "keep L3"]
    assert s.data.supply[1] == [0, 1, 0, 0]  # one shape: kept one, two returned
    s.apply(Keep("L3"))
    assert s.data.supply[0] == [0, 0, 0, 1]
    assert s.data.general == [general[0] + 2, general[1] + 3, general[2], general[3]]
    assert s.data.phase == "dawn"


def test_game_ends_after_six_days_with_scores_and_tie_breaks() -> None:
    s = settle(G.new(2, seed=5))
    for _ in range(6):
        assert s.data.phase == "turn"
        play(s, "end first")
        play(s, "end")
        while s.data.phase == "keep":
            play(s, "keep -")
    assert s.is_over and s.legal() == []
    sc = s.scores()
    assert sc.final and sc.totals == (0, 0)
    # All tied: the player who took the initiative card on the final day wins.
    assert sc.ranking[0] == s.data.took_initiative
    assert "initiative" in sc.outcome
    with pytest.raises(IllegalAction, match="the game is over"):
        s.apply(Done())
    s.data.catch[1 - s.data.took_initiative][0] = 1
    sc2 = rebuild(s).scores()
    assert sc2.ranking[0] == 1 - s.data.took_initiative and "fish left" in sc2.outcome


def test_islands_score_one_point_per_helm() -> None:
    s = scenario(turn=0, ships=(["n2", "k3", "h8"], ["n7", "a5", "a7"]))
    assert s.scores().rows[0][2] == 3 + 2 + 1 and s.scores().rows[1][2] == 3


def test_describe_gives_log_text() -> None:
    s = scenario(turn=1, ships=(["g1", "h7", "c4"], ["f1", "m4", "m5"]), tiles=["f1", "g1", "g2"])
    assert s.describe(Sail("f1", "h2")) == "Seat 2 sails f1 to h2 (5 hours)"
    assert s.describe(EndDay("first")).startswith("Seat 2 ends the day first")
    assert "catches" in s.describe(Fish("e2"))
    assert s.describe(BonusTile(("b3",))) and s.describe(Done())


def test_ui_helpers_name_squares_and_preview_moves() -> None:
    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]), supply={"2sq": 1})
    assert s.cell_name(1, 0) == "a2" and s.cell_coords("n8") == (7, 13)
    with pytest.raises(ValueError):
        s.cell_coords("z9")
    previews = s.chart_options("2sq")
    assert previews and all(Chart("2sq", p) in s.legal() for p in previews)
    assert s.chart_options("nope") == [] and s.sail_options("h4") == {}


def test_short_general_supply_serves_the_first_player_first() -> None:
    s = _to_phase(G.new(2, seed=2), "dawn")
    first = s.data.first
    s.data.general[CTX.shape_index["I3"]] = 1
    s = rebuild(s)
    s.apply(Flip("C6"))
    assert s.data.supply[first][CTX.shape_index["I3"]] == 1
    assert s.data.supply[1 - first][CTX.shape_index["I3"]] == 0


def test_greedy_bot_is_deterministic_given_its_rng() -> None:
    from coldwater.core.rng import Rng

    s = settle(G.new(2, seed=9, options={"board": "B"}))
    bot = G.bot("greedy")
    picks = {str(bot.choose(s.view(s.current), Rng(1))) for _ in range(3)}
    assert len(picks) == 1 and G.parse_action(picks.pop()) in s.legal()
    with pytest.raises(ValueError, match="unknown bot"):
        G.bot("clever")


def test_text_picture_of_the_board() -> None:
    from coldwater.core.fisheries.explain import render

    s = scenario(turn=0, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]))
    pic = render(s).splitlines()
    assert pic[0].split() == [chr(ord("a") + c) for c in range(14)]
    assert pic[2].split()[1] == "X" and pic[3].split()[1] == "O" and "day 1" in pic[-1]
