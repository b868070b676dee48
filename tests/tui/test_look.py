"""Look up anything on the board (issue 45): F7 puts a cursor on a board row, ↑ ↓ move it
(not the choice list's highlight), the panel says the row's thing in full, Esc puts it away."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList
from coldwater.tui.widgets.hint import HintPanel
from tests.tui.screen_text import screen_text
from tests.tui.test_crown_play import decision


@pytest.mark.parametrize("size", [(80, 24), (200, 60)])
@pytest.mark.parametrize("game", ["crown", "fisheries", "aquatica"])
async def test_f7_looks_along_the_board_and_esc_puts_it_away(
    make_app: Any, home: Path, game: str, size: tuple[int, int]
) -> None:
    app = make_app(Catalog(names=(game,)))
    async with app.run_test(size=size) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Gil", bot="greedy")]
        screen = app.catalog.table_screen(game)(Table.new(game, seats, seed="look", autosave=False))
        await app.push_screen(screen)
        assert await decision(pilot, screen)
        choices = screen.query_one("#decision", ChoiceList)
        highlighted = choices.highlighted
        board = screen.query_one("#board", BoardView)
        await pilot.press("f7")
        await pilot.pause()
        panel = screen.query_one("#look-panel", HintPanel)
        assert screen.look.active and board.look_row is not None and panel.display
        assert not screen.query_one("#log").display
        first = board.look_row
        texts: set[str] = {panel.text}
        for _ in range(6):
            await pilot.press("down")
            await pilot.pause()
            texts.add(panel.text)
        assert board.look_row > first and len(texts) > 1
        assert choices.highlighted == highlighted, "↓ moved the choices while looking"
        rows = screen_text(app).split("\n")
        drawn = [r for r in rows if BoardView.LOOK in r]
        assert drawn, "no cursor drawn on the board"
        await pilot.press("escape")
        await pilot.pause()
        assert not screen.look.active and board.look_row is None and not panel.display
        assert screen.query_one("#log").display
        await pilot.press("down")  # the list's again
        await pilot.pause()
        assert choices.highlighted != highlighted or len(choices.values) == 1


def test_the_games_words_say_a_row_in_full() -> None:
    """Aquatica names a Location with its Depths, Crown a Master Angler card with its spots."""
    from coldwater.core import games as registry
    from coldwater.core.rng import Rng
    from coldwater.tui.games.aquatica.words import AqWords
    from coldwater.tui.games.crown.names import ma_name, spots_letters
    from coldwater.tui.games.crown.words import CrownWords

    def dealt(game: str) -> Any:
        seats = [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Gil", bot="greedy")]
        state = Table.new(game, seats, seed="look", autosave=False).state.clone()
        while state.current is not None and state.current < 0:
            state.apply(state.sample_chance(Rng("look")))
        return state

    aq = registry.get("aquatica")
    state = dealt("aquatica")
    words = AqWords(aq, ["Ann", "Gil"])
    k = words.deck
    loc = next(i for i, n in enumerate(k.loc_name) if n)
    said = words.look(state, f"Top row {k.loc_name[loc]} Sh 5¢/3p 2PP", 0)
    assert said[0].startswith(k.loc_name[loc]) and any("Depth" in line for line in said), said

    crown = registry.get("crown")
    cs = dealt("crown")
    cw = CrownWords(crown, ["Ann", "Gil"])
    card = cs.data.ma_row[0]
    row = f"Master Angler {ma_name(cw.tables, card)} {spots_letters(cw.tables, card).replace(' ', '')}  deck 25"
    said = cw.look(cs, row, 0)
    assert said[0].startswith(ma_name(cw.tables, card)) and "fill its spots" in said[0], said
    assert said[-1] == row
