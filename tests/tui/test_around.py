"""The screens around the table, by keyboard at 80×24 (issue 12).

Forms you can type into, joins that answer within seconds, replays by decision,
turn and round, the end of a game, settings with keys remapped in the app, rules
and help scrolling both ways, remembered forms, Resume with deletion, 0600 saves,
and own card data at LAN tables.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import stat
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest
from textual.containers import VerticalScroll
from textual.widgets import Input

from coldwater import net
from coldwater.core import games
from coldwater.net.discovery import Listing
from coldwater.net.identity import Identity
from coldwater.net.play import records
from coldwater.net.play.files import read_content
from coldwater.net.play.table import Seat, SeatKind, Table, list_saves
from coldwater.tui import keymap
from coldwater.tui.app import ColdwaterApp
from coldwater.tui.catalog import Catalog
from coldwater.tui.screens.help import HelpScreen
from coldwater.tui.screens.lan_host import LanHostScreen
from coldwater.tui.screens.lan_join import LanJoinScreen, listing_label
from coldwater.tui.screens.lobby import LobbyScreen
from coldwater.tui.screens.newgame import NewGameScreen
from coldwater.tui.screens.replays import ReplayScreen, ReplaysScreen
from coldwater.tui.screens.rules import RulesScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.settings import KeyCapture, KeyList, SettingsScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.chart import ScoreOverTime
from coldwater.tui.widgets.form import Cycler, Field

from .conftest import toy_catalog
from .driver import focus, set_cycler
from .test_lan_play import lan_app, until

CROWN = games.get("crown")
SIZE = (80, 24)


def shown(app: ColdwaterApp) -> str:
    """The text on the terminal, as a person reads it (from the SVG a screenshot makes)."""
    svg = app.export_screenshot()
    body = svg[svg.index("</style>") :] if "</style>" in svg else svg
    return html.unescape(re.sub(r"<[^>]+>", "", body)).replace("\xa0", " ")


def bot_table(game: Any = CROWN, seed: str = "s1") -> Table:
    return Table.new(
        game, [Seat(SeatKind.BOT, "Ann", bot="greedy"), Seat(SeatKind.BOT, "Bob", bot="greedy")], seed=seed
    )


async def play_out(t: Table) -> Table:
    await t.advance()
    assert t.state.is_over
    assert t.save_path is not None
    records.save(t.record, Path(t.save_path).parent.parent / "records" / Path(t.save_path).name)
    t.delete_save()
    return t


# ---- 1. text fields ----------------------------------------------------------------
async def type_into_every_field(pilot: Any, screen: Any) -> list[str]:
    """Focus each visible text field, type a word into it and check the screen shows it."""
    seen = []
    fields = [f for f in screen.query(Field) if f.display and f.parent is not None and f.parent.display]
    assert fields, "the form has text fields"
    for n, field in enumerate(fields):
        field.focus()
        await pilot.pause()
        field.value = ""
        word = f"Zq{n}x"
        await pilot.press(*word)
        await pilot.pause()
        assert field.value == word, field.id
        text = shown(pilot.app)
        expect = "•" * len(word) if field.password else word
        assert expect in text, f"{field.id}: {word!r} typed but not on the screen"
        seen.append(field.id or "")
    return seen


@pytest.mark.parametrize("key", ["s", "h", "o", "j"])
async def test_every_text_field_shows_what_is_typed(make_app, key: str) -> None:
    app = make_app()
    app.lan_options = {"browse": False}
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(key)
        await pilot.pause()
        if key == "o":  # reserved seats have a fingerprint field: show them
            await set_cycler(pilot, "#seat-1", "reserved")
        seen = await type_into_every_field(pilot, app.screen)
        expected = {
            "s": {"name-0", "name-1", "seed", "content-path"},
            "h": {"name-0", "name-1", "seed", "content-path"},
            "o": {"fp-1", "table-name", "host-name", "passphrase", "content-path"},
            "j": {"address", "my-name", "passphrase", "content-path"},
        }[key]
        assert expected <= set(seen)


async def test_arrows_move_between_fields_not_the_page(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert app.focused is app.screen.query_one("#game")
        await pilot.press("down")
        assert app.focused is app.screen.query_one("#players")
        await pilot.press("down", "up")
        assert app.focused is app.screen.query_one("#players")


async def test_every_option_explains_itself_and_any_number_fit(make_app) -> None:
    class Many(msgspec.Struct):
        a_one: bool = False
        a_two: bool = False
        a_three: bool = True
        a_four: bool = False
        a_five: bool = False
        a_six: bool = False
        a_seven: bool = True

    class ManyGame:
        name, title, min_players, max_players, bots = "many", "Many Options", 1, 2, ("random",)
        options_type = Many
        content_hash = "0" * 64

    app = make_app(catalog=Catalog(names=("many",), loader=lambda n: ManyGame()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert len(screen.option_cyclers) == 7
        for c in screen.option_cyclers:
            c.focus()
            await pilot.pause()
            hint = str(screen.query_one("#hint").render())
            assert hint.strip(), c.label
            assert c.label in shown(app), f"{c.label} scrolled into view"
        # The last option changed by keyboard reaches the options.
        await pilot.press("right")
        assert screen.options()["a_seven"] is False


async def test_crown_options_have_one_line_hints(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        for name in ("crown", "fisheries", "aquatica"):
            await set_cycler(pilot, "#game", name)
            for c in app.screen.option_cyclers:  # type: ignore[attr-defined]
                c.focus()
                await pilot.pause()
                hint = str(app.screen.query_one("#hint").render()).strip()
                assert hint and "a rule option of this game" not in hint, (name, c.label)
                assert hint in shown(app)


# ---- 1. joining ------------------------------------------------------------------------
async def test_a_silent_address_is_answered_within_five_seconds(home: Path) -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(60)

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        async with lan_app(home).run_test(size=SIZE) as pilot:
            await pilot.press("j")
            await pilot.pause()
            error = pilot.app.screen.query_one("#join-error")
            await pilot.press(*f"127.0.0.1:{port}", "enter")
            start = time.monotonic()
            await until(lambda: "No answer" in str(error.render()), 6.5, "the join to give up")
            assert time.monotonic() - start < 6.0
            assert "5 s" in str(error.render())
            await pilot.press("ctrl+u", *"nohost", "enter")
            await until(lambda: "not an address" in str(error.render()), 2, "a bad address")
    finally:
        server.close()


def test_the_list_marks_tables_that_need_a_passphrase_or_other_card_data() -> None:
    base = Listing(
        service="a",
        table="Friday",
        game="crown",
        host="10.0.0.2",
        port=4000,
        open_seats=1,
        v=1,
        content=CROWN.content_hash,
    )
    assert "passphrase" not in listing_label(base, {"crown": "Crown"})

    class Locked:
        def __init__(self, **kw: Any) -> None:
            self.__dict__.update(msgspec.structs.asdict(base), **kw)

    assert "passphrase" in listing_label(Locked(needs_passphrase=True), {"crown": "Crown"})
    other = listing_label(Locked(content="ab" * 32), {"crown": "Crown"}, {"crown": CROWN.content_hash})
    assert "own card data abababababab" in other


async def test_choosing_a_locked_table_without_a_passphrase_says_so(home: Path) -> None:
    async with lan_app(home).run_test(size=SIZE) as pilot:
        await pilot.press("j")
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, LanJoinScreen)

        class Locked:
            table, game, host, port, open_seats, v = "Locked", "crown", "127.0.0.1", 9, 1, 1
            content = CROWN.content_hash
            needs_passphrase = True

        screen.join(Locked())
        await pilot.pause()
        assert "needs a passphrase" in str(screen.query_one("#join-error").render())
        assert pilot.app.focused is screen.query_one("#passphrase")


async def test_a_refused_passphrase_without_one_says_the_table_needs_it(home: Path) -> None:
    host = await net.open_table(
        CROWN,
        name="Locked",
        seats=["host", "open"],
        passphrase="trout",
        identity=Identity.generate(),
        bind="127.0.0.1",
        advertise=False,
        save_dir=home / "h",
    )
    task = asyncio.ensure_future(host.run())
    try:
        async with lan_app(home).run_test(size=SIZE) as pilot:
            await pilot.press("j")
            await pilot.pause()
            error = pilot.app.screen.query_one("#join-error")
            await pilot.press(*f"127.0.0.1:{host.port}", "enter")
            await until(lambda: "Refused" in str(error.render()), 6, "a refusal")
            assert "this table needs a passphrase" in str(error.render())
    finally:
        task.cancel()
        await host.close()


# ---- 7. own card data at a LAN table ---------------------------------------------------
def own_crown(folder: Path) -> Path:
    """A copy of the packaged Crown data with one value changed: other card data."""
    from importlib import resources

    raw = json.loads(resources.files("coldwater.core.crown").joinpath("data", "crown.json").read_text())
    raw["stand_in"] = True
    raw.setdefault("source", "")
    raw["source"] = str(raw["source"]) + " (test copy)"
    folder.mkdir(parents=True, exist_ok=True)
    p = folder / "crown.json"
    p.write_text(json.dumps(raw))
    return p


async def test_a_joiner_without_the_hosts_card_data_is_told_which_file_and_hash(home: Path, tmp_path: Path) -> None:
    path = own_crown(tmp_path / "mine")
    mine = CROWN.with_content(read_content(path))
    if mine.content_hash == CROWN.content_hash:
        pytest.skip("the test copy of the card data hashes like the packaged one")
    host = await net.open_table(
        mine,
        name="Own",
        seats=["host", "open"],
        identity=Identity.generate(),
        bind="127.0.0.1",
        advertise=False,
        save_dir=home / "h",
    )
    task = asyncio.ensure_future(host.run())
    try:
        async with lan_app(home).run_test(size=SIZE) as pilot:
            await pilot.press("j")
            await pilot.pause()
            screen = pilot.app.screen
            error = screen.query_one("#join-error")
            await pilot.press(*f"127.0.0.1:{host.port}", "enter")
            await until(lambda: "Refused" in str(error.render()), 6, "a refusal")
            said = str(error.render())
            assert mine.content_hash[:16] in said and "crown.json" in said
            screen.query_one("#content-path", Input).value = str(path)
            screen.query_one("#address", Input).focus()
            await pilot.press("enter")
            await until(lambda: isinstance(pilot.app.screen, LobbyScreen), 6, "the lobby")
    finally:
        task.cancel()
        await host.close()


# ---- 4. settings, keys, rules, help, Ctrl+Q ---------------------------------------------
async def test_settings_arrows_move_and_change(make_app, home: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert app.focused is app.screen.query_one("#theme")
        await pilot.press("down")
        assert app.focused is app.screen.query_one("#pace")
        before = app.settings.bot_delay
        await pilot.press("right")
        assert app.settings.bot_delay != before
        assert app.theme == "coldwater-dark" or "dark" in app.theme
        saved = json.loads((home / "settings.json").read_text())
        assert saved["bot_delay"] == app.settings.bot_delay


async def remap(pilot: Any, bid: str, key: str) -> str:
    """Highlight `bid` in the key list, press Enter, then `key` twice (the second confirms;
    Esc once); returns the message."""
    screen = pilot.app.screen
    keys = screen.query_one("#keys", KeyList)
    keys.focus()
    keys.highlighted = keys.get_option_index(f"c{[v for v in keys.values].index(bid)}")
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(pilot.app.screen, KeyCapture)
    await pilot.press(key)
    await pilot.pause()
    if key != "escape":
        assert isinstance(pilot.app.screen, KeyCapture), "one press changed the key"
        await pilot.press(key)
        await pilot.pause()
    return str(screen.query_one("#keys-message").render())


async def test_a_stray_enter_and_a_key_change_nothing_without_the_confirming_press(make_app, home: Path) -> None:
    """Issue 45: Enter on the key list, then any key, remapped it at once."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        keys = app.screen.query_one("#keys", KeyList)
        keys.focus()
        keys.highlighted = keys.get_option_index(f"c{[v for v in keys.values].index('app.help')}")
        await pilot.press("enter", "f9")
        await pilot.pause()
        assert isinstance(app.screen, KeyCapture) and "again" in str(app.screen.query_one("#capture-text").render())
        await pilot.press("escape")
        await pilot.pause()
        assert "app.help" not in app.settings.keys


