"""The Fisheries table's words and cursor, without a terminal (pure modules)."""

from __future__ import annotations

import re
from typing import Any

from coldwater.core import games
from coldwater.core.fisheries.actions import Lobster, Pass
from coldwater.core.state import CHANCE
from coldwater.tui.games.fisheries import cursor, info, words
from coldwater.tui.games.fisheries.words import UiCmd, tag_of

GAME = games.get("fisheries")
CTX = info.ctx_of(GAME)
CARD_ID = re.compile(r"\b[PC]\d\d\b")


def to_person(state: Any) -> Any:
    """Resolve chance until a seat must decide."""
    while state.current == CHANCE:
        state.apply(state.sample_chance())
    return state


def first_turn() -> Any:
    return to_person(GAME.new(players=2, seed=7))


def after_a_tile() -> Any:
    """The first player has charted a tile and holds a lobster: the lobster question."""
    s = first_turn()
    s.apply(next(a for a in s.legal() if tag_of(a) == "chart"))
    return to_person(s)


def test_cards_are_described_never_named_by_id() -> None:
    for card in CTX.cards:
        for text in (words.card_short(CTX, card), words.card_medium(CTX, card), words.card_long(CTX, card)):
            assert not CARD_ID.search(text), text
            assert "VP" in text and "→" in text
        assert len(words.card_short(CTX, card)) <= 27  # fits the column beside the small grid


def test_first_step_choices_group_and_open_the_cursor() -> None:
    s = first_turn()
    choices = words.top_choices(CTX, s, s.legal())
    kinds = {tag_of(c.value) for c in choices}
    assert {"ui:place", "end"} <= kinds
    assert all(c.group for c in choices)
    n = words.default_index(s.data, choices)
    assert n is not None and isinstance(choices[n].value, UiCmd)  # choosing where costs nothing yet
    ends = [c for c in choices if tag_of(c.value) == "end"]
    assert ends and all(words.is_costly(s.data, c.value) is False for c in ends)
    assert "hours" in ends[0].label


def test_the_lobster_question_has_no_default() -> None:
    """Keeping the lobster ends the turn (it is the done action, on e) and discarding it
    spends it: neither is highlighted, so Enter alone does neither (issue #30)."""
    s = after_a_tile()
    assert s.data.phase == "lobster"
    choices = words.top_choices(CTX, s, s.legal())
    assert words.default_index(s.data, choices) is None
    assert any(c.value == Pass() and c.label == "Keep your lobster" for c in choices)
    assert words.is_costly(s.data, Lobster()) and not words.is_costly(s.data, Pass())
    assert words.lobster_buys_something(s)  # tiles and hours are left: the question matters
    assert "lobster" in words.prompt(CTX, s.data)
    t = s.clone()
    t.apply(Lobster())
    assert words.step_note(CTX, t.data) == "action 2 of 2 (lobster)"


def test_a_lobster_that_buys_nothing_is_recognised() -> None:
    s = after_a_tile()
    d = s.data
    seat = d.turn
    d.time[seat] = 0  # no hours: no sail, no fish
    d.supply[seat] = [0] * len(d.supply[seat])  # no tiles to chart
    d.catch[seat] = [0] * len(d.catch[seat])  # nothing to preserve with
    s._legal = None
    s._legal_set = None
    assert not words.lobster_buys_something(s)


def test_standings_and_announcements() -> None:
    s = first_turn()
    assert words.standings(CTX, s.data) == "Seat 1 0 pt · Seat 2 0 pt"
    before = s.data
    after = s.clone().data
    after.ended[before.turn] = True
    lines = words.announcements(CTX, before, after)
    assert lines == [f"Seat {before.turn + 1} has ended the day; Seat {2 - before.turn} plays on alone"]


def test_tile_cursor_commits_only_legal_placements() -> None:
    s = first_turn()
    shape = next(a.shape for a in s.legal() if tag_of(a) == "chart")
    m = cursor.open_mode(CTX, s, UiCmd("place", shape), s.ply)
    assert m is not None and m.action(CTX) in s.legal()
    ov = cursor.overlay(CTX, s, m)
    assert ov.ghost_ok and ov.message.startswith("✓")
    for _ in range(20):
        m.move(CTX, -1, -1)  # into the shore in the top-left corner
    assert m.action(CTX) is None
    m.refused = True
    ov = cursor.overlay(CTX, s, m)
    assert not ov.ghost_ok and ov.bad and ov.message.startswith("✗")
    m.step(CTX, 1)
    assert m.action(CTX) in s.legal() and not m.refused
    seen = {m.index(CTX)}
    for _ in range(len(m.order)):
        m.step(CTX, 1)
        seen.add(m.index(CTX))
    assert seen == set(range(len(m.order)))  # n visits every legal spot


def with_a_sail() -> Any:
    """Chart tiles (keeping the lobster) until a ship can sail."""
    s = first_turn()
    for _ in range(40):
        if any(tag_of(a) == "sail" for a in s.legal()):
            return s
        legal = s.legal()
        s.apply(next((a for a in legal if tag_of(a) in ("chart", "pass")), legal[0]))
        s = to_person(s)
    raise AssertionError("no sail came")


def test_sail_cursor_shows_hours_and_fish_before_committing() -> None:
    s = with_a_sail()
    frm = next(a.frm for a in s.legal() if tag_of(a) == "sail")
    m = cursor.open_mode(CTX, s, UiCmd("sail", frm), s.ply)
    assert m is not None
    rows = cursor.mode_choices(CTX, s, m)
    assert rows and all(re.search(r" — \d+h", r.label) for r in rows)
    assert [r.value for r in rows] == [m.targets[c] for c in m.order]
    ov = cursor.overlay(CTX, s, m)
    assert "hour" in ov.message and ("fish there" in ov.message or "no fish" in ov.message)
    assert ov.path and m.action(CTX) in s.legal()
