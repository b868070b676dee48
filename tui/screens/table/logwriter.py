"""The table's log writer: what happened, in words, under the round and turn it happened in.

:class:`TableLog` keeps the log of one table screen (a :class:`LogBook`) and writes
into it: each applied step (a move with who made it, or a chance line gathered and
summarised before the next move), the game's ★ announcements, the one line at the
start of a person's turn that says what the others did since, and the whole log
again from the record on Resume and after Undo. It asks the game for words
through :class:`LogWords` (the table screen's hooks) and the guard, and shows
what it writes through a :class:`LogSink` (the screen's short log and log pane);
it draws nothing itself (:class:`LogWidgets` is the sink a table screen gives it).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from textual.widget import Widget

from coldwater.core import record as rec_mod
from coldwater.core.clock import START, Clock, advance
from coldwater.core.errors import NotationError
from coldwater.core.notation import Action
from coldwater.core.state import CHANCE, Game, State
from coldwater.net.play import paths
from coldwater.net.play.table import seat_label
from coldwater.net.play.tablelike import TableLike
from coldwater.tui.widgets.log import GameLog, Kind, LogBook, LogEntry, LogPane

from .guard import HookGuard

S = TypeVar("S", bound=State[Any, Any])
A = TypeVar("A", bound=Action)
S_in = TypeVar("S_in", bound=State[Any, Any], contravariant=True)
A_in = TypeVar("A_in", bound=Action, contravariant=True)


def with_names(text: str, names: list[str]) -> str:
    """Engines say "Seat 2"; people like to read the name they chose."""
    return re.sub(r"\bSeat (\d+)\b", lambda m: names[int(m[1]) - 1] if 0 < int(m[1]) <= len(names) else m[0], text)


def records_dir() -> Path:
    p = paths.data_dir() / "records"
    p.mkdir(parents=True, exist_ok=True)
    return p


def _replay(state: State[Any, Any], game: Game[Any, Any], notation: str) -> bool:
    """Apply one record entry to `state` (the log's replay); True when applied."""
    state.apply(game.parse_action(notation))
    return True


class LogWords(Protocol[S_in, A_in]):
    """The game's words for its log (the table screen's log hooks, see docs/tui.md)."""

    def party_name(self, party: int) -> str: ...

    def actor_name(self, view: S_in, seat: int, action: A_in) -> str: ...

    def announcements(self, before: S_in, after: S_in, seat: int, action: A_in) -> list[str]: ...

    def summarize_chance(self, lines: list[str]) -> list[str]: ...


class LogSink(Protocol):
    """Where the log is shown: the screen's short log and its full-screen pane."""

    def log_live(self) -> bool:
        """Whether the log widgets are there to write into (the screen is composed)."""

    def show_log_entry(self, entry: LogEntry) -> None: ...

    def show_log(self, entries: list[LogEntry]) -> None: ...


class LogWidgets:
    """The :class:`LogSink` of a table screen: its short log (``#log``) and log pane (``#log-pane``),
    written into while `live` says they are there."""

    def __init__(self, screen: Widget, live: Callable[[], bool]) -> None:
        self.screen = screen
        self.live = live

    def log_live(self) -> bool:
        return self.live()

    def show_log_entry(self, entry: LogEntry) -> None:
        # (query, not query_one: a worker's step may land while the screen is being taken down)
        for log in self.screen.query("#log").results(GameLog):
            log.show_entry(entry)
        for pane in self.screen.query("#log-pane").results(LogPane):
            pane.show_entry(entry)

    def show_log(self, entries: list[LogEntry]) -> None:
        for log in self.screen.query("#log").results(GameLog):
            log.show_all(entries)
        for pane in self.screen.query("#log-pane").results(LogPane):
            pane.show_all(entries)


class TableLog(Generic[S, A]):
    """Writes one table's log (see the module docstring)."""

    def __init__(self, table: TableLike, words: LogWords[S, A], guard: HookGuard, sink: LogSink) -> None:
        self.table = table
        self.words = words
        self.guard = guard
        self.sink = sink
        self.book = LogBook()
        self._chance_lines: list[str] = []
        self.clock: Clock = START
        """Round and turn of the last position logged."""
        self._chance_clock: Clock = START
        """The turn the chance lines waiting in `_chance_lines` happened in."""
        self.summary_ply = -1
        """The ply whose "since your last turn" line was written (or that needs none: just undone)."""

    def names(self) -> list[str]:
        return [s.name for s in self.table.seats]

    def entry(self, kind: Kind, text: str, who: str = "", clock: Clock | None = None) -> LogEntry:
        """Add one entry and show it."""
        entry = self._add(kind, text, who, clock)
        if self.sink.log_live():
            self.sink.show_log_entry(entry)
        return entry

    def _add(self, kind: Kind, text: str, who: str, clock: Clock | None) -> LogEntry:
        if clock is None:
            return self.book.add(kind, text, who)
        party = self.guard.call("", self.words.party_name, clock.party) if not clock.setup else ""
        return self.book.add(kind, text, who, clock.round, turn=clock.turn, party=party)

    def describe_applied(self, before: S | None, seat: int, notation: str) -> tuple[str, A | None]:
        """The log text of an applied action and the action itself (None if unparsable)."""
        text = notation.split()[0] if notation else "(sealed)"
        action: A
        try:
            action = self.table.game.parse_action(notation)
        except NotationError:  # a sealed or foreign notation: the tag alone cannot leak a secret
            return text, None
        if before is not None:
            text = self.guard.call(text, before.describe, action)  # a description is a courtesy
        return with_names(text, self.names()), action

    def record_applied(self, before: S | None, after: S, seat: int, notation: str) -> None:
        """Log one applied action: the move (or chance line), then its announcements,
        under the round and turn it was made in."""
        text, action = self.describe_applied(before, seat, notation)
        rnd = self.clock
        self.clock = self.guard.call(rnd, advance, rnd, after)
        if seat == CHANCE:
            if self._chance_lines and self._chance_clock.turn != rnd.turn:
                self.flush_chance()  # a new turn's draws get its own heading
            self._chance_clock = rnd
            self._chance_lines.append(text)  # written together, before the next move
        else:
            self.flush_chance()
            who = seat_label(self.table.seats, seat)
            if before is not None and action is not None:
                who = self.guard.call(who, self.words.actor_name, before, seat, action)
            self.entry("move", text, who, rnd)
        if before is not None and action is not None:
            lines = self.guard.call([], self.words.announcements, before, after, seat, action)  # a courtesy
            if lines:
                self.flush_chance()
            for line in lines:
                self.entry("announce", with_names(line, self.names()), "", rnd)

    def game_over(self, outcome: str) -> None:
        self.flush_chance()
        self.entry("outcome", with_names(outcome or "The game is over.", self.names()))

    def rebuild(self, seat_view: int | None, as_view: Callable[[State[Any, Any]], S]) -> None:
        """Write the log again from the game record (Resume, Undo), so it is never empty.

        Each step is described from `seat_view`, the view the live log uses (`as_view`
        makes each position the screen's own State type), so it shows no more than the
        live log would have. A LAN table keeps no record here."""
        rec = self.table.record
        if rec is None or not rec.entries:
            return
        # The table replayed this record already, so neither step below can fail; if one does,
        # the log stops there (a log is not worth a crash) and the guard says why.
        start = self.guard.call(None, rec_mod.initial_state, rec, self.table.game)
        if start is None:
            return
        state = start[1]
        notes = [e for e in self.book.entries if e.kind == "note" and not e.text.startswith("(")]
        self.book.clear()
        self._chance_lines = []
        self.clock = self._chance_clock = START
        for note in notes:
            self.book.add("note", note.text)
        game = self.table.game
        for entry in rec.entries:
            before = as_view(state.view(seat_view))
            if not self.guard.call(False, _replay, state, game, entry.action):
                break
            self.record_applied(before, as_view(state.view(seat_view)), entry.seat, entry.action)
        self.flush_chance(live=False)
        if self.table.state.is_over:
            self.book.add("outcome", with_names(self.table.state.scores().outcome, self.names()))
        if self.sink.log_live():
            self.sink.show_log(self.book.entries)

    def flush_chance(self, *, live: bool = True) -> None:
        """Write the chance lines gathered since the last move, summarised."""
        if not self._chance_lines:
            return
        lines, self._chance_lines = self._chance_lines, []
        for line in self.words.summarize_chance(lines):
            if live and self.sink.log_live():
                self.entry("chance", line, "", self._chance_clock)
            else:
                self._add("chance", line, "", self._chance_clock)

    def since_your_turn(self, viewer: int | None) -> None:
        """At the start of `viewer`'s turn: one line of what everyone else did since."""
        ply = self.table.state.ply
        if viewer is None or ply == self.summary_ply:
            return
        self.summary_ply = ply
        me = seat_label(self.table.seats, viewer)
        last = self.book.entries[-1] if self.book.entries else None
        if last is not None and last.kind == "move" and last.who == me:
            return  # still my turn: nothing new to tell
        others = self.book.since_last(me)
        if not any(e.kind == "move" for e in others):
            return
        parts: list[str] = []
        for entry in others:
            text = entry.text if entry.kind == "move" else f"★ {entry.text}"
            if entry.kind == "move" and entry.who and text.startswith(entry.who + " "):
                text = text[len(entry.who) + 1 :]  # "Bot: charts a course", not "Bot: Bot charts…"
            if parts and entry.kind == "move" and parts[-1].startswith(entry.who + ": "):
                parts[-1] += f"; {text}"
            else:
                parts.append(f"{entry.who}: {text}" if entry.kind == "move" else text)
        self.entry("summary", "Since your last turn — " + " · ".join(parts))