async def test_a_pane_key_says_what_the_games_own_screens_open_with_it(make_app, home: Path) -> None:
    """The keymap names a game pane's key by its place ("Pane 1"): generic code names no game's pane. The
    settings list adds what it opens, from each game's own table screen (``PANES``), and only there."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SettingsScreen)
        for n, key in enumerate(keymap.PANE_KEYS):
            assert key.description == f"Pane {n + 1}"
            screens = [app.catalog.table_screen(name) for name in app.catalog.names()]
            declared = [s.PANES[n].title for s in screens if len(s.PANES) > n]
            assert declared, "the test needs a game with three panes"
            assert screen.describe(key) == f"Pane {n + 1} ({', '.join(dict.fromkeys(declared))})"
        assert f"{screen.describe(keymap.PANE_KEYS[0])}" in shown_keys(screen)
    toy = make_app(toy_catalog())
    async with toy.run_test(size=SIZE) as pilot:  # no game with panes: the key is its place alone
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(toy.screen, SettingsScreen) and toy.screen.describe(keymap.PANE_KEYS[0]) == "Pane 1"


def shown_keys(screen: SettingsScreen) -> str:
    """Every row of the settings screen's list of keys."""
    keys = screen.query_one("#keys", KeyList)
    return "\n".join(str(keys.get_option_at_index(i).prompt) for i in range(keys.option_count))


