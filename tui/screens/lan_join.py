"""Join or watch a LAN table: the tables announced on the network as they come and go, or an address.

The list follows a :class:`coldwater.net.TableBrowser` live. Where multicast does
not reach, type ``HOST:PORT``. *As* chooses between taking a seat and watching
(the public view only); a table whose seats are all taken, or whose game is on,
is watched when chosen, if it admits watchers. Whatever goes wrong (wrong
passphrase, another version, a full table, nobody there) is said in a sentence;
the screen stays.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Static
from textual.worker import Worker

from coldwater import __version__
from coldwater.core.errors import ContentError
from coldwater.net.names import shown
from coldwater.tui import keymap
from coldwater.tui import settings as settings_mod
from coldwater.tui.games import words_of
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.lan_host import lan_settings
from coldwater.tui.screens.newgame import own_content
from coldwater.tui.serve import applink
from coldwater.tui.settings import FormMemory
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.widgets.form import Cycler, Field

if TYPE_CHECKING:
    from coldwater.core.state import Game
    from coldwater.net.discovery import Listing, TableBrowser
    from coldwater.net.session import TablePeer, TableWatcher

JOIN_TIMEOUT = 5.0
"""Seconds before a join that gets no answer says so (a wrong address, a silent host)."""


def needs_passphrase(listing: Listing) -> bool:
    """Whether the table says it needs a passphrase (older listings do not say)."""
    return listing.needs_passphrase


def only_to_watch(listing: Listing) -> bool:
    """No seat to take (all taken, or the game is on), but the table admits a watcher: choosing it watches."""
    return (listing.open_seats <= 0 or listing.running) and listing.watchable


def listing_label(listing: Listing, titles: dict[str, str], packaged: dict[str, str] | None = None) -> str:
    # Every text field came from the network: escaped (net/names.py), though discovery drops bad names.
    game = titles.get(listing.game) or shown(listing.game, limit=32)
    running = listing.running
    if running:
        seats = "playing"
    elif listing.open_seats <= 0:
        seats = "full"
    else:
        seats = f"{listing.open_seats} open seat{'s' if listing.open_seats != 1 else ''}"
    if only_to_watch(listing):
        seats += " · Watch"
    watchers = listing.watchers
    if watchers > 0:
        seats += f" · watching: {watchers}"
    marks = ""
    dealer = listing.dealer
    if dealer == "fair":
        marks += " · fair dealer"
    elif dealer == "committed":
        marks += " · host deals"
    if listing.strict:
        marks += " · strict clock"
    elif listing.turn == 0:
        marks += " · no clock"
    if listing.hints:
        marks += " · hints on"
    if needs_passphrase(listing):
        marks += " · needs a passphrase"
    if (
        packaged is not None
        and listing.game in packaged
        and listing.content
        and listing.content != packaged[listing.game]
    ):
        marks += f" · own card data {shown(listing.content[:12])}"
    total = listing.seats
    if total > 0:
        seats = f"{total} seats · {seats}"
    version = listing.version
    if version and version != __version__:
        marks += f" · app {shown(version, limit=24)}"
    return f"{shown(listing.table)} · {game} · {listing.host}:{listing.port} · {seats}{marks}"


def content_needed(game: Game[Any, Any], content: str) -> str:
    """The sentence for a joiner whose card data differs from the table's."""
    files = words_of(game.name).CONTENT_FILES
    return (
        f"This table plays {game.title} with other card data (hash {content[:16]}…, yours is "
        f"{game.content_hash[:16]}…). Put the host's card data ({files}) in Card data to join."
    )


class LanJoinScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "nav")
    HELP = """\
**Join or watch a LAN table.** Tables announced on your network appear in the list as
they open and vanish when they close, with their game, host address, open seats and
how many are watching. Press a table's key (or Enter on it) to join. Each says who deals
what is hidden: *fair dealer* (no computer, the host's included, sees a hidden card; bots
are run by the host, whose computer sees a bot's hand, never yours) or *host deals* (the
host's computer deals; the audit at the end catches changes, not peeking).

**Watch.** Set *As* to *watcher* to watch a table instead of sitting down: you see the
board, the log and the scores as the game goes, never anyone's hidden cards or fish,
and you can leave at any time (Esc). A table marked *playing · Watch* (its seats are
taken) is watched when you choose it. A host may admit no watchers, or only a few.

If a table does not show up (some networks block the announcements), type its address
as `HOST:PORT` (the host's lobby shows both) and press Enter. A table with a
passphrase (marked *needs a passphrase*) needs it typed in *Pass* first. A table played
with its own card data says so, with its hash: put the same file in *Card data* (you are
told which). Your key fingerprint is shown at the top: a host can reserve a seat for it.

Over SSH, the tables open on this server come first (marked *on this server*); one
where you have a seat says *your seat*: choose it to sit back down.
"""

    def __init__(self, *, browse: bool = True) -> None:
        super().__init__()
        self.browse = browse
        self.browser: TableBrowser | None = None
        self.listings: list[Listing] = []
        self.lan_listings: list[Listing] = []
        self.served: list[Listing] = []
        """Tables hosted by the server this session runs in (`coldwater serve`), as loopback listings."""
        self.yours: set[str] = set()
        self.joining = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="page", id="join"):
            yield Static("Join or watch a LAN table", classes="page-title")
            yield Static("", id="join-me")
            served = applink.link() is not None
            yield Static("Tables on this server and network" if served else "Tables on this network", classes="section")
            yield Static("Looking for tables…", id="join-empty", classes="note")
            yield ChoiceList(id="tables")
            with Horizontal(classes="seed-row"):
                yield Static("Address", classes="seed-label")
                yield Field(
                    placeholder="HOST:PORT",
                    id="address",
                    max_length=80,
                    hint="Where the list does not reach: the host's address and port, then Enter",
                )
            with Horizontal(classes="content-row"):
                yield Static("You", classes="seed-label")
                yield Field(value="Guest", id="my-name", max_length=16, hint="Your name at the table")
                yield Cycler(
                    "As",
                    [("player", False), ("watcher", True)],
                    False,
                    id="as",
                    hint="player: take a seat; watcher: see the game (public view only), leave any time",
                )
            with Horizontal(classes="content-row"):
                yield Static("Pass", classes="seed-label")
                yield Field(
                    placeholder="passphrase, if the table has one",
                    id="passphrase",
                    password=True,
                    max_length=64,
                    hint="A table that needs a passphrase: the one its host told you",
                )
            with Horizontal(classes="content-row"):
                yield Static("Card data", classes="seed-label")
                yield Field(
                    placeholder="empty: the packaged stand-in",
                    id="content-path",
                    hint="Only for a table played with its own card data: the same file as the host's",
                )
            yield Static("", id="join-error", classes="error", markup=False)
            yield Button("Join address", id="join-address")
        yield self.hint_line()
        yield Footer()

    def on_mount(self) -> None:
        lan = lan_settings(self.app)
        ident = lan.get("identity")
        if ident is None:
            try:
                from coldwater.net.identity import load_or_create

                ident = load_or_create()
            except Exception:
                ident = None
        if ident is not None:
            self.query_one("#join-me", Static).update(f"Your key: {ident.fingerprint}")
        mem = self.cw.settings.forms.get("join")
        if mem is not None:
            if mem.me:
                self.query_one("#my-name", Input).value = mem.me
            self.query_one("#content-path", Input).value = mem.content
        self.query_one("#tables", ChoiceList).display = False
        if applink.link() is not None:
            ssh = applink.served_key()
            self.query_one("#join-me", Static).update(
                f"Your key: {ident.fingerprint if ident else '?'} (SSH key {ssh})"
            )
            self.run_worker(self._follow_server(), name="server-tables")
        if self.browse and lan.get("browse", True):
            self.run_worker(self._start_browser(), name="browser")
        else:
            self.query_one("#join-empty", Static).update("Not looking for tables; join by address.")
        self.query_one("#address", Input).focus()

    async def _start_browser(self) -> None:
        from coldwater import net

        try:
            self.browser = net.TableBrowser(on_change=self.show_listings)
            await self.browser.start()
        except Exception as e:  # no network, no multicast: joining by address still works
            self.browser = None
            self.query_one("#join-empty", Static).update(f"Cannot look for tables here ({e}); join by address.")

    async def on_unmount(self) -> None:
        await self._close_browser()

    async def _close_browser(self) -> None:
        if self.browser is not None:
            b, self.browser = self.browser, None
            try:
                await b.close()
            except Exception:
                pass

    async def _follow_server(self) -> None:
        """Inside `coldwater serve`: the server's own tables, asked for every second while shown."""
        link = applink.link()
        assert link is not None
        while self.is_mounted:
            try:
                tables = await link.tables()
            except applink.ServerUnavailable as e:
                self.query_one("#join-error", Static).update(f"Cannot list this server's tables: {e}")
                return
            self.served = [applink.listing(t) for t in tables]
            self.yours = {t.name for t in tables if t.yours}
            self.show_listings(self.lan_listings)
            await asyncio.sleep(1.0)

    def show_listings(self, listings: list[Listing]) -> None:
        """The browser's on_change: the whole list after each change (the server's own tables first)."""
        if not self.is_mounted:
            return
        self.lan_listings = list(listings)
        served_at = {(x.fingerprint, x.port) for x in self.served}
        # The server's tables are advertised on the LAN too; list each once, reached on loopback.
        lan = [x for x in listings if (x.fingerprint, x.port) not in served_at]
        self.listings = self.served + sorted(lan, key=lambda x: (x.table.lower(), x.host, x.port))
        titles = {name: game.title for name, game in self.cw.catalog.available()}
        packaged = {name: game.content_hash for name, game in self.cw.catalog.available()}
        items = [Item(self._label(x, titles, packaged), i) for i, x in enumerate(self.listings)]
        lst = self.query_one("#tables", ChoiceList)
        lst.set_items(items)
        lst.display = bool(items)
        # The list's keys (1, 2, …) pick a table only while it has the focus: hand it over while
        # nothing is typed in the address, and give it back when the list empties.
        address = self.query_one("#address", Input)
        if items and self.focused is address and not address.value:
            lst.focus()
        elif not items and self.focused is lst:
            address.focus()
        self.query_one("#join-empty", Static).update("" if items else "No tables found yet; still looking…")
        self.query_one("#join-empty", Static).display = not items

    def _label(self, x: Listing, titles: dict[str, str], packaged: dict[str, str]) -> str:
        if x not in self.served:
            return listing_label(x, titles, packaged)
        game = titles.get(x.game) or shown(x.game, limit=32)
        if x.table in self.yours:
            return f"{shown(x.table)} · {game} · on this server · your seat: sit back down"
        seats = "full" if x.open_seats <= 0 else f"{x.open_seats} open"
        lock = " · needs a passphrase" if needs_passphrase(x) else ""
        return f"{shown(x.table)} · {game} · on this server · {seats}{lock}"

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if event.choice_list.id != "tables":
            return
        event.stop()
        i = event.value
        if 0 <= i < len(self.listings):
            self.join(self.listings[i])

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "address" and event.value.strip():
            self.join(event.value.strip())
        else:
            self.focus_next()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "join-address":
            addr = self.query_one("#address", Input).value.strip()
            if addr:
                self.join(addr)
            else:
                self.query_one("#join-error", Static).update("Type the table's address as HOST:PORT.")

    def action_next(self) -> None:
        self.focus_next()

    def action_previous(self) -> None:
        self.focus_previous()

    @property
    def as_watcher(self) -> bool:
        return bool(self.query_one("#as", Cycler).value)

    def join(self, target: str | Listing) -> None:
        if self.joining:
            return
        error = self.query_one("#join-error", Static)
        if isinstance(target, str):
            host, sep, port = target.rpartition(":")
            if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
                error.update(
                    f"{target!r} is not an address: type HOST:PORT (a port from 1 to 65535), "
                    "or pick a table from the list."
                )
                return
        elif needs_passphrase(target) and not self.query_one("#passphrase", Input).value:
            error.update("This table needs a passphrase: type it in Pass, then choose the table again.")
            self.query_one("#passphrase", Input).focus()
            return
        # A table on this server where this key already has a seat: sit back down (it is
        # running, or full, which would otherwise make it a table only to watch).
        mine = not isinstance(target, str) and target in self.served and target.table in self.yours
        watch = self.as_watcher or (not isinstance(target, str) and not mine and only_to_watch(target))
        if not isinstance(target, str) and not watch and not mine and target.open_seats <= 0:
            error.update("This table has no open seat and admits no watchers.")
            return
        self.joining = True
        self.query_one("#join-error", Static).update("Joining as a watcher…" if watch else "Joining…")
        worker: Worker[None] = self.run_worker(partial(self._join, target, watch), name="join", exclusive=True)
        del worker  # named only so mypy infers the worker's result type (None)

    async def _game_for(self, target: str | Listing) -> Game[Any, Any]:
        """The game (with the card data it needs) for `target`; Refusal with a sentence if we lack it."""
        from coldwater import net
        from coldwater.net.transport import probe

        if isinstance(target, str):
            host, _, port = target.rpartition(":")
            # Longer than JOIN_TIMEOUT: the join's own deadline speaks first, saying what it waited for.
            game_name, content, _ = await probe(host.strip("[]"), int(port), timeout=JOIN_TIMEOUT + 1)
        else:
            game_name, content = target.game, target.content
        try:
            game = self.cw.catalog.get(game_name)
        except (ImportError, AttributeError, KeyError):
            raise net.Refusal(f"the table plays {game_name!r}, which this version does not have") from None
        text = self.query_one("#content-path", Input).value.strip()
        if text:
            try:
                game, _ = own_content(game, text)
            except (ContentError, OSError) as e:
                raise net.Refusal(f"your card data does not load: {e}") from None
        if content and content != game.content_hash:
            raise net.Refusal(content_needed(game, content))
        return game

    async def _join(self, target: str | Listing, watch: bool = False) -> None:
        from coldwater import net
        from coldwater.tui.screens.lobby import LobbyScreen

        error = self.query_one("#join-error", Static)
        lan = lan_settings(self.app)
        try:
            # Bounded: a wrong address or a silent host is said within seconds, not after a long wait.
            async with asyncio.timeout(JOIN_TIMEOUT):
                game = await self._game_for(target)
                name = self.query_one("#my-name", Input).value.strip() or "Guest"
                passphrase = self.query_one("#passphrase", Input).value or None
                peer: TablePeer | TableWatcher
                if watch:
                    peer = await net.watch_table(
                        target,
                        name=name,
                        passphrase=passphrase,
                        game=game,
                        identity=lan.get("identity"),
                        save_dir=lan.get("save_dir"),
                    )
                else:
                    peer = await net.join_table(
                        target,
                        name=name,
                        passphrase=passphrase,
                        game=game,
                        bind=lan.get("bind", "0.0.0.0"),
                        identity=lan.get("identity"),
                        save_dir=lan.get("save_dir"),
                    )
        except net.Refusal as e:
            self.joining = False
            if "passphrase" in str(e).lower() and not self.query_one("#passphrase", Input).value:
                error.update("Refused: this table needs a passphrase. Type it in Pass and join again.")
            else:
                error.update(f"Refused: {shown(str(e), limit=1000)}")  # a host's reason: network text
            return
        except (OSError, TimeoutError) as e:
            self.joining = False
            # TimeoutError is an OSError (3.11+), so ask about it first.
            error.update(
                f"No answer from {shown(str(getattr(target, 'table', target)))} within {JOIN_TIMEOUT:.0f} s: "
                "check the address, and that the table is still open."
                if isinstance(e, TimeoutError)
                else f"Cannot reach {shown(str(getattr(target, 'table', target)))}: {e.strerror or e}"
            )
            return
        except Exception as e:  # anything else: a sentence, never a crash
            self.joining = False
            error.update(f"Cannot join: {shown(str(e), limit=1000)}")
            return
        self.joining = False
        self.cw.settings.forms["join"] = FormMemory(
            me=self.query_one("#my-name", Input).value.strip(),
            content=self.query_one("#content-path", Input).value.strip(),
        )
        try:
            settings_mod.save(self.cw.settings)
        except OSError:
            pass  # only the memory of the form is lost
        await self._close_browser()
        self.app.switch_screen(LobbyScreen(peer, is_host=False))
