"""The compact Aquatica table (80×24): in every position of random games, each thing
a turn is decided on is on it, in full, and nothing is cut."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from coldwater.core.aquatica import actions as A
from coldwater.core.aquatica.game import GAME
from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE
from coldwater.tui.games.aquatica import cards, compact
from coldwater.tui.games.aquatica.draw import fit
from coldwater.tui.widgets.choices import ChoiceList

from .driver import start_game
from .test_aquatica_screen import ready

WIDTH = 77  # the board at 80 columns, less its scrollbar
NAMES = ["Ann", "Bo", "Cy"]


def positions(players: int, module: str, seed: str, every: int = 3) -> Iterator[Any]:
    """Every `every`-th position of a game played at random to its end."""
    rng = Rng(f"compact-{seed}")
    s = GAME.new(players, seed=seed, options={"module": module})
    n = 0
    while s.current is not None:
        s.apply(s.sample_chance() if s.current == CHANCE else rng.choice(s.legal()))
        n += 1
        if n % every == 0 and s.current is not None and s.current != CHANCE:
            yield s


@pytest.mark.parametrize(
    ("players", "module", "seed"), [(1, "goals", "a"), (2, "goals", "b"), (3, "tribes", "c"), (1, "tribes", "d")]
)
def test_every_position_shows_the_ocean_your_board_and_the_goals(players: int, module: str, seed: str) -> None:
    k = GAME.deck
    seen = 0
    most = 0
    for s in positions(players, module, seed):
        me = s.current
        view = s.view(me)
        d = view.data
        sheet = view.scores()
        rows = fit(compact.lines(k, d, NAMES[:players], me, WIDTH, (sheet.categories, sheet.rows)), WIDTH + 2)
        text = "\n".join(r.plain for r in rows)
        assert "…" not in text, text  # abbreviated by design, never cut
        assert all(r.cell_len <= WIDTH + 2 for r in rows), text
        for i, c in enumerate(d.char_row):
            assert f"{i}{cards.COIN} {cards.char_name(k, c)}" in text, text
        for top, row in ((True, d.loc_top), (False, d.loc_bottom)):
            for x in row:
                assert compact.loc_cell(k, x, top).plain in text, text
        for loc in d.ps[me].board:
            assert compact.board_loc(k, loc).plain in text, text
        if module == "goals":
            assert all(cards.goal_name(k, g) in text for g in d.goals), text
        else:
            assert all(cards.tribe_spec(k, t).name in text for t in d.tribes), text
        assert f"{sheet.totals[me]} PP" in text
        for other in range(players):
            if other != me:
                assert f"{NAMES[other]}: hand {len(d.ps[other].hand)}" in text, text
                assert all(k.loc_name[x.id] in text for x in d.ps[other].board), text
        seen += 1
        most = max(most, len(rows))
    assert seen >= 8
    assert most <= 30, f"the compact table grew to {most} rows"


def test_a_location_cell_reads_cost_power_pp_and_type() -> None:
    k = GAME.deck
    x = next(i for i in range(len(k.loc_name)) if k.loc_power[i] > 0)
    cell = compact.loc_cell(k, x, on_top=True).plain
    assert cell.startswith(str(k.loc_name[x]))
    assert f"{k.loc_coins[x]}{cards.COIN}/{k.loc_power[x] - 1}p {k.loc_pp[x]}PP" in cell  # 1 power less on top
    assert compact.TYPE_CODE[cards.loc_type(k, x)] in cell


def test_the_grid_breaks_between_cells_and_never_inside_one() -> None:
    from rich.text import Text

    cells = [Text(f"cell number {i}") for i in range(7)]
    out = compact.grid("Head", cells, 40)
    assert out[0].plain.startswith("Head    cell number 0")
    assert all(r.cell_len <= 40 for r in out)
    assert sum(r.plain.count("cell number") for r in out) == 7
    assert all(r.plain.startswith(" " * compact.LABEL) for r in out[1:])


async def test_e_only_ends_the_turn_and_matrona_is_never_the_default(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await start_game(pilot, mode_key="s", game="aquatica", seats=["person"], seed="5")
        skips = 0
        for _ in range(14):
            screen = await ready(pilot)
            decision = screen.query_one("#decision", ChoiceList)
            if decision.has_key("e"):
                assert isinstance(decision.value_for_key("e"), A.End)
            for v in decision.values:
                if isinstance(v, A.Skip):
                    skips += 1
                    assert decision.key_for(v).isdigit(), "a skip has its own digit"
            if screen.current_view().data.phase == "pre":
                default = decision.highlighted_value
                assert isinstance(default, A.Play) and not screen.words.is_matrona(default), default
            # Play on: a Character that is not Matrona, then skip its effects and end the turn.
            legal = screen.table.state.legal()
            pick = next(
                (a for a in legal if isinstance(a, A.Play) and not screen.words.is_matrona(a)),
                next((a for a in legal if isinstance(a, (A.Skip, A.End))), legal[0]),
            )
            screen.choose(pick)
        assert skips > 0
