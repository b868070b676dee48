"""The Crown table's words, defaults, previews and board drawing, without a terminal.

``tui/games/crown/words.py`` and ``board.py`` are pure functions of a view, so
these tests build positions with the engine's test helpers (or play random games
from the core) and check the results directly: no ``run_test()``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from coldwater.core.crown import casting
from coldwater.core.crown.actions import CODEC, Catch, Discard, EndTurn, Lure, Place, Route, TakeTackle
from coldwater.core.crown.game import GAME
from coldwater.core.crown.model import COLOURS, CrownData, MAProgress, Pending, Tackle
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE
from coldwater.tui.games.crown import board as draw
from coldwater.tui.games.crown import log, names, preview, words
from tests.core.crown.helpers import board, card, refresh, set_zones, started

T = GAME.tables
NAMES = ["Ada", "Bo", "Cy", "Di"]


def steps(players: int, seed: str) -> Iterator[tuple[Any, Any, int, Any]]:
    """(view before, view after, seat, action) for each step of a random game, seen by seat 0."""
    state = GAME.new(players, seed=seed)
    bots = [GAME.bot("random") for _ in range(players)]
    rng = Rng(f"wording {seed}")
    while not state.is_over:
        cur = state.current
        action = state.sample_chance() if cur == CHANCE else bots[cur].choose(state.view(cur), rng.fork(state.ply))
        before = state.view(0)
        state.apply(action)
        yield before, state.view(0), cur, action


# ---- no traps ------------------------------------------------------------------------


def owed_catch(line: bool = False, rod: bool = False) -> Any:
    """Seat 0 has just emptied Zone 4 with a red bait (a Lake catch), holding a Line and/or a Rod."""
    s = started(2, seed="wording")
    d: CrownData = s.data
    p = d.parties[0]
    d.tackle_stack += [t.kind for t in p.tackle]  # the setup piece goes back on the stack
    p.tackle = ([Tackle("line")] if line else []) + ([Tackle("rod")] if rod else [])
    for t in p.tackle:  # keep the pieces accounted for: take them off the stack
        if t.kind in d.tackle_stack:
            d.tackle_stack.remove(t.kind)
        elif t.kind in d.tackle_discard:
            d.tackle_discard.remove(t.kind)
    d.phase = "catch"
    d.step = 1
    d.pending = [Pending(4, 1)]
    board(s, "lake", 4, card("perch", 3))
    refresh(s)
    return s


def test_the_highlighted_catch_never_plays_tackle() -> None:
    s = owed_catch(line=True, rod=True)
    legal = s.legal()
    assert any(preview.tackle_used(s.data, a) for a in legal if isinstance(a, Catch)), "the test needs tackle choices"
    ordered = words.order(legal)
    pre = words.preferred(s.data, T, ordered)
    assert pre is not None
    chosen = ordered[pre]
    assert chosen == Catch(4, "lake", 4)
    assert not words.spends(s.data, chosen)
    assert words.label(s.data, T, chosen, 0) == "The Perch (Lake Zone 4) for your Zone 4"
    line_catch = next(a for a in legal if isinstance(a, Catch) and a.at != a.zone and a.loc == "lake")
    assert words.spends(s.data, line_catch)
    assert "plays your Line" in words.label(s.data, T, line_catch, 0)


def test_a_catch_previews_the_fish_and_the_tackle_it_uses() -> None:
    s = owed_catch(line=True)
    d: CrownData = s.data
    text = preview.preview(d, T, Catch(4, "lake", 4))
    assert text.startswith("you catch the Perch") and "uses" not in text
    line_catch = next(a for a in s.legal() if isinstance(a, Catch) and a.at != a.zone)
    assert preview.preview(d, T, line_catch).endswith("uses your Line")


def test_the_zone5_bonus_highlights_taking_the_tackle() -> None:
    s = owed_catch()
    s.data.offer_tackle = True
    refresh(s)
    ordered = words.order(s.legal())
    pre = words.preferred(s.data, T, ordered)
    assert pre is not None and ordered[pre] == TakeTackle(True)
    assert words.spends(s.data, TakeTackle(False))


def test_ending_the_turn_and_tackle_plays_are_never_highlighted() -> None:
    s = started(2, seed="wording")
    d: CrownData = s.data
    ordered = words.order([EndTurn(), Lure(3, "red", 4, "blue")])
    assert words.preferred(d, T, ordered) is None
    assert ordered[-1] == EndTurn()  # the done action comes last, the frame gives it its key


def route_position(cards: list[tuple[int, list[int]]]) -> Any:
    """Seat 0 is placing a cast red bait, attempting these Master Angler cards (card, filled colours)."""
    s = started(2, seed="wording")
    d: CrownData = s.data
    for c, _ in cards:
        if c in d.ma_row:
            d.ma_row.remove(c)
        else:
            d.ma_deck.remove(c)
    d.parties[0].ma = [MAProgress(c, filled) for c, filled in cards]
    d.phase = "route"
    d.step = 1
    d.colour = 1
    d.route_left = 1
    d.bag[1] -= 1  # the bait being cast, and those on the filled spots, come out of the bag
    for _, filled in cards:
        for c in filled:
            d.bag[c] -= 1
    refresh(s)
    return s


def red_cards(n: int) -> list[int]:
    return [c for c in range(1, 31) if 1 in T.ma_spots[c]][:n]


def test_one_card_for_a_cast_bait_is_the_only_sensible_answer() -> None:
    (c,) = red_cards(1)
    s = route_position([(c, [])])
    legal = s.legal()
    assert set(legal) == {Route(c), Discard()}
    assert words.sensible(s.data, T, legal) == Route(c)
    assert words.repeat_key(s.data, legal) == "route red"


def test_with_two_cards_the_closer_one_is_highlighted_and_nothing_is_discarded() -> None:
    a, b = red_cards(2)
    other = next(x for x in T.ma_spots[b] if x != 1)
    s = route_position([(a, []), (b, [other])])
    legal = s.legal()
    assert words.sensible(s.data, T, legal) is None
    ordered = words.order(legal)
    pre = words.preferred(s.data, T, ordered)
    assert pre is not None and ordered[pre] == Route(b)
    assert words.label(s.data, T, Route(b), 0).startswith(f"Onto your {names.ma_name(T, b)}")


# ---- words, not ids ------------------------------------------------------------------

ID_LIKE = re.compile(r"card \d|MA\d|\b\d+ legal|Seat \d|_")


@pytest.mark.parametrize("players, seed", [(1, "w1"), (3, "w3")])
def test_every_choice_of_a_game_is_named_in_words(players: int, seed: str) -> None:
    seen: set[str] = set()
    for before, _, seat, action in steps(players, seed):
        if seat == CHANCE:
            continue
        d: CrownData = before.data
        text = words.label(d, T, action, 0)
        assert text and not ID_LIKE.search(text), text
        assert text != str(action)
        assert words.group(d, T, action) or words.tag_of(action) == "end"
        prompt = words.prompt(d, T, before.legal())
        assert prompt != "Your choice", action
        seen.add(words.tag_of(action))
    assert {"place", "remove", "end"} <= seen


def test_engine_log_lines_name_master_angler_cards_by_fish() -> None:
    lines = []
    for before, _, seat, action in steps(2, "ma words"):
        lines.append(before.describe(action))
    text = "\n".join(lines)
    assert "Master Angler card (" in text
    assert not re.search(r"Master Angler card \d", text)


# ---- previews and standings --------------------------------------------------------


def test_placing_previews_which_fish_an_emptied_zone_catches() -> None:
    s = started(2, seed="wording")
    d: CrownData = s.data
    set_zones(s, 0, {3: "green,blue", 4: "red", 5: "", 6: ""})
    board(s, "lake", 4, card("perch", 3))
    d.parties[0].token = 1
    refresh(s)
    assert Place("red") in s.legal() or d.tokens[4], "red must be open for this test"
    text = preview.space_preview(d, T, 0, "red", 1)
    assert text == "casts 1 red; empties Zone 4 → the Perch"
    assert preview.space_preview(d, T, 0, "yellow", 2) == "casts nothing: you have no yellow bait"
    assert preview.space_preview(d, T, 0, "port", 2) == "two Port actions"


def test_a_cast_preview_counts_the_open_spots_as_the_engine_routes_them() -> None:
    """A card may ask for one colour twice (MA16: red, red, green, blue): with one red on it, a red
    still has a spot there, as the engine's routing says (words once counted it full)."""
    s = started(2, seed="wording")
    d: CrownData = s.data
    set_zones(s, 0, {3: "red,green", 4: "blue", 5: "", 6: ""})
    (d.ma_row if 16 in d.ma_row else d.ma_deck).remove(16)
    d.parties[0].ma = [MAProgress(16, [COLOURS.index("red")])]
    d.bag[COLOURS.index("red")] -= 1  # the red on its spot came out of the bag
    refresh(s)
    assert casting.open_cards(T, d.parties[0], COLOURS.index("red")) == [16]
    assert preview.space_preview(d, T, 0, "red", 1) == "casts 1 red; 1 can go on your Master Angler cards"
    d.parties[0].ma[0].filled.append(COLOURS.index("red"))
    assert preview.space_preview(d, T, 0, "red", 1) == "casts 1 red"


