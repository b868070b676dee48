"""Join a LAN table: the tables announced on the network as they come and go, or an address.

The list follows a :class:`coldwater.net.TableBrowser` live. Where multicast does
not reach, type ``HOST:PORT``. Whatever goes wrong (wrong passphrase, another
version, a full table, nobody there) is said in a sentence; the screen stays.
"""

from __future__ import annotations

from functools import partial

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Static
from textual.worker import Worker

from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.lan_host import lan_settings
from coldwater.tui.widgets.choices import ChoiceList, Item


def listing_label(listing: Any, titles: dict[str, str]) -> str:
    game = titles.get(listing.game, listing.game)
    seats = "full" if listing.open_seats <= 0 else f"{listing.open_seats} open seat{'s' if listing.open_seats != 1 else ''}"
    return f"{listing.table} · {game} · {listing.host}:{listing.port} · {seats}"


class LanJoinScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "nav")
    HELP = """\
**Join a LAN table.** Tables announced on your network appear in the list as they open
and vanish when they close, with their game, host address and open seats. Press a
table's key (or Enter on it) to join.

If a table does not show up (some networks block the announcements), type its address
as `HOST:PORT` (the host's lobby shows the port) and press Enter. A table with a
passphrase needs it typed first. Your key fingerprint is shown at the top: a host can
reserve a seat for it.
"""

    def __init__(self, *, browse: bool = True) -> None:
        super().__init__()
        self.browse = browse
        self.browser: Any = None
        self.listings: list[Any] = []
        self.joining = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="page", id="join"):
            yield Static("Join a LAN table", classes="page-title")
            yield Static("", id="join-me")
            yield Static("Tables on this network", classes="section")
            yield Static("Looking for tables…", id="join-empty", classes="note")
            yield ChoiceList(id="tables")
            with Horizontal(classes="seed-row"):
                yield Static("Address", classes="seed-label")
                yield Input(placeholder="HOST:PORT", id="address", max_length=80)
            with Horizontal(classes="seed-row"):
                yield Static("You", classes="seed-label")
                yield Input(value="Guest", id="my-name", max_length=16)
            with Horizontal(classes="seed-row"):
                yield Static("Pass", classes="seed-label")
                yield Input(placeholder="passphrase, if the table has one", id="passphrase", password=True,
                            max_length=64)
            yield Static("", id="join-error", classes="error", markup=False)
            yield Button("Join address", id="join-address")
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
        self.query_one("#tables", ChoiceList).display = False
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

    def show_listings(self, listings: list[Any]) -> None:
        """The browser's on_change: the whole list after each change."""
        if not self.is_mounted:
            return
        self.listings = sorted(listings, key=lambda x: (x.table.lower(), x.host, x.port))
        titles = {name: game.title for name, game in self.cw.catalog.available()}
        items = [Item(listing_label(x, titles), i) for i, x in enumerate(self.listings)]
        lst = self.query_one("#tables", ChoiceList)
        lst.set_items(items)
        lst.display = bool(items)
        self.query_one("#join-empty", Static).update("" if items else "No tables found yet; still looking…")
        self.query_one("#join-empty", Static).display = not items

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

    def join(self, target: Any) -> None:
        if self.joining:
            return
        if isinstance(target, str) and ":" not in target:
            self.query_one("#join-error", Static).update(
                f"{target!r} is not an address: type HOST:PORT, or pick a table from the list.")
            return
        self.joining = True
        self.query_one("#join-error", Static).update("Joining…")
        # Annotated because mypy cannot infer the result type through Textual's WorkType union.
        worker: Worker[None] = self.run_worker(partial(self._join, target), name="join", exclusive=True)

    async def _join(self, target: Any) -> None:
        from coldwater import net
        from coldwater.tui.screens.lobby import LobbyScreen

        error = self.query_one("#join-error", Static)
        lan = lan_settings(self.app)
        try:
            peer = await net.join_table(
                target, name=self.query_one("#my-name", Input).value.strip() or "Guest",
                passphrase=self.query_one("#passphrase", Input).value or None,
                bind=lan.get("bind", "0.0.0.0"), identity=lan.get("identity"), save_dir=lan.get("save_dir"))
        except net.Refusal as e:
            self.joining = False
            error.update(f"Refused: {e}")
            return
        except (OSError, TimeoutError) as e:
            self.joining = False
            # TimeoutError is an OSError (3.11+), so ask about it first.
            error.update(f"No answer from {getattr(target, 'table', target)}." if isinstance(e, TimeoutError)
                         else f"Cannot reach {getattr(target, 'table', target)}: {e.strerror or e}")
            return
        except Exception as e:  # anything else: a sentence, never a crash
            self.joining = False
            error.update(f"Cannot join: {e}")
            return
        self.joining = False
        await self._close_browser()
        self.app.switch_screen(LobbyScreen(peer, is_host=False))
