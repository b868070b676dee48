"""Review: the costliest decisions of one seat in a finished game (issue 31; docs/coach.md).

The review itself is ``core/review.py``; it runs in the bots' worker process
(``Thinker.review``), or in a thread when there is none, never on the UI thread.
This screen shows its progress (Esc cancels and goes back), then a summary and the
costliest decisions, each a key that opens the replay at that position with the
better choice shown.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker

from coldwater.core.record import GameRecord
from coldwater.core.review import DecisionReview, SeatReview
from coldwater.core.state import Game
from coldwater.net.play.thinker import review_here
from coldwater.tui import coachfigures, keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.table import with_names
from coldwater.tui.widgets.choices import ChoiceList, Item

if TYPE_CHECKING:
    from coldwater.tui.widgets.board import BoardView


def unit(game: str) -> str:
    return "PP" if game == "aquatica" else "points"


def entry_text(d: DecisionReview, names: list[str], game: str, seat: int) -> str:
    """'round 2, turn 3: Ann places a 2 on the red space. Better: places a 2 on the port space, ~9.2 points more'."""
    chosen = with_names(d.chosen_text, names)
    best = with_names(d.best_text, names)
    who = names[seat] + " " if 0 <= seat < len(names) else ""
    if who and best.startswith(who):  # the engine names the seat; once is enough
        best = best[len(who) :]
    return (
        f"round {d.round}, turn {d.turn}: {chosen}. Better: {best}, ~{d.loss:.1f} ± {d.loss_se:.1f} {unit(game)} more"
    )


def summary_text(r: SeatReview, name: str) -> str:
    u = unit(r.game)
    if not r.decisions:
        return f"{name} had no decision with more than one choice to review."
    head = (
        f"{name}: {r.decisions} decisions reviewed; {r.points_behind:.1f} ± {r.points_behind_se:.1f} {u} behind "
        f"the evaluator's own choices in all, {r.mean_loss:.2f} a decision."
    )
    if not r.worst:
        head += " No choice had a better alternative confirmed."
    ref = coachfigures.comparison(r.game)
    return head + (f"\n{ref}" if ref else "")


class ReviewScreen(BaseScreen):
    BINDINGS = keymap.bindings("back")
    HELP = """\
**Review.** For each decision of this seat (one with more than one choice), the
search plays out the choice made and the best few alternatives, many times, from
what the seat knew at that moment (never the hidden cards the record holds), and
reports the points a choice gave up against a clearly better one.

- while it works: Esc stops it and goes back;
- then: each listed decision's key opens the replay at that position, with the
  better choice shown; Esc goes back.

The figures are estimates from playouts by the greedy policy, with their standard
error (±): "~3 ± 1 points more" means that, played on the same way, that choice ended
about 3 points better on average; the costliest list is checked again on fresh
playouts before it is shown.
"""

    def __init__(
        self,
        rec: GameRecord,
        game: Game[Any, Any],
        board: type[BoardView[Any]] | None,
        seat: int,
        *,
        content: str | None = None,
        depth: int = 1,
    ) -> None:
        super().__init__()
        self.rec = rec
        self.game = game
        self.board = board
        self.seat = seat
        self.content = content
        self.depth = depth
        names = rec.meta.get("seats", "")
        self.names = [n.strip() for n in names.split(",")] if names else []
        while len(self.names) < rec.players:
            self.names.append(f"Seat {len(self.names) + 1}")
        self.result: SeatReview | None = None
        self.error = ""
        self._worker: Worker[None] | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static(
                f"Review · {self.game.title} · {self.names[self.seat]}'s decisions", classes="page-title", markup=False
            )
            yield Static("", id="review-summary", markup=False)
            yield Static("Getting ready… (Esc stops)", id="review-status", markup=False)
            yield ProgressBar(id="review-progress", show_eta=False)
            yield ChoiceList(id="review-list")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#review-list", ChoiceList).display = False
        # A Textual worker (an asyncio task here): it goes with the screen, so leaving
        # cancels the review, and the Thinker tells its process to stop.
        self._worker = self.run_worker(self._run(), exit_on_error=False)

    async def _run(self) -> None:
        thinker = getattr(self.app, "thinker", None)
        try:
            if thinker is not None:
                r = await thinker.review(
                    self.game, self.content, self.rec, self.seat, depth=self.depth, progress=self._progress
                )
            else:
                r = await review_here(self.game, self.rec, self.seat, depth=self.depth, progress=self._progress)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bad record, a game without a search: said on screen
            self.error = str(e) or type(e).__name__
            self.query_one("#review-status", Static).update(f"Cannot review this game: {self.error}")
            self.query_one("#review-progress", ProgressBar).display = False
            return
        self._show(r)

    def _progress(self, done: int, of: int) -> None:
        if not self.is_mounted:
            return
        self.query_one("#review-progress", ProgressBar).update(total=of, progress=done)
        # `of` counts the decisions and then the costliest ones confirmed on fresh playouts.
        self.query_one("#review-status", Static).update(f"Reviewing… {100 * done // max(1, of)}% (Esc stops)")

    def _show(self, r: SeatReview) -> None:
        self.result = r
        self.query_one("#review-progress", ProgressBar).display = False
        name = self.names[self.seat]
        status = self.query_one("#review-status", Static)
        status.update("\nThe costliest, costliest first (a key opens the replay there):")
        status.display = bool(r.worst)
        self.query_one("#review-summary", Static).update(summary_text(r, name))
        items: list[Item[DecisionReview]] = [Item(entry_text(d, self.names, r.game, self.seat), d) for d in r.worst]
        lst = self.query_one("#review-list", ChoiceList)
        lst.set_items(items)
        lst.display = bool(items)
        lst.focus()

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        d = event.value
        if not isinstance(d, DecisionReview) or self.board is None:
            return
        from coldwater.tui.screens.replays import ReplayScreen

        u = unit(self.game.name)
        note = (
            f"Review: here {with_names(d.chosen_text, self.names)}.\n"
            f"Better: {with_names(d.best_text, self.names)} (~{d.loss:.1f} ± {d.loss_se:.1f} {u} more; "
            f"win chance {d.win_after:.0%} → {d.win_before:.0%})."
        )
        self.app.push_screen(ReplayScreen(self.rec, self.game, self.board, coach=(d.ply, self.seat, note)))

    def action_back(self) -> None:
        if self._worker is not None:
            self._worker.cancel()  # the bots' process stops at its next world
        self.dismiss(None)
