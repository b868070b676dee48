"""The table screen: the board, the current decision and the log — the frame
shared by every game, played through the core contract.

It is given the game's words (``WORDS``, pure; ``tui/games/<game>/words.py``) and
board widget (``BOARD``); a game's own screen names them and adds only what a
screen does (panes, the board's form, a question of its own while a cursor is out;
docs/tui.md, "Table screen hooks"). Here is what Textual dispatches to the screen
(``action_*``, ``on_*``, ``check_action``, ``compose``) and the flow they share: the
question asked, a move made, hand-over, the end. The words on screen are reactives
(``status_text``, ``standings_text``, ``prompt_text``, ``preview_text``) bound to
the rows that show them. The parts beside it each own their state (see
``__init__.py``).

Secrets: everything drawn comes from ``table.view(seat)`` for the person who is
looking: in solo the one local person, in hotseat the person whose turn it is
(a hand-over screen stands between two people). The log is written from the
same view in solo and from the public view in hotseat, so an old line never
shows one player's secret to the next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.reactive import var
from textual.widgets import OptionList, Static
from textual.worker import Worker, WorkerState

from coldwater.core.errors import IllegalAction
from coldwater.core.notation import Action
from coldwater.core.state import CHANCE, State
from coldwater.net.play.table import Applied, GameOver, Table, Undone, seat_label
from coldwater.net.play.tablelike import TableLike
from coldwater.tui import keymap
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.thinking import ThinkingStopped
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, FilterBox, Item
from coldwater.tui.widgets.footer import SteadyFooter
from coldwater.tui.widgets.hint import HintPanel
from coldwater.tui.widgets.log import GameLog, LogPane
from coldwater.tui.widgets.rows import TextLine

if TYPE_CHECKING:
    from coldwater.tui.screens.score import ScoreScreen

from .answers import Answers, Asking
from .driver import Driver
from .guard import HookGuard
from .helptext import TABLE_HELP
from .hints import TableHints
from .lastmove import LastMove
from .logwriter import LogWidgets, TableLog, with_names
from .look import Look, LookPanel
from .order import side_height
from .panes import Pane, Panes
from .status import Status
from .turns import Turns

S = TypeVar("S", bound=State[Any, Any])
"""The game's State subclass (``<Game>State``): every view a hook is given."""
A = TypeVar("A", bound=Action)
"""The game's action type (``<Game>Action``): every action a hook is given."""
C = TypeVar("C")
"""The screen's own choices that are not actions (a "place a tile"
opens a cursor before any action is chosen); ``Never`` for a screen without."""

__all__ = ["Pane", "TableScreen"]


