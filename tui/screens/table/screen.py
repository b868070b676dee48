"""The table screen: the board, the current decision and the log — the frame
shared by every game.

One module of ~1030 lines, on purpose: it is one Textual screen, and what is left here
is what Textual dispatches to the screen by name (its ``action_*`` keys, ``on_*``
handlers, ``check_action``, ``compose``) and the flow those share (the decision list,
safe highlights, answering the obvious, the filter, panes, hand-over, the end). What
is not screen code lives beside it (the log writer, the driver, the guard, the hints,
the list's order, the look-up, the last move's marks, the bot's turn so far) or in the
game's words.

This screen plays any game through the core contract. It is given the game's
words as an object (``WORDS``: a :class:`~coldwater.tui.games.words.TableWords`,
pure; ``tui/games/<game>/words.py``) and its board widget (``BOARD``); a game's
own screen (see ``catalog.TABLE_SCREENS``) names them and adds only what a screen
does: its panes (:attr:`PANES`, :meth:`compose_pane`, :meth:`update_pane`), the
board's form, a list of its own while a cursor is out (docs/tui.md, "Table screen
hooks").

Panes: the table view (board, choices, short log) is the home; ``F2`` shows the
board alone, ``F3`` the full log, ``F4``... the game's own panes; the same key or
Esc comes back. Pane keys and PgUp/PgDn work whatever has focus.

Secrets: everything drawn comes from ``table.view(seat)`` for the person who is
looking: in solo the one local person, in hotseat the person whose turn it is
(a hand-over screen stands between two people). The log is written from the
same view in solo and from the public view in hotseat, so an old line never
shows one player's secret to the next.

Bots and chance are played by the :class:`~.driver.Driver` in a Textual worker; the
log is written by the :class:`~.logwriter.TableLog`; the words are called through
the :class:`~.guard.HookGuard`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

import msgspec
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.worker import Worker, WorkerState

from coldwater.core.clock import Clock
from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.state import CHANCE, State
from coldwater.net.play import records
from coldwater.net.play.table import Applied, GameOver, SeatKind, Table, Undone, seat_label
from coldwater.net.play.tablelike import TableLike
from coldwater.net.session.turnclock import idle_fmt
from coldwater.tui import keymap
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.thinking import ThinkingStopped
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, FilterBox, Item
from coldwater.tui.widgets.footer import SteadyFooter
from coldwater.tui.widgets.hint import HintPanel
from coldwater.tui.widgets.log import GameLog, Kind, LogBook, LogEntry, LogPane
from coldwater.tui.widgets.rows import break_row

if TYPE_CHECKING:
    from coldwater.tui.screens.score import ScoreScreen

from .botwatch import watching
from .driver import Driver
from .guard import HookGuard
from .hints import TableHints
from .lastmove import LastMove
from .logwriter import TableLog, records_dir, with_names
from .look import Look, LookPanel
from .order import safe_order, side_height


class Pane(msgspec.Struct, frozen=True):
    """A game's own full-screen pane (see :attr:`TableScreen.PANES`)."""

    id: str
    """Widget id suffix: the pane's container is ``#pane-<id>``."""
    title: str
    """Shown in the footer beside its key, and as the pane's heading."""
    letter: str = ""
    """A capital letter that opens it too (beside F4, F5, F6 by position)."""


S = TypeVar("S", bound=State[Any, Any])
"""The game's State subclass (``CrownState``): every view a hook is given."""
A = TypeVar("A", bound=Action)
"""The game's action type (``CrownAction``): every action a hook is given."""
C = TypeVar("C")
"""The screen's own choices that are not actions (Fisheries' "place a tile"
opens a cursor before any action is chosen); ``Never`` for a screen without."""


