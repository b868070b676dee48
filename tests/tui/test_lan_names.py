"""The name rule at the app's LAN forms and lists (net/names.py): the host form refuses what
`coldwater host` and the SSH server refuse, and text heard from the network is drawn escaped."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Static

from coldwater.net.discovery import Listing
from coldwater.tui.screens.lan_host import LanHostScreen
from coldwater.tui.screens.lan_join import listing_label

from .driver import focus
from .test_lan_play import lan_app, until


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("#table-name", "🐟" * 20, "The table name is 80 bytes long; at most 50 bytes"),
        ("#table-name", "Pond\x1b]0;owned\x07", "The table name has control or direction characters"),
        ("#table-name", "Pond\u202eevil", "The table name has control or direction characters (\\u202e)"),
        ("#host-name", "Ann\x1b[2J", "The player name has control or direction characters (\\x1b)"),
    ],
)
async def test_the_host_form_refuses_a_bad_name_and_opens_nothing(home: Path, field: str, value: str, why: str) -> None:
    app = lan_app(home)
    async with app.run_test(size=(100, 36)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LanHostScreen)
        screen.query_one(field, Input).value = value
        await focus(pilot, "#start")
        await pilot.press("enter")
        error = screen.query_one("#form-error", Static)
        await until(lambda: why in str(error.render()), 5, "the reason")
        assert app.screen is screen and not screen.opening


def test_a_hostile_listing_is_drawn_escaped_with_its_seats_and_version() -> None:
    evil = Listing(
        service="x",
        table="Pond\x1b]0;owned\x07\u202e",
        game="toy\x1b[2J",
        host="10.0.0.9",
        port=1,
        open_seats=1,
        v=7,
        content="c",
        seats=4,
        version="0.0.1\x1b",
    )
    label = listing_label(evil, {"crown": "Coldwater Crown"})
    assert "\x1b" not in label and "\u202e" not in label and "\x07" not in label
    assert label.startswith("Pond\\x1b]0;owned\\x07\\u202e · toy\\x1b[2J · 10.0.0.9:1 · 4 seats · 1 open seat")
    assert "app 0.0.1\\x1b" in label


async def test_ctrl_g_on_the_host_form_makes_a_passphrase_of_plain_words_shown_to_the_host(home: Path) -> None:
    from coldwater.net.passphrase import WORDS

    app = lan_app(home)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LanHostScreen)
        field = screen.query_one("#passphrase", Input)
        assert field.password and not field.value
        await pilot.press("ctrl+g")
        await pilot.pause()
        first = field.value.split(" ")
        assert len(first) == 4 and all(w in WORDS for w in first), field.value
        assert not field.password  # shown, so the host can read it out
        await pilot.press("ctrl+g")
        await pilot.pause()
        assert field.value.split(" ") != first  # a new one each time (2^-32 to fail by chance)
