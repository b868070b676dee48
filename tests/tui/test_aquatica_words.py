"""The Aquatica table's words and drawing, without a terminal (pure modules)."""

from __future__ import annotations

from typing import Any

from coldwater.core import games
from coldwater.core.aquatica import actions as A
from coldwater.core.aquatica.model import RIVAL
from coldwater.core.state import CHANCE
from coldwater.tui.games.aquatica import cards, draw, words

GAME = games.get("aquatica")
DECK = GAME.deck


def to_person(state: Any) -> Any:
    while state.current == CHANCE:
        state.apply(state.sample_chance())
    return state


def first_turn(module: str = "goals", players: int = 3) -> Any:
    opts = GAME.options_type(module=module)
    s = to_person(GAME.new(players=players, seed=11, options=opts))
    while s.data.phase == "kings" and s.current is not None:
        s.apply(s.legal()[0])
        s = to_person(s)
    return s


def test_every_character_says_what_it_does_not_its_name_twice() -> None:
    for c in range(len(DECK.char_name)):
        name = DECK.char_name[c]
        if not name:
            continue
        line = cards.char_line(DECK, c)
        assert line.startswith(f"{name}: ") and f"{name}: {name}" not in line, line


def test_ocean_rows_list_each_location_with_its_depths() -> None:
    s = first_turn()
    d = s.data
    sheet = draw.Sheet(DECK, 78)
    text = "\n".join(t.plain for t in draw.fit(sheet.ocean(d), 78))
    assert "Character row (price in coins)" in text and "Location row, bottom" in text
    for x in d.loc_top + d.loc_bottom:
        assert DECK.loc_name[x] in text
    assert text.count("Depths ") == len(d.loc_top + d.loc_bottom)
    assert all(len(line) <= 78 for line in text.splitlines())


