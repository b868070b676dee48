"""Host a LAN table: the game, its seats (you, open, a bot, or reserved for one key), options, a name.

Start opens the table (listening, announced on the LAN unless the app says not
to) and goes to the lobby, where the people who join appear.
"""

from __future__ import annotations

from functools import partial

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Footer, Input, Static
from textual.worker import Worker

from coldwater.tui import keymap
from coldwater.tui.screens.base import FormScreen
from coldwater.tui.screens.newgame import OPTION_HINTS, humanize, option_fields
from coldwater.tui.widgets.form import Cycler

MAX_SEATS = 4
SEAT_KINDS = [("open (anyone may join)", "open"), ("bot", "bot"), ("reserved for a key", "reserved")]


def lan_settings(app: Any) -> dict[str, Any]:
    """Where tables listen and whether they are announced (tests use loopback, no zeroconf)."""
    return dict(getattr(app, "lan_options", None) or {})


class LanHostScreen(FormScreen):
    BINDINGS = keymap.bindings("back", "nav", "form")
    HELP = """\
**Host a LAN table.** Choose the game and how many play; you sit at seat 1. Every other
seat is *open* (the first person who joins takes it), a *bot* played on this computer,
or *reserved* for one person's key fingerprint (they read it off their own Join screen).

Give the table a name people will recognise in their list. A passphrase keeps strangers
out: tell it to the players aloud. Press Enter on **Open table** (or Ctrl+S): you go to
the lobby, where you start the game once every seat is filled and ready.
"""

    def __init__(self) -> None:
        super().__init__()
        self.games: list[tuple[str, Any]] = []
        self.game_name = ""
        self.opening = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="form", classes="page"):
            yield Static("Host a LAN table", classes="page-title")
            yield Cycler("Game", [("…", "")], id="game")
            yield Cycler("Players", [("2", 2)], id="players")
            yield Static("Seat 1     you (the host)", id="seat-me")
            for i in range(1, MAX_SEATS):
                with Horizontal(classes="seat-row", id=f"seat-row-{i}"):
                    yield Cycler(f"Seat {i + 1}", SEAT_KINDS, "open", id=f"seat-{i}", classes="seat-kind")
                    yield Input(placeholder="fingerprint", id=f"fp-{i}", classes="seat-name", max_length=24)
            yield Static("", id="options-title", classes="section")
            for i in range(4):
                yield Cycler(f"opt{i}", [("no", False)], id=f"opt-{i}", classes="option")
            with Horizontal(classes="seed-row"):
                yield Static("Table", classes="seed-label")
                yield Input(value="Coldwater table", id="table-name", max_length=40)
            with Horizontal(classes="seed-row"):
                yield Static("You", classes="seed-label")
                yield Input(value="Host", id="host-name", max_length=16)
            with Horizontal(classes="seed-row"):
                yield Static("Pass", classes="seed-label")
                yield Input(placeholder="passphrase (optional)", id="passphrase", password=True, max_length=64)
            yield Static("", id="form-error", classes="error", markup=False)
            yield Button("Open table", id="start", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self.games = self.cw.catalog.available()
        if not self.games:
            self.query_one("#form-error", Static).update("No game engine is installed in this build.")
            return
        self.game_name = self.games[0][0]
        self.query_one("#game", Cycler).set_choices([(g.title, n) for n, g in self.games], self.game_name)
        self._setup_game()
        self.query_one("#game", Cycler).focus()

    @property
    def game(self) -> Any:
        return dict(self.games)[self.game_name]

    def _setup_game(self) -> None:
        g = self.game
        counts = [c for c in range(max(2, g.min_players), g.max_players + 1)] or [g.min_players]
        self.query_one("#players", Cycler).set_choices([(str(c), c) for c in counts], counts[0])
        opts = option_fields(g.options_type)
        self.query_one("#options-title", Static).update("Options" if opts else "")
        for i in range(4):
            c = self.query_one(f"#opt-{i}", Cycler)
            if i < len(opts):
                name, choices, default = opts[i]
                c.label = humanize(name)
                c.set_choices(choices, default)
                c.display = True
                c.option_name = name  # type: ignore[attr-defined]
                c.tooltip = OPTION_HINTS.get(name)
            else:
                c.display = False
        self._show_seats()

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
        return {c.option_name: c.value for c in self.query(".option").results(Cycler)
                if c.display and hasattr(c, "option_name")}

    def open_table(self) -> None:
        if not self.games or self.opening:
            return
        error = self.query_one("#form-error", Static)
        kinds = self.seat_kinds()
        if any(k == "reserved:" for k in kinds):
            error.update("A reserved seat needs the fingerprint of the person it is for.")
            return
        name = self.query_one("#table-name", Input).value.strip()
        if not name:
            error.update("Give the table a name.")
            return
        self.opening = True
        error.update("Opening the table…")
        # Annotated because mypy cannot infer the result type through Textual's WorkType union.
        worker: Worker[None] = self.run_worker(partial(self._open, kinds, name), name="open-table", exclusive=True)

    async def _open(self, kinds: list[str], name: str) -> None:
        from coldwater import net
        from coldwater.tui.screens.lobby import LobbyScreen

        error = self.query_one("#form-error", Static)
        lan = lan_settings(self.app)
        try:
            host = await net.open_table(
                self.game, name=name, seats=kinds, options=self.options(),
                passphrase=self.query_one("#passphrase", Input).value or None,
                host_name=self.query_one("#host-name", Input).value.strip() or "Host",
                bind=lan.get("bind", "0.0.0.0"), port=lan.get("port", 0), advertise=lan.get("advertise", True),
                identity=lan.get("identity"), save_dir=lan.get("save_dir"))
        except Exception as e:  # a port in use, no network, bad options: said plainly
            self.opening = False
            error.update(f"Cannot open the table: {e}")
            return
        self.opening = False
        self.app.switch_screen(LobbyScreen(host, is_host=True))
