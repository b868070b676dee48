"""The end of a game: the score sheet, scores round by round, when each trophy or
goal was won, and what next (a rematch, the replay, the menu).

The table screen opens it with the final scores; given the table too (or found
underneath, the table screen it replaces), it reads the game's record for the
chart and the milestones, and can start a rematch: the same game, seats,
options and card data, with a new seed.

At a LAN table the host offers the rematch (``net.open_rematch``: the same table
again, each seat kept for its player's key) and goes on to its lobby; a seat
sees the offer here and accepts (``net.join_rematch``: its own seat, its own key)
or declines (the host frees the seat). A seat's record is rebuilt from its public
record and the dealer's secret revealed at the end, so it gets the same chart,
milestones and replay as the host.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual._context import NoActiveAppError
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Static

from coldwater.core.record import GameRecord
from coldwater.core.state import Game, Scores
from coldwater.net.play.tablelike import TableLike
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.table import with_names
from coldwater.tui.tutor import Lesson
from coldwater.tui.widgets.chart import ScoreChart, ScoreOverTime, is_tiebreak, tiebreak_name

if TYPE_CHECKING:
    from coldwater.net.party import Party
    from coldwater.net.session import Event, TablePeer, TableWatcher
    from coldwater.tui.lantable import LanTable
    from coldwater.tui.screens.lobby import LobbyScreen
    from coldwater.tui.screens.timeline import Timeline

RECORD_WAIT = 30.0
"""Seconds a LAN seat's end screen waits for the end of the game's audit (its record) before giving up on the chart."""


class ScoreScreen(BaseScreen):
    BINDINGS = keymap.bindings("score")
    HELP = """\
**The end of the game.** The score sheet lists every scoring category for each player,
best first, and the bars draw the same numbers. Below: each player's score at the end
of every round, and when each trophy or goal was won. ↑ ↓ PgUp PgDn scroll.

- **m**: a rematch — the same game, seats, options and card data, with a new seed.
  At a LAN table the host offers it and every player still here is asked: **m**
  accepts (you sit where you sat), **d** declines (your seat is opened to anyone);