async def test_keys_are_remapped_in_the_app_and_conflicts_refused(make_app, home: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        said = await remap(pilot, "app.help", "f9")
        assert "F9" in said, said
        assert app.settings.keys["app.help"] == "f9"
        assert json.loads((home / "settings.json").read_text())["keys"]["app.help"] == "f9"
        assert "F9" in shown(app)
        said = await remap(pilot, "app.help", "escape")  # Esc cancels the capture
        assert "Unchanged" in said
        said = await remap(pilot, "menu.quit", "f9")  # f9 is Help everywhere now
        assert "Not changed" in said and "Help" in said, said
        assert "menu.quit" not in app.settings.keys
        said = await remap(pilot, "table.pause", "5")  # a choice's hotkey at the table
        assert "Not changed" in said and "chooses a listed move" in said, said
        said = await remap(pilot, "table.pause", "f3")  # the log pane's key
        assert "Not changed" in said and "Log" in said, said
        assert "table.pause" not in app.settings.keys
        said = await remap(pilot, "table.pause", "f5")  # a game pane's key, listed like the rest
        assert "Not changed" in said and "Pane 2" in said, said
        said = await remap(pilot, "table.pane1", "f8")
        assert "F8" in said and app.settings.keys["table.pane1"] == "f8", said
        said = await remap(pilot, "table.pause", "f4")  # free again once pane 1 moved off it
        assert "F4" in said and app.settings.keys["table.pause"] == "f4", said
        await pilot.press("escape")  # back to the menu: F9 opens help, ? no longer does
        await pilot.pause()
        await pilot.press("question_mark")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("f9")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_a_broken_settings_file_is_kept_aside_and_reported(home: Path) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text('{"theme": "dark", "bot_delay": ')
    app = ColdwaterApp()
    assert app.settings_problem is not None and "settings.json.broken" in app.settings_problem
    assert (home / "settings.json.broken").read_text() == '{"theme": "dark", "bot_delay": '
    assert not (home / "settings.json").exists()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any("settings.json.broken" in n.message for n in app._notifications)


async def test_ctrl_q_quits_from_the_table_menu(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        t = Table.new(CROWN, [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Bob", bot="greedy")], seed=1)
        await app.push_screen(app.catalog.table_screen("crown")(t))
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "PauseScreen"
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize("where", ["rules", "help"])
async def test_rules_and_help_scroll_both_ways(make_app, where: str) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("u")
        await pilot.pause()
        if where == "help":
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            box = app.screen.query_one("#help-box", VerticalScroll)
        else:
            assert isinstance(app.screen, RulesScreen)
            box = app.screen.query_one("#rules-scroll", VerticalScroll)
        await pilot.pause(0.3)
        for down, up in (("pagedown", "pageup"), ("space", "b")):
            await pilot.press(down)
            await pilot.pause()
            assert box.scroll_y > 0, down
            await pilot.press(up)
            await pilot.pause()
            assert box.scroll_y == 0, up


# ---- 5. forms remember ----------------------------------------------------------------
async def test_the_new_game_form_remembers_the_last_choices(make_app, home: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await set_cycler(pilot, "#game", "fisheries")
        await set_cycler(pilot, "#opt-market" if False else "#game", "fisheries")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        market = screen.option_names.index("market")
        screen.option_cyclers[market].focus()
        await pilot.press("right")
        await focus(pilot, "#name-0")
        screen.query_one("#name-0", Input).value = ""
        await pilot.press(*"Marit")
        await focus(pilot, "#start")
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, TableScreen), 5, "the table")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("l")  # leave to the menu
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.game_name == "fisheries"
        assert screen.query_one("#name-0", Input).value == "Marit"
        assert screen.options()["market"] is True
    # And a new app reads the same memory back from settings.json.
    assert json.loads((home / "settings.json").read_text())["forms"]["solo"]["names"][0] == "Marit"


async def test_the_host_form_remembers_but_never_the_passphrase(home: Path) -> None:
    app = lan_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, LanHostScreen)
        screen.query_one("#table-name", Input).value = "Thursday"
        screen.query_one("#passphrase", Input).value = "secret words"
        await pilot.press("ctrl+s")
        await until(lambda: isinstance(app.screen, LobbyScreen), 5, "the lobby")
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, LobbyScreen), 5, "leaving")
        await pilot.press("o")
        await pilot.pause()
        assert app.screen.query_one("#table-name", Input).value == "Thursday"
        assert app.screen.query_one("#passphrase", Input).value == ""
    assert "secret words" not in (home / "settings.json").read_text()


