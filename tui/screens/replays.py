"""Replays: finished games (and saved ones), stepped by decision, turn or round.

Positions are drawn from the public view unless the person picks a seat (w):
before the end a seat's view is still the public one, drawn from that seat, so a
saved hotseat game never shows one player's hidden cards to another; once the
game is over each seat's own view and everything may be seen, and a game played
at this keyboard opens on its player's own view (their fish weights, their tackle).
The points line under the title gives the running scores of the view shown.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Static

from coldwater.core import record as record_mod
from coldwater.core.errors import RecordError
from coldwater.core.state import CHANCE, Game, State
from coldwater.net.play import paths, records
from coldwater.net.play.table import (
    CONTENT_META,
    ContentRef,
    SaveError,
    count_turns,
    load_content,
    read_save,
    record_content,
)
from coldwater.net.session.forfeit import check_record, load_record, standings_text, verdict_text
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseModal, BaseScreen
from coldwater.tui.screens.resume import variant
from coldwater.tui.screens.table import with_names
from coldwater.tui.screens.timeline import Timeline
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.widgets.form import Field
from coldwater.tui.widgets.log import GameLog

if TYPE_CHECKING:
    from coldwater.tui.app import ColdwaterApp


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


def game_for(game: Game[Any, Any], rec: record_mod.GameRecord, content: ContentRef | None) -> Game[Any, Any]:
    """`game` with the card data the record was played with; RecordError if it is gone or changed."""
    if content is None or game.content_hash == rec.content_hash:
        return game
    try:
        return load_content(game, ContentRef(content.path, rec.content_hash))
    except SaveError as e:
        raise RecordError(f"{e}; restore that card data to replay it") from None


def verdict_item(path: Path) -> tuple[str, str, str] | None:
    """A LAN game ended by forfeit (a verdict record, net/session/forfeit.py), checked again here: its
    game, a line for the list (players, who forfeits, agreed or contested) and what choosing it shows.
    None for any other file."""
    try:
        rec = load_record(path.read_bytes())
    except (OSError, ValueError):
        return None
    if rec is None:
        return None
    chk = check_record(rec)
    f, j = chk.forfeit, chk.judgement
    names = ", ".join(rec.names.get(s) or f"Seat {s + 1}" for s in range(rec.players))
    if f is None or j is None:
        return rec.game, f"{names} · a damaged forfeit record", "; ".join(chk.problems)
    word = "contested" if j.contested else "agreed"
    who = ", ".join(rec.names.get(s) or f"Seat {s + 1}" for s in f.seats)
    summary = f"{names} · {who} forfeits · {word}"
    text = (
        f"{who} forfeits at ply {f.ply}: {f.reason}. Standings: {standings_text(f, rec.names)}. "
        f"The verdict is {verdict_text(j)}; {chk.signatures} signatures checked"
    )
    if chk.problems:
        text += ". PROBLEMS: " + "; ".join(chk.problems)
    return rec.game, summary, text


def file_when(path: Path) -> str:
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    except OSError:
        return "?"


def record_when(path: Path, rec: record_mod.GameRecord) -> str:
    """When the game was last played, in local time (the file's time: records are written at the end)."""
    try:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(path.stat().st_mtime))
    except OSError:
        return "?"