def test_layout_never_wraps_and_uses_two_columns_when_wide() -> None:
    s = first_turn()
    names = ["Ann", "Bob", "Cy"]
    for width in (60, 78, 100, 140):
        sheet = draw.Sheet(DECK, (width - 2) // 2 if width >= draw.TWO_COLUMNS else width)
        parts = sheet.parts(s.data, names, 0)
        lines = draw.layout(parts, width, ("turn", "hand", "me", "ocean", "goals", "others"))
        assert all(line.cell_len <= width for line in lines), width
        text = "\n".join(line.plain for line in lines)
        assert "Your hand" in text and "The Ocean" in text and "Goals (spots score" in text
        assert "Bob · " in text and "Cy · " in text
    wide = draw.layout(draw.Sheet(DECK, 69).parts(s.data, names, 0), 140, ("hand", "ocean"))
    assert any("Your hand" in line.plain and "The Ocean" in line.plain for line in wide)


def test_ocean_alone_in_its_pane_is_not_titled_twice() -> None:
    """The Ocean pane's frame says "Ocean"; the part's own heading stays only beside the board."""
    s = first_turn()
    for width in (78, 140):
        parts = draw.Sheet(DECK, 78).parts(s.data, ["Ann", "Bob", "Cy"], 0)
        text = "\n".join(line.plain for line in draw.layout(parts, width, ("ocean",)))
        assert "The Ocean" not in text
        assert text.startswith("In the decks") and "Character row" in text


def test_fit_breaks_at_separators_with_an_indent() -> None:
    from rich.text import Text

    lines = draw.fit([Text("Alpha one · Beta two · Gamma three · Delta four")], 24)
    assert [line.plain for line in lines] == ["Alpha one · Beta two", "    Gamma three", "    Delta four"]


def test_costly_choices_and_standings() -> None:
    s = first_turn()
    assert words.is_costly(A.Buy(3)) and words.is_costly(A.Spend(3)) and words.is_costly(A.Flip(0))
    assert not words.is_costly(A.End()) and not words.is_costly(A.Scout())
    totals = s.scores().totals
    line = words.standings(s.data, totals)
    assert line == " · ".join(f"Seat {n + 1} {totals[n]} PP" for n in range(3))
    s.data.trigger = True
    assert words.standings(s.data, totals).endswith("· final round")


def test_announcements_name_goals_rival_and_the_end() -> None:
    s = first_turn(players=1)
    before = s.data
    after = s.clone().data
    after.tracks[0] = after.tracks[0] + [0]
    after.tracks[1] = after.tracks[1] + [RIVAL]
    after.trigger = True
    goal0, goal1 = cards.goal_name(DECK, after.goals[0]), cards.goal_name(DECK, after.goals[1])
    lines = words.announcements(DECK, before, after)
    assert lines == [
        f"Seat 1 claims the Goal {goal0}: {DECK.spots[0]} PP",
        f"The virtual rival's Manta takes the Goal {goal1} ({DECK.spots[0]} PP spot)",
        "The end is triggered: one last turn",
    ]


def test_step_note_counts_a_characters_effects() -> None:
    s = first_turn()
    play = next(a for a in s.legal() if isinstance(a, A.Play) and len(DECK.char_effs[a.card]) >= 2)
    s.apply(play)
    s = to_person(s)
    note = words.step_note(DECK, s.data)
    assert note.startswith("effect 1 of ")


def test_a_spent_frame_draws_no_empty_label() -> None:
    """A Location's Depth whose effect is spent while another seat answers it (an opponent's
    flip) drew 'Depth of Narwhal Channel:' with nothing after it; it now draws nothing."""
    from coldwater.core.aquatica.model import Eff, Frame

    d = first_turn().data
    d.stack = [Frame([], src=0, label="Depth of Somewhere")]
    assert draw.frame_text(DECK, d) is None
    d.stack = [Frame([Eff("power", 1)], src=0, label="Depth of Somewhere")]
    text = draw.frame_text(DECK, d)
    assert text is not None and text.plain.startswith("Depth of Somewhere: ▸")


def _milestones(players: int, options: dict[str, Any], seed: str) -> tuple[list[Any], Any, Any]:
    """Every milestone the words find over a whole simulated game, the final state and the words."""
    from coldwater.core import record
    from coldwater.core.simulate import simulate

    game = games.get("aquatica")
    res = next(simulate(game, players, 1, seed, bot="greedy", options=options, records=True))
    assert res.record is not None
    w = words.AqWords(game, [f"P{i}" for i in range(players)])
    _, before = record.initial_state(res.record, game)
    found = w.milestones(None, before)
    before = before.clone()
    for _, _, after in record.replay_iter(res.record, game):
        found += w.milestones(before, after)
        before = after.clone()
    return found, before, w


def test_every_goal_and_tribe_won_is_a_milestone_once() -> None:
    """The end screen's list (TableWords.milestones): each Goal or Tribe a seat holds at the end, once, by name."""
    for options in ({"module": "goals"}, {"module": "tribes"}):
        found, final, _ = _milestones(2, options, "milestones")
        for seat, p in enumerate(final.data.ps):
            goals = [m for m in found if m.seat == seat and m.text.startswith("Goal: ")]
            tribes = [m for m in found if m.seat == seat and m.text.startswith("Tribe: ")]
            assert (len(goals), len(tribes)) == (len(p.goals), len(p.tribes)), options
        assert any(m.seat >= 0 for m in found), options  # (a whole game wins something)


def test_the_solo_rival_s_mantas_are_milestones_and_its_result() -> None:
    found, final, w = _milestones(1, {"module": "goals"}, "rival")
    rival = [m for m in found if m.seat == -1]
    assert final.data.rival_placed > 0  # (this seed's rival placed its Mantas)
    assert len(rival) == final.data.rival_placed and all(m.who == words.RIVAL_NAME for m in rival)
    assert f"{final.data.rival_placed} of 4 Mantas" in w.rival_result(final)