# ---- 6. Resume ---------------------------------------------------------------------------
async def test_resume_lists_turns_opponents_and_local_time_and_deletes_after_yes(make_app, home: Path) -> None:
    t = Table.new(CROWN, [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Greedy Bob", bot="greedy")], seed=4)
    await t.advance()
    for _ in range(12):  # Ann plays her first choices; the bot answers
        t.submit(t.view(t.current).legal()[0])
        await t.advance()
    assert t.save_path is not None
    info = list_saves()[0]
    assert info.turns >= 1 and info.turns < info.plies
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        text = shown(app)
        assert "Ann vs Greedy Bob" in text
        assert f"{info.turns} turn" in text and "moves" not in text
        assert time.strftime("%Y-%m-%d %H:%M", time.localtime(info.updated)) in text
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert Path(t.save_path).exists()
        await pilot.press("delete")
        await pilot.pause()
        assert "Delete this saved game" in shown(app)
        await pilot.press("y")
        await pilot.pause()
        assert not Path(t.save_path).exists()
        assert "Deleted" in str(app.screen.query_one("#resume-message").render())


async def test_files_with_secrets_are_private(make_app, home: Path) -> None:
    t = bot_table()
    await play_out(t)
    t2 = Table.new(CROWN, [Seat(SeatKind.PERSON, "A"), Seat(SeatKind.PERSON, "B")], seed=2)
    assert t2.save_path is not None
    assert stat.S_IMODE(Path(t2.save_path).stat().st_mode) == 0o600
    for rec in (home / "records").glob("*.json"):
        assert stat.S_IMODE(rec.stat().st_mode) == 0o600
    assert stat.S_IMODE(home.stat().st_mode) & 0o077 == 0
    # LAN saves (a host's holds every seat's secrets) are written the same way.
    from coldwater.net.session.persist import write_atomic

    lan = home / "lan" / "lan-host-x.json"
    write_atomic(lan, b"{}")
    assert stat.S_IMODE(lan.stat().st_mode) == 0o600


# ---- 2. replays ------------------------------------------------------------------------
def status(app: ColdwaterApp) -> str:
    return str(app.screen.query_one("#status").render())


async def open_first_replay(pilot: Any, app: ColdwaterApp) -> ReplayScreen:
    """From the menu: Replays, then the newest game."""
    await pilot.press("p")
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, ReplayScreen)
    return app.screen


def move_number(app: ColdwaterApp) -> int:
    m = re.search(r"move (\d+) of (\d+)", status(app))
    assert m, status(app)
    return int(m.group(1))


async def test_replays_list_and_step_by_decision_turn_and_round(make_app, home: Path) -> None:
    t = await play_out(bot_table())
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ReplaysScreen)
        text = shown(app)
        winner = t.record.meta["winner"]
        assert f"Coldwater Crown · Ann, Bob · won by {winner}" in text
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d · Coldwater Crown", text)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        screen = app.screen
        decisions = sum(1 for e in t.record.entries if e.seat >= 0)
        assert f"move 0 of {decisions}" in status(app)
        await pilot.press("right")
        assert move_number(app) == 1
        await pilot.press("right", "left")
        assert move_number(app) == 1
        await pilot.press("down")
        first_turn = status(app)
        assert "turn" in first_turn
        await pilot.press("pagedown")
        assert "round 1" in status(app) or "round 2" in status(app)
        await pilot.press("pagedown", "pagedown")
        r = int(re.search(r"round (\d+)", status(app)).group(1))  # type: ignore[union-attr]
        await pilot.press("pageup")
        assert f"round {r - 1}" in status(app)
        await pilot.press("g")
        await pilot.pause()
        await pilot.press(*"50", "enter")
        await pilot.pause()
        assert not app.screen.query("#goto"), shown(app)
        assert move_number(app) == 50
        # The log runs up to the position shown.
        log = screen.query_one("#log")._kept  # type: ignore[attr-defined]
        assert len(log) == screen.pos
        await pilot.press("g")
        await pilot.pause()
        await pilot.press(*"99999", "enter")
        await pilot.pause()
        assert "Type a whole number" in shown(app)
        await pilot.press("escape")
        await pilot.press("end")
        assert f"move {decisions} of {decisions}" in status(app)
        assert "The end of the game" in shown(app) and f"1. {winner}" in shown(app)
        # Whose view: a spectator, each seat, and everything once the game is over.
        names = []
        others = []
        for _ in range(4):
            await pilot.press("w")
            names.append(status(app).rsplit("·", 1)[1].strip())
            others.append([b.display for b in screen.query(".other-board")])
        assert names == ["Ann's view", "Bob's view", "everything (the game is over)", "a spectator's view"]
        # Everything: Ann's own view on top, then Bob's board as he saw it.
        assert others[2] == [True] and others[3] == [False]


