"""Whole Aquatica games by keyboard: 2, 3 and 5 seats in both modules, hotseat,
base solo and Tribes Solo, from the new-game form to the score screen.

Every choice is a key press. Most games use a purposeful player (`sensible_key`:
claim, recruit, scout, buy and score when offered, skip extras) so they end in a
few dozen turns; the hotseat game uses the shared driver's rotating keys, which
also wanders through extras and skips.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from coldwater.core.aquatica import actions as A
from coldwater.tui.keymap import CHOICE_KEYS
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.games.aquatica.screen import AquaticaTableScreen

from coldwater.tui.games.aquatica.board import AquaticaBoard
from coldwater.tui.widgets.choices import ChoiceList

from .driver import key, start_game

RANK: dict[type, int] = {
    A.PickKing: 0, A.Place: 0, A.Cut: 0, A.Rival: 0, A.OppFlip: 0, A.OppDiscard: 0,
    A.Flip: 1, A.Exploit: 1, A.UseTribe: 1, A.Spend: 1,  # only while paying (see below)
    A.ClaimGoal: 2, A.RecruitTribe: 3, A.Score: 4, A.Scout: 5, A.Recruit: 6, A.Buy: 7, A.Conquer: 7,
    A.Rise: 8, A.Raise: 9, A.TakeBack: 10, A.Replay: 10, A.Copy: 10, A.Play: 20, A.End: 30, A.Skip: 40,
}
DRIVE_OPS = ("scout", "recruit", "free_recruit", "buy", "conquer")


def sensible_key(screen: AquaticaTableScreen) -> str:
    """The key of the choice a purposeful player would make (first of the best kind)."""
    items = screen._aq_items
    d = screen.current_view().data
    deck = screen.deck

    def rank(n: int) -> tuple[int, int]:
        a = items[n].value
        r = RANK.get(type(a), 50)
        if isinstance(a, (A.Flip, A.Exploit, A.UseTribe)) and d.pay is None:
            r = 45  # extras outside a payment: leave them
        if isinstance(a, A.Play):
            ops = [e.op for e in deck.char_effs[a.card]]
            r -= sum(op in DRIVE_OPS for op in ops) + (3 if "scout" in ops else 0)
        return (r, n)

    best = min(range(min(len(items), len(CHOICE_KEYS))), key=rank)
    return CHOICE_KEYS[best]


def wandering_key(screen: AquaticaTableScreen, made: int) -> str:
    """The shared driver's rotation: any legal choice, extras and skips included."""
    choices = screen.query_one("#decision", ChoiceList)
    keys = [k for k in CHOICE_KEYS if choices.has_key(k)]
    return keys[(made * 7 + 3) % len(keys)]


async def play_game(pilot: Pilot[Any], *, wander_every: int = 0, max_presses: int = 3000) -> dict[str, Any]:
    """Press keys until the score screen; check at every decision what the screen offers.

    Returns what was seen: choices made, hand-overs (and that the board behind each
    one showed nobody's hand), the kinds of choices offered.
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
            offered = screen.query_one("#decision", ChoiceList).values
            # exactly the engine's legal choices: no more (illegal), no fewer (hidden)
            assert sorted(map(str, offered)) == sorted(map(str, view.legal()))
            assert screen.viewer == view.current
            seen["kinds"] |= {type(a).__name__ for a in offered}
            made = seen["made"]
            wander = wander_every and made % wander_every == wander_every - 1
            choices = screen.query_one("#decision", ChoiceList)
            generation = choices.generation
            await key(pilot, wandering_key(screen, made) if wander else sensible_key(screen))
            while choices.generation == generation and pilot.app.screen is screen:
                await asyncio.sleep(0.001)  # the choice is made once the list is replaced
            seen["made"] = made + 1
            assert seen["made"] < max_presses, "the game did not end"
            continue
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()
    raise AssertionError(f"stuck on {pilot.app.screen!r}: {seen}")


GAMES = [
    pytest.param(["person", "bot:random"], {"module": "tribes"}, id="2-tribes"),
    pytest.param(["person", "bot:random", "bot:random"], {"module": "goals", "kings": "advanced"}, id="3-goals"),
    pytest.param(["person", "bot:random", "bot:random"], {"module": "tribes", "kings": "advanced"}, id="3-tribes"),
    pytest.param(["person"] + ["bot:random"] * 4, {"module": "goals", "variable_goals": True}, id="5-goals"),
    pytest.param(["bot:random", "bot:random", "person", "bot:random", "bot:random"], {"module": "tribes"},
                 id="5-tribes"),
]


@pytest.mark.parametrize("seats,options", GAMES)
async def test_whole_game_against_bots(make_app, home: Path, seats: list[str], options: dict[str, Any]) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=seats, seed="21", options=options)
        assert isinstance(app.screen, AquaticaTableScreen)
        names = [s.name for s in app.screen.table.seats]
        seen = await play_game(pilot, wander_every=5)
        score = app.screen
        assert isinstance(score, ScoreScreen)
        assert score.scores.final
        assert sorted(score.scores.labels) == sorted(names)
        assert " wins with " in score.scores.outcome and "Seat " not in score.scores.outcome
        assert "Play" in seen["kinds"] and "End" in seen["kinds"]
        if options["module"] == "tribes":
            assert "Tribes" in score.scores.categories
        await pilot.press("enter")
    assert len(list((home / "records").glob("*.json"))) == 1


async def test_hotseat_two_people_hide_their_hands(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="h", game="aquatica", seats=["person", "person"], seed="8",
                         options={"module": "goals"})
        assert isinstance(app.screen, HandOverScreen)
        seen = await play_game(pilot, wander_every=5)
        assert isinstance(app.screen, ScoreScreen)
        assert len(set(seen["handovers"][:2])) == 2
        assert len(seen["handovers"]) >= 20
        assert {"Flip", "Exploit"} & seen["kinds"]
        assert len(set(app.screen.scores.labels)) == 2 and "Seat 1" not in app.screen.scores.labels


async def test_base_solo_against_the_virtual_rival(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person"], seed="3",
                         options={"module": "goals"})
        seen = await play_game(pilot, wander_every=4)
        score = app.screen
        assert isinstance(score, ScoreScreen)
        assert "Rival" in seen["kinds"]  # Matrona or Scout: you place the rival's Manta
        assert any(t in score.scores.outcome for t in ("Blobfish", "Sea Serpent", "Leviathan", "Kraken"))
        assert any("Solo titles" in n for n in score.scores.notes)


async def test_tribes_solo_level_three(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person"], seed="4",
                         options={"module": "tribes", "solo_level": 3})
        screen = app.screen
        assert isinstance(screen, AquaticaTableScreen)
        assert "Tribes Solo level 3: Aquaman Wannabe" in screen.query_one("#board", AquaticaBoard).plain
        seen = await play_game(pilot, wander_every=4)
        score = app.screen
        assert isinstance(score, ScoreScreen)
        assert {"Recruit", "RecruitTribe"} & seen["kinds"]
        assert score.scores.outcome.startswith("Tribes Solo level 3 (Aquaman Wannabe): ")
        assert any("level 4" in n for n in score.scores.notes)
