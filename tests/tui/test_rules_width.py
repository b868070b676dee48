"""The Rules screen is readable at 80 columns (issue #30): the games are listed above the
text, and a table is written as a list where the text is too narrow for it (Crown's
action table was one word per line)."""

from __future__ import annotations

from coldwater.tui.screens.rules import RulesScreen, tables_as_lists
from coldwater.tui.widgets.choices import ChoiceList

from .driver import settle
from .frame_driver import screen_text

TABLE = """Intro.

| Space | With a 1 | With a 2 |
|---|---|---|
| A colour (fishing) | cast **one** bait | cast **all** bait |
| Port (anchor) | one Port action | two Port actions |

| Bait | Location |
|---|---|
| purple, green | Shore |

After."""


def test_tables_become_lists() -> None:
    out = tables_as_lists(TABLE).split("\n")
    assert "- **A colour (fishing)**: With a 1: cast **one** bait; With a 2: cast **all** bait" in out
    assert "- **Port (anchor)**: With a 1: one Port action; With a 2: two Port actions" in out
    assert "- **purple, green**: Shore" in out
    assert out[0] == "Intro." and out[-1] == "After." and not any(line.startswith("|") for line in out)


async def rules_rows(pilot, size: tuple[int, int]) -> list[str]:
    await pilot.resize_terminal(*size)
    await settle(pilot)
    await pilot.pause()
    return screen_text(pilot).split("\n")


async def test_crown_rules_at_80_and_160_columns(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(RulesScreen("crown"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, RulesScreen)
        topics = screen.query_one("#rules-topics", ChoiceList)
        text = screen.query_one("#rules-scroll")
        assert text.region.width >= 76, "the text has the whole width at 80 columns"
        assert topics.region.bottom <= text.region.y, "the games are listed above the text"
        found = False
        for _ in range(12):
            rows = await rules_rows(pilot, (80, 24))
            if any("Port (anchor): With a 1: one Port action; With a 2: two Port" in r for r in rows):
                found = True
                break
            assert not any("│" in r[text.region.x :] for r in rows[text.region.y :]), "a table at 80 columns"
            text.scroll_page_down(animate=False)
        assert found, "the action table's Port row is not a readable line at 80 columns"
        # With the room, the table is a table again, beside the list of games.
        text.scroll_home(animate=False)
        rows = await rules_rows(pilot, (160, 50))
        assert topics.region.right <= text.region.x
        assert any("Port (anchor)" in r and "│" in r for r in rows), "\n".join(rows)