- **p**: open the replay of this game;
- **v**: review your decisions: the costliest ones, each with the better choice;
- Enter or Esc: back to the main menu. The game is kept under *Replays*.
"""

    def __init__(
        self,
        title: str,
        scores: Scores,
        names: list[str] | None = None,
        *,
        table: TableLike | None = None,
        closing: Lesson | None = None,
    ) -> None:
        super().__init__()
        self.game_title = title
        self.scores = scores
        self.closing = closing
        """A Learn to play game's closing lesson, shown under the outcome (tui/coach.py)."""
        names = names or []
        if table is None:
            table = self._table_underneath()
        self.table = table
        self._offer = False
        """A LAN seat: the host offered a rematch, not yet answered."""
        self._answer = ""
        self._busy = False
        """A rematch is being set up (opening or joining the new table)."""
        self._waited = 0.0
        self._asked = False
        """The opener of a table served by `coldwater serve` asked the server for its rematch."""
        self._unsub: Callable[[], None] | None = None
        self._public: Timeline | None = None
        """A watcher's game, laid out from the public views it saw (no record replays them)."""
        self._kept = False
        # Engines label rows "Seat N"; show the names people chose.
        self.labels = [
            names[i] if i < len(names) and lab.startswith("Seat ") else lab for i, lab in enumerate(scores.labels)
        ]

    def _table_underneath(self) -> TableLike | None:
        """The table screen switches to this one; while it is still on top, its table is ours."""
        from coldwater.tui.screens.table import TableScreen

        try:
            screen = self.app.screen
        except NoActiveAppError:  # no app yet (a test building the screen on its own)
            return None
        return screen.table if isinstance(screen, TableScreen) else None

    @property
    def lan_table(self) -> LanTable | None:
        """The LAN table this game was played at (None at a local table)."""
        from coldwater.tui.lantable import LanTable

        return self.table if isinstance(self.table, LanTable) else None

    @property
    def lan_party(self) -> Party | None:
        """The LAN host, seat or watcher under this table (None at a local table)."""
        t = self.lan_table
        return t.party if t is not None else None

    @property
    def game(self) -> Game[Any, Any] | None:
        return self.table.game if self.table is not None else None

    @property
    def record(self) -> GameRecord | None:
        t = self.lan_table
        if t is None:
            return self.table.record if self.table is not None else None
        if t.host is not None and t.host.table is not None:  # a LAN host: the net layer's own table keeps it
            return t.host.table.record
        return t.seat_record  # a LAN seat, once it has rebuilt the whole game (_seat_record)

    def compose(self) -> ComposeResult:
        s = self.scores
        winner = self.labels[s.ranking[0]] if s.ranking else ""
        with VerticalScroll(id="score-box"):
            yield Static(f"{self.game_title} — final scores", classes="page-title")
            yield Static(with_names(s.outcome, self.labels) if s.outcome else f"{winner} wins", id="outcome")
            if self.closing is not None:
                # First thing under the outcome: at 80x24 it is read before anything is scrolled.
                lesson = Static(self.closing.text, id="closing-lesson", markup=False)
                lesson.border_title = self.closing.title
                yield lesson
            # A rematch offer goes at the top, where an 80x24 screen shows it without scrolling.
            line = Static("", id="rematch-line", markup=False)
            line.display = False
            yield line
            yield self._table()
            order = list(s.ranking) or list(range(len(s.labels)))
            yield ScoreChart(
                [self.labels[i] for i in order],
                s.categories,
                [s.rows[i] for i in order],
                [s.totals[i] for i in order],
                id="score-chart",
            )
            for note in s.notes:
                yield Static(note, classes="note")
            yield Static("Score by round", classes="section")
            yield Static("Working it out…", id="over-time-note", classes="note")
            yield Static("Trophies and goals", classes="section", id="milestones-title")
            yield Static("", id="milestones", markup=False)
            yield Static(self.actions_line(), id="score-actions", classes="note")
        yield Footer()

    def actions_line(self) -> str:
        parts = []
        if self._offer and self._watching():
            parts.append("m  watch the rematch")
        elif self._offer:
            parts.append("m  accept the rematch   ·   d  decline")
        elif self._busy or self._answer:
            pass  # said under the outcome
        elif self.can_rematch():
            lan = self.lan_party is not None
            parts.append(f"m  {'offer a ' if lan else ''}rematch (same seats and options, new seed)")
        if self.record is not None or self._public is not None:
            parts.append("p  open the replay")
        if self.record is not None:
            parts.append("v  review (x  drill my mistakes)")
        parts.append("Enter  back to the menu")
        return "   ·   ".join(parts)

    def on_mount(self) -> None:
        from coldwater.net.session import TablePeer

        self.query_one("#score-box", VerticalScroll).focus()
        self.call_after_refresh(self._timeline)
        party = self.lan_party
        if party is not None and not self._is_lan_host():
            # (A watcher follows the table to its rematch, or not: it has nothing to answer.)
            answered = party.rematch_answered if isinstance(party, TablePeer) else not self._watching()
            self._offer = bool(self._rematch_port()) and not answered
            self._unsub = party.subscribe(self._on_lan_event)
            seated = self._seated()
            if seated is not None and seated.host_left:
                self._host_gone()  # it left before this screen was up to hear it
            self._show_actions()

    def on_unmount(self) -> None:
        if self._unsub is not None:
            self._unsub()

    def _on_lan_event(self, event: Event) -> None:
        from coldwater.net import session as s

        if isinstance(event, s.RematchOffered) and self.is_mounted:
            self._offer = True
            if self._asked:  # our own rematch, from the server that hosts our table: take our seat
                self.run_worker(self._lan_rematch(), exclusive=True)
                return
            self._show_actions()
            if self._watching():
                self.notify("The host opened a rematch: m watches it", timeout=15)
            else:
                self.notify("The host offers a rematch: m accepts, d declines", timeout=15)
        elif isinstance(event, s.HostLeft) and self.is_mounted:
            self._host_gone()
            self._show_actions()

    def _host_gone(self) -> None:
        """Nothing to wait for: say so, rather than leave the seat looking for an offer."""
        if not (self._offer or self._busy or self._asked or self._answer):
            self._answer = f"{self._host_name()} left the table: there will be no rematch."

    def _show_actions(self) -> None:
        self.query_one("#score-actions", Static).update(self.actions_line())
        line = self.query_one("#rematch-line", Static)
        text = self.rematch_line()
        line.update(text)
        line.display = bool(text)
        self.refresh_bindings()

    def rematch_line(self) -> str:
        """The rematch, in a line under the outcome ("" when there is none to speak of)."""
        if self._busy:
            return "Setting up the rematch…"
        if self._offer and self._watching():
            return f"{self._host_name()} opened a rematch: m  watch it"
        if self._offer:
            return f"{self._host_name()} offers a rematch: m  accept (your seat, a new seed)   ·   d  decline"
        return self._answer

    def _seated(self) -> TablePeer | TableWatcher | None:
        """A LAN seat's peer or a watcher (what the host is not): the table keeps which (LanTable.seated)."""
        t = self.lan_table
        return t.seated if t is not None else None

    def _host_name(self) -> str:
        seated = self._seated()
        seats = seated.seats if seated is not None else []
        return next((s.name for s in seats if s.kind == "host" and s.name), "The host")

    def _rematch_port(self) -> int:
        """The port of the rematch the host opened (0: none yet; a host offers, it is not offered one)."""
        seated = self._seated()
        return seated.rematch_port if seated is not None else 0

    def _watching(self) -> bool:
        from coldwater.net.session import TableWatcher

        return isinstance(self.lan_party, TableWatcher)

    def _is_lan_host(self) -> bool:
        from coldwater.net.session import TableHost

        return isinstance(self.lan_party, TableHost)

    def _timeline(self) -> None:
        """Replay the record once for the chart and the milestones."""
        from coldwater.tui.screens.timeline import Timeline

        note = self.query_one("#over-time-note", Static)
        rec = self.record
        game = self.game
        party = self.lan_party
        player = self.lan_table.player if self.lan_table is not None else None  # the host or a seat, no watcher
        if rec is None and game is not None and player is not None:
            # A LAN seat: the whole game is known once the End's audit is done (a moment after
            # the last move); until then, and a while longer if the host is slow, wait for it.
            if player.result is None and self._waited < RECORD_WAIT:
                self._waited += 0.5
                self.set_timer(0.5, self._timeline)
                return
            rec = self._seat_record()
            if rec is not None:
                self.refresh_bindings()  # the replay key now has something to open
                self._show_actions()
        if rec is not None and party is not None:
            self._keep(rec)
        tl: Timeline | None = None
        if rec is None and game is not None:
            tl = self._public_timeline()
            if tl is not None:
                rec = tl.rec
                self.refresh_bindings()
                self._show_actions()
        if rec is None or game is None:
            note.update("The record of this game is not at hand here, so there is no chart.")
            self.query_one("#milestones-title").display = False
            return
        if tl is None:
            tl = Timeline(rec, game)
            note.display = False
        else:
            start = tl.states[0].ply
            note.update(
                "As the table saw them"
                + (f", from move {start} when you came to watch" if start else "")
                + ": a value still hidden then counts once it is revealed."
            )
        labels, rounds, series = tl.score_series()
        names = [self.labels[i] if i < len(self.labels) else lab for i, lab in enumerate(labels)]
        unit = game.unit
        self.query_one("#score-box", VerticalScroll).mount(
            ScoreOverTime(names, rounds, series, unit=unit, id="score-over-time"), after=note
        )
        # Every party by name: the score rows name the silent player too (it is no seat).
        names = self.labels
        lines = [
            f"{tl.won_when(m):<20} "
            f"{m.who or (names[m.seat] if 0 <= m.seat < len(names) else f'Player {m.seat + 1}')}: {m.text}"
            for m in tl.milestones()
        ]
        rival = tl.rival_result()
        if rival:
            lines.append(rival)
        milestones = self.query_one("#milestones", Static)
        if lines:
            milestones.update("\n".join(lines))
        else:
            milestones.update(tl.words().NOTHING_WON)

    def _public_timeline(self) -> Timeline | None:
        """A watcher's end screen: the public views it saw, laid out for the chart, milestones and replay."""
        from coldwater.core.record import Entry
        from coldwater.tui.lantable import LanTable
        from coldwater.tui.screens.timeline import Timeline

        t = self.table
        if self._public is not None or not isinstance(t, LanTable) or len(t.public_history) < 2:
            return self._public
        states = [st for _, _, st in t.public_history]
        rec = GameRecord(
            game=t.game.name,
            players=states[0].players,
            content_hash=t.game.content_hash,
            start_digest=states[0].digest(),
            entries=[Entry(seat, action, st.digest()) for seat, action, st in t.public_history[1:]],
            meta={"seats": ", ".join(seat.name for seat in t.seats), "mode": "watched"},
        )
        self._public = Timeline(rec, t.game, states)
        return self._public

    def _keep(self, rec: GameRecord) -> None:
        """A LAN game's record goes under Replays too, as a local game's does."""
        from coldwater.net.play import records
        from coldwater.tui.screens.table import records_dir

        if self._kept:
            return
        self._kept = True
        # The Replays list names the winner (a seat's rebuilt record has no word of its own on it).
        if self.scores.ranking and "winner" not in rec.meta:
            rec.meta["winner"] = self.labels[self.scores.ranking[0]]
        if self.scores.outcome and "outcome" not in rec.meta:
            rec.meta["outcome"] = with_names(self.scores.outcome, self.labels)
        people = self.table.person_seats() if self.table is not None else []
        if people and "people" not in rec.meta:  # the replay opens on this seat's own view
            rec.meta["people"] = ",".join(map(str, people))
        name = f"{rec.game}-lan-{time.strftime('%Y%m%d-%H%M%S')}-{os.urandom(3).hex()}.json"
        try:
            records.save(rec, records_dir() / name)
        except OSError as e:
            self.notify(f"Could not keep the record under Replays: {e}", severity="warning")

    def _seat_record(self) -> GameRecord | None:
        """A LAN seat's record of the whole game (kept on its table, so it is rebuilt once)."""
        from coldwater.tui.lantable import LanTable

        t = self.table
        if not isinstance(t, LanTable):
            return None
        if t.seat_record is None:
            seats = ", ".join(seat.name for seat in t.seats)
            info = t.party.info
            meta = {"seats": seats, "table": info.name if info is not None else "", "mode": "lan"}
            meta["hints"] = "on" if t.hints_on else "off"  # the record says whether hints were given
            t.seat_record = t.full_record(meta)
        return t.seat_record

    def _table(self) -> DataTable[str]:
        # Categories down, players across (best first): long category names need
        # the room, and four players fit across even 80 columns.
        s = self.scores
        order = list(s.ranking) or list(range(len(s.labels)))
        t: DataTable[str] = DataTable(id="score-table", cursor_type="none", zebra_stripes=True)
        t.can_focus = False
        t.add_column("Category")
        for i in order:
            t.add_column(self.labels[i])
        tiebreaks = [c for c, cat in enumerate(s.categories) if is_tiebreak(cat)]
        for c, cat in enumerate(s.categories):
            if c not in tiebreaks:
                t.add_row(cat, *(str(s.rows[i][c]) for i in order))
        t.add_row("Total", *(str(s.totals[i]) for i in order))
        # A tie-break counts no points: under the total, where it cannot be read as one more score.
        for c in tiebreaks:
            t.add_row(f"Tie-break: {tiebreak_name(s.categories[c])}", *(str(s.rows[i][c]) for i in order))
        return t

    # ---- actions -------------------------------------------------------------
    def can_rematch(self) -> bool:
        """A local table; the host of a LAN table it can open again; a LAN seat the host offered one."""
        from coldwater.net.play.table import Table
        from coldwater.net.session import TableHost

        if isinstance(self.table, Table):
            return True
        party = self.lan_party
        if party is None or self._busy:
            return False
        if isinstance(party, TableHost):  # (as _is_lan_host, which mypy cannot see through)
            # Not after a failover (that host is a seat's process) and only once per table.
            return party.linger and not party.rematch.answers and self._lobby() is not None
        if self._served_name() is not None and not self._asked and not self._rematch_port():
            return True  # we opened this table on our SSH server: we ask the server for the rematch
        return self._offer and self._lobby() is not None

    def _served_name(self) -> str | None:
        """The table's name when this app opened it on its `coldwater serve` server (None otherwise)."""
        lobby = self._lobby()
        return lobby.served_table if lobby is not None else None

    def _lobby(self) -> LobbyScreen | None:
        """The lobby this LAN game was played from (it owns the session), if it is still there."""
        from coldwater.tui.screens.lobby import LobbyScreen

        party = self.lan_party
        for screen in reversed(self.app.screen_stack):
            if isinstance(screen, LobbyScreen) and screen.party is party:
                return screen
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.can_rematch()
        if action == "decline":
            return self._offer and not self._busy and not self._watching()
        if action == "replay":
            return self.record is not None or self._public is not None
        if action == "review":
            return self.record is not None
        return True

    def action_done(self) -> None:
        self.dismiss(None)

    def action_decline(self) -> None:
        from coldwater.net.session import TablePeer

        party = self.lan_party
        if not self._offer or not isinstance(party, TablePeer):  # only a seat's peer is offered a rematch
            return
        self._offer = False
        try:
            party.answer_rematch(False)
        except RuntimeError as e:  # already answered: say so, change nothing
            self.notify(str(e), severity="warning")
        self._answer = "You declined the rematch; your seat there is open to anyone."
        self._show_actions()

    async def _lan_rematch(self) -> None:
        from coldwater import net
        from coldwater.net.transport import Refusal

        lobby = self._lobby()
        party = self.lan_party
        if lobby is None or party is None:
            return
        host = self._is_lan_host()
        self._busy = True
        self._show_actions()
        served = self._served_name()
        if not host and not self._offer and served is not None:
            await self._ask_server(served)
            return
        from coldwater.net.session import TableHost, TablePeer, TableWatcher

        try:
            new: Party
            if isinstance(party, TableWatcher):
                new = await net.watch_rematch(party)
            elif isinstance(party, TableHost):
                new = await net.open_rematch(party)
            else:
                assert isinstance(party, TablePeer)  # a Party is one of the three
                new = await net.join_rematch(party)
        except (Refusal, OSError, ValueError, RuntimeError) as e:
            self._busy = False
            self._offer = False
            self._answer = f"No rematch: {e}"
            self._show_actions()
            self.notify(f"Cannot start the rematch: {e}", severity="error", timeout=15)
            return
        lobby.rematch(new, is_host=host)

    async def _ask_server(self, name: str) -> None:
        """Ask our SSH server to open its table again; its offer then reaches us like any seat."""
        from coldwater.tui.serve import applink, control

        link = applink.link()
        reason = ""
        if link is None:
            reason = "this app is not connected to its server any more"
        else:
            try:
                reply = await link.ask(control.RematchTable(name))
            except applink.ServerUnavailable as e:
                reason = str(e)
            else:
                if isinstance(reply, control.Failed):
                    reason = reply.reason
        if reason:
            self._busy = False
            self._answer = f"No rematch: {reason}"
            self._show_actions()
            self.notify(f"Cannot start the rematch: {reason}", severity="error", timeout=15)
            return
        self._asked = True  # the offer follows over the table's connection (_on_lan_event)
        if self._rematch_port():
            await self._lan_rematch()

    def action_rematch(self) -> None:
        from coldwater.net.play.table import Table

        t = self.table
        if self.lan_party is not None and self.can_rematch():
            self.run_worker(self._lan_rematch(), exclusive=True)
            return
        if not isinstance(t, Table):
            return
        try:
            new = Table.new(
                t.game,
                list(t.seats),
                seed=None,
                options=t.record.options or None,
                meta={k: v for k, v in t.record.meta.items() if k in ("mode",)},
                content=t.content,
            )
        except (ValueError, OSError) as e:
            self.notify(f"Cannot start a rematch: {e}", severity="error")
            return
        self.app.switch_screen(self.cw.catalog.table_screen(t.game.name)(new))

    def action_review(self) -> None:
        from coldwater.tui.screens.replays import own_seat
        from coldwater.tui.screens.review import ReviewScreen

        rec, game = self.record, self.game
        if rec is None or game is None or self.table is None:
            return
        board = self.cw.catalog.table_screen(game.name).BOARD
        content = self.table.content.path if self.table.content is not None else None
        seat = own_seat(rec)
        self.app.push_screen(ReviewScreen(rec, game, board, seat if seat is not None else 0, content=content))

    def action_drill(self) -> None:
        """Review the seat played here, then drill its labelled mistakes (the review opens the drill)."""
        from coldwater.tui.screens.replays import own_seat
        from coldwater.tui.screens.review import ReviewScreen

        rec, game = self.record, self.game
        if rec is None or game is None or self.table is None:
            return
        board = self.cw.catalog.table_screen(game.name).BOARD
        content = self.table.content.path if self.table.content is not None else None
        seat = own_seat(rec)
        self.app.push_screen(
            ReviewScreen(rec, game, board, seat if seat is not None else 0, content=content, others=False, drill=True)
        )

    def action_replay(self) -> None:
        from coldwater.tui.screens.replays import ReplayScreen

        rec, game = self.record, self.game
        board = self.cw.catalog.table_screen(game.name).BOARD if game is not None else None
        if game is None or board is None:
            return
        if rec is None and self._public is not None:
            self.app.push_screen(ReplayScreen(self._public.rec, game, board, timeline=self._public))
        elif rec is not None:
            self.app.push_screen(ReplayScreen(rec, game, board))
