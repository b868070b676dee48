"""Turn-based tables on `coldwater serve` (docs/ssh.md, "Turn-based tables"): the list, a new
table's form, and the table itself.

Served sessions only. The game lives in the server process (serve/turns.py), which deals and keeps
every move; the app asks for its own seat's view over the control path (turnwire.py), shows it on
the game's own board with the game's own words, and sends the one move chosen. Nothing of the game
is kept in the app: the person connects, sees whose turn it is, moves and leaves.
"""

from __future__ import annotations

import time
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Static

from coldwater.core import games
from coldwater.core.state import Game
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.resume import when
from coldwater.tui.serve.applink import ServerUnavailable, link
from coldwater.tui.serve.turnwire import (
    ListTurnTables,
    OpenTurnTable,
    TurnMove,
    TurnOutOfTime,
    TurnPosition,
    TurnReply,
    TurnRequest,
    TurnTableInfo,
    TurnTables,
    TurnView,
)
from coldwater.tui.widgets.choices import ChoiceList, Item

POLL = 3.0
"""Seconds between two looks at a table where another seat is to move."""


def left(deadline: float, now: float) -> str:
    """'5 h 20 min left', '2 days left', 'out of time'."""
    s = deadline - now
    if s <= 0:
        return "out of time"
    if s >= 2 * 86400:
        return f"{s / 86400:.0f} days left"
    if s >= 3600:
        return f"{int(s // 3600)} h {int(s % 3600 // 60)} min left"
    return f"{max(1, int(s // 60))} min left"


def table_line(t: TurnTableInfo, title: str, now: float) -> str:
    if t.current < 0:
        return f"{t.name} · {title} · over: {t.outcome}"
    if t.your_turn:
        state = f"your turn, {left(t.deadline, now)}"
    else:
        state = f"{t.names[t.current]} to move, {left(t.deadline, now)}"
    return f"{t.name} · {title} · {', '.join(t.names)} · {state}"


def waiting_line(n: int) -> str:
    """The menu's line at connect: '3 turn-based tables wait for you (b)'."""
    return f"{n} turn-based table{'s' if n != 1 else ''} wait{'s' if n == 1 else ''} for you (b)"


async def ask(request: TurnRequest) -> TurnReply:
    """The server's answer to a turn-based table's (or a deal's) request; a refusal raises ServerUnavailable."""
    served = link()
    if served is None:
        raise ServerUnavailable("turn-based tables are kept by `coldwater serve`; this app is not served")
    return await served.turn(request)


class TurnsScreen(BaseScreen):
    BINDINGS = [*keymap.bindings("back"), Binding("n", "new", "New table")]
    HELP = """\
**Turn-based tables** (over SSH): games that last days, a move every few hours. The server
keeps them and deals their cards, so nobody needs to be there at the same time: connect,
move where it is your turn, leave. Tables where it is your turn come first.

**n** opens a new table: the game, its name, who sits (you, other keys by fingerprint,
bots), the hours each move may take and, if you like, the hours of the day the clock runs.
A move not made in time is played by a bot, and the result says so (it then does not
count for ratings).
"""

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("Turn-based tables", classes="page-title")
            yield ChoiceList(id="turn-tables", auto_keys=False)
            yield Static("Asking the server…", id="turns-message", classes="note", markup=False)
        yield Footer()

    def on_screen_resume(self) -> None:  # (also when the list first shows)
        self.run_worker(self.load(), exclusive=True)

    async def load(self) -> None:
        message = self.query_one("#turns-message", Static)
        try:
            reply = await ask(ListTurnTables())
        except ServerUnavailable as e:
            message.update(str(e))
            return
        assert isinstance(reply, TurnTables)
        now = time.time()
        items = [Item(table_line(t, self.cw.catalog.title(t.game), now), t.id) for t in reply.tables]
        listing = self.query_one("#turn-tables", ChoiceList)
        listing.set_items(items)
        waiting = sum(1 for t in reply.tables if t.your_turn)
        message.update(
            (waiting_line(waiting).replace(" (b)", "") + ". " if waiting else "")
            + ("n opens a new table." if items else "No turn-based tables yet: n opens one.")
        )
        listing.focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if isinstance(event.value, int):
            self.app.push_screen(TurnTableScreen(event.value))

    def action_new(self) -> None:
        self.app.push_screen(NewTurnTableScreen())


