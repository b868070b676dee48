"""Host a LAN table: the game, its seats (you, open, a bot, or reserved for one key), options, a name.

Start opens the table (listening, announced on the LAN unless the app says not
to) and goes to the lobby, where the people who join appear.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Static
from textual.worker import Worker

from coldwater.core.errors import ContentError
from coldwater.core.state import Game
from coldwater.net.names import PLAYER_NAME_BYTES, TABLE_NAME_BYTES, BadName, check_name
from coldwater.tui import keymap
from coldwater.tui import settings as settings_mod
from coldwater.tui.screens.base import FormScreen
from coldwater.tui.screens.newgame import (
    CONTENT_HINT,
    has_own_content,
    own_content,
    plain,
    show_options,
)
from coldwater.tui.serve import applink, control
from coldwater.tui.settings import FormMemory
from coldwater.tui.widgets.form import Cycler, Field, FormScroll

MAX_SEATS = 4
TURN_CHOICES = [("3 minutes a move", 180), ("1 minute", 60), ("5 minutes", 300), ("10 minutes", 600), ("no clock", 0)]
"""Seconds a seat has for each move before its bot plays it (its player takes it back with a key)."""
GAME_TIME_CHOICES = [
    ("90 minutes a player", 5400),
    ("1 hour", 3600),
    ("2 hours", 7200),
    ("4 hours", 14400),
    ("no limit", 0),
]
"""Each player's whole time for the game, every move counted (docs/lan.md, "The turn clock"): spent, the
player is out of time however much of the move's time is left. No normal game comes near 90 minutes."""
CLOCK_CHOICES = [("the others may hand the seat to a bot", False), ("strict: a bot plays at once", True)]
"""When a seat is out of time (its move's time and its bank spent) and its player is still there
(docs/lan.md, "The turn clock"); an absent player's seat goes to a bot either way."""
WATCH_CHOICES = [("anyone (up to 16)", 16), ("up to 4", 4), ("nobody", 0)]
"""Who may watch the game (the public view only); the value is the most watchers at once."""
HINT_CHOICES = [("off", False), ("on for everyone", True)]
"""Whether every seat may ask for the coach's hint (h) at this table; the lobby and the record say so."""
SEAT_KINDS = [("open (anyone may join)", "open"), ("bot", "bot"), ("reserved for a key", "reserved")]
FAIR = ("fair: nobody, you included, can see a hidden card", "fair")
COMMITTED = ("committed: this computer deals, the audit checks it", "committed")
PUBLIC = ("public draws: this game hides nothing", "committed")
SERVED_FAIR = ("fair: nobody, the server included, can see a hidden card", "fair")
SERVED_COMMITTED = ("committed: the server deals, the audit checks it", "committed")
"""The Dealer choices: fair where the fair dealer is wired, else the committed dealer (public draws only
for a game with nothing hidden)."""


def lan_settings(app: Any) -> dict[str, Any]:
    """Where tables listen and whether they are announced (tests use loopback, no zeroconf)."""
    return dict(getattr(app, "lan_options", None) or {})