class TableScreen(BaseScreen, Generic[S, A, C]):
    """The frame, generic in the game's State and action types.

    A game's screen names them (``<Game>TableScreen(TableScreen[<Game>State,
    <Game>Action, Never])``), so mypy checks every hook it overrides against its
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
    HELP: ClassVar[str] = TABLE_HELP

    AUTO_FOCUS = "#decision"
    """The choice list has the keyboard when the table (re)appears, never the hidden filter box."""

    PANES: ClassVar[tuple[Pane, ...]] = ()
    """The game's own full-screen panes, in key order (F4, F5, F6); see :meth:`compose_pane`."""

    WORDS: ClassVar[type[TableWords[Any, Any, Any]]] = TableWords
    """The game's words (a pure TableWords subclass in ``tui/games/<game>/words.py``)."""

    BOARD: ClassVar[type[BoardView[Any]]] = BoardView
    """The game's board widget; the replay screen draws positions with it too."""

    OWN_CONTENT: ClassVar[bool] = False
    """The new-game form offers *Card data* (``game.with_content``) for this game:
    only where the screen draws every card from the loaded content."""

    status_text: var[str] = var("")
    """The title line: whose turn, the round and turn, a LAN clock (or that a bot plays this seat)."""
    standings_text: var[str] = var("")
    """The one-line standings under it ("" for none: the row goes)."""
    prompt_text: var[str] = var("")
    """The question above the list, or who is thinking."""
    preview_text: var[str] = var("")
    """Under the list: what the highlighted choice will do, or a thinking bot's turn so far."""

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
        self._composed = False
        """The rows are there to draw on (set in on_mount, before Textual's is_mounted)."""
        self.guard = HookGuard(table.game.name, strict=lambda: self.cw.strict)
        """Runs this game's hooks: a failure is logged and the frame's fallback shown, or, in an
        app made ``strict`` (the tests), raised (guard.py)."""
        self.words: TableWords[S, A, C] = self.WORDS(table.game, self.names)
        """The game's words, pure (words.py); made from the screen's WORDS and the table."""
        self.log_writer: TableLog[S, A] = TableLog(
            table, self.words, self.guard, LogWidgets(self, lambda: self._composed)
        )
        self.pane = ""
        """The open full-screen pane ("" for the table itself; panes.py)."""
        self._side_height: int | None = -1
        self.decision = ChoiceList(id="decision")
        """The choices (widgets/choices.py)."""
        self.filter_box = FilterBox(self.decision, placeholder="filter the choices (Esc: clear)", id="decision-filter")
        self.turns = Turns(self)
        """The stage the driver plays for; hand-over and the end (turns.py)."""
        self.driver = Driver(table, self.turns)
        """Plays chance, bots and remote seats in the "drive" worker (driver.py)."""
        self.hints = TableHints(self)
        """The hint panel's flow (``h``; hints.py)."""
        self.look = Look(self)
        """The look-up cursor on the board (F7; look.py)."""
        self.last_move = LastMove()
        """What the others changed since this person acted, marked on the board (lastmove.py)."""
        self.answers: Answers[S, A, C] = Answers(self)
        """Questions the table answers itself, and the "!" answers (answers.py)."""
        self.status = Status(self)
        """The title line, and the table while others play (status.py)."""
        self.panes = Panes(self)
        """The full-screen panes (panes.py)."""

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.table.seats]

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

    @property
    def board(self) -> BoardView[S]:
        return self.query_one("#board", BoardView)

    def update_board(self, view: S) -> None:
        self.board.show(view, self.names, self.viewer)

    def compose_pane(self, pane_id: str) -> ComposeResult:
        """The widgets of one of the game's :attr:`PANES` (inside ``#pane-<id>``, which scrolls)."""
        yield Static(id=f"pane-{pane_id}-body")

    def update_pane(self, pane_id: str, view: S) -> None:
        """Redraw pane `pane_id` from `view`; called when it opens and on each repaint while open."""

    # ---- hooks for the decision; every other word comes from `self.words` ------------------
    def choice_items(self, view: S, legal: list[A]) -> tuple[list[Item[A | C]], int | None]:
        """The list's items (grouped) and the game's preferred highlight; the frame then makes
        the highlight safe and gives the done action its fixed key."""
        choices, pre = self.words.choice_items(view, legal, self.label_of)
        return [Item(c.label, c.value, group=c.group) for c in choices], pre

    def decision_words(self) -> Asking[S, A | C]:
        """Who puts the question (prompt, step note, costly, preview): the game's words, unless
        the screen's own state changes the question (a grid cursor)."""
        return self.words

    def own_answer(self, view: S, legal: list[A]) -> tuple[A | C | None, str]:
        """A game's own question nobody needs to be asked, and why ((None, "") to ask; answers.py)."""
        return None, ""

    def label_of(self, view: S, action: A | C) -> str:
        """The words' label through the guard (their plain label, then the notation, if it
        fails): what the list shows, so a wording bug never hides a legal choice."""
        return self.guard.either(
            self.words.label,
            lambda view, action, viewer: self.guard.call(str(action), self.words.plain_label, view, action),
            view,
            action,
            self.viewer,
        )

    # ---- layout ------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield TextLine(broken=True, id="status").data_bind(text=TableScreen.status_text)
        yield TextLine(broken=True, hide_empty=True, id="standings").data_bind(text=TableScreen.standings_text)
        with Horizontal(id="table-main"):
            with VerticalScroll(id="board-scroll", can_focus=False):
                yield from self.compose_board()
            with Container(id="side"):
                with Vertical(id="decision-box"):
                    yield TextLine(id="decision-title").data_bind(text=TableScreen.prompt_text)
                    yield self.filter_box
                    yield self.decision
                    yield TextLine(hide_empty=True, id="decision-preview").data_bind(text=TableScreen.preview_text)
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
        for hidden in ("#log-pane", "#hint-panel", "#look-panel", *(f"#pane-{p.id}" for p in self.PANES)):
            self.query_one(hidden).display = False
        if isinstance(self.table, Table):
            self.table.think_pause = self.cw.think_gate.pause_for(self)
            thinker = self.cw.thinker
            self.table.think_with(thinker)
            if thinker is not None and self.table.has_search_bot:
                thinker.warm()  # its start-up is paid now, not on the bot's first move
        for note in (self.content_note() if self.table.content is not None else "", self.table.opening_note):
            if note:  # the card data, said once up front; a watcher who came in mid-game: where its log starts
                self.log_writer.entry("note", note)
        self.log_writer.rebuild(self.log_seat, self.as_view)
        self.refresh_view()
        self.decision.focus()
        self.set_interval(1.0, self.status.tick)
        self.set_interval(0.25, self.status.show_watch)  # the search's bar, while a bot thinks
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
        return t.waiting_for_person and t.current == self.viewer and not self.turns.handing_over

    def drawable(self) -> bool:
        """Whether the frame's rows are there to draw on: a worker can go on after the person
        left the table, or while the screen is being taken down (its rows already gone)."""
        # `_composed`, not only is_mounted: on_mount's first draw comes before is_mounted is set,
        # and a seat whose opponent moves first would see no board until that move.
        return (self.is_mounted or self._composed) and not self.turns.finished and bool(self.query("#status"))

    def refresh_view(self) -> None:
        if not self.drawable():
            return
        self.log_writer.flush_chance()
        view = self.current_view()
        self.hints.follow(view)
        self.status.say(view, self.words.status(view, self.viewer))
        self.standings_text = with_names(self.guard.call("", self.words.standings, view, self.viewer), self.names)
        self.update_board(view)
        if self.pane and self.pane not in ("board", "log"):
            self.update_pane(self.pane, view)
        if self.my_turn():
            if not self.ask(view):
                return  # answered by the table: the move is on its way
        else:
            cur = self.table.current
            who = "" if cur is None or cur == CHANCE else seat_label(self.table.seats, cur)
            self.prompt_text = "Game over" if cur is None else f"{who} is thinking…" if who else "…"
            self.decision.set_items([])
            self.preview_text = ""
            self.status.show_watch()
        self.status.note_bot()
        self.filter_box.close(refocus=False)
        self.fit_side()

    def ask(self, view: S) -> bool:
        """Put the person's question (False when the table answered it itself)."""
        legal = view.legal()
        self.log_writer.since_your_turn(self.viewer)
        self.last_move.back_to_you(self.board)
        if self.answers.try_now(view, legal):
            self.prompt_text = "…"
            self.decision.set_items([])  # no key may answer the question being answered
            return False
        items, pre = self.choice_items(view, legal)
        items, pre = self.answers.make_safe(view, items, pre)
        asking = self.decision_words()
        note = asking.step_note(view)
        head = asking.prompt(view) + (f" ({note})" if note else "")
        if self.answers.repeat_key(view) is not None:
            head += "  [! = always this answer]"
        self.prompt_text = head
        self.decision.set_items(items, highlight=pre)
        self.show_preview(view)
        return True

    def fit_side(self, rows: int | None = None) -> None:
        """Below 120 columns the choices and the short log share a strip under the board:
        it grows with a long list (up to half the screen) so more choices show (order.py)."""
        rows = self.decision.shown_count if rows is None else rows
        want = side_height(self.size, rows, self.panel_open()) if self.is_mounted else None
        if want != self._side_height:  # a new height costs a relayout: only when it changes
            self._side_height = want
            self.query_one("#side").styles.height = want

    def panel_open(self) -> bool:
        """A panel (a hint, a look-up; a Learn table's lesson) shares the strip with the choices."""
        return self.hints.active or self.look.active

    def on_resize(self, event: events.Resize) -> None:
        if self.is_mounted:
            self.fit_side()

    def show_preview(self, view: S | None = None) -> None:
        value = self.decision.highlighted_value
        text = ""
        if value is not None and self.my_turn():
            ask = self.decision_words()
            text = self.guard.call("", ask.preview, view or self.current_view(), value)  # a courtesy
        self.preview_text = text

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list is self.decision:
            self.show_preview()

    def _on_event(self, event: Applied | GameOver | Undone) -> None:
        if not self.is_mounted or self not in self.app.screen_stack:
            return  # (left: a LAN table's steps keep coming until the screen is gone)
        if isinstance(event, Undone):
            return  # the undoing screen rebuilds the log itself
        if isinstance(event, GameOver):
            self.log_writer.game_over(event.outcome)
            return
        # The move is described from the position it was made on, which the event carries
        # (a LAN table's steps may come in a burst, so a view kept earlier may be stale).
        before = self.as_view(event.before.view(self.log_seat)) if event.before is not None else None
        self.log_writer.record_applied(before, self.seen_by(self.log_seat), event.seat, event.action)
        if event.seat == self.viewer and self.table.bot_plays and not self.busy:
            self.drive()  # the bot moved for this seat: nobody's keys made it, so the screen follows on its own

    # ---- acting ------------------------------------------------------------
    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if event.choice_list is not self.decision:
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
        if self.answers.ply != self.table.state.ply:  # (an answer the table gave keeps the marks in view)
            self.last_move.acted(self.board)
        try:
            self.table.submit(action)
        except IllegalAction as e:
            self.notify(str(e), severity="error")
            return
        if isinstance(self.table, Table) and self.table.waiting_for_person:
            self.turns.after_drive()  # still a person's turn here: nothing to drive, drawn in this frame
        else:
            self.drive()  # repaints when it stops

    @property
    def busy(self) -> bool:
        if self.answers.answering:
            return True
        return any(w.name == "drive" and w.state in (WorkerState.PENDING, WorkerState.RUNNING) for w in self.workers)

    def drive(self) -> None:
        # Pass the function, not a coroutine: an exclusive worker that replaces one
        # before it starts would otherwise leave a coroutine that is never awaited.
        worker: Worker[None] = self.run_worker(self.driver.run, name="drive", group="drive", exclusive=True)
        del worker  # named only so mypy infers the worker's result type (None)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "drive" and event.state is WorkerState.ERROR:
            if isinstance(event.worker.error, ThinkingStopped):
                return  # the table is closing; nothing was lost
            self.notify(f"The game stopped: {event.worker.error}", severity="error", timeout=30)

    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        if self.is_mounted and self.table.state.is_over and self.app.screen is self:
            self.turns.finish()  # the game ended while another screen was on top

    def end_screen(self) -> ScoreScreen:
        """The screen the finished game goes on to: the score sheet of its final scores.
        A game with its own scores (names and notes of its own) or a lesson game (its
        closing lesson) makes it here, so :meth:`finish` stays one piece."""
        from coldwater.tui.screens.score import ScoreScreen

        t = self.table
        return ScoreScreen(t.game.title, t.state.scores(), self.names)

    # ---- keys --------------------------------------------------------------
    @property
    def read_only(self) -> bool:
        """Nobody at this screen plays a seat (watching a LAN table)."""
        return not self.table.person_seats()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("done", "dont_ask", "filter", "hint") and self.read_only:
            return False  # a watcher has no choices to make
        shown = {
            "look_move": self.look.active,  # the arrows are the choice list's unless the cursor is out
            "look_thing": self.look.active,
            "undo": self.table.can_undo,  # not shown at all at a LAN table
            "take_back": self.table.bot_plays,  # shown only while a bot plays this seat
            "hand_over": self.table.can_hand_over,  # another seat out of time (LAN)
        }.get(action)
        if shown is not None:
            return shown
        if action == "done":
            return True if self._done_action() is not None else None  # shown, dimmed, when not now
        return True

    def action_look(self) -> None:
        """Put a cursor on the board and say what is under it (look.py)."""
        self.look.toggle()

    def action_look_move(self, delta: int) -> None:
        self.look.move(delta)

    def action_look_thing(self, delta: int) -> None:
        self.look.step(delta)

    def action_pause(self) -> None:
        if self.look.active:  # Esc puts the look-up cursor away
            self.look.close()
        elif self.hints.active:  # Esc stops a hint's thinking, or closes it
            self.hints.drop()
        elif self.pane:
            self.action_pane(self.pane)
        else:
            from coldwater.tui.screens.pause import PauseScreen

            self.app.push_screen(PauseScreen(self.content_note(), lan=self.table.lan_role), self._paused)

    def _paused(self, what: str | None) -> None:
        if what == "leave":
            self.app.pop_screen()
        elif what == "rules":
            from coldwater.tui.screens.rules import RulesScreen

            self.app.push_screen(RulesScreen(self.table.game.name))
        elif what == "quit":
            self.app.exit()

    def action_board_down(self) -> None:
        self.panes.scroller().scroll_page_down()

    def action_board_up(self) -> None:
        self.panes.scroller().scroll_page_up()

    def action_pane(self, pane_id: str) -> None:
        """Open pane `pane_id` full-screen, or close it if it is open (back to the table)."""
        self.panes.toggle(pane_id)

    def action_cycle(self) -> None:
        self.decision.focus()

    def action_choose(self) -> None:
        if not self.pane:
            self.decision.action_select()

    def _done_action(self) -> A | C | None:
        if not self.my_turn() or not self.decision.has_key(keymap.DONE_KEY):
            return None
        done: A | C = self.decision.value_for_key(keymap.DONE_KEY)  # the list holds this screen's choices
        return done

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
        if self.my_turn():
            self.answers.keep(self.current_view(), self.decision.highlighted_value)

    def action_filter(self) -> None:
        if self.my_turn() and not self.pane:
            self.filter_box.open()

    def on_key(self, event: events.Key) -> None:
        # A key the list did not get (nothing had the keyboard, or a pane just closed): the table
        # is showing, so the arrows go through the choices and a choice's key means it.
        stray = not self.pane and self.focused is not self.filter_box
        unfocused = self.focused is None
        if self.panes.scroll(event.key) or (
            stray and self.decision.stray_key(event.key, event.character, unfocused=unfocused)
        ):
            event.stop()

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
        self.answers.ply = self.table.state.ply  # do not answer the question we just went back to
        self.log_writer.summary_ply = self.table.state.ply
        self.log_writer.rebuild(self.log_seat, self.as_view)
        self.log_writer.entry("note", "(undone)")
        self.refresh_view()
