"""Questions the table answers by itself, and "!" (issue 45 item 2): Crown's bait that fits
one Master Angler card goes there without asking, as its rules page says, and what "!"
keeps is said without counts that change."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from coldwater.core.crown.actions import Route
from coldwater.tui.catalog import Catalog
from coldwater.tui.widgets.choices import ChoiceList
from tests.tui.test_crown_play import decision
from tests.tui.test_hints import solo


async def test_a_bait_that_fits_one_card_goes_there_by_itself(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.catalog.table_screen("crown")(solo(home, "crown"))
        await app.push_screen(screen)
        pick = random.Random(45)
        asked: list[list[str]] = []
        for _ in range(120):
            if not await decision(pilot, screen):
                break
            legal = screen.current_view().legal()
            routes = [a for a in legal if isinstance(a, Route)]
            if routes and len(legal) == 2:
                asked.append([str(a) for a in legal])
            screen.choose(pick.choice(screen.query_one("#decision", ChoiceList).values))
        assert not asked, f"a bait that fits one card was asked about: {asked}"
        notes = [e.text for e in screen.log_writer.book.entries if "(the only sensible choice)" in e.text]
        assert notes, "no cast in 120 decisions?"


async def test_always_keeps_the_answer_in_words_without_counts(make_app: Any, home: Path) -> None:
    app = make_app(Catalog(names=("crown",)))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.catalog.table_screen("crown")(solo(home, "crown"))
        await app.push_screen(screen)
        pick = random.Random(7)
        for _ in range(200):
            assert await decision(pilot, screen)
            legal = screen.current_view().legal()
            if sum(isinstance(a, Route) for a in legal) >= 2:
                break
            screen.choose(pick.choice(screen.query_one("#decision", ChoiceList).values))
        else:
            raise AssertionError("no bait question with two cards came")
        choices = screen.query_one("#decision", ChoiceList)
        route = next(v for v in choices.values if isinstance(v, Route))
        choices.highlighted = choices.get_option_index(f"c{choices.values.index(route)}")
        await pilot.press("exclamation_mark")
        await pilot.pause()
        note = next(e.text for e in reversed(screen.log_writer.book.entries) if "from now on" in e.text)
        assert "bait onto your" in note and "open spot" not in note, note


def test_the_done_key_goes_last_in_its_group_so_the_numbers_run_unbroken() -> None:
    """Issue 45: Fisheries listed "e Go first tomorrow" between 1 and 2 ("numbered around e")."""
    from coldwater.tui.screens.table.order import safe_order
    from coldwater.tui.widgets.choices import ChoiceList, Item

    items = [
        Item("Fish", "fish", group="Act"),
        Item("Go first", "first", group="End"),
        Item("Go second", "second", group="End"),
    ]
    out, pre = safe_order(items, 0, [False, True, True], [False, False, False])
    assert [i.value for i in out] == ["fish", "second", "first"] and out[2].key == "e" and pre == 0
    lst = ChoiceList()
    lst.set_items(out)
    assert [lst.key_for(v) for v in ("fish", "second", "first")] == ["1", "2", "e"]
    # A preferred choice follows its item when the done one moves past it.
    out, pre = safe_order(items, 2, [False, True, False], [False, False, False])
    assert out[pre].value == "second"
