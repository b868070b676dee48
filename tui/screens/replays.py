"""Replays: finished games (and saved ones), stepped through move by move.

Positions are drawn from the public view: a replay shows what a spectator at
the table would have seen, never a player's hidden cards.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from coldwater.core import record as record_mod
from coldwater.core.errors import RecordError
from coldwater.net import records
from coldwater.core.state import CHANCE, State
from coldwater.net import paths
from coldwater.net.table import ContentRef, SaveError, load_content, read_save, record_content
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.table import with_names
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.widgets.log import GameLog


def _records() -> list[tuple[str, Path, bool]]:
    """(label source, path, finished) for every record and save, newest first."""
    found: list[tuple[float, Path, bool]] = []
    for folder, finished in ((paths.data_dir() / "records", True), (paths.saves_dir(), False)):
        if folder.is_dir():
            for p in folder.glob("*.json"):
                found.append((p.stat().st_mtime, p, finished))
    found.sort(key=lambda t: (-t[0], t[1].name))
    return [(p.stem, p, fin) for _, p, fin in found]


def load_with_content(path: Path, finished: bool) -> tuple[record_mod.GameRecord, ContentRef | None]:
    """A record and the own card data it was played with (None: the packaged content)."""
    if finished:
        rec = records.load(path)
        return rec, record_content(rec)
    try:
        save = read_save(path)
    except SaveError as e:
        raise RecordError(str(e)) from None
    return save.record, save.content


def game_for(game: Any, rec: record_mod.GameRecord, content: ContentRef | None) -> Any:
    """`game` with the card data the record was played with; RecordError if it is gone or changed."""
    if content is None or game.content_hash == rec.content_hash:
        return game
    try:
        return load_content(game, ContentRef(content.path, rec.content_hash))
    except SaveError as e:
        raise RecordError(f"{e}; restore that card data to replay it") from None


class ReplaysScreen(BaseScreen):
    BINDINGS = keymap.bindings("back")
    HELP = ("**Replays.** Finished games are kept here, and games still in progress too. Pick one "
            "with its key (or ↑ ↓ Enter) to step through it.")

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("Replays", classes="page-title")
            yield ChoiceList(id="records")
            yield Static("", id="replays-message", classes="note")
        yield Footer()

    def on_mount(self) -> None:
        items = []
        for _, path, finished in _records():
            try:
                rec, _ = load_with_content(path, finished)
            except RecordError as e:
                items.append(Item(f"{path.name}: {e}", None, group="Unreadable"))
                continue
            seats = rec.meta.get("seats", "")
            items.append(Item(f"{self._title(rec.game)} · {seats} · {len(rec.entries)} moves",
                              (path, finished), group="Finished games" if finished else "In progress"))
        self.query_one("#records", ChoiceList).set_items(items)
        if not items:
            self.query_one("#replays-message", Static).update("No games yet. Finished games appear here.")
        self.query_one("#records", ChoiceList).focus()

    def _title(self, game: str) -> str:
        try:
            return str(self.cw.catalog.get(game).title)
        except (ImportError, AttributeError, KeyError):
            return game

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if event.value is None:
            return
        path, finished = event.value
        message = self.query_one("#replays-message", Static)
        try:
            rec, content = load_with_content(path, finished)
            game = game_for(self.cw.catalog.get(rec.game), rec, content)
            screen = ReplayScreen(rec, game, self.cw.catalog.table_screen(rec.game).BOARD)
        except (RecordError, ImportError, AttributeError, KeyError) as e:
            message.update(f"Cannot replay {path.name}: {e}")
            return
        self.app.push_screen(screen)


class ReplayScreen(BaseScreen):
    BINDINGS = keymap.bindings("replay")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    HELP = ("**Replay.** → (or l) steps forward one move, ← (or h) back; Home and End jump to the "
            "start and the end. The board shows what a spectator would have seen.")

    def __init__(self, rec: record_mod.GameRecord, game: Any, board: type[BoardView]) -> None:
        super().__init__()
        self.rec = rec
        self.game = game
        self.board_cls = board
        names = rec.meta.get("seats", "")
        self.names = [n.strip() for n in names.split(",")] if names else [f"Seat {i + 1}" for i in range(rec.players)]
        self.states: list[State[Any, Any]] = []
        self.lines: list[str] = []
        self.error = ""
        self.pos = 0

    def _build(self) -> None:
        try:
            _, state = record_mod.initial_state(self.rec, self.game)
            self.states = [state.view(None)]
            prev = state.clone()
            for _, entry, after in record_mod.replay_iter(self.rec, self.game):
                public = prev.view(None)
                try:
                    text = public.describe(self.game.parse_action(entry.action))
                except Exception:  # descriptions are a courtesy; the tag alone cannot leak
                    text = entry.action.split()[0]
                who = "" if entry.seat == CHANCE else (self.names[entry.seat] if entry.seat < len(self.names) else "")
                text = with_names(text, self.names)
                self.lines.append(f"{who}: {text}" if who and not text.startswith(who) else text)
                self.states.append(after.view(None))
                prev = after.clone()
        except RecordError as e:
            self.error = str(e)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table-main"):
            with VerticalScroll(id="board-scroll", can_focus=False):
                yield self.board_cls(self.game, id="board")
            with Container(id="side"):
                with Vertical(id="decision-box"):
                    yield Static(id="decision-title")
                yield GameLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self._build()
        self.show()

    def show(self) -> None:
        status = self.query_one("#status", Static)
        total = len(self.states) - 1
        if not self.states:
            status.update(f"Cannot replay: {self.error}")
            return
        self.query_one("#board", BoardView).show(self.states[self.pos], self.names, None)
        status.update(f"{self.game.title} replay — move {self.pos} of {total}"
                      + (f" (stops early: {self.error})" if self.error else ""))
        self.query_one("#decision-title", Static).update(
            self.lines[self.pos - 1] if self.pos > 0 else "The start of the game")
        log = self.query_one("#log", GameLog)
        log.clear_all()
        for line in self.lines[max(0, self.pos - 200):self.pos]:
            log.add("", line)

    def action_step(self, delta: int) -> None:
        if self.states:
            self.pos = max(0, min(len(self.states) - 1, self.pos + delta))
            self.show()

    def action_jump(self, where: int) -> None:
        if self.states:
            self.pos = 0 if where == 0 else len(self.states) - 1
            self.show()