class ReplaysScreen(BaseScreen):
    BINDINGS = keymap.bindings("back")
    HELP = (
        "**Replays.** Finished games are kept here, and games still in progress too, newest "
        "first, each with the date (your local time), the game, the players and the winner. "
        "Pick one with its key (or ↑ ↓ Enter) to step through it."
    )

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("Replays", classes="page-title")
            yield ChoiceList(id="records")
            yield Static("", id="replays-message", classes="note", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        items: list[Item[tuple[Path, bool] | None]] = []
        self.verdicts: dict[Path, str] = {}
        """Games ended by forfeit (LAN verdict records): what choosing one shows, its verdict checked."""
        for _, path, finished in _records():
            verdict = verdict_item(path) if finished else None
            if verdict is not None:
                game, summary, text = verdict
                self.verdicts[path] = text
                items.append(Item(f"{file_when(path)} · {self._title(game)} · {summary}", (path, True)))
                continue
            try:
                rec, _ = load_with_content(path, finished)
            except RecordError as e:
                items.append(Item(f"{path.name}: {e}", None, group="Unreadable"))
                continue
            seats = rec.meta.get("seats", "") or f"{rec.players} players"
            if finished:
                result = f"won by {rec.meta['winner']}" if rec.meta.get("winner") else "finished"
            else:
                turns = count_turns(rec.entries)
                result = f"in progress, {turns} turn{'' if turns == 1 else 's'} so far"
            # One list, newest first: whether a game is finished is said on its own line.
            items.append(
                Item(f"{record_when(path, rec)} · {self._title(rec.game, rec)} · {seats} · {result}", (path, finished))
            )
        self.query_one("#records", ChoiceList).set_items(items)
        if not items:
            self.query_one("#replays-message", Static).update("No games yet. Finished games appear here.")
        self.query_one("#records", ChoiceList).focus()

    def _title(self, game: str, rec: record_mod.GameRecord | None = None) -> str:
        """The game's title, and which way it was played where a person tells them apart
        (its variant, as Resume says it: the game's own words tell it)."""
        try:
            title = str(self.cw.catalog.get(game).title)
        except (ImportError, AttributeError, KeyError):
            return game
        kind = variant(rec) if rec is not None else ""
        return f"{title} ({kind})" if kind else title

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if event.value is None:
            return
        path, finished = event.value
        message = self.query_one("#replays-message", Static)
        if path in self.verdicts:
            # A forfeit: no hidden value was revealed, so there is no whole game to step through; the
            # verdict, checked again from the file, is the record.
            message.update(self.verdicts[path])
            return
        try:
            screen = open_replay(self.cw, path, finished)
        except (RecordError, ImportError, AttributeError, KeyError) as e:
            message.update(f"Cannot replay {path.name}: {e}")
            return
        self.app.push_screen(screen)


def own_seat(rec: record_mod.GameRecord) -> int | None:
    """The seat played at this keyboard, from the record's ``people`` (seat numbers, the
    first of them in a hotseat game); None when it does not say (watched, or older)."""
    first = rec.meta.get("people", "").split(",")[0].strip()
    return int(first) if first.isdigit() else None


def open_replay(app: ColdwaterApp, path: Path, finished: bool) -> ReplayScreen:
    """The replay screen for a record or save (RecordError and friends if it cannot be)."""
    rec, content = load_with_content(path, finished)
    game = game_for(app.catalog.get(rec.game), rec, content)
    return ReplayScreen(rec, game, app.catalog.table_screen(rec.game).BOARD)


class GoToScreen(BaseModal):
    """Asks for a decision number; returns it (None: cancelled)."""

    BINDINGS = keymap.bindings("back")

    def __init__(self, last: int) -> None:
        super().__init__()
        self.last = last

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-box"):
            yield Static(f"Go to move (decision) 0–{self.last}, then Enter. Esc cancels.")
            yield Field(placeholder="move number", id="goto", max_length=7)
            yield Static("", id="goto-error", classes="error", markup=False)

    def on_mount(self) -> None:
        self.query_one("#goto", Field).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        if not text.isdigit() or int(text) > self.last:
            self.query_one("#goto-error", Static).update(f"Type a whole number from 0 to {self.last}.")
            return
        self.dismiss(int(text))


class ReplayScreen(BaseScreen):
    BINDINGS = keymap.bindings("replay")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    HELP = """\
**Replay.** Step through a game:

- → / ← (or l / h): the next or previous *decision* (chance draws in between are
  shown with the decision they follow);
- ↓ / ↑ (or j / k): the next or previous *turn*; PgDn / PgUp (or n / b): *round*;
- Home / End: the start and the end; **g**: go to a move (decision) number;
- **w**: whose view of the board: a spectator's, each seat's (their own secrets only
  once the game is over), and for a finished game everything;
- **v**: review the game (as **v** at the end of a game): the costliest decisions of the seat played at this
  keyboard (or of the seat whose view is shown), each a key that comes back here.

The log on the right runs up to the position shown; at the end the final scores
appear above it.
"""

    def __init__(
        self,
        rec: record_mod.GameRecord,
        game: Game[Any, Any],
        board: type[BoardView[Any]],
        *,
        timeline: Timeline | None = None,
        coach: tuple[int, int, str] | None = None,
    ) -> None:
        """`timeline`: positions laid out already (a watcher's public views, which `rec` cannot replay).
        `coach`: (ply, seat, note) from the Review screen: open at that position, from that
        seat's view, with the note (the choice made and the better one) shown there."""
        super().__init__()
        self.coach = coach
        self.given = timeline
        self.rec = rec
        self.game = game
        self.board_cls = board
        names = rec.meta.get("seats", "")
        self.names = [n.strip() for n in names.split(",")] if names else [f"Seat {i + 1}" for i in range(rec.players)]
        self.timeline: Timeline | None = None
        self.lines: list[str] = []
        self.pos = 0
        self.view_index = 0
        """0: spectator; 1..n: seat n-1; n+1: everything (finished games only)."""
        self.own = own_seat(rec)
        """The seat played at this keyboard (the record says so), or None."""

    @property
    def states(self) -> list[State[Any, Any]]:
        return self.timeline.states if self.timeline is not None else []

    @property
    def error(self) -> str:
        return self.timeline.error if self.timeline is not None else ""

    def _build(self) -> None:
        self.timeline = tl = self.given if self.given is not None else Timeline(self.rec, self.game)
        if tl.over and self.own is not None and self.own < len(self.names):
            self.view_index = self.own + 1  # your own game, over: your own secrets, not a spectator's view
        for i, entry in enumerate(tl.entries):
            public = tl.states[i].view(None)
            try:
                text = public.describe(self.game.parse_action(entry.action))
            except Exception:  # descriptions are a courtesy; the tag alone cannot leak
                text = entry.action.split()[0]
            who = "" if entry.seat == CHANCE else (self.names[entry.seat] if entry.seat < len(self.names) else "")
            text = with_names(text, self.names)
            self.lines.append(f"{who}: {text}" if who and not text.startswith(who) else text)

    def compose(self) -> ComposeResult:
        yield Static(id="status", markup=False)
        yield Static(id="standings", markup=False)
        with Horizontal(id="table-main"):
            with VerticalScroll(id="board-scroll", can_focus=False):
                yield self.board_cls(self.game, id="board")
            with Container(id="side"):
                with VerticalScroll(id="decision-box", can_focus=False):
                    yield Static(id="decision-title", markup=False)
                yield GameLog(id="log")
        yield Footer()

    def on_mount(self) -> None:
        self._build()
        if self.coach is not None and self.states:
            ply, seat, _ = self.coach
            self.view_index = seat + 1
            self.pos = max(0, min(len(self.states) - 1, ply))
        self.show()

    def view_names(self) -> list[str]:
        over = self.timeline is not None and self.timeline.over
        out = ["a spectator's view"]
        for name in self.names:
            out.append(f"{name}'s view" if over else f"{name}'s seat, public view")
        if over:
            out.append("everything (the game is over)")
        return out

    def short_view_name(self) -> str:
        """The view's name in a few words, for a status line that has no room for the long one."""
        n = len(self.names)
        if 1 <= self.view_index <= n:
            return f"as {self.names[self.view_index - 1]}"
        return "everything" if self.view_index == n + 1 else "spectator"

    def board_state(self) -> tuple[State[Any, Any], int | None]:
        full = self.states[self.pos]
        n = len(self.names)
        over = self.timeline is not None and self.timeline.over
        if 1 <= self.view_index <= n:
            seat = self.view_index - 1
            # Before the end a seat's secrets stay hidden: only the public view, drawn from that seat.
            return (full.view(seat) if over else full.view(None)), seat
        if over and self.view_index == n + 1:
            return full, None
        return full.view(None), None

    def show(self) -> None:
        status = self.query_one("#status", Static)
        tl = self.timeline
        if tl is None or not self.states:
            status.update(f"Cannot replay: {self.error}")
            return
        state, viewer = self.board_state()
        everything = tl.over and self.view_index == len(self.names) + 1
        if everything:
            # A board draws one seat's secrets, so "everything" is each seat's own view, one after another.
            state, viewer = self.states[self.pos].view(0), 0
        self.query_one("#board", BoardView).show(state, self.names, viewer)
        self._show_others(everything)
        decisions = len(tl.decision_pos)
        done = tl.decisions_before(self.pos) if self.pos < tl.end else decisions
        where = tl.clocks[self.pos].text() if self.pos < len(tl.clocks) else ""
        room = max(self.size.width, 80) - 2  # the status line's padding
        view = self.view_names()[self.view_index]
        line = f"{self.game.title} replay · {where} · move {done} of {decisions} · {view}"
        if len(line) > room:  # the game's name gives way first, then the words around the view's name
            line = f"Replay · {where} · move {done} of {decisions} · {view}"
        if len(line) > room:
            line = f"Replay · {where} · move {done}/{decisions} · {self.short_view_name()}"
        status.update(line + (f" (stops early: {self.error})" if self.error else ""))
        self.query_one("#standings", Static).update(self.points(state))
        title = self.lines[self.pos - 1] if self.pos > 0 else "The start of the game"
        if self.pos == tl.end and tl.over:
            title = "The end of the game\n\n" + self.final_scores()
        if self.coach is not None and self.pos == self.coach[0]:
            title = self.coach[2] + ("\n\n" + title if self.pos > 0 else "")
        self.query_one("#decision-title", Static).update(title)
        log = self.query_one("#log", GameLog)
        log.clear_all()
        for line in self.lines[max(0, self.pos - 200) : self.pos]:
            log.add("", line)

    def _show_others(self, everything: bool) -> None:
        """The boards of seats 2.. under the first, in the "everything" view; hidden otherwise."""
        scroll = self.query_one("#board-scroll", VerticalScroll)
        others = list(self.query(".other-board").results(BoardView))
        heads = list(self.query(".other-head").results(Static))
        if everything and not others:
            for seat in range(1, len(self.names)):
                head = Static(f"── as {self.names[seat]} sees it ──", classes="other-head section", markup=False)
                board = self.board_cls(self.game, id=f"board-{seat}")
                board.add_class("other-board")
                scroll.mount(head)
                scroll.mount(board)
                heads.append(head)
                others.append(board)
        for w in heads:
            w.display = everything
        for seat, board in enumerate(others, start=1):
            board.display = everything
            if everything:
                board.show(self.states[self.pos].view(seat), self.names, seat)

    def labels(self, labels: tuple[str, ...]) -> list[str]:
        """Score rows named as people named the seats (the silent player keeps its own name)."""
        return [
            self.names[i] if i < len(self.names) and lab.startswith("Seat ") else lab for i, lab in enumerate(labels)
        ]

    def points(self, state: State[Any, Any]) -> str:
        """The running score at this position, as the view shown can count it."""
        try:
            sc = state.scores()
        except Exception:  # provisional scores mid-game are a courtesy of the engine
            return ""
        unit = self.game.unit[:1].upper() + self.game.unit[1:]  # "Points", "PP"
        parts = [f"{name} {total}" for name, total in zip(self.labels(sc.labels), sc.totals)]
        return f"{unit}: " + " · ".join(parts) + ("" if sc.final else " (so far)")

    def final_scores(self) -> str:
        sc = self.states[-1].scores()
        labels = self.labels(sc.labels)
        lines = [with_names(sc.outcome, labels)] if sc.outcome else []
        for place, i in enumerate(sc.ranking or range(len(labels)), start=1):
            lines.append(f"{place}. {labels[i]}  {sc.totals[i]}")
        return "\n".join(lines)

    def move_to(self, pos: int) -> None:
        if self.states:
            self.pos = max(0, min(len(self.states) - 1, pos))
            self.show()

    def action_step(self, delta: int) -> None:
        if self.timeline is not None:
            self.move_to(self.timeline.step(self.pos, "decision", delta))

    def action_turn(self, delta: int) -> None:
        if self.timeline is not None:
            self.move_to(self.timeline.step(self.pos, "turn", delta))

    def action_round(self, delta: int) -> None:
        if self.timeline is not None:
            self.move_to(self.timeline.step(self.pos, "round", delta))

    def action_jump(self, where: int) -> None:
        if self.states:
            self.move_to(0 if where == 0 else len(self.states) - 1)

    def action_goto(self) -> None:
        tl = self.timeline
        if tl is None or not self.states:
            return

        def chosen(n: int | None) -> None:
            if n is not None:
                self.move_to(tl.decision_position(n))

        self.app.push_screen(GoToScreen(len(tl.decision_pos)), chosen)

    def action_review(self) -> None:
        from coldwater.tui.screens.review import ReviewScreen

        tl = self.timeline
        if self.given is not None or tl is None or not self.states:
            self.notify("Only a game's whole record can be reviewed; this one is a watcher's view.")
            return
        n = len(self.names)
        seat = self.view_index - 1 if 1 <= self.view_index <= n else (self.own if self.own is not None else 0)
        content = self.rec.meta.get(CONTENT_META)  # the own card data it was played with, if any
        self.app.push_screen(ReviewScreen(self.rec, self.game, self.board_cls, seat, content=content))

    def action_seat(self) -> None:
        self.view_index = (self.view_index + 1) % len(self.view_names())
        self.show()
