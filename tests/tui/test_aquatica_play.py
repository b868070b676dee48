"""Whole Aquatica games through the real app.

One whole game by keyboard (80×24, three seats, Goals with the advanced kings)
asserts at every decision on the rendered screen that each part of the table is
on screen or behind its pane key, opening the panes every twelfth decision. The
160×50 Tribes game plays its first decisions the same way, then makes most of
the rest straight on the table the screen drives (``Table.submit``), handing
every tenth decision back to the screen, which must show the same position and
every part again and take the choice by its key; so each size is still checked
all through a game, at a fraction of the keys. The five-seat game checks the
five-seat layout (every board in the Players pane) on the screen, then plays the
same way. The other set-ups (hotseat, base solo, Tribes Solo) are driven through
the table screen's ``choose`` (no key presses), which is what a key ends up calling.

Choices come from a purposeful player (`sensible`: claim, recruit, scout, buy and
score when offered, skip extras) so games end in a few dozen turns, with every
few choices a wandering one (extras and skips too).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from coldwater.core.aquatica import actions as A
from coldwater.tui import keymap
from coldwater.tui.games.aquatica.board import AquaticaBoard
from coldwater.tui.games.aquatica.screen import AquaticaTableScreen
from coldwater.tui.keymap import CHOICE_KEYS
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.widgets.choices import ChoiceList

from .driver import by_table, key, key_until, page_down, settle, start_game
from .screen_text import screen_text

RANK: dict[type, int] = {
    A.PickKing: 0,
    A.Place: 0,
    A.Cut: 0,
    A.Rival: 0,
    A.OppFlip: 0,
    A.OppDiscard: 0,
    A.Flip: 1,
    A.Exploit: 1,
    A.UseTribe: 1,
    A.Spend: 1,  # only while paying (see below)
    A.ClaimGoal: 2,
    A.RecruitTribe: 3,
    A.Score: 4,
    A.Scout: 5,
    A.Recruit: 6,
    A.Buy: 7,
    A.Conquer: 7,
    A.Rise: 8,
    A.Raise: 9,
    A.TakeBack: 10,
    A.Replay: 10,
    A.Copy: 10,
    A.Play: 20,
    A.End: 30,
    A.Skip: 40,
}
DRIVE_OPS = ("scout", "recruit", "free_recruit", "buy", "conquer")


def sensible(screen: AquaticaTableScreen) -> Any:
    """The choice a purposeful player would make (first of the best kind)."""
    return sensible_of(screen.query_one("#decision", ChoiceList).values, screen.current_view().data, screen.deck)


def sensible_of(values: list[Any], d: Any, deck: Any) -> Any:
    """:func:`sensible` from the choices themselves (`values`), the view's data and the deck."""

    def rank(n: int) -> tuple[int, int]:
        a = values[n]
        r = RANK.get(type(a), 50)
        if isinstance(a, (A.Flip, A.Exploit, A.UseTribe)) and d.pay is None:
            r = 45  # extras outside a payment: leave them
        if isinstance(a, A.Play):
            ops = [e.op for e in deck.char_effs[a.card]]
            r -= sum(op in DRIVE_OPS for op in ops) + (3 if "scout" in ops else 0)
        return (r, n)

    return values[min(range(len(values)), key=rank)]


def wandering(screen: AquaticaTableScreen, made: int) -> Any:
    """Any legal choice in rotation, extras and skips included."""
    return wandering_of(screen.query_one("#decision", ChoiceList).values, made)


def wandering_of(values: list[Any], made: int) -> Any:
    return values[(made * 7 + 3) % len(values)]


def key_of(screen: AquaticaTableScreen, value: Any) -> str:
    """The key that chooses `value` in the list as drawn (a hotkey, or the done key)."""
    choices = screen.query_one("#decision", ChoiceList)
    for k in CHOICE_KEYS + keymap.DONE_KEY:
        if choices.has_key(k) and choices.value_for_key(k) == value:
            return k
    raise AssertionError(f"{value} has no key")


PARTS: dict[str, tuple[str, str]] = {
    # part: (text that shows it, the pane whose key reaches it)
    "Character row": ("Character row (price in coins)", "Ocean"),
    "Location rows": ("Location row, bottom", "Ocean"),
    "Depths": ("Depths ", "Ocean"),
    "your hand": ("Your hand", "Players"),
    "your board": ("(you)", "Players"),
    "your Mantas": ("  Mantas ", "Players"),
}
PANE_KEYS = {"Ocean": "O", "Players": "P", "Goals": "G"}


