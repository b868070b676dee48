"""Every worked example of the Fisheries of Gloucester rulebook, as a named test."""

from __future__ import annotations

import pytest

from coldwater.core.errors import IllegalAction
from coldwater.core.fisheries.actions import BonusSail, Chart, Fish, Preserve, Sail
from coldwater.core.fisheries.state import FisheriesState

from .helpers import CTX, G, cell, play, rebuild, scenario, settle


def _touching(cells: tuple[str, ...], ship: str) -> bool:
    return any(cell(c) in CTX.neighbours[cell(ship)] for c in cells)


def test_example_three_square_tile_next_to_green_ship_has_only_two_options() -> None:
    # Green's ship on start space a3: the shore (c2), rough water (c4), a fish
    # (d3) and the ships on a2/a4 leave the straight 3-square tile two places.
    s = scenario(turn=1, ships=(["a2", "a4", "a6"], ["a3", "a5", "a7"]), supply={"I3": 1})
    green = "a3"
    assert cell(green) in s.data.ships[1]
    options = [p for p in s.chart_options("I3") if _touching(p, green)]
    assert options == [("b2", "b3", "b4"), ("b3", "b4", "b5")]
    legal = [a for a in s.legal() if isinstance(a, Chart) and _touching(a.cells, green)]
    assert sorted(a.cells for a in legal) == options
    # And why the others are refused:
    assert s.why_illegal(Chart("I3", ("b3", "c3", "d3"))) == "that tile would cover a fish (d3)"
    assert s.why_illegal(Chart("I3", ("a3", "b3", "c3"))) == "that tile would cover a ship (a3)"
    assert s.why_illegal(Chart("I3", ("b1", "b2", "b3"))) == "that tile would cover the shore (b1)"
    assert s.why_illegal(Chart("L3", ("b3", "b4", "c4"))) == "you have no bent 3-square tile in your supply"


def _green_five_hours(time: int) -> FisheriesState:
    # Green (seat 2) on f1; yellow's ship on g1 to its right; a tile below it on
    # g2; rough water h2 to the right of that.
    return scenario(turn=1, ships=(["g1", "h7", "c4"], ["f1", "m4", "m5"]), tiles=["f1", "g1", "g2"], time=(6, time))


def test_example_green_spends_five_hours_through_yellow_ship_into_rough_water() -> None:
    s = _green_five_hours(6)
    opts = s.sail_options("f1")
    assert opts["h2"] == (5, ("g1", "g2", "h2"))
    assert "g1" not in opts  # may not stop on the yellow ship
    assert opts["g2"] == (3, ("g1", "g2"))
    s.apply(Sail("f1", "h2"))
    assert s.data.time[1] == 1
    assert cell("h2") in s.data.ships[1]


def test_example_green_cannot_afford_five_hours_with_three() -> None:
    s = _green_five_hours(3)
    before = s.to_text()
    with pytest.raises(IllegalAction, match="Sailing there costs 5 hours; you have 3"):
        s.apply(Sail("f1", "h2"))
    assert s.to_text() == before
    assert "may pass through another ship's space but never stop there" in s.why_illegal(Sail("f1", "g1"))


def test_example_yellow_catches_silver_and_blue_but_not_diagonal_black() -> None:
    s = scenario(
        turn=0,
        clear_fish=True,
        ships=(["e4", "a2", "a4"], ["a3", "a5", "a7"]),
        tiles=["e4"],
        fish={"e3": "silver", "f4": "blue", "f5": "black"},
        time=(6, 7),
    )
    fishes = sorted(a.cell for a in s.legal() if isinstance(a, Fish))
    assert fishes == ["e3", "f4"]
    assert "diagonals do not count" in s.why_illegal(Fish("f5"))
    play(s, "fish e3")
    assert s.data.phase == "fishing" and s.data.time[0] == 5
    play(s, "fish f4")  # nothing left in reach: the action ends by itself
    assert s.data.time[0] == 4
    assert s.data.catch[0][CTX.colour_index["silver"]] == 1 and s.data.catch[0][CTX.colour_index["blue"]] == 1
    assert s.data.phase == "lobster"


def test_example_three_blue_fish_take_card_move_a_ship_one_space_score_four() -> None:
    s = scenario(turn=0, ships=(["b3", "a2", "a4"], ["a3", "a5", "a7"]), tiles=["b3", "b2"])
    d = s.data
    d.catch[0][CTX.colour_index["blue"]] = 3
    for st in d.stacks:
        if "P09" in st.rest:
            st.rest.remove("P09")
            st.rest.append(st.top)  # type: ignore[arg-type]
            st.top = "P09"
    s = rebuild(s)
    s.apply(Preserve("P09", ("blue", "blue", "blue")))
    settle(s)  # the card beneath is revealed
    assert s.data.catch[0][CTX.colour_index["blue"]] == 0
    assert s.data.phase == "bonus"
    moves = sorted((a.frm, a.to) for a in s.legal() if isinstance(a, BonusSail))
    assert ("b3", "b2") in moves
    assert all(len(s.sail_options(f, 1)[t][1]) == 1 for f, t in moves)  # one space only
    time_before = s.data.time[0]
    play(s, "bsail b3 b2")
    assert s.data.time[0] == time_before  # the card's move costs no hours
    assert cell("b2") in s.data.ships[0]
    sc = s.scores()
    assert sc.rows[0][0] == 4


def test_example_going_first_with_two_hours_raises_time_to_eight() -> None:
    s = G.new(2, seed=3)
    settle(s)
    # Finish day 1 at once, leaving the first player 2 hours and the other 9.
    first = s.data.turn
    s.data.time = [0, 0]
    s.data.time[first] = 2
    s.data.time[1 - first] = 9
    s = rebuild(s)
    play(s, "end first")
    play(s, "end")
    while s.data.phase == "keep":
        play(s, "keep -")
    assert s.data.day == 2 and s.data.turn == first
    assert s.data.time[first] == 8
    assert s.data.time[1 - first] == 12  # 9 + 7, capped at 12


def test_example_fleet_rule_middle_ship_waits_for_bottom_ship() -> None:
    # Yellow: bottom ship on a7 (column 1), middle ship on d5 (column 4 = 1 + 3).
    s = scenario(
        turn=0, ships=(["a7", "d5", "b2"], ["a3", "a5", "m4"]), tiles=["d5", "e5", "b6", "b7", "b2"], time=(6, 7)
    )
    assert "e5" not in s.sail_options("d5")
    assert "fleet rule" in s.why_illegal(Sail("d5", "e5"))
    assert s.fleet_limits(0) == (1, 4)
    play(s, "sail a7 b7")
    assert s.data.ships[0] == [cell("b7"), cell("d5"), cell("b2")]
    after = scenario(
        turn=0, ships=(["b7", "d5", "b2"], ["a3", "a5", "m4"]), tiles=["d5", "e5", "b6", "b7", "b2"], time=(5, 7)
    )
    assert after.fleet_limits(0) == (2, 5)
    assert "e5" in after.sail_options("d5")