class NewTurnTableScreen(BaseScreen):
    BINDINGS = [*keymap.bindings("back"), Binding("ctrl+s", "open", "Open table")]
    HELP = """\
**A new turn-based table.** *Game*: its short name, as `coldwater --help` lists them. *Seats*: comma-separated,
`me` once (your seat), `bot`, or another key's fingerprint (as its menu shows it, e.g.
ab12-cd34-ef56-7890); that key must have connected to this server before. *Hours a move*:
from 1 to 336 (two weeks; 24 is a move a day). *Clock window*: e.g. `9-22` for a clock that
runs only from 9:00 to 22:00 (the server's time); empty: always. Ctrl+S opens the table.
"""

    DEFAULT_CSS = """
    NewTurnTableScreen .turn-row { height: 1; margin: 0 0 1 0; }
    NewTurnTableScreen .turn-label { width: 16; }
    NewTurnTableScreen .turn-row Input { height: 1; border: none; width: 1fr; padding: 0 1; }
    """
    FIELDS = (
        ("game", "Game", games.names()[0]),
        ("name", "Name", "Turn table"),
        ("seats", "Seats", "me, bot"),
        ("hours", "Hours a move", "24"),
        ("window", "Clock window", ""),
    )

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("A new turn-based table", classes="page-title")
            for key, label, value in self.FIELDS:
                with Horizontal(classes="turn-row"):
                    yield Static(label, classes="turn-label")
                    yield Input(value=value, id=f"turn-{key}", select_on_focus=False)
            yield Static("", id="new-turn-message", classes="note", markup=False)
        yield Footer()

    def value(self, key: str) -> str:
        return self.query_one(f"#turn-{key}", Input).value.strip()

    def request(self) -> OpenTurnTable | str:
        """The form as a request, or what is wrong with it."""
        try:
            hours = float(self.value("hours"))
        except ValueError:
            return "Hours a move: a number, e.g. 24"
        window: tuple[int, int] | None = None
        if text := self.value("window"):
            parts = text.replace(" ", "").split("-")
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                return "Clock window: two hours of the day, e.g. 9-22 (or empty)"
            window = (int(parts[0]), int(parts[1]))
        seats = [s.strip() for s in self.value("seats").split(",") if s.strip()]
        return OpenTurnTable(game=self.value("game"), name=self.value("name"), seats=seats, hours=hours, window=window)

    def action_open(self) -> None:
        self.run_worker(self.open(), exclusive=True)

    async def open(self) -> None:
        message = self.query_one("#new-turn-message", Static)
        req = self.request()
        if isinstance(req, str):
            message.update(req)
            return
        try:
            reply = await ask(req)
        except ServerUnavailable as e:
            message.update(f"Not opened: {e}")
            return
        assert isinstance(reply, TurnPosition)
        self.app.switch_screen(TurnTableScreen(reply.info.id, reply))