async def check_parts(pilot: Pilot[Any], screen: AquaticaTableScreen, open_panes: bool) -> None:
    """Every part of the table is on the rendered screen or its pane's key is in the footer;
    with `open_panes`, open each pane by its key and find the parts there."""
    d = screen.current_view().data
    names = [s.name for s in screen.table.seats]
    me = screen.viewer
    parts = dict(PARTS)
    # (The third pane is named for what it shows: "Tribes" in a Tribes game, issue 45.)
    parts["Goals or Tribes"] = ("Goals (spots score", "Goals") if d.module == "goals" else ("Tribe board", "Tribes")
    for s in range(d.players):
        if s != me:
            parts[f"{names[s]}'s board"] = (f" {names[s]} · ", "Players")
    text = screen_text(pilot.app)
    footer = text.splitlines()[-1]
    for part, (marker, pane) in parts.items():
        assert marker in text or pane in footer, f"{part} is neither on screen nor behind a key: {footer}"
    if not open_panes:
        return
    for pane, letter in PANE_KEYS.items():
        await key_until(pilot, letter, lambda: screen.pane != "")
        await settle(pilot)  # the pane's layout lands on the next refresh
        shown = screen_text(pilot.app)
        for _ in range(10):  # a long pane scrolls: PgDn shows the rest, to its end
            if not await page_down(pilot, screen):
                break
            shown += screen_text(pilot.app)
        for part, (marker, where) in parts.items():
            if where == pane or (where, pane) == ("Tribes", "Goals"):  # (the G pane, named Tribes there)
                assert marker in shown, f"{part} is not in the {pane} pane:\n{shown}"
        await key_until(pilot, letter, lambda: screen.pane == "")
        await settle(pilot)


async def play_game(
    pilot: Pilot[Any],
    *,
    by_keys: bool = True,
    wander_every: int = 5,
    check_every: int = 0,
    max_choices: int = 3000,
    table_after: int | None = None,
    sample_every: int = 10,
) -> dict[str, Any]:
    """Choose until the score screen; check at every decision what the screen offers.

    By keys (`by_keys`) each choice is its key press and the rendered screen is checked
    for every part of the table (panes opened every `check_every` decisions); else
    each choice goes straight to ``screen.choose``. From decision `table_after` on,
    only every `sample_every`-th decision is made on the screen; the others go
    straight to the table (:func:`by_table`). Returns what was seen: choices made,
    hand-overs (and that the board behind each showed nobody's hand), kinds.
    """
    seen: dict[str, Any] = {"made": 0, "handovers": [], "kinds": set()}
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline:
        if pilot.app._exception is not None:
            raise AssertionError(f"the app stopped: {pilot.app._exception!r}")
        screen = pilot.app.screen
        if isinstance(screen, ScoreScreen):
            return seen
        if isinstance(screen, HandOverScreen):
            table = pilot.app.screen_stack[-2]
            assert isinstance(table, AquaticaTableScreen) and table.viewer is None
            assert "Your hand" not in table.query_one("#board", AquaticaBoard).plain
            seen["handovers"].append(screen.player)
            await key(pilot, "enter")
            while pilot.app.screen is screen:  # one Enter only: a second would answer the table
                await asyncio.sleep(0.001)
            continue
        if isinstance(screen, AquaticaTableScreen) and screen.my_turn() and not screen.busy:
            assert not screen.drawing_errors, screen.drawing_errors
            view = screen.current_view()
            choices = screen.query_one("#decision", ChoiceList)
            offered = choices.values
            if not offered:  # answered by itself (a single choice): the move is on its way
                await asyncio.sleep(0.002)
                await pilot._wait_for_screen()
                continue
            # exactly the engine's legal choices: no more (illegal), no fewer (hidden)
            assert sorted(map(str, offered)) == sorted(map(str, view.legal()))
            assert screen.viewer == view.current
            seen["kinds"] |= {type(a).__name__ for a in offered}
            made = seen["made"]
            if table_after is not None and made >= table_after and (made - table_after) % sample_every:
                deck = screen.deck

                def pick(view: Any, legal: list[Any], n: int) -> Any:
                    seen["kinds"].update(type(a).__name__ for a in legal)
                    wander = wander_every and n % wander_every == wander_every - 1
                    return wandering_of(legal, n) if wander else sensible_of(legal, view.data, deck)

                upto = made + sample_every - (made - table_after) % sample_every
                seen["made"] = await by_table(screen, pick, made, upto)
                assert seen["made"] < max_choices, "the game did not end"
                continue
            wander = wander_every and made % wander_every == wander_every - 1
            value = wandering(screen, made) if wander else sensible(screen)
            generation = choices.generation
            if by_keys:
                await check_parts(pilot, screen, open_panes=bool(check_every) and made % check_every == 0)
                await key(pilot, key_of(screen, value))
            else:
                screen.choose(value)
            while choices.generation == generation and pilot.app.screen is screen:
                await asyncio.sleep(0.001)  # the choice is made once the list is replaced
            seen["made"] = made + 1
            assert seen["made"] < max_choices, "the game did not end"
            continue
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()
    raise AssertionError(f"stuck on {pilot.app.screen!r}: {seen}")


