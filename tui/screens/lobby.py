"""The lobby of a LAN table: who sits where, their key fingerprints, ready marks, chat.

The lobby owns the LAN session for as long as it lasts: it starts the host's or
peer's ``run()`` task, shows notices for the whole game (a peer away or back, a
problem the net layer reports), and when the game starts it opens the game's
ordinary table screen over a :class:`~coldwater.tui.lantable.LanTable`.
Leaving the lobby (Esc) closes the table or leaves it.

A watcher (a :class:`~coldwater.net.session.TableWatcher`) sees the same lobby
without Ready or chat, and the table screen in read-only mode: no seat is its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Input, Static

from coldwater.net import keep_record
from coldwater.net.names import shown, shown_player
from coldwater.net.session.turnclock import fmt
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.serve.applink import served_key

if TYPE_CHECKING:
    from coldwater.core.state import Game
    from coldwater.net.messages import SeatInfo, WatcherInfo
    from coldwater.net.party import Party
    from coldwater.net.session import Event, Result, TableHost, TablePeer, TableWatcher
    from coldwater.tui.screens.table import TableScreen


def seat_line(s: SeatInfo, me: int, kept: dict[str, str] | None = None) -> str:
    """One lobby row: seat, who, fingerprint, ready/away. `kept`: names of the keys a rematch keeps seats for."""
    n = f"Seat {s.seat + 1}"
    if s.kind == "open":
        if s.reserved and kept and s.reserved in kept:
            who = f"kept for {kept[s.reserved]} ({s.reserved}) — the rematch was offered"
        else:
            who = f"open — reserved for {s.reserved}" if s.reserved else "open — waiting for a player"
        return f"{n}  {who}"
    name = shown_player(s.name) or "?"  # from the network: escaped, never drawn raw (net/names.py)
    if s.seat == me:
        name += " (you)"
    if s.kind == "host":
        name += " · host"
    elif s.kind == "bot":
        return f"{n}  {name}  ready"
    mark = "away" if s.away else ("ready" if s.ready else "not ready")
    fp = shown(s.fingerprint or "", limit=32)
    return f"{n}  {name}  {fp}  {mark}"


def clock_line(info: Any) -> str:
    """The table's turn clock, said before the game starts (docs/lan.md, "The turn clock")."""
    turn, bank = int(getattr(info, "turn", 0) or 0), int(getattr(info, "bank", 0) or 0)
    if not turn:
        return "No clock: every player may think as long as they like."
    # One row at 80 columns.
    game = int(getattr(info, "game_time", 0) or 0)
    whole = f", {game_text(game)} a game" if game else ""
    line = f"Clock: {fmt(turn)} a move + {fmt(bank)} bank{whole}; "
    if getattr(info, "strict", False):
        return line + "strict: out, a bot plays."
    return line + "out: others hand it to a bot."


