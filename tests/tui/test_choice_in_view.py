"""The highlighted choice is always in view (issue #30): a list with more rows than the
table gives it scrolls to the highlight when it is filled, when the highlight moves,
when it is filtered and when the terminal is resized, at 80×24 in the real app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from coldwater.core.crown.state import CrownState
from coldwater.net.play.table import Seat, SeatKind, Table
from coldwater.tui.catalog import Catalog
from coldwater.tui.games.aquatica.screen import AquaticaTableScreen
from coldwater.tui.games.crown import words
from coldwater.tui.games.crown.screen import CrownTableScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import ChoiceList

from .driver import by_table, key, key_until, settle
from .frame_driver import my_turn, screen_text
from .table_checks import highlight_problem


def tackle_first(view: Any, legal: list[Any], made: int) -> Any:
    """Take every tackle piece offered (so Rods and Lines make long catch lists), else rotate."""
    for a in legal:
        if words.tag_of(a) == "tackle" and getattr(a, "take", False):
            return a
    return legal[(made * 7 + 3) % len(legal)]


def catch_below(screen: CrownTableScreen) -> bool:
    """The question is which fish to catch and its highlighted answer is the third or later
    (the Rod catches come first and spend, so the default one is further down)."""
    view = screen.current_view()
    assert isinstance(view, CrownState)
    legal = view.legal()
    if not {words.tag_of(a) for a in legal} & {"catch", "zone6", "lose"}:
        return False
    pre = words.preferred(view.data, screen.tables, words.order(legal))
    return pre is not None and pre >= 2


async def in_view(pilot: Pilot[Any], screen: TableScreen) -> None:
    await settle(pilot)
    problem = highlight_problem(pilot, screen)
    assert not problem, problem + "\n" + screen_text(pilot)


async def test_crown_catch_list_scrolls_to_the_default(make_app, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ada")] + [Seat(SeatKind.BOT, f"Bot {n}", bot="greedy") for n in (2, 3)]
        table = Table.new("crown", seats, seed="e", save_path=home / "saves" / "c.json")
        screen = CrownTableScreen(table)
        await app.push_screen(screen)
        made = 0
        while True:
            await my_turn(pilot)
            if catch_below(screen):
                break
            assert made < 200, "no catch question with its default third or lower"
            made = await by_table(screen, tackle_first, made, made + 1)
        choices = screen.query_one("#decision", ChoiceList)
        await settle(pilot)
        # The list is longer than the rows it has, and its default is not in the first rows.
        assert choices.virtual_size.height > choices.scrollable_content_region.height
        assert choices.highlighted is not None and choices.highlighted >= 2
        await in_view(pilot, screen)
        # Up to the first choice and back down: in view at every step.
        for name in ("up", "up", "down", "down"):
            before = choices.highlighted
            await key_until(pilot, name, lambda: choices.highlighted != before)
            await in_view(pilot, screen)
        # A resize keeps it in view: the list grows at 200×60 and shrinks back.
        await pilot.resize_terminal(200, 60)
        await in_view(pilot, screen)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        await in_view(pilot, screen)
        # The filter shows the first match highlighted, in view.
        await key_until(pilot, "slash", lambda: screen.query_one("#decision-filter").display)
        await key(pilot, "Z")
        await in_view(pilot, screen)
        await key_until(pilot, "escape", lambda: not screen.query_one("#decision-filter").display)
        await in_view(pilot, screen)


async def test_aquatica_solo_king_pick_shows_every_king(make_app, home: Path) -> None:
    app = make_app(Catalog(names=("aquatica",)))
    async with app.run_test(size=(80, 24)) as pilot:
        table = Table.new(
            "aquatica",
            [Seat(SeatKind.PERSON, "Ada")],
            seed="k",
            options={"kings": "advanced"},
            save_path=home / "saves" / "a.json",
        )
        screen = AquaticaTableScreen(table)
        await app.push_screen(screen)
        await my_turn(pilot)
        choices = screen.query_one("#decision", ChoiceList)
        assert len(choices.values) == 3  # solo: three Kings drawn, one kept
        await in_view(pilot, screen)
        text = screen_text(pilot)
        for n in range(3):
            first = str(choices.get_option_at_index(n).prompt).split("\n")[0].strip()
            assert first in text, f"King {n + 1} ({first!r}) is not on the table\n{text}"
        for _ in range(2):
            before = choices.highlighted
            await key_until(pilot, "down", lambda: choices.highlighted != before)
            await in_view(pilot, screen)
        assert choices.highlighted == 2


def toward_fish(view: Any, legal: list[Any], made: int) -> Any:
    """Preserve, fish, sail where a fish or a card can be had next, else chart, keep the
    lobster, rotate."""
    from coldwater.tui.games.fisheries.words import tag_of

    for a in legal:
        if tag_of(a) in ("preserve", "fish"):
            return a
    for a in legal:
        if tag_of(a) == "sail":
            after = view.clone()
            after.apply(a)
            if any(tag_of(b) in ("fish", "preserve") for b in after.legal()):
                return a
    for tag in ("chart", "pass"):
        for a in legal:
            if tag_of(a) == tag:
                return a
    return legal[(made * 7 + 3) % len(legal)]


async def test_fisheries_fish_and_preserve_by_arrows(make_app, home: Path) -> None:
    """Every Fish and Preserve choice is reached with ↓ alone (each one in view as it is
    highlighted) and carries a hotkey, with the list focused or with nothing focused."""
    from coldwater.tui.games.fisheries.screen import FisheriesTableScreen
    from coldwater.tui.games.fisheries.words import tag_of

    app = make_app(Catalog(names=("fisheries",)))
    async with app.run_test(size=(80, 24)) as pilot:
        seats = [Seat(SeatKind.PERSON, "Ada"), Seat(SeatKind.BOT, "Bot", bot="greedy")]
        table = Table.new("fisheries", seats, seed="f", save_path=home / "saves" / "f.json")
        screen = FisheriesTableScreen(table)
        await app.push_screen(screen)
        made, met = 0, set()
        while met != {"fish", "preserve"}:
            await my_turn(pilot)
            choices = screen.query_one("#decision", ChoiceList)
            wanted = [v for v in choices.values if tag_of(v) in ("fish", "preserve")]
            if wanted:
                if len(met) % 2:
                    screen.set_focus(None)  # the arrows work with nothing focused too
                await settle(pilot)
                for value in wanted:
                    assert choices.key_for(value), f"{value} has no hotkey"
                    for _ in range(len(choices.values) + 1):
                        if choices.highlighted_value == value:
                            break
                        before = choices.highlighted
                        await key_until(pilot, "down", lambda: choices.highlighted != before)
                        await in_view(pilot, screen)
                    assert choices.highlighted_value == value, f"↓ never reached {value}"
                    met.add(tag_of(value))
            assert made < 120, f"met only {met}"
            made = await by_table(screen, toward_fish, made, made + 1)
