"""Review: a finished game as a chess player's game review knows it (issues 31 and 48; docs/coach.md).

The judging is ``core/review.py`` (each seat's decisions), ``core/luck.py`` (each chance
event's luck for every seat) and ``core/grading.py`` (labels, accuracy, the numbering, the
win-chance series, why). The seat asked for is reviewed first, in the bots' worker process
(``Thinker.review``, or a thread when there is none), then the luck of the draws (a thread:
it has no message of its own in the worker), then every other seat. Nothing runs on the UI
thread; Esc cancels whatever is under way and goes back.

Shown, as each part arrives: every seat's line (accuracy, points behind, labels) and luck
line; the win-chance graph (:mod:`coldwater.tui.widgets.wingraph`: ← → over its points,
Enter opens the replay there); the labelled decisions of the seat reviewed, costliest first,
each a key that opens the replay at that position with the better choice marked on the
board and why (:mod:`.reviewreplay`). **x** drills the labelled mistakes
(:mod:`.drill`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker

from coldwater.core import grading, reviewjson
from coldwater.core.luck import ChanceLuck, SeatLuck, luck_events
from coldwater.core.record import GameRecord
from coldwater.core.review import DecisionReview, SeatReview
from coldwater.core.state import Game
from coldwater.net.play.thinker import review_here
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.reviewtext import coach_note, entry_text, summary_text, unit
from coldwater.tui.widgets.choices import ChoiceList, Item
from coldwater.tui.widgets.wingraph import Point, WinGraph

if TYPE_CHECKING:
    from coldwater.tui.widgets.board import BoardView

__all__ = ["ReviewScreen", "entry_text", "summary_text", "unit"]


class _Stop(Exception):
    """The screen went: the luck thread stops at its next world."""


async def luck_here(
    game: Game[Any, Any], rec: GameRecord, seed: str, progress: Callable[[int, int], None]
) -> list[ChanceLuck]:
    """Every chance event's luck, in a thread of this process; cancelling stops it at its next world."""
    loop = asyncio.get_running_loop()
    stop = threading.Event()

    def pause() -> None:
        if stop.is_set():
            raise _Stop

    def run() -> list[ChanceLuck]:
        out = []
        for k, n, ev in luck_events(rec, game, seed=seed, pause=pause):
            out.append(ev)
            loop.call_soon_threadsafe(progress, k, n)
        return out

    try:
        return await asyncio.to_thread(run)
    except asyncio.CancelledError:
        stop.set()
        raise