class TableScreen(BaseScreen, Generic[S, A, C]):
    """The frame, generic in the game's State and action types.

    A game's screen names them (``CrownTableScreen(TableScreen[CrownState,
    CrownAction, Never])``), so mypy checks every hook it overrides against its
    own game's types. The choice hooks (labels, groups, done, costly, preview,
    ``choose``) take ``A | C``: an action or one of the screen's own commands;
    the log hooks take ``A``. The frame itself only moves views and actions
    between the table and the hooks; the generic screen of a game without its
    own is ``TableScreen[Any, Any, Never]``.
    """

    BINDINGS: ClassVar[list[BindingType]] = keymap.bindings("table")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide"), (180, "-xwide")]
    HELP_KEYS = (
        "| 1–9 0 a–z | Make the choice with that key (never e: End turn; never h: Hint) |\n"
        "| ↑ ↓ | Move through the choices |"
    )
    HELP: ClassVar[str] = """\
**The table.** The board is on the left (or on top in a small terminal), your
choices and the short log on the right (or below). Each legal choice has a key:
press it, or move with ↑ ↓ and press Enter, or click it. Only legal choices are
listed, and the highlighted one never spends, discards or ends anything.

**Panes.** **F2** (or **B**) shows the board on the whole screen, **F3** (or
**L**) the whole log, grouped by round and turn; a game may add its own (F4,
F5, ...: see the footer). The same key or Esc brings the table back.
PgUp / PgDn scroll the board (or the open pane) whatever has focus.

**No traps.** **e** ends your turn (or passes, or says "done") on every turn of
every game. **Ctrl+Z** takes back your own last decision (solo and hotseat; not
past a draw or anything revealed, and never a bot's move). A question with one
possible answer answers itself (Settings can turn that off). **/** filters a long
list of choices by text; **!** chooses the highlighted answer and gives it again
whenever the same question comes back this game.

**Hints.** **h** asks the hard bot for its best few choices here: each with how
many points it is behind the best and what it gains (a score category, or the
rival kept down), from what you can see. It thinks beside the table, so you can
still choose meanwhile (that drops the hint); Esc stops it or closes it. Solo and
hotseat tables give hints; a LAN table only when its host turned hints on.

At the start of your turn the log says what the others did since your last turn,
and a **•** beside the board marks each row they changed, until you move.
Esc opens the table menu (rules, leave). Every move is saved as it is made:
leaving and resuming later loses nothing, the log included.
"""

    AUTO_FOCUS = "#decision"
    """The choice list has the keyboard when the table (re)appears, never the hidden filter box."""

    PANES: ClassVar[tuple[Pane, ...]] = ()
    """The game's own full-screen panes, in key order (F4, F5, F6); see :meth:`compose_pane`."""

    def __init_subclass__(cls, **kw: Any) -> None:
        if "PANES" in cls.__dict__ and cls.PANES:
            # A game's panes add their keys. Before Textual's own __init_subclass__, which merges
            # BINDINGS along the class hierarchy as the class is made.
            own = list(cls.__dict__.get("BINDINGS", []))
            cls.BINDINGS = own + keymap.pane_bindings([(p.id, p.title, p.letter) for p in cls.PANES])
        super().__init_subclass__(**kw)

    def __init__(self, table: TableLike) -> None:
        super().__init__()
        self.table = table
        persons = table.person_seats()
        self.hotseat = len(persons) > 1
        self.viewer: int | None = persons[0] if len(persons) == 1 else None
        self._unsubscribe = table.subscribe(self._on_event)
        self._describe_view: S | None = None
        self._finished = False
        self._handing_over = False
        self.guard = HookGuard(table.game.name, strict=lambda: self.cw.strict)
        """Runs this game's hooks: a failure is logged and the frame's fallback shown, or, in an
        app made ``strict`` (the tests), raised (guard.py)."""
        self.words: TableWords[S, A, C] = self.WORDS(table.game, [s.name for s in table.seats])
        """The game's words, pure (words.py); made from the screen's WORDS and the table."""
        self.log_writer: TableLog[S, A] = TableLog(table, self.words, self.guard, self)
        self.pane = ""
        """The open full-screen pane ("" for the table itself)."""
        self._always: dict[str, str] = {}
        """Repeated questions answered with "!" this game: question key -> action notation."""
        self._auto_ply = -1
        self._side_height: int | None = -1
        self.driver = Driver(table, self)
        """Plays chance, bots and remote seats in the "drive" worker (driver.py)."""
        self.hints = TableHints(self)
        """The hint panel's flow (``h``; hints.py)."""
        self.look = Look(self)
        """The look-up cursor on the board (F7; look.py)."""
        self.last_move = LastMove()
        """The rows the others changed since this person acted, marked beside the board (lastmove.py)."""
        self._composed = False
        self._answering = False
        self._status_said = ""
        """The title line's text, before it was broken onto rows for the screen's width."""
        self._step_at = time.monotonic()
        """When the step being played now began (the bar of a bot's search counts from it)."""
        self._bot_shown = False
        """The line saying a bot plays this seat is on screen (a LAN fair table's turn timer ran out)."""

    WORDS: ClassVar[type[TableWords[Any, Any, Any]]] = TableWords
    """The game's words (a pure TableWords subclass in ``tui/games/<game>/words.py``)."""

    BOARD: ClassVar[type[BoardView[Any]]] = BoardView
    """The game's board widget; the replay screen draws positions with it too."""

    OWN_CONTENT: ClassVar[bool] = False
    """The new-game form offers *Card data* (``game.with_content``) for this game:
    only where the screen draws every card from the loaded content."""

    def content_note(self) -> str:
        """Which card data is in use, for the table menu ("" where there is no choice)."""
        ref = self.table.content
        if ref is not None:
            return f"Card data: your own, {ref.path} ({ref.hash[:8]})"
        if self.OWN_CONTENT:
            return f"Card data: the packaged stand-in ({self.table.game.content_hash[:8]})"
        return ""

    # ---- hooks for per-game screens: the board and panes -------------------
    def compose_board(self) -> ComposeResult:
        yield self.BOARD(self.table.game, id="board")

    def update_board(self, view: S) -> None:
        self.query_one("#board", BoardView).show(view, [s.name for s in self.table.seats], self.viewer)

    def compose_pane(self, pane_id: str) -> ComposeResult:
        """The widgets of one of the game's :attr:`PANES` (inside ``#pane-<id>``, which scrolls)."""
        yield Static(id=f"pane-{pane_id}-body")

    def update_pane(self, pane_id: str, view: S) -> None:
        """Redraw pane `pane_id` from `view`; called when it opens and on every repaint while open."""

    # ---- the decision: the screen's list, worded by its words -------------------------
    # A screen whose own state changes what the list offers (Fisheries' cursor) overrides
    # these; every other word comes from `self.words` alone.
    def choice_items(self, view: S, legal: list[A]) -> tuple[list[Item[A | C]], int | None]:
        """The list's items (grouped) and the game's preferred highlight; the frame then makes
        the highlight safe and gives the done action its fixed key."""
        choices, pre = self.words.choice_items(view, legal, self.label_of)
        return [Item(c.label, c.value, group=c.group) for c in choices], pre

    def prompt(self, view: S) -> str:
        return self.words.prompt(view)

    def step_note(self, view: S) -> str:
        return self.words.step_note(view)

    def is_costly(self, view: S, action: A | C) -> bool:
        return self.words.is_costly(view, action)

    def preview(self, view: S, action: A | C) -> str:
        return self.words.preview(view, action)

    def label_of(self, view: S, action: A | C) -> str:
        """The words' label through the guard (their plain label, then the notation, if it
        fails): what the list shows, so a wording bug never hides a legal choice."""
        return self.guard.either(self.words.label, self._plain_label, view, action, self.viewer)

    def _plain_label(self, view: S, action: A | C, viewer: int | None) -> str:
        return self.guard.call(str(action), self.words.plain_label, view, action)

    def clock(self) -> Clock:
        """Round and turn now: the record's own count where this table keeps one, else
        counted from the positions this screen has seen (a LAN table)."""
        rec = self.table.record
        last = rec.entries[-1].clock if rec is not None and rec.entries else None
        return last if last is not None else self.log_writer.clock

    def status_line(self, view: S, status: str) -> str:
        """`status` with the round and turn after its first part (who is to play)."""
        if self.table.current is None:
            return status
        head, sep, rest = status.partition(" · ")
        when = self.guard.call("", self.words.clock_text, view, self.clock())  # a courtesy: never stops the game
        left = self.table.countdown()  # a LAN table's turn clock, right by whose turn it is
        head += f" ({left})" if left else ""
        return head + (f" · {when}" if when else "") + (f" · {rest}" if sep else "")

    # ---- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="standings")
        with Horizontal(id="table-main"):
            with VerticalScroll(id="board-scroll", can_focus=False):
                yield from self.compose_board()
            with Container(id="side"):
                with Vertical(id="decision-box"):
                    yield Static(id="decision-title")
                    yield FilterBox("decision", placeholder="filter the choices (Esc: clear)", id="decision-filter")
                    yield ChoiceList(id="decision")
                    yield Static(id="decision-preview")
                yield HintPanel(id="hint-panel")
                yield LookPanel(id="look-panel")
                yield GameLog(id="log")
        yield LogPane(id="log-pane")
        for pane in self.PANES:
            with VerticalScroll(id=f"pane-{pane.id}", classes="game-pane"):
                yield Static(pane.title, classes="pane-title")
                yield from self.compose_pane(pane.id)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self._composed = True  # (is_mounted is still False while on_mount runs)
        self.query_one("#board-scroll").can_focus = False
        box = self.query_one("#decision-filter", Input)
        box.display = False
        box.can_focus = False  # only while it is open (see action_filter)
        self.query_one("#log-pane").display = False
        self.query_one("#hint-panel").display = False
        self.query_one("#look-panel").display = False
        for pane in self.PANES:
            self.query_one(f"#pane-{pane.id}").display = False
        if isinstance(self.table, Table):
            self.table.think_pause = self.cw.think_gate.pause_for(self)
            thinker = self.cw.thinker
            self.table.think_with(thinker)
            if thinker is not None and self.table.has_search_bot:
                thinker.warm()  # its start-up is paid now, not on the bot's first move
        if self.table.content is not None:
            self.log_entry("note", self.content_note())  # say so once, up front
        opening = self.table.opening_note
        if opening:  # e.g. a watcher who came in mid-game: where its log starts
            self.log_entry("note", opening)
        self.rebuild_log()
        self.refresh_view()
        self.query_one("#decision", ChoiceList).focus()
        self.set_interval(1.0, self._tick_thinking)
        self.set_interval(0.25, self._show_watch)  # the search's bar, while a bot thinks
        self.drive()

    def on_unmount(self) -> None:
        self._composed = False
        self._unsubscribe()
        if isinstance(self.table, Table):
            # A bot still searching stops at its next playout instead of finishing a
            # move nobody will apply: leaving or quitting does not wait for it. The
            # table was saved after the last move, so the bot thinks again on resume.
            self.cw.think_gate.stop(self)
            self.table.stop_thinking()

    # ---- seeing ------------------------------------------------------------
    @property
    def log_seat(self) -> int | None:
        return None if self.hotseat else self.viewer

    def seen_by(self, seat: int | None) -> S:
        """The table's view for `seat`, as this screen's game's State."""
        return self.as_view(self.table.view(seat))

    def as_view(self, state: State[Any, Any]) -> S:
        # The one place the table's "State of some game" becomes this screen's S:
        # the catalog opens each game's tables with that game's own screen, so a
        # table of this screen only ever holds positions of its game.
        return cast(S, state)

    def current_view(self) -> S:
        return self.seen_by(self.viewer)

    def my_turn(self) -> bool:
        t = self.table
        return t.waiting_for_person and t.current == self.viewer and not self._handing_over

    def bot_plays(self) -> bool:
        """This seat's own process's bot plays it now (a LAN table whose turn timer ran out)."""
        return self.table.bot_plays

    def bot_plays_line(self) -> str:
        """What the person is told while a bot plays their seat, with the key that takes it back."""
        key = next(k for k in keymap.DEFAULT if keymap.binding_id(k) == "table.take_back")
        keys = keymap.describe_keys(self.cw.settings.keys.get("table.take_back", key.keys))
        # The real time the person was away, not the move's timer (with the bank it is far longer; the
        # timer is in the title). One row at 80 columns.
        return f"You did not move for {idle_fmt(self.table.bot_idle)}: a bot plays your seat. {keys} takes it back."

    def refresh_view(self) -> None:
        if not self._drawable():
            return
        self.flush_chance()
        view = self.current_view()
        self.hints.follow(view)
        self.say("#status", self.status_line(view, self.words.status(view, self.viewer)))
        self._show_standings(view)
        self.update_board(view)
        if self.pane and self.pane not in ("board", "log"):
            self.update_pane(self.pane, view)
        decision = self.query_one("#decision", ChoiceList)
        if self.my_turn():
            legal = view.legal()
            self.since_your_turn()
            self.last_move.back_to_you(self.query_one("#board", BoardView))
            if self.answer_alone(view, legal):
                self.say("#decision-title", "…")
                decision.set_items([])  # no key may answer the question being answered
                return
            items, pre = self.choice_items(view, legal)
            items, pre = self.make_safe(view, items, pre)
            note = self.step_note(view)
            head = self.prompt(view) + (f" ({note})" if note else "")
            if self.words.repeat_key(view) is not None:
                head += "  [! = always this answer]"
            self.say("#decision-title", head)
            decision.set_items(items, highlight=pre)
            decision.disabled = False
            self._show_preview(view)
        else:
            cur = self.table.current
            if cur is None:
                self.say("#decision-title", "Game over")
            elif cur == CHANCE:
                self.say("#decision-title", "…")
            else:
                self.say("#decision-title", f"{seat_label(self.table.seats, cur)} is thinking…")
            decision.set_items([])
            self._show_watch()
        self._bot_line()
        self._close_filter(refocus=False)
        self.fit_side(decision.shown_count)

    def _bot_line(self) -> None:
        """While a bot plays this seat, the status line says so (one row at every size, 80 columns
        included); a move chosen here takes the seat back too."""
        shown = self.bot_plays()
        if shown:
            self.say("#status", self.bot_plays_line())
        if shown != self._bot_shown:
            self._bot_shown = shown
            self.refresh_bindings()  # the take-back key shows only now

    def _show_standings(self, view: S) -> None:
        """The standings line, broken between its items onto a second row (or more)
        where it is wider than the screen: every seat's score stays on the table."""
        line = self._standings(view)
        standings = self.query_one("#standings", Static)
        rows = break_row(Text(line), max(20, self.size.width - 2)) if line else []
        text = "\n".join(r.plain for r in rows)
        height = max(1, len(rows))
        grows = standings.styles.height is None or standings.styles.height.value != height
        if grows:
            standings.styles.height = height
        if standings.content != text or grows:
            standings.update(text, layout=grows)
        if grows:
            self.refresh(layout=True)  # the rows under it move: lay the screen out again
        if standings.display != bool(line):
            standings.display = bool(line)  # a game without standings keeps the row for its board

    ONE_ROW: ClassVar[frozenset[str]] = frozenset({"#status", "#standings"})
    """Text lines whose height only the frame changes (the title's and the standings' rows),
    so a new text costs no relayout (see themes/table.tcss)."""

    def say(self, selector: str, text: str) -> Static:
        """Put `text` in a text line of the frame, only if it says something else now:
        an update costs a repaint, and a relayout of the whole screen unless the line
        is one row high whatever it says."""
        box = self.query_one(selector, Static)
        if selector == "#status":  # a title longer than the screen goes on a second row, never cut
            self._status_said = text
            rows = break_row(Text(text), max(20, self.size.width - 2))
            text = "\n".join(r.plain for r in rows)
            if box.styles.height is None or box.styles.height.value != len(rows):
                box.styles.height = len(rows)
                box.update(text, layout=True)
                return box
        if box.content != text:
            box.update(text, layout=selector not in self.ONE_ROW)
        return box

    def _standings(self, view: S) -> str:
        return with_names(
            self.guard.call("", self.words.standings, view, self.viewer), [s.name for s in self.table.seats]
        )

    def make_safe(self, view: S, items: list[Item[A | C]], pre: int | None) -> tuple[list[Item[A | C]], int]:
        """Give the done action its fixed key and pre-select the game's choice only if it is
        safe, else the first safe one; -1 (nothing highlighted) when none is (order.py)."""
        done = [self._try(self.words.is_done, view, item.value) for item in items]
        costly = [self._try(self.is_costly, view, item.value) for item in items]
        done_ok = bool(self.guard.call(False, self.words.done_is_default, view))
        return safe_order(items, pre, done, costly, done_ok=done_ok)

    def _try(self, hook: Callable[[S, A | C], object], view: S, value: A | C) -> bool:
        return bool(self.guard.call(False, hook, view, value))  # a hook that fails says no

    def answer_alone(self, view: S, legal: list[A]) -> bool:
        """Answer a question nobody needs to be asked; True when it did (the move is on its way).

        A question is painted from the drive worker as it finishes, so the worker may still
        be running: the answer then waits for it (:meth:`_answer`), it is not declined
        (declining left Crown's one-card bait question on screen at every cast, issue 45)."""
        ply = self.table.state.ply
        if ply == self._auto_ply or self._answering or self.bot_plays():
            # (While a bot plays this seat it answers; an answer made here would take the seat back
            # for a person who is not there.)
            return False
        action, why = self.alone_answer(view, legal)
        if action is None:
            return False
        self._auto_ply = ply
        self.log_entry("note", f"({why}) {self.label_of(view, action)}")
        self._answering = True  # busy until the answer is in: no key may slip in between
        self.call_later(self._answer, action, ply)
        return True

    def alone_answer(self, view: S, legal: list[A]) -> tuple[A | C | None, str]:
        """The answer to give without asking, and why in a few words ((None, "") to ask).

        One legal answer (unless Settings turn this off, it is the done action, or it
        reveals something), or a repeated question answered with "!" earlier. A game
        adds its own (Crown: a bait that fits one card)."""
        key = self._try_key(view)
        if key is not None and key in self._always:
            action = next((a for a in legal if str(a) == self._always[key]), None)
            if action is not None:
                return action, "as you asked this game"
        if len(legal) == 1 and self.auto_single:
            only = legal[0]
            if not self._try(self.words.is_done, view, only) and not self._try(self.words.reveals, view, only):
                return only, "the only choice"
        return None, ""

    def _answer(self, action: A | C, ply: int) -> None:
        self._answering = False
        if self.table.state.ply != ply or not self.my_turn() or not self.is_mounted or self.bot_plays():
            return
        if self.busy:
            # The worker that painted this question is still finishing: answer just after it.
            self._answering = True
            self.set_timer(0.02, lambda: self._answer(action, ply))
            return
        self.choose(action)

    def _try_key(self, view: S) -> str | None:
        return self.guard.call(None, self.words.repeat_key, view)

    @property
    def auto_single(self) -> bool:
        return self.cw.settings.auto_single

    def fit_side(self, rows: int) -> None:
        """Below 120 columns the choices and the short log share a strip under the board:
        it grows with a long list (up to half the screen) so more choices show (order.py)."""
        want = side_height(self.size, rows, self.panel_open()) if self.is_mounted else None
        if want != self._side_height:  # a new height costs a relayout: only when it changes
            self._side_height = want
            self.query_one("#side").styles.height = want

    def panel_open(self) -> bool:
        """A panel (a hint, a look-up; a Learn table's lesson) shares the strip with the choices."""
        return self.hints.active or self.look.active

    def on_resize(self, event: events.Resize) -> None:
        if self.is_mounted:
            self.fit_side(self.query_one("#decision", ChoiceList).shown_count)
            if self._drawable():
                self._show_standings(self.current_view())
                self.say("#status", self._status_said)  # broken again for the new width

    def _show_preview(self, view: S | None = None) -> None:
        decision = self.query_one("#decision", ChoiceList)
        text = ""
        value = decision.highlighted_value
        if value is not None and self.my_turn():
            text = self.guard.call("", self.preview, view or self.current_view(), value)  # a courtesy
        box = self.say("#decision-preview", text)
        if box.display != bool(text):
            box.display = bool(text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "decision":
            self._show_preview()

    # ---- the log (written by TableLog, logwriter.py) ------------------------------
    @property
    def logbook(self) -> LogBook:
        return self.log_writer.book

    def log_entry(self, kind: Kind, text: str, who: str = "", clock: Clock | None = None) -> LogEntry:
        return self.log_writer.entry(kind, text, who, clock)

    def record_applied(self, before: S | None, after: S, seat: int, notation: str) -> None:
        self.log_writer.record_applied(before, after, seat, notation)

    def rebuild_log(self) -> None:
        """Write the log again from the record (Resume, Undo), from the view the live log uses."""
        self.log_writer.rebuild(self.log_seat, self.as_view)

    def flush_chance(self, *, live: bool = True) -> None:
        self.log_writer.flush_chance(live=live)

    def since_your_turn(self) -> None:
        self.log_writer.since_your_turn(self.viewer)

    # (the LogSink the writer shows its entries through)
    def log_live(self) -> bool:
        return self._composed

    def show_log_entry(self, entry: LogEntry) -> None:
        # (query, not query_one: a worker's step may land while the screen is being taken down)
        for log in self.query("#log").results(GameLog):
            log.show_entry(entry)
        for pane in self.query("#log-pane").results(LogPane):
            pane.show_entry(entry)

    def show_log(self, entries: list[LogEntry]) -> None:
        for log in self.query("#log").results(GameLog):
            log.show_all(entries)
        for pane in self.query("#log-pane").results(LogPane):
            pane.show_all(entries)

    def _on_event(self, event: Applied | GameOver | Undone) -> None:
        if not self.is_mounted or self not in self.app.screen_stack:
            return  # (left: a LAN table's steps keep coming until the screen is gone)
        if isinstance(event, Undone):
            return  # the undoing screen rebuilds the log itself
        if isinstance(event, GameOver):
            self.log_writer.game_over(event.outcome)
            return
        # A LAN table says which view the step was made from (steps may come in a burst);
        # a local table applies one step per drive, from the view taken just before it.
        exact = self.table.before_step
        before = self.as_view(exact) if exact is not None else self._describe_view
        self.record_applied(before, self.seen_by(self.log_seat), event.seat, event.action)
        if event.seat == self.viewer and self.bot_plays() and not self.busy:
            self.drive()  # the bot moved for this seat: nobody's keys made it, so the screen follows on its own

    # ---- acting ------------------------------------------------------------
    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if event.choice_list.id != "decision":
            return
        event.stop()
        if not event.stale:
            self.choose(event.value)

    def choose(self, action: A | C) -> None:
        """Play `action`. A screen with its own commands (C) handles them before this."""
        if not self.my_turn() or self.busy:
            return
        if not isinstance(action, Action):
            self.notify(f"{action!r} is not a move of this game", severity="error")
            return
        self.hints.drop()  # a move made while a hint thinks: the hint is for a position gone
        if self._auto_ply != self.table.state.ply:  # (an answer the table gave keeps the marks in view)
            self.last_move.acted(self.query_one("#board", BoardView))
        self._describe_view = self.seen_by(self.log_seat)
        try:
            self.table.submit(action)
        except IllegalAction as e:
            self.notify(str(e), severity="error")
            return
        self.drive()  # repaints when it stops

    @property
    def busy(self) -> bool:
        if self._answering:
            return True
        return any(w.name == "drive" and w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in self.workers)

    def drive(self) -> None:
        # Pass the function, not a coroutine: an exclusive worker that replaces one
        # before it starts would otherwise leave a coroutine that is never awaited.
        worker: Worker[None] = self.run_worker(self.driver.run, name="drive", group="drive", exclusive=True)
        del worker  # named only so mypy infers the worker's result type (None)

    # (the Stage the driver plays for)
    def before_step(self) -> None:
        self._describe_view = self.seen_by(self.log_seat)
        self._step_at = time.monotonic()  # the bar under the list times the decision from here

    def pace(self) -> float:
        return self.cw.bot_delay

    def on_screen(self) -> bool:
        return self in self.app.screen_stack

    def _drawable(self) -> bool:
        """Whether the frame's rows are there to draw on: a worker can go on after the person
        left the table, or while the screen is being taken down (its rows already gone)."""
        # `_composed`, not only is_mounted: on_mount's first draw comes before is_mounted is set,
        # and a seat whose opponent moves first would see no board until that move.
        return (self.is_mounted or self._composed) and not self._finished and bool(self.query("#status"))

    def show_waiting(self, seat: int) -> None:
        """A bot (or a remote player) is thinking: say who, in the decision title and status."""
        if not self._drawable():
            return
        who = seat_label(self.table.seats, seat)
        self.driver.waiting_on(seat)
        self.last_move.others_start(self.query_one("#board", BoardView))
        self.say("#decision-title", f"{who} is thinking…")
        self.say("#status", self.status_line(self.current_view(), f"{self.table.game.title} — {who} is thinking…"))
        self.query_one("#decision", ChoiceList).set_items([])
        self._show_watch()
        self._bot_line()

    def _show_watch(self) -> None:
        """Under the empty list while a bot (or a remote player) thinks: its moves so far this
        turn and, for a search bot, a bar of the decision it is on (botwatch.py)."""
        seat, _ = self.driver.thought_for()
        if seat < 0 or self.my_turn() or not self._drawable():
            return
        who = seat_label(self.table.seats, seat)
        level = self.table.seats[seat].bot if self.table.seats[seat].kind is SeatKind.BOT else None
        text = watching(who, level, self.logbook.entries, time.monotonic() - self._step_at)
        box = self.say("#decision-preview", text)
        box.display = True

    def _tick_countdown(self) -> None:
        """Once a second at a LAN table with a clock: the title's countdown, and the hand-over key shown
        exactly while another seat is out of time."""
        if not self._drawable():
            return
        if self.table.countdown() and not self.bot_plays():
            view = self.current_view()
            self.say("#status", self.status_line(view, self.words.status(view, self.viewer)))
        can = self.table.can_hand_over
        if can != getattr(self, "_hand_shown", False):
            self._hand_shown = can
            self.refresh_bindings()

    def _tick_thinking(self) -> None:
        """Once a second while a bot (or a remote player) is still on the same move:
        how long it has been, so a slow search never looks like a frozen table."""
        if self.bot_plays() != self._bot_shown and self._drawable():
            self.refresh_view()  # the turn timer ran out (or the seat was taken back)
        self._tick_countdown()
        seat, took = self.driver.thought_for()
        if seat < 0 or not self.busy:
            return
        if took >= 2:
            who = seat_label(self.table.seats, seat)
            self.say("#decision-title", f"{who} is thinking… {took} s")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "drive" and event.state is WorkerState.ERROR:
            if isinstance(event.worker.error, ThinkingStopped):
                return  # the table is closing; nothing was lost
            self.notify(f"The game stopped: {event.worker.error}", severity="error", timeout=30)

    def after_drive(self) -> None:
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

        def ready(_: object) -> None:
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
        if t.save_path is not None and t.record is not None:
            records.save(t.record, records_dir() / Path(t.save_path).name)
            t.delete_save()
        self.app.switch_screen(self.end_screen())

    def end_screen(self) -> ScoreScreen:
        """The screen the finished game goes on to: the score sheet of its final scores.
        A game with its own scores (Aquatica's names and notes) or a lesson game (its
        closing lesson) makes it here, so :meth:`finish` stays one piece."""
        from coldwater.tui.screens.score import ScoreScreen

        t = self.table
        return ScoreScreen(t.game.title, t.state.scores(), [s.name for s in t.seats])

    # ---- keys --------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        """Nobody at this screen plays a seat (watching a LAN table)."""
        return not self.table.person_seats()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("done", "dont_ask", "filter", "hint") and self.read_only:
            return False  # a watcher has no choices to make
        if action == "look_move":
            return self.look.active  # ↑ ↓ are the choice list's unless the cursor is out
        if action == "undo":
            return self.can_undo_here  # not shown at all at a LAN table
        if action == "take_back":
            return self.bot_plays()  # shown only while a bot plays this seat
        if action == "hand_over":
            return self.table.can_hand_over  # another seat out of time (LAN)
        if action == "done":
            return True if self._done_action() is not None else None  # shown, dimmed, when not now
        return True

    @property
    def can_undo_here(self) -> bool:
        return self.table.can_undo

    def action_look(self) -> None:
        """Put a cursor on the board and say what is under it (look.py)."""
        self.look.toggle()

    def action_look_move(self, delta: int) -> None:
        self.look.move(delta)

    def action_pause(self) -> None:
        if self.look.active:  # Esc puts the look-up cursor away
            self.look.close()
            return
        if self.hints.active:  # Esc stops a hint's thinking, or closes it
            self.hints.drop()
            return
        if self.query_one("#decision-filter").display:
            self._close_filter()
            return
        if self.pane:
            self.action_pane(self.pane)
            return
        from coldwater.tui.screens.pause import PauseScreen

        def chosen(what: str | None) -> None:
            if what == "leave":
                self.app.pop_screen()
            elif what == "rules":
                from coldwater.tui.screens.rules import RulesScreen

                self.app.push_screen(RulesScreen(self.table.game.name))
            elif what == "quit":
                self.app.exit()

        self.app.push_screen(PauseScreen(self.content_note(), lan=self.lan_role()), chosen)

    def lan_role(self) -> str:
        """Whose LAN table this is: "host" / "host-failover", "seat" or "watcher" ("" at a local table)."""
        return self.table.lan_role

    def _scroller(self) -> Widget:
        if self.pane == "log":
            return self.query_one("#log-pane", LogPane)
        if self.pane and self.pane != "board":
            return self.query_one(f"#pane-{self.pane}", VerticalScroll)
        return self.query_one("#board-scroll", VerticalScroll)

    def action_board_down(self) -> None:
        self._scroller().scroll_page_down()

    def action_board_up(self) -> None:
        self._scroller().scroll_page_up()

    def action_pane(self, pane_id: str) -> None:
        """Open pane `pane_id` full-screen, or close it if it is open (back to the table)."""
        known = {"board", "log"} | {p.id for p in self.PANES}
        if pane_id not in known:
            return
        self.pane = "" if self.pane == pane_id else pane_id
        self._close_filter(refocus=False)
        main = self.query_one("#table-main")
        side = self.query_one("#side")
        main.display = self.pane in ("", "board")
        side.display = self.pane == ""
        self.query_one("#log-pane").display = self.pane == "log"
        for pane in self.PANES:
            self.query_one(f"#pane-{pane.id}").display = self.pane == pane.id
        self.set_class(self.pane == "board", "-pane-board")
        board = self.query_one("#board-scroll")
        board.can_focus = self.pane == "board"
        if self.pane == "board":
            board.focus()
            board.scroll_home(animate=False, immediate=True)  # the whole board opens at its top
        elif self.pane == "log":
            self.query_one("#log-pane", LogPane).catch_up()
            self.query_one("#log-pane").focus()
            # At once, from the size it had when last shown: a scroll after the repaint would repaint it all again.
            self.query_one("#log-pane", LogPane).scroll_end(animate=False, immediate=True)
        elif self.pane:
            self.update_pane(self.pane, self.current_view())
            self.query_one(f"#pane-{self.pane}").focus()
        else:
            self.query_one("#decision", ChoiceList).focus()

    def action_cycle(self) -> None:
        self.query_one("#decision", ChoiceList).focus()

    def action_choose(self) -> None:
        self.query_one("#decision", ChoiceList).action_select()

    def _done_action(self) -> A | C | None:
        if not self.my_turn():
            return None
        decision = self.query_one("#decision", ChoiceList)
        if decision.has_key(keymap.DONE_KEY):
            done: A | C = decision.value_for_key(keymap.DONE_KEY)  # the list holds this screen's choices
            return done
        return None

    def action_hand_over(self) -> None:
        """Hand the seat to move, out of time, to a bot (a LAN table with a normal clock)."""
        why = self.table.hand_over()
        self.notify(why or "Asked: the seat out of time goes to a bot.", timeout=5)

    def action_hint(self) -> None:
        """The hard bot's best few choices here, with what each gains (hints.py)."""
        self.hints.ask()

    def action_take_back(self) -> None:
        """Take this seat back from the bot that plays it since its turn timer ran out."""
        if self.table.take_back():
            self.notify("Your seat is yours again: the next move is yours to make.", timeout=5)
        self.refresh_view()

    def action_done(self) -> None:
        """End the turn / pass / done: the same key on every turn of every game."""
        action = self._done_action()
        if action is None:
            self.notify("Nothing to end or pass right now.", timeout=3)
            return
        self.choose(action)

    def action_dont_ask(self) -> None:
        """Choose the highlighted answer and give it again whenever this question returns."""
        if not self.my_turn():
            return
        view = self.current_view()
        key = self._try_key(view)
        value = self.query_one("#decision", ChoiceList).highlighted_value
        if key is None:
            self.notify("This question is not one that repeats.", timeout=3)
            return
        if value is None:
            self.notify("Highlight the answer to give every time (↑ ↓), then press ! again.", timeout=4)
            return
        why = self.guard.call("", self.words.not_always, view, value)
        if why:
            self.notify(why, timeout=5)
            return
        self._always[key] = str(value)
        said = self.guard.call(self.label_of(view, value), self.words.always_label, view, value, self.viewer)
        self.log_entry("note", f"(from now on this game: {said})")
        self.choose(value)

    def action_filter(self) -> None:
        if not self.my_turn() or self.pane:
            return
        box = self.query_one("#decision-filter", Input)
        box.display = True
        box.can_focus = True
        box.value = ""
        box.focus()

    def _close_filter(self, *, refocus: bool = True) -> None:
        box = self.query_one("#decision-filter", Input)
        if not box.display:
            return
        box.display = False
        box.can_focus = False
        decision = self.query_one("#decision", ChoiceList)
        if decision.filter_text:
            decision.set_filter("")
        if refocus:
            decision.focus()

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "decision-filter":
            event.stop()
            self.query_one("#decision", ChoiceList).set_filter(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "decision-filter":
            event.stop()
            decision = self.query_one("#decision", ChoiceList)
            value = decision.highlighted_value
            if value is not None:
                self.choose(value)

    def on_key(self, event: events.Key) -> None:
        box = self.query_one("#decision-filter", Input)
        decision = self.query_one("#decision", ChoiceList)
        if self.focused is box and event.key in ("up", "down"):
            # ↑ ↓ in the filter box move through the filtered list.
            event.stop()
            (decision.action_cursor_up if event.key == "up" else decision.action_cursor_down)()
            return
        if not self.pane and self.focused is None and event.key in ("up", "down", "home", "end"):
            # Nothing has the keyboard (a click on the board, a screen on top that closed):
            # the arrows still go through the choices, as they do when the list has focus.
            event.stop()
            decision.focus()
            {"up": decision.action_cursor_up, "down": decision.action_cursor_down}.get(
                event.key, decision.action_first if event.key == "home" else decision.action_last
            )()
            return
        # A choice key that reached the screen, not the list: typed just as a pane closed,
        # before focus came back to the list. The table is showing, so it means that choice.
        char = event.character
        if not self.pane and self.focused is not box and char and char.isprintable() and decision.has_key(char):
            event.stop()
            decision.choose_key(char)

    def action_undo(self) -> None:
        """Take back this person's last decision (solo and hotseat only)."""
        if not self.table.can_undo:
            return
        if self.busy or not self.my_turn():
            self.notify("You can undo on your own turn.", timeout=3)
            return
        try:
            self.table.undo()
        except IllegalAction as e:
            self.notify(str(e), severity="warning", timeout=5)
            return
        self._auto_ply = self.table.state.ply  # do not answer the question we just went back to
        self.log_writer.summary_ply = self.table.state.ply
        self.rebuild_log()
        self.log_entry("note", "(undone)")
        self.refresh_view()