class LanHostScreen(FormScreen):
    BINDINGS = keymap.bindings("back", "nav", "hostform")
    HELP = """\
**Host a LAN table.** (Over SSH the server hosts it for you and you sit at seat 1, so it
stays open if your connection drops; come back with the same key to sit down again.
A seat may be reserved for an SSH key fingerprint, as shown under the main menu.)
Choose the game and how many play; you sit at seat 1. Every other
seat is *open* (the first person who joins takes it), a *bot* played on this computer,
or *reserved* for one person's key fingerprint (they read it off their own Join screen).

Give the table a name people will recognise in their list. A passphrase keeps strangers
out: tell it to the players aloud (it is never saved; the rest of the form is remembered).
The *dealer* deals what is hidden: *fair* (the default where a game has it) means no
computer, yours included, can see a card or a fish before the rules show it; a bot seat is
then run on your computer, which sees that bot's hand (never a person's), and the lobby
says so. *Committed* lets your computer deal: the audit at the end catches any change,
but not peeking. *Watchers* may see the game as it is played (the board, the log and the scores, never
anyone's hidden cards or fish); choose *nobody* to keep it to the players. *Card data*
plays with your own printed card values; joiners need the same file, and
the join screen tells them its hash. Press Enter on **Open table** (or Ctrl+S): you go to
the lobby, where you start the game once every seat is filled and ready.
"""

    def __init__(self) -> None:
        super().__init__()
        self.games: list[tuple[str, Game[Any, Any]]] = []
        self.game_name = ""
        self.opening = False
        self.option_names: list[str] = []
        self.option_cyclers: list[Cycler] = []

    def compose(self) -> ComposeResult:
        with FormScroll(id="form", classes="page"):
            yield Static("Host a LAN table", classes="page-title")
            yield Cycler("Game", [("…", "")], id="game", hint="Which game the table plays; ← → changes it")
            yield Cycler("Players", [("2", 2)], id="players", hint="How many seats the table has, yours included")
            yield Static("Seat 1          you (the host)", id="seat-me")
            for i in range(1, MAX_SEATS):
                with Horizontal(classes="seat-row", id=f"seat-row-{i}"):
                    yield Cycler(
                        f"Seat {i + 1}",
                        SEAT_KINDS,
                        "open",
                        id=f"seat-{i}",
                        classes="seat-kind",
                        hint="open: the first to join sits here; bot: played here; reserved: one key only",
                    )
                    yield Field(
                        placeholder="fingerprint",
                        id=f"fp-{i}",
                        classes="seat-name",
                        max_length=24,
                        hint="The key fingerprint of the person this seat is for (on their Join screen)",
                    )
            yield Static("", id="options-title", classes="section")
            yield Vertical(id="options")
            with Horizontal(classes="seed-row"):
                yield Static("Table", classes="seed-label")
                yield Field(
                    value="Coldwater table",
                    id="table-name",
                    max_length=TABLE_NAME_BYTES,  # characters; open_table checks the bytes
                    hint="The name people see in their list of tables",
                )
            with Horizontal(classes="content-row"):
                yield Static("You", classes="seed-label")
                yield Field(value="Host", id="host-name", max_length=16, hint="Your name at the table")
            with Horizontal(classes="content-row"):
                yield Static("Pass", classes="seed-label")
                yield Field(
                    placeholder="passphrase (optional)",
                    id="passphrase",
                    password=True,
                    max_length=64,
                    hint="Optional: only people who know it can sit down. Ctrl+G makes one. Never saved",
                )
            yield Cycler(
                "Dealer",
                [FAIR, COMMITTED],
                "fair",
                id="dealer",
                hint="fair: no computer sees a hidden card; committed: yours deals them, audited",
            )
            yield Cycler(
                "Turn timer",
                TURN_CHOICES,
                TURN_CHOICES[0][1],
                id="turn-timer",
                hint="Each move's time; then a 5-minute bank for the game drains (no clock: no limit)",
            )
            yield Cycler(
                "Out of time",
                CLOCK_CHOICES,
                False,
                id="strict-clock",
                hint="A player still there who is out of time: a bot plays at once only on a strict clock",
            )
            yield Cycler(
                "Game time",
                GAME_TIME_CHOICES,
                GAME_TIME_CHOICES[0][1],
                id="game-time",
                hint="Each player's thinking for the whole game, every move counted; spent: out of time",
            )
            yield Cycler(
                "Watchers",
                WATCH_CHOICES,
                WATCH_CHOICES[0][1],
                id="watchers",
                hint="Who may watch the game: the public view only, never a player's secrets",
            )
            yield Cycler(
                "Hints",
                HINT_CHOICES,
                False,
                id="hints",
                hint="on: every seat may press h for the hard bot's best choices; the lobby and the record say so",
            )
            with Horizontal(classes="content-row", id="content-row"):
                yield Static("Card data", classes="seed-label")
                yield Field(placeholder="empty: the packaged stand-in", id="content-path", hint=CONTENT_HINT)
            yield Static("", id="form-error", classes="error", markup=False)
            yield Button("Open table", id="start", variant="primary")
        yield self.hint_line()
        yield Footer()

    def action_passphrase(self) -> None:
        """Fill the passphrase with four plain words, shown so the host can read them out."""
        from coldwater.net.passphrase import generate

        field = self.query_one("#passphrase", Input)
        field.value = generate()
        field.password = False
        field.focus()

    @property
    def memory(self) -> FormMemory:
        return self.cw.settings.forms.get("host") or FormMemory()

    def on_mount(self) -> None:
        if applink.link() is not None:
            self.query_one(".page-title", Static).update("Host a table on this server (LAN players may join)")
        self.games = self.cw.catalog.available()
        if not self.games:
            self.query_one("#form-error", Static).update("No game engine is installed in this build.")
            return
        mem = self.memory
        names = [n for n, _ in self.games]
        self.game_name = mem.game if mem.game in names else names[0]
        self.query_one("#game", Cycler).set_choices([(g.title, n) for n, g in self.games], self.game_name)
        self._setup_game()
        if mem.table:
            self.query_one("#table-name", Input).value = mem.table
        if mem.me:
            self.query_one("#host-name", Input).value = mem.me
        self._recall()
        self.query_one("#game", Cycler).focus()
        # Focus scrolls only as far as the field; the page opens at its top so its title shows at 80×24.
        form = self.query_one("#form", FormScroll)
        self.call_after_refresh(form.scroll_home, animate=False)

    @property
    def game(self) -> Game[Any, Any]:
        return dict(self.games)[self.game_name]

    def _setup_game(self) -> None:
        g = self.game
        counts = [c for c in range(max(2, g.min_players), g.max_players + 1)] or [g.min_players]
        self.query_one("#players", Cycler).set_choices([(str(c), c) for c in counts], counts[0])
        screen_cls = self.cw.catalog.table_screen(self.game_name)
        self.option_names, self.option_cyclers = show_options(self, g, screen_cls)
        self.query_one("#content-row").display = has_own_content(g)
        self._set_dealers()
        self._show_seats()

    def _set_dealers(self) -> None:
        from coldwater.net.lan import default_dealer

        g = self.game
        served = applink.link() is not None  # the server hosts the table: it is the computer that deals
        fair, committed = (SERVED_FAIR, SERVED_COMMITTED) if served else (FAIR, COMMITTED)
        if default_dealer(g) == "fair":
            self.query_one("#dealer", Cycler).set_choices([fair, committed], "fair")
        elif getattr(g, "sealed_values", True):
            self.query_one("#dealer", Cycler).set_choices([committed], "committed")
        else:
            self.query_one("#dealer", Cycler).set_choices([PUBLIC], "committed")

    def _recall(self) -> None:
        mem = self.memory
        if mem.game != self.game_name:
            return
        self.query_one("#players", Cycler).select(mem.players)
        for i, kind in enumerate(mem.seats[1:MAX_SEATS], start=1):
            self.query_one(f"#seat-{i}", Cycler).select(kind)
        for i, fp in enumerate(mem.fingerprints[1:MAX_SEATS], start=1):
            self.query_one(f"#fp-{i}", Input).value = fp
        for name, c in zip(self.option_names, self.option_cyclers):
            if name in mem.options:
                c.select(next((v for _, v in c.choices if plain(v) == mem.options[name]), mem.options[name]))
        self.query_one("#content-path", Input).value = mem.content
        self.query_one("#watchers", Cycler).select(mem.watchers)
        self.query_one("#hints", Cycler).select(mem.hints)
        self.query_one("#turn-timer", Cycler).select(mem.turn)
        self.query_one("#strict-clock", Cycler).select(mem.strict)
        if mem.dealer:
            self.query_one("#dealer", Cycler).select(mem.dealer)
        self._show_seats()

    def _remember(self) -> None:
        n = self.query_one("#players", Cycler).value
        self.cw.settings.forms["host"] = FormMemory(
            game=self.game_name,
            players=n,
            seats=["host"] + [self.query_one(f"#seat-{i}", Cycler).value for i in range(1, n)],
            fingerprints=[""] + [self.query_one(f"#fp-{i}", Input).value for i in range(1, n)],
            options={k: plain(v) for k, v in self.options().items()},
            content=self.query_one("#content-path", Input).value.strip(),
            table=self.query_one("#table-name", Input).value.strip(),
            me=self.query_one("#host-name", Input).value.strip(),
            watchers=self.query_one("#watchers", Cycler).value,
            dealer=self.query_one("#dealer", Cycler).value,
            turn=self.query_one("#turn-timer", Cycler).value,
            strict=self.query_one("#strict-clock", Cycler).value,
            hints=self.query_one("#hints", Cycler).value,
        )
        try:
            settings_mod.save(self.cw.settings)
        except OSError as e:
            self.notify(f"Cannot keep the form's choices: {e}", severity="warning")

    def _show_seats(self) -> None:
        n = self.query_one("#players", Cycler).value
        for i in range(1, MAX_SEATS):
            self.query_one(f"#seat-row-{i}").display = i < n
            kind = self.query_one(f"#seat-{i}", Cycler).value
            self.query_one(f"#fp-{i}", Input).display = kind == "reserved"

    def on_cycler_changed(self, event: Cycler.Changed) -> None:
        cid = event.cycler.id or ""
        if cid == "game" and event.value and event.value != self.game_name:
            self.game_name = event.value
            self._setup_game()
            self._recall()
        elif cid == "players" or cid.startswith("seat-"):
            self._show_seats()

    def submit(self) -> None:
        self.open_table()

    def seat_kinds(self) -> list[str]:
        """The seats as the net layer names them: ``host``, ``open``, ``bot``, ``reserved:FP``."""
        n = self.query_one("#players", Cycler).value
        out = ["host"]
        for i in range(1, n):
            kind = self.query_one(f"#seat-{i}", Cycler).value
            if kind == "reserved":
                out.append("reserved:" + self.query_one(f"#fp-{i}", Input).value.strip().lower())
            else:
                out.append(kind)
        return out

    def options(self) -> dict[str, Any]:
        return {name: c.value for name, c in zip(self.option_names, self.option_cyclers)}

    def host_name(self) -> str:
        return self.query_one("#host-name", Input).value.strip() or "Host"

    def open_table(self) -> None:
        if not self.games or self.opening:
            return
        error = self.query_one("#form-error", Static)
        kinds = self.seat_kinds()
        if any(k == "reserved:" for k in kinds):
            error.update("A reserved seat needs the fingerprint of the person it is for.")
            return
        try:  # the one name rule (net/names.py), the same as `coldwater host` and the server's
            name = check_name(self.query_one("#table-name", Input).value)
            check_name(self.host_name(), what="player name", limit=PLAYER_NAME_BYTES)
        except BadName as e:
            error.update(f"{str(e)[0].upper()}{str(e)[1:]}.")
            return
        try:
            game, _ = own_content(self.game, self.query_one("#content-path", Input).value.strip())
        except (ContentError, OSError) as e:
            error.update(f"Card data: {e}")
            self.query_one("#content-path", Input).focus()
            return
        served = applink.link()
        if served is not None and self.query_one("#content-path", Input).value.strip():
            error.update("Tables on this server play the packaged card data; empty Card data to open one.")
            return
        self.opening = True
        error.update("Opening the table…")
        work = partial(self._open_served, served, kinds, name) if served else partial(self._open, game, kinds, name)
        worker: Worker[None] = self.run_worker(work, name="open-table", exclusive=True)
        del worker  # named only so mypy infers the worker's result type (None)

    async def _open(self, game: Game[Any, Any], kinds: list[str], name: str) -> None:
        from coldwater import net
        from coldwater.tui.screens.lobby import LobbyScreen

        error = self.query_one("#form-error", Static)
        lan = lan_settings(self.app)
        try:
            host = await net.open_table(
                game,
                name=name,
                seats=kinds,
                options=self.options(),
                passphrase=self.query_one("#passphrase", Input).value or None,
                host_name=self.host_name(),
                bind=lan.get("bind", "0.0.0.0"),
                port=lan.get("port", 0),
                advertise=lan.get("advertise", True),
                identity=lan.get("identity"),
                save_dir=lan.get("save_dir"),
                watchers=self.query_one("#watchers", Cycler).value,
                dealer=self.query_one("#dealer", Cycler).value,
                turn_timer=self.query_one("#turn-timer", Cycler).value,
                strict_clock=self.query_one("#strict-clock", Cycler).value,
                hints=self.query_one("#hints", Cycler).value,
                game_time=self.query_one("#game-time", Cycler).value,
            )
        except Exception as e:  # a port in use, no network, bad options: said plainly
            self.opening = False
            error.update(f"Cannot open the table: {e}")
            return
        self.opening = False
        self._remember()
        self.app.switch_screen(LobbyScreen(host, is_host=True))

    async def _open_served(self, served: applink.ServeLink, kinds: list[str], name: str) -> None:
        """Inside `coldwater serve`: the server hosts the table; this app sits at seat 1 as a LAN peer.

        So the table outlives this session (a dropped connection, a quit app), and
        SSH and LAN players meet at it through the same protocol.
        """
        from coldwater import net
        from coldwater.tui.screens.lobby import LobbyScreen

        error = self.query_one("#form-error", Static)
        passphrase = self.query_one("#passphrase", Input).value or None
        request = control.OpenTable(
            game=self.game_name,
            name=name,
            seats=kinds,
            options={k: plain(v) for k, v in self.options().items()},
            passphrase=passphrase,
            watchers=self.query_one("#watchers", Cycler).value,
            dealer=self.query_one("#dealer", Cycler).value,
            turn=self.query_one("#turn-timer", Cycler).value,
            strict=self.query_one("#strict-clock", Cycler).value,
            hints=self.query_one("#hints", Cycler).value,
        )
        try:
            table = await served.open_table(request)
            peer = await net.join_table(
                applink.listing(table),
                name=self.host_name(),
                passphrase=passphrase,
                game=self.game,
                bind="127.0.0.1",  # a served app takes over nothing: the server keeps the table
                fingerprint=table.fingerprint,
            )
        except Exception as e:  # the server said no, or the table did: said plainly
            self.opening = False
            error.update(f"Cannot open the table: {e}")
            return
        self.opening = False
        self._remember()
        self.app.switch_screen(LobbyScreen(peer, is_host=False, served_table=table.name))
