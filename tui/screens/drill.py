"""The drill: your own labelled mistakes, one at a time, at the position before each (issue 48 item 5).

From the Review screen (**x**: the game just reviewed), the end screen (**x**: reviews the seat
played here, then drills) and the menu (**x**: the labelled mistakes of recently reviewed
games, :mod:`coldwater.tui.drillstore`). Each position is shown from the seat's view with
its legal choices; choose one:

- the better choice the review found passes, and the choice made in the game is refused
  (the review confirmed it worse, beyond its noise);
- any other choice is judged by the evaluator (``core.review.hint`` with it included, in a
  thread): it passes when it is the evaluator's first or "about as good" (within two
  standard errors of it);
- refused: **t** tries again, **s** shows the solution (and why), **n** skips on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgspec
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static

from coldwater.core import games
from coldwater.core.grading import Moves
from coldwater.core.record import GameRecord, initial_state, replay_iter
from coldwater.core.review import SeatReview, hint
from coldwater.core.state import Game, State
from coldwater.tui import keymap
from coldwater.tui.drillstore import DrillGame, Mistake, mistakes_of
from coldwater.tui.games.words import TableWords
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.table import with_names
from coldwater.tui.widgets.board import BoardView
from coldwater.tui.widgets.choices import ChoiceList, Item


class DrillItem(msgspec.Struct, frozen=True):
    """One mistake to drill: the position (the seat's view) and the review's figures."""

    game: str
    seat: int
    names: tuple[str, ...]
    view: Any
    """``State.view(seat)`` before the mistake (a State)."""
    mistake: Mistake
    where: str
    """'round 2, turn 3, move 17'."""


def _names(rec: GameRecord) -> tuple[str, ...]:
    given = [n.strip() for n in rec.meta.get("seats", "").split(",")] if rec.meta.get("seats") else []
    return tuple(given[i] if i < len(given) and given[i] else f"Seat {i + 1}" for i in range(rec.players))


def items_for(rec: GameRecord, game: Game[Any, Any], seat: int, mistakes: tuple[Mistake, ...]) -> list[DrillItem]:
    """Each mistake at the position before it, from `seat`'s view (one replay of the record)."""
    want = {m.ply: m for m in mistakes}
    moves = Moves(rec)
    out: list[DrillItem] = []
    _, state = initial_state(rec, game)
    names = _names(rec)
    if 0 in want:
        out.append(_item(game, seat, names, state, want[0], moves))
    for i, _, after in replay_iter(rec, game):
        if i in want:
            out.append(_item(game, seat, names, after, want[i], moves))
        if len(out) == len(want):
            break
    return out


def _item(
    game: Game[Any, Any], seat: int, names: tuple[str, ...], st: State[Any, Any], m: Mistake, moves: Moves
) -> DrillItem:
    return DrillItem(game.name, seat, names, st.view(seat), m, moves.where(m.round, m.turn, m.ply))


def drill_items(rec: GameRecord, game: Game[Any, Any], r: SeatReview) -> list[DrillItem]:
    """The labelled mistakes of a reviewed seat, ready to drill."""
    return items_for(rec, game, r.seat, mistakes_of(r))


def recent_items(kept: list[DrillGame]) -> list[DrillItem]:
    """Every kept game's mistakes, newest game first (a game this build cannot load is left out)."""
    out: list[DrillItem] = []
    for g in kept:
        try:
            game = games.get(g.record.game)
            out += items_for(g.record, game, g.seat, g.mistakes)
        except Exception:  # a record of another version or content: skipped, the rest drill
            continue
    return out


PASS = "pass"
FAIL = "fail"


def judge(item: DrillItem, choice: str) -> tuple[str, str]:
    """(PASS or FAIL, the sentence that says why), for `choice` (notation) at `item`'s position.

    Runs the evaluator for a choice that is neither the review's better one nor the mistake."""
    m = item.mistake
    unit = games.get(item.game).unit
    if choice == m.best:
        return PASS, "Right: that is the evaluator's own choice here."
    if choice == m.chosen:
        return FAIL, (
            f"That is the choice made in the game: ~{m.loss:.1f} ± {m.loss_se:.1f} {unit} less than the best."
        )
    game = games.get(item.game)
    h = hint(game, item.view, include=game.parse_action(choice), seed="drill")
    mine = next((c for c in h.choices if c.action == choice), None)
    if mine is None:
        return FAIL, "The evaluator could not weigh that choice."
    if mine is h.choices[0] or mine.close:
        return PASS, "Good: as good as the best the evaluator found, within its noise."
    return FAIL, f"Not as good: ~{mine.behind:.1f} ± {mine.error:.1f} {unit} less than the best."


class DrillScreen(BaseScreen):
    BINDINGS = keymap.bindings("back", "drill")
    HELP = """\
**Drill.** Your own labelled mistakes, one at a time, at the position before each, from
your seat's view. Choose what you would play (its key, or ↑ ↓ and Enter):

- the better choice, or one the evaluator rates as good within its noise, passes;
- otherwise **t** tries again, **s** shows the solution and why, **n** skips to the next.

Esc goes back.
"""

    def __init__(
        self,
        items: list[DrillItem],
        boards: Callable[[str], type[BoardView[Any]] | None] | None = None,
        words: Callable[[str], type[TableWords[Any, Any, Any]] | None] | None = None,
    ) -> None:
        """`boards`, `words`: a game's board widget and table words by its name (a drill may cross
        games); without words the choices read as the log does."""
        super().__init__()
        self.items = items
        self.boards = boards
        self.words = words
        self.board_game = ""
        self.index = 0
        self.verdict = ""
        """PASS, FAIL, or "" while choosing."""
        self.passed = 0
        self.judging = False

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static("", id="drill-title", classes="page-title", markup=False)
            with Horizontal(id="drill-main"):
                yield VerticalScroll(id="drill-board-box", can_focus=False)
                with Vertical(id="drill-side"):
                    yield Static("", id="drill-verdict", markup=False)
                    yield ChoiceList(id="drill-choices")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#drill-choices", ChoiceList).reserved = "tsn"
        self.show()

    @property
    def item(self) -> DrillItem | None:
        return self.items[self.index] if 0 <= self.index < len(self.items) else None

    def show(self) -> None:
        title = self.query_one("#drill-title", Static)
        verdict = self.query_one("#drill-verdict", Static)
        lst = self.query_one("#drill-choices", ChoiceList)
        it = self.item
        if it is None:
            title.update("Drill · done")
            verdict.update(f"Drill done: {self.passed} of {len(self.items)} passed. Esc goes back.")
            lst.display = False
            return
        names = list(it.names)
        title.update(
            f"Drill · {self.index + 1} of {len(self.items)} · {it.mistake.label.capitalize()} · {it.where} · "
            f"{names[it.seat]} to choose"
        )
        self._board(it, names)
        view = it.view
        label = self.labeller(it, names)
        items: list[Item[str]] = [Item(label(a), str(a)) for a in view.legal()]
        lst.set_items(items)
        lst.display = True
        lst.focus()
        self.verdict = ""
        verdict.update("What would you play here?")

    def labeller(self, it: DrillItem, names: list[str]) -> Callable[[Any], str]:
        """A choice at `it` as the table words it for the seat choosing ("Port [1]: one Port action"),
        not as the log tells it ("random places a 1 …"); the log's words where the table's fail.
        The game's words are made once for the position, not once a choice."""
        cls = self.words(it.game) if self.words is not None else None
        try:
            words = cls(games.get(it.game), names) if cls is not None else None
        except Exception:  # words that cannot be made: the log's words, never a crash
            words = None

        def label(action: Any) -> str:
            if words is not None:
                try:
                    return with_names(words.label(it.view, action, it.seat), names)
                except Exception:  # a wording bug never hides a legal choice
                    pass
            return with_names(it.view.describe(action), names)

        return label

    def _board(self, it: DrillItem, names: list[str]) -> None:
        """The position on its game's board (a new board when the drill moves to another game)."""
        box = self.query_one("#drill-board-box", VerticalScroll)
        if it.game != self.board_game:
            box.remove_children()
            cls = self.boards(it.game) if self.boards is not None else None
            if cls is not None:
                box.mount(cls(games.get(it.game), id="drill-board"))
            self.board_game = it.game
        for board in box.query("#drill-board").results(BoardView):
            board.show(it.view, names, it.seat)

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        if self.item is None or self.judging or not isinstance(event.value, str):
            return
        self.judging = True
        self.query_one("#drill-verdict", Static).update("Weighing your choice…")
        self.run_worker(self._judge(self.item, event.value), exclusive=True, exit_on_error=False)

    async def _judge(self, it: DrillItem, choice: str) -> None:
        try:
            verdict, why = await asyncio.to_thread(judge, it, choice)
        except Exception as e:  # said, never a crash
            verdict, why = FAIL, f"Could not judge that choice: {e}"
        finally:
            self.judging = False
        if it is not self.item:
            return
        self.verdict = verdict
        lst = self.query_one("#drill-choices", ChoiceList)
        if verdict == PASS:
            self.passed += 1
            self.query_one("#drill-verdict", Static).update(f"{why}\nn: next")
        else:
            self.query_one("#drill-verdict", Static).update(f"{why}\nt: try again · s: see the solution · n: skip")
        lst.display = False

    def action_again(self) -> None:
        if self.verdict == FAIL:
            self.show()

    def action_solution(self) -> None:
        it = self.item
        if it is None or self.verdict != FAIL:
            return
        best = self.labeller(it, list(it.names))(games.get(it.game).parse_action(it.mistake.best))
        why = f"\n{it.mistake.why}" if it.mistake.why else ""
        self.query_one("#drill-verdict", Static).update(f"The solution: {best}.{why}\nn: next · t: try again")

    def action_skip(self) -> None:
        if self.item is None or self.judging:
            return
        self.index += 1
        self.show()
