"""The table screen: the board, the current decision and the log.

This generic screen plays any game through the core contract; a game with its
own board widgets subclasses it (see ``catalog.TABLE_SCREENS``) and overrides
:meth:`compose_board`, :meth:`update_board` and the choice hooks.

Secrets: everything drawn comes from ``table.view(seat)`` for the person who is
looking: in solo the one local person, in hotseat the person whose turn it is
(a hand-over screen stands between two people). The log is written from the
same view in solo and from the public view in hotseat, so an old line never
shows one player's secret to the next.

Bots and chance run in a Textual worker through ``Table.step()``; bot thinking
happens in a thread (``asyncio.to_thread``), so the screen keeps repainting.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static
from textual.worker import Worker, WorkerState

from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE, State
from coldwater.net import paths, records
from coldwater.net.table import Applied, GameOver, SeatKind, Table, seat_label
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.widgets.log import GameLog

if TYPE_CHECKING:
    from coldwater.tui.lantable import LanTable


def with_names(text: str, names: list[str]) -> str:
    """Engines say "Seat 2"; people like to read the name they chose."""
    return re.sub(r"\bSeat (\d+)\b", lambda m: names[int(m[1]) - 1] if 0 < int(m[1]) <= len(names) else m[0], text)


def records_dir() -> Path:
    p = paths.data_dir() / "records"
    p.mkdir(parents=True, exist_ok=True)
    return p


class TableScreen(BaseScreen):
    BINDINGS = keymap.bindings("table")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    HELP_KEYS = "| 1–9 0 a–z | Make the choice with that key |\n| ↑ ↓ | Move through the choices |"
    HELP: ClassVar[str] = """\
**The table.** The board is on the left (or on top in a small terminal), your
choices and the log on the right. Each legal choice has a key: press it, or move
with ↑ ↓ and press Enter, or click it. Only legal choices are listed.