class TurnTableScreen(BaseScreen):
    """One turn-based table from this key's seat: the board, whose turn, the choices when it is ours."""

    BINDINGS = keymap.bindings("back")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # as the table screen: the board on top below 120
    HELP = """\
**A turn-based table.** The board is your own seat's view (the server deals and shows you
only what your seat may know). When it is your turn, the choices are on the right: pick one
with ↑ ↓ Enter; it is sent and kept at once, and the table moves on to the next player.
The title says whose turn it is and how long is left; the log lists the last moves.
When another seat is **out of time**, the choices are for it: *skip* its turn (a bot makes
that turn's moves) or *hand it to a bot* (the bot plays it until its owner opens the table).
Either way the result says so and the game does not count for ratings.
"""

    def __init__(self, table_id: int, position: TurnPosition | None = None) -> None:
        super().__init__()
        self.table_id = table_id
        self.position = position
        self.game: Game[Any, Any] | None = None
        self.sending = False
        self.late_at = -1
        """The ply whose out-of-time choices are shown (a look again does not reset them)."""

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        with Horizontal(id="table-main"):
            with VerticalScroll(id="board-scroll", can_focus=False):
                yield Container(id="turn-board-slot")
            with Container(id="side"):
                with Vertical(id="decision-box"):
                    yield Static(id="decision-title", markup=False)
                    yield ChoiceList(id="decision", auto_keys=False)
                yield Static(id="log", markup=False)  # (styled as the table screen's log)
        yield Footer()

    def on_mount(self) -> None:
        if self.position is not None:
            self.show(self.position)
        else:
            self.run_worker(self.fetch(), exclusive=True)
        # While another seat is to move, look again now and then: a person who stays sees their turn come.
        self.set_interval(POLL, self.poll)

    def poll(self) -> None:
        pos = self.position
        if pos is not None and not self.sending and not pos.legal and pos.info.current >= 0:
            self.run_worker(self.fetch(), exclusive=True)

    async def fetch(self) -> None:
        try:
            reply = await ask(TurnView(self.table_id))
        except ServerUnavailable as e:
            self.query_one("#status", Static).update(f"Cannot show the table: {e}")
            return
        assert isinstance(reply, TurnPosition)
        self.show(reply)

    def show(self, pos: TurnPosition) -> None:
        from coldwater.tui.widgets.board import BoardView

        self.position = pos
        info = pos.info
        screen_cls = self.cw.catalog.table_screen(info.game)
        if self.game is None:
            self.game = self.cw.catalog.get(info.game)
            slot = self.query_one("#turn-board-slot", Container)
            slot.mount(screen_cls.BOARD(self.game, id="board"))
        game = self.game
        view = game.from_text(pos.view)
        self.query_one("#board", BoardView).show(view, info.names, info.seat)
        title = game.title
        if info.current < 0:
            status = f"{info.name} · {title} · over: {info.outcome}"
        elif info.your_turn:
            status = f"{info.name} · your turn · {left(info.deadline, time.time())}"
        elif info.late:
            status = f"{info.name} · {info.names[info.current]} to move · out of time"
        else:
            status = f"{info.name} · {info.names[info.current]} to move · until {when(info.deadline)}"
        if info.handed and info.current >= 0:
            status += " · a bot plays for " + ", ".join(info.names[i] for i in info.handed)
        self.query_one("#status", Static).update(status)
        words = screen_cls.WORDS(game, info.names)
        decision = self.query_one("#decision", ChoiceList)
        if pos.legal:
            actions = [game.parse_action(a) for a in pos.legal]
            choices, _ = words.choice_items(view, actions, lambda v, a: words.label(v, a, info.seat))
            self.query_one("#decision-title", Static).update(words.prompt(view))
            decision.set_items([Item(c.label, str(c.value), group=c.group) for c in choices])
            decision.disabled = False
            decision.focus()
            self.late_at = -1
        elif info.late and info.current != info.seat:
            late = info.names[info.current]
            self.query_one("#decision-title", Static).update(f"{late} is out of time. Skip or hand it to a bot?")
            if self.late_at != info.ply:
                self.late_at = info.ply
                decision.set_items(
                    [
                        Item(f"Skip {late}'s turn (a bot makes this turn's moves)", "late:skip"),
                        Item(f"Hand {late}'s seat to a bot (until {late} is back)", "late:bot"),
                    ]
                )
                decision.disabled = False
                decision.focus()
        else:
            self.late_at = -1
            self.query_one("#decision-title", Static).update(
                "Game over" if info.current < 0 else f"Waiting for {info.names[info.current]}"
            )
            decision.set_items([])
        self.query_one("#log", Static).update("\n".join(pos.log[-8:]))

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if isinstance(event.value, str) and self.position is not None and not self.sending:
            self.sending = True
            self.query_one("#decision", ChoiceList).disabled = True
            info = self.position.info
            if event.value.startswith("late:"):
                late = TurnOutOfTime(self.table_id, info.ply, info.current, event.value.removeprefix("late:"))
                self.run_worker(self.send_late(late), exclusive=True)
            else:
                self.run_worker(self.send(info.ply, event.value), exclusive=True)

    async def send_late(self, request: TurnOutOfTime) -> None:
        try:
            reply = await ask(request)
        except ServerUnavailable as e:
            self.query_one("#decision-title", Static).update(f"Not done: {e}")
            self.sending = False
            self.late_at = -1
            await self.fetch()
            return
        self.sending = False
        self.late_at = -1
        assert isinstance(reply, TurnPosition)
        self.show(reply)

    async def send(self, ply: int, action: str) -> None:
        try:
            reply = await ask(TurnMove(self.table_id, ply, action))
        except ServerUnavailable as e:
            self.query_one("#decision-title", Static).update(f"Not sent: {e}")
            self.sending = False
            await self.fetch()
            return
        self.sending = False
        assert isinstance(reply, TurnPosition)
        self.show(reply)