def test_standings_give_your_contest_weights_and_everyones_points() -> None:
    s = started(2, seed="wording")
    from tests.core.crown.helpers import give_fish

    give_fish(s, 0, [card("perch", 3), card("pike", 8), card("roach", 5)])
    refresh(s)
    line = words.standings(s.data, T, ["Ada", "Bo"], 0)
    assert "Weights now: Shore 0 · Lake 11 · River 5" in line
    assert "you: 0 · Bo: 0" in line
    # The public view (behind a hotseat hand-over) has no weights to give.
    public = words.standings(s.view(None).data, T, ["Ada", "Bo"], None)
    assert "Weights" not in public and "Ada: 0 · Bo: 0" in public


# ---- announcements ----------------------------------------------------------------


@pytest.mark.parametrize("players, seed", [(1, "a1"), (3, "a3"), (4, "a4")])
def test_every_trophy_master_angler_catch_and_the_end_are_announced(players: int, seed: str) -> None:
    lines: list[str] = []
    final: Any = None
    for before, after, seat, action in steps(players, seed):
        lines += log.announcements(before.data, after.data, T, NAMES[:players])
        if (
            seat == CHANCE
            and before.data.tasks
            and before.data.tasks[0].kind == "silent"
            and str(action).startswith("bait")
        ):
            said = log.silent_turn(
                before.data,
                after.data,
                T,
                names.BAIT_LETTERS.index("W")
                if action.colour == "white"
                else ["blue", "red", "purple", "black", "green", "yellow"].index(action.colour),
            )
            assert said.startswith("Silent player draws")
        final = after
    d: CrownData = final.data
    labels = names.names_of(NAMES[:players], len(d.parties))
    text = "\n".join(lines)
    for i, p in enumerate(d.parties):
        for t in p.trophies:
            if t.kind in ("shore", "lake", "river"):
                assert re.search(rf"{t.kind.title()} contest: .*{labels[i]} \d+ lb → {t.points} points", text), (
                    t,
                    text,
                )
            elif t.kind == "mystery_weight":
                assert f"{labels[i]} wins the Mystery Weight trophy" in text
            elif not (p.silent and t.kind == "small_species"):  # the silent player starts with it
                assert f"{labels[i]} wins the {names.TROPHY_NAMES[t.kind]} trophy" in text
        caught = sum(1 for line in lines if line.startswith(f"{labels[i]} catches the"))
        assert caught == len(p.ma_done) or p.silent
    assert sum("The end is triggered" in line for line in lines) == 1