class ReviewScreen(BaseScreen):
    BINDINGS = [*keymap.bindings("back", "review")]
    HELP = """\
**Review.** For each decision (one with more than one choice), the search plays out the
choice made and the best few alternatives, many times, from what the seat knew at that
moment (never the hidden cards the record holds), and reports the points a choice gave up
against a clearly better one. The seat you asked for comes first, then the luck of every
draw, then the other seats.

- **Labels**: an *inaccuracy*, *mistake* or *blunder* gave up 5, 10 or 15 points of win
  chance; a choice within the evaluator's noise is never labelled. **Accuracy** is
  lichess's formula on the win chance (100: every choice as good as the evaluator's).
- **Luck**: what each draw gave or took, against the average of the draws that could have
  come, from that seat's view; the luck-adjusted result takes it out of the final margin.
- **The graph**: each seat's chance of winning, move by move, drawn with its seat number;
  ▲ ▼ the luckiest and unluckiest draws of the seat reviewed. Tab to it, ← → move the
  cursor, Enter opens the replay there.
- **The list**: each labelled decision's key opens the replay at that position with the
  better choice marked • on the board and why; **x** drills your labelled mistakes.
- Esc stops the review and goes back.

Every figure is an estimate from playouts with its standard error (±).
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
        others: bool = True,
        drill: bool = False,
    ) -> None:
        """`others`: review every other seat too, after the luck (off in tests that need one seat).
        `drill`: open the drill on the seat's labelled mistakes as soon as they are known (the
        end screen's **x**)."""
        super().__init__()
        self.rec = rec
        self.game = game
        self.board = board
        self.seat = seat
        self.content = content
        self.depth = depth
        self.others = others
        self.drill = drill
        names = rec.meta.get("seats", "")
        self.names = [n.strip() for n in names.split(",")] if names else []
        while len(self.names) < rec.players:
            self.names.append(f"Seat {len(self.names) + 1}")
        self.moves = grading.Moves(rec)
        self.result: SeatReview | None = None
        """The seat asked for, once reviewed."""
        self.reviews: dict[int, SeatReview] = {}
        self.events: list[ChanceLuck] | None = None
        self.lucks: list[SeatLuck] = []
        self.complete = False
        """Every part is shown (the seats, the luck, the graph)."""
        self.error = ""
        self._worker: Worker[None] | None = None
        self._phase = ""
        self._one_row: bool | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="page"):
            yield Static(
                f"Review · {self.game.title} · {self.names[self.seat]}'s game", classes="page-title", markup=False
            )
            yield Static("", id="review-summary", markup=False)
            yield WinGraph(id="review-graph")
            yield Static("", id="graph-note", markup=False)
            yield Static("Getting ready… (Esc stops)", id="review-status", markup=False)
            yield ProgressBar(id="review-progress", show_eta=False)
            yield ChoiceList(id="review-list")
        yield Footer()

    def on_resize(self) -> None:
        # More rows for the graph where the terminal has them (7 at 80×24).
        self.query_one("#review-graph", WinGraph).styles.height = 7 if self.size.height < 40 else 14

    def on_mount(self) -> None:
        self.query_one("#review-list", ChoiceList).display = False
        self.query_one("#review-graph", WinGraph).display = False
        # A Textual worker (an asyncio task here): it goes with the screen, so leaving
        # cancels the review, and the Thinker tells its process to stop.
        self._worker = self.run_worker(self._run(), exit_on_error=False)

    async def _review(self, seat: int) -> SeatReview:
        self._phase = f"Reviewing {self.names[seat]}'s decisions"
        thinker = getattr(self.app, "thinker", None)
        if thinker is not None:
            r: SeatReview = await thinker.review(
                self.game, self.content, self.rec, seat, depth=self.depth, progress=self._progress
            )
            return r
        return await review_here(self.game, self.rec, seat, depth=self.depth, progress=self._progress)

    async def _run(self) -> None:
        try:
            r = await self._review(self.seat)
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a bad record, a game without a search: said on screen
            self.error = str(e) or type(e).__name__
            self.query_one("#review-status", Static).update(f"Cannot review this game: {self.error}")
            self.query_one("#review-progress", ProgressBar).display = False
            return
        self.result = r
        self.reviews[self.seat] = r
        self._show_list(r)
        self._remember(r)
        if self.drill:
            self.action_drill()
        try:
            self._phase = "Weighing the luck of every draw"
            self.events = await luck_here(self.game, self.rec, "0", self._progress)
            self.lucks = reviewjson.lucks(self.rec, self.game, self.events)
            self._show_summary()
            self._show_graph()
            for s in range(self.rec.players) if self.others else ():
                if s != self.seat:
                    self.reviews[s] = await self._review(s)
                    self._show_summary()
                    self._show_graph()
        except asyncio.CancelledError:
            raise
        except Exception as e:  # the seat's review stands; what failed after it is said
            self.error = str(e) or type(e).__name__
            self.query_one("#review-status", Static).update(f"Part of the review failed: {self.error}")
        self.query_one("#review-progress", ProgressBar).display = False
        self.complete = True
        self._show_summary()
        self._show_status()

    def _progress(self, done: int, of: int) -> None:
        if not self.is_mounted:
            return
        self.query_one("#review-progress", ProgressBar).update(total=of, progress=done)
        self.query_one("#review-status", Static).update(f"{self._phase}… {100 * done // max(1, of)}% (Esc stops)")

    # ---- showing ------------------------------------------------------------------
    def _solo(self) -> bool:
        if self._one_row is None:
            from coldwater.core.luck import one_row

            self._one_row = one_row(self.rec, self.game)
        return self._one_row

    def _show_summary(self) -> None:
        text = summary_text(
            self.reviews,
            self.lucks,
            self.names,
            self.seat,
            self.rec.players,
            self.game.name,
            self._solo(),
            reference=self.size.height >= 40,  # the bot levels' figures where there is room
            waiting=self.others and not self.complete,
        )
        self.query_one("#review-summary", Static).update(text)

    def _show_status(self) -> None:
        r = self.result
        status = self.query_one("#review-status", Static)
        if r is None:
            return
        if self.error and self.complete:
            return
        status.update("Costliest first (a key opens the replay there; x drills your mistakes):")
        status.display = bool(r.worst)

    def _show_list(self, r: SeatReview) -> None:
        self._show_summary()
        items: list[Item[DecisionReview]] = [
            Item(entry_text(d, self.names, r.game, self.seat, self.moves), d) for d in r.worst
        ]
        lst = self.query_one("#review-list", ChoiceList)
        lst.set_items(items)
        lst.display = bool(items)
        lst.focus()

    def _show_graph(self) -> None:
        events = self.events or []
        curve = reviewjson.chance_curve(self.rec, self.game)
        lines, points = [], []
        for s in range(self.rec.players):
            decs = self.reviews[s].reviewed if s in self.reviews else ()
            series = grading.win_series(s, decs, events, self.moves, curve)
            lines.append(_per_move(series))
            if s == self.seat:
                points = [Point(m, ply, f"move {m}: {self.names[s]} {c:.0%}") for m, c, ply in series]
        marks: list[tuple[int, float, str]] = []
        if self.seat < len(self.lucks) and lines[self.seat]:
            sl = self.lucks[self.seat]
            mine = lines[self.seat]
            for ply, sym in ((sl.luckiest, "▲"), (sl.unluckiest, "▼")):
                if ply >= 0:
                    m = self.moves.after(ply)
                    # On the seat's own line, at that move (or the nearest point before it).
                    y = next((c for x, c in reversed(mine) if x <= m), mine[0][1])
                    marks.append((m, y, sym))
        graph = self.query_one("#review-graph", WinGraph)
        graph.set_data(self.names, lines, points, marks)
        graph.display = bool(points)
        self._note(graph.point)

    def _note(self, p: Point | None) -> None:
        """Under the graph: the cursor's point, the luck marks, and which line is whose."""
        parts = [f"{p.text} (Enter opens it)"] if p is not None else []
        if self.seat < len(self.lucks):
            sl = self.lucks[self.seat]
            for ply, what in ((sl.luckiest, "▲ luckiest"), (sl.unluckiest, "▼ unluckiest")):
                if ply >= 0:
                    m = self.moves.after(ply)
                    # A draw of the setup comes before any move: "move 0" would read as a move.
                    parts.append(f"{what} move {m}" if m else f"{what} before move 1")
        parts.append("lines: " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(self.names)))
        self.query_one("#graph-note", Static).update(" · ".join(parts))

    def on_win_graph_moved(self, event: WinGraph.Moved) -> None:
        self._note(event.point)

    def on_win_graph_picked(self, event: WinGraph.Picked) -> None:
        if self.board is None:
            return
        from coldwater.tui.screens.reviewreplay import CoachReplay

        d = next((x for x in self.result.reviewed if x.ply + 1 == event.ply), None) if self.result else None
        ply = d.ply if d is not None else event.ply
        note = self._note_for(d) if d is not None else f"Review: the position at move {self.moves.before[ply]}."
        best = d.best if d is not None and d.best != d.chosen else ""
        self.app.push_screen(CoachReplay(self.rec, self.game, self.board, coach=(ply, self.seat, note), best=best))

    def _note_for(self, d: DecisionReview) -> str:
        words = self._words()
        term = words.hint_term if words is not None else (lambda c: c)
        return coach_note(d, self.names, self.game.name, term, "your best rival", self.moves)

    def _words(self) -> Any:
        try:
            return self.app.catalog.table_screen(self.game.name).WORDS(self.game, self.names)  # type: ignore[attr-defined]
        except Exception:  # a catalog without this game's table: the engine's own words
            return None

    def on_choice_list_chosen(self, event: ChoiceList.Chosen) -> None:
        d = event.value
        if not isinstance(d, DecisionReview) or self.board is None:
            return
        from coldwater.tui.screens.reviewreplay import CoachReplay

        self.app.push_screen(
            CoachReplay(self.rec, self.game, self.board, coach=(d.ply, self.seat, self._note_for(d)), best=d.best)
        )

    def action_drill(self) -> None:
        from coldwater.tui.screens.drill import DrillScreen, drill_items

        if self.result is None:
            self.notify("The review is not ready yet.")
            return
        items = drill_items(self.rec, self.game, self.result)
        if not items:
            self.notify("No labelled mistake to drill in this game.")
            return
        board = self.board
        try:
            words = self.app.catalog.table_screen(self.game.name).WORDS  # type: ignore[attr-defined]
        except Exception:  # a game without a table here: the choices read as the log does
            words = None
        self.app.push_screen(DrillScreen(items, lambda _name: board, lambda _name: words))

    def _remember(self, r: SeatReview) -> None:
        """Keep the labelled mistakes for the menu's drill over recent games (a courtesy)."""
        from coldwater.tui import drillstore

        try:
            drillstore.remember(self.rec, r)
        except Exception as e:  # a full disk or a read-only home: the review still shows
            self.log.warning(f"drill store: {e}")

    def action_back(self) -> None:
        if self._worker is not None:
            self._worker.cancel()  # the bots' process stops at its next world
        self.dismiss(None)


def _per_move(series: list[tuple[int, float, int]]) -> list[tuple[int, float]]:
    """One point a move (the mean of that move's points): several draws after one move would
    otherwise stack at one x."""
    by: dict[int, list[float]] = {}
    for m, c, _ in series:
        by.setdefault(m, []).append(c)
    return [(m, sum(cs) / len(cs)) for m, cs in sorted(by.items())]