def game_text(seconds: int) -> str:
    """Each seat's whole time for the game, as a person says it: '90 min', '2 h', '2 h 15 min'."""
    h, mins = divmod(max(0, seconds) // 60, 60)
    if not h or (mins and h < 2):
        return f"{h * 60 + mins} min"
    return f"{h} h" + (f" {mins} min" if mins else "")


def dealer_line(dealer: str, game: Game[Any, Any], seats: list[SeatInfo]) -> str:
    """Who deals what is hidden at this table, said before anyone sits down (docs/fairplay.md)."""
    if dealer == "fair":
        line = "Fair dealer: no computer, the host's included, sees a hidden card."
        bots = [str(s.seat + 1) for s in seats if s.kind == "bot"]
        if len(bots) == 1:
            line += f"\nSeat {bots[0]} is a bot run by the host: its computer sees that bot's hand only."
        elif bots:
            line += f"\nSeats {', '.join(bots)} are bots run by the host: its computer sees their hands only."
        return line
    if not getattr(game, "sealed_values", True):
        return "Public draws: this game hides nothing; every seat takes part in each draw."
    return "Committed dealer: the host's computer deals; the audit catches changes, not peeking."


def host_address(bind: str) -> str:
    """The address to tell joiners (the lobby shows it with the port, for a join by address)."""
    if bind not in ("", "0.0.0.0", "::"):
        return bind
    import ipaddress

    from coldwater.net.discovery import local_addresses

    try:
        found = [a for a in local_addresses() if not ipaddress.ip_address(a).is_loopback]
    except Exception:  # no adapters to list: the port alone still helps
        found = []
    return found[0] if found else "this machine"


HINTS_ON = "Hints on: every seat may press h at the table for the hard bot's best choices."


def watchers_line(watchers: list[WatcherInfo]) -> str:
    """Who is watching, for the lobby ("" when nobody is)."""
    if not watchers:
        return ""
    names = ", ".join(
        f"{shown_player(w.name)} ({shown(w.fingerprint, limit=32)})" if w.fingerprint else shown_player(w.name)
        for w in watchers
    )
    return f"Watching ({len(watchers)}): {names}"


class LanSession:
    """One host or peer with its run() task, kept by the app while the table lasts."""

    def __init__(self, party: Party, *, is_host: bool) -> None:
        self.party = party
        self.is_host = is_host
        self.task: asyncio.Task[None] | None = None
        self.result: Result | None = None
        self.error: str | None = None
        self.closed = False

    def start(self, on_done: Callable[[LanSession], None]) -> None:
        async def run() -> None:
            try:
                self.result = await self.party.run()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # a refusal, a closed table: said plainly, never a crash
                self.error = str(e) or type(e).__name__
            on_done(self)

        self.task = asyncio.ensure_future(run())

    async def close(self) -> None:
        """Leave (or close) the table; bounded, so quitting never hangs on the network."""
        if self.closed:
            return
        self.closed = True
        if self.task is not None and not self.task.done():
            self.task.cancel()
            try:
                await asyncio.wait_for(asyncio.shield(self.task), 5)
            except (asyncio.CancelledError, Exception):
                pass
        try:
            await asyncio.wait_for(self.party.close(), 5)
        except (asyncio.CancelledError, Exception):
            pass


class LobbyScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "lobby")
    HELP = """\
**Lobby.** Everyone seated at this LAN table, each with their key fingerprint (compare
it aloud with the person's own screen to be sure who you play with), and whether
they are ready.

- Type in the chat line and press Enter to talk to the table.
- A joining player presses **Ready** (Ctrl+R) when ready.
- The host presses **Start** (Ctrl+S) once every seat is filled and ready.
- Esc leaves the table (the host's Esc closes it; over SSH, so does the Esc of the
  person who opened the table on the server, before the game starts).

The game then opens on the same table screen as local play.

Anyone watching is listed under the seats. A watcher sees this lobby without Ready or
chat, then the table as it is played (read-only); Esc leaves at any time.
"""

    def __init__(
        self,
        party: Party,
        *,
        is_host: bool,
        served_table: str | None = None,
        previous: LanSession | None = None,
        kept: dict[str, str] | None = None,
    ) -> None:
        super().__init__()
        from coldwater.net.session import TableHost, TablePeer, TableWatcher

        party.linger = True  # after the end, stay connected: chat, and a rematch offer (watchers too)
        self.previous = previous
        """A rematch: the finished table's session, kept until this game starts (the seats' answers)."""
        self.kept = dict(kept or {})
        """Fingerprint → name of each player a rematch keeps a seat for."""
        self.handed_on = False
        """A rematch took this lobby's session on to a new lobby: leaving this one closes nothing."""
        self._prev_unsub: Callable[[], None] | None = None
        self.served_table = served_table
        """The name of the table this app opened on its `coldwater serve` server (Esc closes it)."""
        self.session = LanSession(party, is_host=is_host)
        self.party = party
        self.is_host = is_host
        # What only one role has is reached through these (None for the other roles), so mypy
        # checks each use: the host's seats and Start, a seat's Ready, anyone's place at the table.
        self.host: TableHost | None = party if isinstance(party, TableHost) else None
        self.seated: TablePeer | TableWatcher | None = party if isinstance(party, TablePeer | TableWatcher) else None
        self.peer: TablePeer | None = party if isinstance(party, TablePeer) else None
        self.watching = isinstance(party, TableWatcher)
        """We only watch this table: no seat, no Ready, no chat."""
        self.chat_lines: list[str] = []
        self._away: dict[int, bool] = {}
        """Each seat's last said presence: a Presence that only says a bot plays the seat now (or no
        longer) is no news of anyone leaving or coming back."""
        self.ready = False
        self.started = False
        self.finished = False
        self._unsub: Callable[[], None] | None = None
        self._table_screen: TableScreen[Any, Any, Any] | None = None
        self._watcher_keys: set[tuple[str, str]] = set()

    @property
    def my_seat(self) -> int:
        return self.host.host_seat if self.host is not None else self._seated.seat

    @property
    def _seated(self) -> TablePeer | TableWatcher:
        assert self.seated is not None, "a LAN party is a host, a peer or a watcher"
        return self.seated

    def _seats(self) -> list[SeatInfo]:
        """The seats as this lobby knows them: the host's own list, or the one the host last sent."""
        return self.host.lobby() if self.host is not None else self._seated.seats

    def compose(self) -> ComposeResult:
        p = self.party
        info = p.info
        assert info is not None, "the lobby opens once the table's terms are known"
        what = "Watching" if self.watching else "Lobby"
        title = f"{what} — {shown(info.name)} · {p.game.title} · {info.players} players"
        with Vertical(classes="page", id="lobby"):
            yield Static(title, classes="page-title")
            host, seated = self.host, self.seated
            if host is not None:
                where = f"others join at {host_address(host.bind)}:{host.port}"
            else:
                where = f"at {self._seated.host_addr}:{self._seated.host_port}"
            me = f"Your key: {(host or self._seated).identity.fingerprint}"
            if ssh := served_key():
                me += f" · SSH key {ssh}"
                if self.served_table is not None or (seated is not None and seated.host_addr == "127.0.0.1"):
                    where = "on this server"
            yield Static(f"{me} · {where}", id="lobby-me")
            yield Static(
                dealer_line(info.dealer, p.game, []) + "\n" + clock_line(info),
                id="lobby-dealer",
                classes="note",
                markup=False,
            )
            if info.hints:
                yield Static(HINTS_ON, id="lobby-hints", classes="note", markup=False)
            yield Static("", id="lobby-seats", markup=False)
            yield Static("", id="lobby-watchers", markup=False)
            yield Static("Chat", classes="section")
            yield Static("", id="lobby-chat", markup=False)
            if not self.watching:
                yield Input(placeholder="say something; Enter sends", id="chat-input", max_length=200)
            yield Static("", id="lobby-status", classes="note")
            with Horizontal(id="lobby-buttons"):
                if self.is_host:
                    yield Button("Start", id="start", variant="primary", disabled=True)
                elif not self.watching:
                    yield Button("Ready", id="ready", variant="primary")
        yield Footer()

    def on_mount(self) -> None:
        self._unsub = self.party.subscribe(self._on_event)
        self.session.start(self._run_done)
        self._show_seats(self._seats())
        self._show_watchers(self.host.watch.infos() if self.host is not None else self._seated.watchers)
        if not self.watching:
            self.query_one("#chat-input", Input).focus()
        if not self.is_host:
            # A peer that sits back down in a game under way gets no GameStarted (its save
            # or the host's resync gives it the game): open the table once it has one.
            self.set_interval(0.3, self._game_under_way)
        if self.previous is not None:
            if self.host is not None:
                self._prev_unsub = self.previous.party.subscribe(self._on_answer)
            else:
                # We accepted (join_rematch told the old host so): the old table has no more to say,
                # and saying yes to a rematch is being ready for it.
                self.app.call_later(self._close_previous)
                self.action_ready()

    def _on_answer(self, event: Event) -> None:
        """At a rematch's lobby: a seat of the finished game answered the offer."""
        from coldwater.net import session as s

        if not isinstance(event, s.RematchAnswered):
            return
        who = shown_player(event.name) or f"Seat {event.seat + 1}"
        if event.accept:
            self.app.notify(f"{who} accepts the rematch")
            return
        if self.host is not None:
            self.host.rematch.open_seat(event.seat)
        why = "left without answering" if event.left else "declined"
        self.app.notify(f"{who} {why} the rematch: seat {event.seat + 1} is open to anyone now", timeout=10)

    async def _close_previous(self) -> None:
        prev, self.previous = self.previous, None
        if self._prev_unsub is not None:
            self._prev_unsub()
            self._prev_unsub = None
        if prev is not None:
            await prev.close()

    def rematch(self, party: Party, *, is_host: bool) -> None:
        """Go on to the rematch `party` (a new table host or peer): a new lobby over this one.

        This lobby's session stays open under the new one (a host still hears the seats'
        answers); this screen then closes nothing and leaves when the new lobby does.
        """
        self.handed_on = True
        seats = self._seats()
        kept = {str(s.fingerprint): str(s.name) for s in seats if s.kind == "remote" and s.fingerprint}
        nxt = LobbyScreen(party, is_host=is_host, served_table=self.served_table, previous=self.session, kept=kept)
        self.app.switch_screen(nxt)  # replaces the score screen on top of this lobby

    def _game_under_way(self) -> None:
        if not self.started and self.seated is not None and self.seated.state is not None:
            self._open_table()

    async def on_unmount(self) -> None:
        if self._unsub is not None:
            self._unsub()
        await self._close_previous()
        if not self.handed_on:
            await self.session.close()  # the app quit with the table open: leave it cleanly

    # ---- events from the net layer ---------------------------------------------
    def _on_event(self, event: Event) -> None:
        from coldwater.net import session as s

        if isinstance(event, s.LobbyChanged):
            if self.is_mounted:
                self._show_seats(event.seats)
                self._show_watchers(event.watchers)
            self._watchers_came_and_went(event.watchers)
        elif isinstance(event, s.ChatReceived):
            line = f"{shown_player(event.name)}: {shown(event.text, limit=2000)}"
            self.chat_lines.append(line)
            if self.is_mounted:
                self._show_chat()
            if self.started:
                self.app.notify(line, title="Chat")
        elif isinstance(event, s.PresenceChanged):
            if self.finished:
                return  # everyone leaves at the end; that is not news
            if self._away.get(event.seat, False) == event.away:
                return
            self._away[event.seat] = event.away
            who = self._seat_name(event.seat)
            self.app.notify(
                f"{who} is away; the table waits" if event.away else f"{who} is back",
                severity="warning" if event.away else "information",
            )
        elif isinstance(event, s.Problem):
            self.app.notify(event.text, title="LAN", severity="warning", timeout=10)
        elif isinstance(event, s.HostChanged):
            self.app.notify(f"The host went away; {self._seat_name(event.seat)} hosts the table now.")
        elif isinstance(event, s.GameStarted):
            self._open_table()
            self.app.call_later(self._close_previous)  # the rematch is on: the old table is done
        elif isinstance(event, s.Finished):
            self.finished = True
            if self.watching:
                if not event.result.audit_ok:
                    self.app.notify(f"Watching ended: {event.result.outcome}", severity="warning", timeout=30)
            elif event.result.forfeit:
                res = event.result
                signed = ", ".join(str(x + 1) for x in res.signed_by) or "none"
                holder = self.host or self.peer
                # Kept like every finished game (the end screen keeps an audited one): under Replays,
                # with its verdict, for `coldwater replay` to check (docs/lan.md, "The verdict").
                path = keep_record(res, holder) if holder is not None else ""
                word = "contested" if res.contested else "agreed"
                kept = " Kept under Replays." if path else ""
                self.app.notify(
                    f"The game ended: {res.outcome}. Standings: {res.verdict} ({word}; signed by seat(s) "
                    f"{signed}).{kept}",
                    title="Forfeit",
                    severity="warning",
                    timeout=120,
                )
            elif not event.result.audit_ok:
                self.app.notify(
                    "The end-of-game audit failed: " + "; ".join(event.result.problems), severity="error", timeout=60
                )

    def _seat_name(self, seat: int) -> str:
        seats = self._seats()
        for s in seats:
            if s.seat == seat and s.name:
                return shown_player(str(s.name))
        return f"Seat {seat + 1}"

    def _run_done(self, session: LanSession) -> None:
        if session.error is not None:
            self.app.notify(f"The table stopped: {session.error}", severity="error", timeout=30)
            for status in self.query("#lobby-status").results(Static):  # (none while being taken down)
                status.update(f"The table stopped: {session.error}. Esc goes back.")

    def _show_seats(self, seats: list[SeatInfo]) -> None:
        me = self.my_seat
        lines = [seat_line(s, me, self.kept) for s in seats]
        info = self.party.info
        if info is not None:
            self.query_one("#lobby-dealer", Static).update(
                dealer_line(info.dealer, self.party.game, seats) + "\n" + clock_line(info)
            )
        self.query_one("#lobby-seats", Static).update("\n".join(lines) or "(no seats yet)")
        filled = bool(seats) and all(s.kind != "open" and not s.away and (s.ready or s.kind != "remote") for s in seats)
        status = self.query_one("#lobby-status", Static)
        if self.watching:
            status.update("You are watching: the game shows here when the host starts it. Esc leaves.")
        elif self.is_host:
            self.query_one("#start", Button).disabled = not filled
            awaited = [self.kept[s.reserved] for s in seats if s.kind == "open" and s.reserved in self.kept]
            status.update(
                "Every seat is filled and ready: press Start."
                if filled
                else f"Waiting for {', '.join(awaited)} to take the rematch…"
                if awaited
                else "Waiting for players to join and be ready…"
            )
        else:
            status.update("Waiting for the host to start…" if self.ready else "Press Ready when you are.")

    def _watchers_came_and_went(self, watchers: list[WatcherInfo]) -> None:
        """During the game the lobby is hidden: say who starts or stops watching."""
        now = {(w.name, w.fingerprint) for w in watchers}
        before, self._watcher_keys = self._watcher_keys, now
        if not self.started or self.finished:
            return
        for name, _ in sorted(now - before):
            self.app.notify(f"{name} is watching the table")
        for name, _ in sorted(before - now):
            self.app.notify(f"{name} stopped watching")

    def _show_watchers(self, watchers: list[WatcherInfo]) -> None:
        line = watchers_line(watchers)
        box = self.query_one("#lobby-watchers", Static)
        box.update(line)
        box.display = bool(line)

    def _show_chat(self) -> None:
        self.query_one("#lobby-chat", Static).update("\n".join(self.chat_lines[-6:]))

    def _open_table(self) -> None:
        if self.started:
            return
        self.started = True
        from coldwater.tui.lantable import LanTable

        table = LanTable(self.party)
        screen_cls = self.cw.catalog.table_screen(self.party.game.name)
        self._table_screen = screen_cls(table)
        self.app.push_screen(self._table_screen)

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self.handed_on:
            # Back from the rematch's lobby: this table was done before it began.
            self.app.call_later(self._leave)
        elif self.started and self._table_screen not in self.app.screen_stack:
            # Back from the table (left it, or closed the score screen): the table is over for us.
            # (Not this screen's own first resume, which comes after the table when a watcher
            # joins a game in progress: its game starts the moment it arrives.)
            self.app.call_later(self._leave)

    async def _leave(self) -> None:
        if not self.handed_on:
            await self.session.close()
        if self.is_mounted and self.app.screen is self:
            self.dismiss(None)

    # ---- keys and buttons ------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            return self.is_host
        if action == "ready":
            return not self.is_host and not self.watching
        return True

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "chat-input":
            return
        text = event.value.strip()
        event.input.value = ""
        talker = self.host or self.peer  # (a watcher has no chat box)
        if text and talker is not None:
            talker.send_chat(text)
            if not self.is_host:
                pass  # the host echoes our line back to everyone, us included

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        elif event.button.id == "ready":
            self.action_ready()

    def action_start(self) -> None:
        if self.host is None or self.query_one("#start", Button).disabled:
            return
        self.host.start_game()
        self.query_one("#lobby-status", Static).update("Starting: agreeing on a fair shuffle…")

    def action_ready(self) -> None:
        if self.peer is None:
            return  # the host starts the game; a watcher has no seat to be ready in
        self.ready = not self.ready
        self.peer.set_ready(self.ready)
        self.query_one("#ready", Button).label = "Not ready" if self.ready else "Ready"
        self.query_one("#lobby-status", Static).update(
            "Waiting for the host to start…" if self.ready else "Press Ready when you are."
        )

    def action_back(self) -> None:
        if self.served_table is not None and not self.started:
            self.app.call_later(self._close_served)
        self.app.call_later(self._leave)

    async def _close_served(self) -> None:
        """The opener leaves its server table's lobby on purpose: the server closes the table.

        (A dropped connection or a quit app leaves it open, for the same key to come back.)
        """
        from coldwater.tui.serve import applink, control

        link = applink.link()
        if link is None or self.served_table is None:
            return
        try:
            reply = await link.ask(control.CloseTable(self.served_table))
        except applink.ServerUnavailable as e:
            self.app.notify(f"The server did not close the table: {e}", severity="warning")
            return
        if isinstance(reply, control.Failed):
            self.app.notify(f"The table stays open: {reply.reason}", severity="warning")