async def test_the_replay_title_fits_80_columns_in_every_view(make_app, home: Path) -> None:
    """Long names, four seats and a late move: the status line gives way word by word, never cut."""
    names = ["Greedy bot 1", "Greedy bot 2", "Greedy bot 3", "Greedy bot 4"]
    t = await play_out(Table.new(CROWN, [Seat(SeatKind.BOT, n, bot="greedy") for n in names], seed="s4"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_replay(pilot, app)
        seen = []
        for keys in (("right",), ("end", "left")):
            await pilot.press(*keys)
            for _ in range(len(names) + 2):
                line = status(app)
                assert "move" in line and len(line) <= SIZE[0] - 2, line
                seen.append(line.rsplit("·", 1)[1].strip())
                await pilot.press("w")
        # Every view was named, the long forms where they fit and the short ones where not.
        assert any(v in seen for v in ("as Greedy bot 4", "Greedy bot 4's view"))
        assert any(v in seen for v in ("everything", "everything (the game is over)"))
    assert t.state.is_over


async def test_a_game_in_progress_shows_seats_only_in_public(make_app, home: Path) -> None:
    t = Table.new(CROWN, [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.PERSON, "Bob")], seed=5)
    await t.advance()
    for _ in range(30):
        if t.current is None or t.current < 0:
            break
        t.submit(t.view(t.current).legal()[0])
        await t.advance()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_replay(pilot, app)
        await pilot.press("end", "w")
        assert "Ann's seat, public view" in status(app)
        state, viewer = screen.board_state()
        assert viewer == 0 and state.digest() == t.state.view(None).digest()
        views = screen.view_names()
        assert not any("everything" in v for v in views)


# ---- 3. the end of a game --------------------------------------------------------------
async def test_the_end_of_a_game_charts_milestones_rematch_and_replay(make_app, home: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        t = bot_table()
        while t.state.ply < 400 and await t.step():
            pass  # most of the game off screen (a repaint a move is what costs): the end reads the record
        await app.push_screen(app.catalog.table_screen("crown")(t))
        await until(lambda: isinstance(app.screen, ScoreScreen), 60, "the end of the game")
        await pilot.pause(0.3)
        screen = app.screen
        chart = screen.query_one(ScoreOverTime)
        assert chart.rounds and len(chart.series) == 2
        assert chart.series[0][-1] == t.state.scores().totals[0]
        milestones = str(screen.query_one("#milestones").render())
        assert re.search(r"round \d+, turn \d+ +(Ann|Bob): ", milestones), milestones
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("m")
        # Two bots may play the whole rematch at once: wait for its end, which also keeps
        # the test from ending with a worker mid-move.
        await until(lambda: isinstance(app.screen, ScoreScreen) and app.screen is not screen, 60, "the rematch")
        new = app.screen.table
        assert isinstance(new, Table) and new is not t
        assert [s.name for s in new.seats] == ["Ann", "Bob"] and new.record.seed != t.record.seed
        assert new.record.options == t.record.options


async def test_the_form_keeps_the_game_and_bot_level_when_left_with_escape(make_app, home: Path) -> None:
    """Issue 45: the new-game form forgot the game and the bot level last chosen; they are kept
    when the form is left with Esc too, and the bot level carries over to another game."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await set_cycler(pilot, "#game", "aquatica")
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        kinds = [v for _, v in screen.query_one("#seat-1", Cycler).choices if str(v).startswith("bot:")]
        level = kinds[0]
        await set_cycler(pilot, "#seat-1", level)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.game_name == "aquatica"
        assert screen.query_one("#seat-1", Cycler).value == level
        await set_cycler(pilot, "#game", "crown")
        if level in [v for _, v in screen.query_one("#seat-1", Cycler).choices]:
            assert screen.query_one("#seat-1", Cycler).value == level


async def test_resume_says_which_aquatica_game_was_tribes_solo(make_app, home: Path) -> None:
    """Issue 45: Resume listed a Tribes Solo game as plain "Aquatica"."""
    from coldwater.net.play.table import Seat, SeatKind, Table

    (home / "saves").mkdir(parents=True, exist_ok=True)
    options = {"module": "tribes", "solo_level": 2}
    table = Table.new(
        "aquatica", [Seat(SeatKind.PERSON, "Ada")], seed="r", options=options, save_path=home / "saves" / "t.json"
    )
    table.save()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
        assert "(Tribes Solo, level 2)" in shown(app), shown(app)


async def test_replays_say_which_aquatica_game_was_tribes_solo(make_app, home: Path) -> None:
    """Issue 45: Replays listed a Tribes Solo game as plain "Aquatica" (Resume's words, from its function)."""
    (home / "saves").mkdir(parents=True, exist_ok=True)
    solo = Table.new(
        "aquatica",
        [Seat(SeatKind.PERSON, "Ada")],
        seed="r",
        options={"module": "tribes", "solo_level": 2},
        save_path=home / "saves" / "t.json",
    )
    solo.save()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ReplaysScreen)
        assert "Cold Waters (Tribes Solo, level 2) · Ada" in " ".join(shown(app).split()), shown(app)  # (wrapped at 80)


def test_a_letter_means_one_thing_around_the_table() -> None:
    """Issue 45: r was Resume on the menu, Rematch at the end and Review in a replay, and v was
    Review at the end but whose view in a replay. On the menu, the end screen, the replay and
    Resume, each of these keys now means one thing: the same thing wherever it is pressed."""
    from coldwater.tui import keymap
    from coldwater.tui.screens.menu import ENTRIES, SERVED

    same = {"menu:replays": "replays", "score.replay": "replays", "replay.review": "review", "score.review": "review"}
    meanings: dict[str, set[str]] = {}
    for key, _, value in ENTRIES + SERVED:
        meanings.setdefault(key, set()).add(same.get(f"menu:{value}", f"menu:{value}"))
    for k in keymap.DEFAULT:
        if k.scope in ("score", "replay", "resume"):
            for one in k.keys.split(","):
                meanings.setdefault(one, set()).add(same.get(keymap.binding_id(k), keymap.binding_id(k)))
    words = {"menu:resume", "replays", "review", "score.rematch"}
    for key, what in meanings.items():
        if what & words:
            assert len(what) == 1, f"{key} means {sorted(what)}"
    by_meaning = {m: k for k, what in meanings.items() for m in what}
    assert (by_meaning["menu:resume"], by_meaning["replays"], by_meaning["review"]) == ("r", "p", "v")
    assert by_meaning["score.rematch"] == "m" and by_meaning["replay.seat"] == "w"