PgUp / PgDn scroll the board. Esc opens the table menu (rules, leave). Every move
is saved as it is made: leaving and resuming later loses nothing.
"""

    def __init__(self, table: Table | LanTable) -> None:
        super().__init__()
        self.table = table
        persons = table.person_seats()
        self.hotseat = len(persons) > 1
        self.viewer: int | None = persons[0] if len(persons) == 1 else None
        self._unsubscribe = table.subscribe(self._on_event)
        self._describe_view: State[Any, Any] | None = None
        self._finished = False
        self._handing_over = False
        self._chance_lines: list[str] = []

    BOARD: ClassVar[type[BoardView]] = BoardView
    """The game's board widget; the replay screen draws positions with it too."""

    OWN_CONTENT: ClassVar[bool] = False
    """The new-game form offers *Card data* (``game.with_content``) for this game:
    only where the screen draws every card from the loaded content."""

    def content_note(self) -> str:
        """Which card data is in use, for the table menu ("" where there is no choice)."""
        ref = getattr(self.table, "content", None)  # a LAN table has no own content (yet)
        if ref is not None:
            return f"Card data: your own, {ref.path} ({ref.hash[:8]})"
        if self.OWN_CONTENT:
            return f"Card data: the packaged stand-in ({self.table.game.content_hash[:8]})"
        return ""

    # ---- hooks for per-game screens ----------------------------------------
    def compose_board(self) -> ComposeResult:
        yield self.BOARD(self.table.game, id="board")

    def update_board(self, view: State[Any, Any]) -> None:
        self.query_one("#board", BoardView).show(view, [s.name for s in self.table.seats], self.viewer)

    def choice_items(self, view: State[Any, Any], legal: list[Any]) -> tuple[list[Item], int | None]:
        """The legal actions as list items (grouped) and the one to pre-select."""
        return [Item(self.label(view, a), a, group=self.group(view, a)) for a in legal], None

    def group(self, view: State[Any, Any], action: Any) -> str:
        return ""

    def label(self, view: State[Any, Any], action: Any) -> str:
        try:
            return view.describe(action)
        except Exception:  # an engine's describe should not take the table down
            return str(action)

    def prompt(self, view: State[Any, Any]) -> str:
        return "Your choice"

    def status(self, view: State[Any, Any]) -> str:
        cur = self.table.current
        if cur is None:
            return f"{self.table.game.title} — game over"
        who = seat_label(self.table.seats, cur)
        return f"{self.table.game.title} — {who} to play"

    # ---- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table-main"):
            with VerticalScroll(id="board-scroll", can_focus=False):
                yield from self.compose_board()
            with Container(id="side"):
                with Vertical(id="decision-box"):
                    yield Static(id="decision-title")
                    yield ChoiceList(id="decision")
                yield GameLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#board-scroll").can_focus = False
        if getattr(self.table, "content", None) is not None:
            self.query_one("#log", GameLog).add("", self.content_note())  # say so once, up front
        self.refresh_view()
        self.query_one("#decision", ChoiceList).focus()
        self.drive()

    def on_unmount(self) -> None:
        self._unsubscribe()

    # ---- seeing ------------------------------------------------------------
    @property
    def log_seat(self) -> int | None:
        return None if self.hotseat else self.viewer

    def current_view(self) -> State[Any, Any]:
        return self.table.view(self.viewer)

    def my_turn(self) -> bool:
        t = self.table
        return t.waiting_for_person and t.current == self.viewer and not self._handing_over

    def refresh_view(self) -> None:
        if not self.is_mounted or self._finished:
            return  # a worker can finish after the person left the table
        self.flush_chance()
        view = self.current_view()
        self.query_one("#status", Static).update(self.status(view))
        self.update_board(view)
        decision = self.query_one("#decision", ChoiceList)
        title = self.query_one("#decision-title", Static)
        if self.my_turn():
            items, pre = self.choice_items(view, view.legal())
            title.update(self.prompt(view))
            decision.set_items(items, highlight=pre)
            decision.disabled = False
        else:
            cur = self.table.current
            if cur is None:
                title.update("Game over")
            elif cur == CHANCE:
                title.update("…")
            else:
                title.update(f"{seat_label(self.table.seats, cur)} is thinking…")
            decision.set_items([])

    def _on_event(self, event: Applied | GameOver) -> None:
        if not self.is_mounted:
            return
        log = self.query_one("#log", GameLog)
        if isinstance(event, GameOver):
            log.add("", event.outcome or "The game is over.")
            return
        who = "" if event.seat == CHANCE else seat_label(self.table.seats, event.seat)
        text = event.action.split()[0]
        if self._describe_view is not None:
            try:
                text = self._describe_view.describe(self.table.game.parse_action(event.action))
            except Exception:  # a description is a courtesy; the tag alone cannot leak a secret
                pass
        text = with_names(text, [s.name for s in self.table.seats])
        if event.seat == CHANCE:
            self._chance_lines.append(text)  # written together, before the next move
            return
        self.flush_chance()
        log.add(who, text)

    def flush_chance(self) -> None:
        """Write the chance lines gathered since the last move, summarised."""
        if not self._chance_lines or not self.is_mounted:
            return
        lines, self._chance_lines = self._chance_lines, []
        log = self.query_one("#log", GameLog)
        for line in self.summarize_chance(lines):
            log.add("", line, quiet=True)

    def summarize_chance(self, lines: list[str]) -> list[str]:
        """Per-game hook: several chance lines in fewer words (default: as they are)."""
        return lines

    # ---- acting ------------------------------------------------------------
    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if event.choice_list.id != "decision":
            return
        event.stop()
        if not event.stale:
            self.choose(event.value)

    def choose(self, action: Any) -> None:
        if not self.my_turn() or self.busy:
            return
        self._describe_view = self.table.view(self.log_seat)
        try:
            self.table.submit(action)
        except IllegalAction as e:
            self.notify(str(e), severity="error")
            return
        self.drive()  # repaints when it stops

    @property
    def busy(self) -> bool:
        return any(w.name == "drive" and w.state in (WorkerState.PENDING, WorkerState.RUNNING)
                   for w in self.workers)

    def drive(self) -> None:
        # Pass the function, not a coroutine: an exclusive worker that replaces one
        # before it starts would otherwise leave a coroutine that is never awaited.
        # (Annotated because mypy cannot infer the result type through Textual's WorkType union.)
        worker: Worker[None] = self.run_worker(self._drive, name="drive", group="drive", exclusive=True)

    async def _drive(self) -> None:
        # Repaint only where a person can see a difference: once when a bot starts
        # thinking, after each bot move when moves are paced, and at the end. Chance
        # steps (a fill draws up to six bait) do not each need a frame.
        t = self.table
        waiting_on: int | None = None
        while t.current is not None and not t.waiting_for_person:
            cur = t.current
            if cur != CHANCE and cur != waiting_on:
                self.show_waiting(cur)
                waiting_on = cur
            self._describe_view = t.view(self.log_seat)
            if not await t.step():
                break
            if cur != CHANCE and t.seats[cur].kind is SeatKind.BOT and self.cw.bot_delay > 0:
                self.refresh_view()
                await asyncio.sleep(self.cw.bot_delay)
        self._after_drive()

    def show_waiting(self, seat: int) -> None:
        if not self.is_mounted:
            return
        self.query_one("#decision-title", Static).update(f"{seat_label(self.table.seats, seat)} is thinking…")
        self.query_one("#decision", ChoiceList).set_items([])

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "drive" and event.state is WorkerState.ERROR:
            self.notify(f"The game stopped: {event.worker.error}", severity="error", timeout=30)

    def _after_drive(self) -> None:
        if not self.is_mounted:
            return
        t = self.table
        if t.state.is_over:
            self.finish()
            return
        cur = t.current
        if cur is not None and t.waiting_for_person and cur != self.viewer:
            if self.hotseat:
                self._hand_over(cur)
                return
            self.viewer = cur
        self.refresh_view()

    def _hand_over(self, seat: int) -> None:
        from coldwater.tui.screens.handover import HandOverScreen

        self._handing_over = True
        self.viewer = None  # nothing private stays on screen behind the hand-over
        self.refresh_view()

        def ready(_: Any) -> None:
            self._handing_over = False
            self.viewer = seat
            self.refresh_view()

        self.app.push_screen(HandOverScreen(seat_label(self.table.seats, seat), self.table.game.title), ready)

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self.is_mounted and self.table.state.is_over and not self._finished and self.app.screen is self:
            self.finish()  # the game ended while another screen was on top

    def finish(self) -> None:
        if self._finished:
            return
        if self.app.screen is not self:
            return  # finish when this screen is back on top (see on_screen_resume)
        self._finished = True
        t = self.table
        if t.save_path is not None:
            records.save(t.record, records_dir() / Path(t.save_path).name)
            t.delete_save()
        from coldwater.tui.screens.score import ScoreScreen

        self.app.switch_screen(ScoreScreen(t.game.title, t.state.scores(), [s.name for s in t.seats]))

    # ---- keys --------------------------------------------------------------
    def action_pause(self) -> None:
        from coldwater.tui.screens.pause import PauseScreen

        def chosen(what: str | None) -> None:
            if what == "leave":
                self.app.pop_screen()
            elif what == "rules":
                from coldwater.tui.screens.rules import RulesScreen

                self.app.push_screen(RulesScreen(self.table.game.name))
            elif what == "quit":
                self.app.exit()

        self.app.push_screen(PauseScreen(self.content_note()), chosen)

    def action_board_down(self) -> None:
        self.query_one("#board-scroll", VerticalScroll).scroll_page_down()

    def action_board_up(self) -> None:
        self.query_one("#board-scroll", VerticalScroll).scroll_page_up()

    def action_cycle(self) -> None:
        self.query_one("#decision", ChoiceList).focus()

    def action_choose(self) -> None:
        self.query_one("#decision", ChoiceList).action_select()