def finished_well(score: Any, names: list[str], options: dict[str, Any]) -> None:
    assert isinstance(score, ScoreScreen)
    assert score.scores.final
    assert sorted(score.scores.labels) == sorted(names)
    assert " wins with " in score.scores.outcome and "Seat " not in score.scores.outcome
    if options["module"] == "tribes":
        assert "Tribes" in score.scores.categories


KEYBOARD_GAMES = [
    # The whole game by keys: every decision checked on the screen.
    pytest.param(
        (80, 24),
        ["person", "bot:random", "bot:random"],
        {"module": "goals", "kings": "advanced"},
        None,
        id="80x24-3-goals",
    ),
    # The first 30 decisions by keys, then every tenth (the rest straight on the table).
    pytest.param((160, 50), ["person", "bot:random"], {"module": "tribes"}, 30, id="160x50-2-tribes"),
]


@pytest.mark.parametrize("size,seats,options,table_after", KEYBOARD_GAMES)
async def test_whole_game_by_keyboard(
    make_app, home: Path, size: tuple[int, int], seats: list[str], options: dict[str, Any], table_after: int | None
) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=seats, seed="21", options=options)
        assert isinstance(app.screen, AquaticaTableScreen)
        names = [s.name for s in app.screen.table.seats]
        seen = await play_game(pilot, check_every=12, table_after=table_after)
        finished_well(app.screen, names, options)
        assert "Play" in seen["kinds"] and "End" in seen["kinds"]
        await pilot.press("enter")
    assert len(list((home / "records").glob("*.json"))) == 1


async def test_five_seats_through_the_screen(make_app) -> None:
    """Five seats at 80×24: the first decision by key with every pane opened, so each of
    the five boards is found in the Players pane; then the game plays on the table itself,
    the screen checking every 20th decision and finishing the game."""
    app = make_app()
    options = {"module": "tribes"}
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(
            pilot,
            mode_key="s",
            game="aquatica",
            seed="21",
            options=options,
            seats=["bot:random", "bot:random", "person", "bot:random", "bot:random"],
        )
        names = [s.name for s in app.screen.table.seats]
        assert len(names) == 5
        # check_every: the panes are opened at decision 0 only (the five-seat layout)
        seen = await play_game(pilot, check_every=10_000, table_after=1, sample_every=20)
        finished_well(app.screen, names, options)
        assert seen["made"] > 40


async def test_hotseat_two_people_hide_their_hands(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(
            pilot, mode_key="h", game="aquatica", seats=["person", "person"], seed="8", options={"module": "goals"}
        )
        assert isinstance(app.screen, HandOverScreen)
        seen = await play_game(pilot, by_keys=False)
        assert isinstance(app.screen, ScoreScreen)
        assert len(set(seen["handovers"][:2])) == 2
        assert len(seen["handovers"]) >= 20
        assert {"Flip", "Exploit"} & seen["kinds"]
        assert len(set(app.screen.scores.labels)) == 2 and "Seat 1" not in app.screen.scores.labels


async def test_base_solo_against_the_virtual_rival(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person"], seed="3", options={"module": "goals"})
        seen = await play_game(pilot, by_keys=False, wander_every=4)
        score = app.screen
        assert isinstance(score, ScoreScreen)
        assert "Rival" in seen["kinds"]  # Matrona or Scout: you place the rival's Manta
        assert any(t in score.scores.outcome for t in ("Blobfish", "Sea Serpent", "Leviathan", "Kraken"))
        assert any("Solo titles" in n for n in score.scores.notes)


async def test_tribes_solo_level_three(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(
            pilot,
            mode_key="s",
            game="aquatica",
            seats=["person"],
            seed="4",
            options={"module": "tribes", "solo_level": 3},
        )
        screen = app.screen
        assert isinstance(screen, AquaticaTableScreen)
        assert "Tribes Solo level 3: Aquaman Wannabe" in screen.query_one("#board", AquaticaBoard).plain
        seen = await play_game(pilot, by_keys=False, wander_every=4)
        score = app.screen
        assert isinstance(score, ScoreScreen)
        assert {"Recruit", "RecruitTribe"} & seen["kinds"]
        assert score.scores.outcome.startswith("Tribes Solo level 3 (Aquaman Wannabe): ")
        assert any("level 4" in n for n in score.scores.notes)