def test_chance_lines_are_gathered() -> None:
    out = log.summarize_chance(
        [
            "the Lake deck now shows a Pike",
            "the Shore deck now shows a Wrasse",
            "a red bait is drawn from the bag",
            "a blue bait is drawn from the bag",
            "the Ray Master Angler card (K Y G P) is turned face up",
            "Seat 1 draws a tackle piece",
        ]
    )
    assert out == [
        "decks now show: Lake Pike, Shore Wrasse",
        "bait drawn: red, blue",
        "turned up in the Master Angler row: Ray",
        "Seat 1 draws a tackle piece",
    ]


# ---- the board ---------------------------------------------------------------------


@functools.cache
def sampled_positions() -> tuple[Any, ...]:
    """Every 97th position of one 4-player game, seen by seat 0 (played once for all widths)."""
    out = [after for n, (_, after, _, _) in enumerate(steps(4, "board rows")) if n % 97 == 0]
    return tuple(out)


@pytest.mark.parametrize(
    "width, full", [(60, False), (60, True), (77, False), (77, True), (118, True), (142, False), (196, False)]
)
def test_board_rows_never_wrap_and_every_part_is_there(width: int, full: bool) -> None:
    from rich.console import Console

    for after in sampled_positions():
        renderable, parts, rows = draw.render(after.data, T, NAMES, 0, after.current, width, full)
        keys = {p.key for p in parts}
        assert {"you", "ring", "grounds", "masters", "extras", "trophies", "party1", "party2", "party3"} <= keys
        for p in parts:
            for line in p.lines:
                assert line.cell_len <= width, (p.key, line.plain)
        console = Console(width=width, color_system=None, legacy_windows=False)
        with console.capture() as cap:
            console.print(renderable)
        lines = cap.get().splitlines()
        assert len(lines) == rows  # the height the widget gives Textual is the height drawn
        assert all(len(r.rstrip()) <= width for r in lines)
        # What is drawn is what the parts say: no part's first line broken over two rows.
        for p in parts:
            first = p.lines[0].plain.strip()[:20]
            assert any(first in r for r in lines), (p.key, first)


def test_the_ring_shows_every_space_clockwise_with_its_token() -> None:
    s = started(3, seed="ring")
    line = draw.ring_line(s.data).plain
    order = [line.index(name) for name in ("Port", "Purple", "Green", "Blue", "Red", "Yellow", "Black")]
    assert order == sorted(order) and line.endswith("↺")
    assert line.count("[1]") == 3  # the three tokens placed at setup
    drawing = "\n".join(t.plain for t in draw.ring_drawing(s.data))
    assert all(name in drawing for name in ("Port", "Purple", "Green", "Blue", "Red", "Yellow", "Black"))


def test_other_players_fish_weights_stay_hidden() -> None:
    s = started(2, seed="hidden")
    from tests.core.crown.helpers import give_fish

    give_fish(s, 1, [card("pike", 8)])
    refresh(s)
    _, parts, _ = draw.render(s.view(0).data, T, ["Ada", "Bo"], 0, 0, 196)
    bo = next(p for p in parts if p.key == "party1")
    assert "Pike" in draw.text_of([bo]) and "8" not in draw.text_of([bo]).split("Pike", 1)[1][:4]
    _, mine, _ = draw.render(s.view(1).data, T, ["Ada", "Bo"], 1, 0, 196)
    assert "Pike 8" in draw.text_of([p for p in mine if p.key == "you"])


def test_notation_of_routes_round_trips_for_labels() -> None:
    # A guard for the label fallback: every decision's label comes from wording, not notation.
    assert words.tag_of(CODEC.parse("route 3")) == "route"


def test_a_master_angler_card_to_take_is_named_with_its_spots_first() -> None:
    """Issue 45: "4 Take the Conger Eel Master Angler" (cut at 80 columns) did not say which:
    the spots that tell two cards of one fish apart come right after its name."""
    from coldwater.core import games as registry
    from coldwater.core.crown.actions import Take

    game = registry.get("crown")
    T = game.tables  # type: ignore[attr-defined]
    for before, _, _seat, _action in steps(2, "ma words"):
        takes = [a for a in before.legal() if isinstance(a, Take)]
        if takes:
            text = words.label(before.data, T, takes[0], 0)
            name = names.ma_name(T, takes[0].card)
            assert text.startswith(f"Take the {name} ({names.spots_letters(T, takes[0].card)})"), text
            return
    raise AssertionError("no Master Angler card to take came")


def test_the_standings_weights_are_the_contests_own_count() -> None:
    """The weights the standings show are what the contests count (core/crown/contests.weight), in the
    order Shore, Lake, River: at the end, each seat's submitted fish at each location."""
    from coldwater.core import record
    from coldwater.core.simulate import simulate

    res = next(simulate(GAME, 3, 1, "weights", bot="greedy", records=True))
    assert res.record is not None
    d: CrownData = record.replay(res.record).data
    T = words.tables_of(GAME)
    for seat in range(3):
        fish = d.parties[seat].submitted
        shore, river, lake = (
            sum(T.weight[f.card] for f in fish if f.card is not None and T.species_location[f.species] == li)
            for li in range(3)
        )
        assert words.contest_weights(d, T, seat) == (shore, lake, river)
    assert any(d.parties[s].submitted for s in range(3))  # (the game reached its contests)
