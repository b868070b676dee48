"""End of game: the score sheet per category as a table and a chart, and the winner."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Static

from coldwater.core.state import Scores
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.table import with_names
from coldwater.tui.widgets.chart import ScoreChart


class ScoreScreen(BaseScreen):
    BINDINGS = keymap.bindings("score")
    HELP = ("**Final scores.** The table lists every scoring category for each player, best first; "
            "the chart draws the same numbers. Enter or Esc returns to the main menu; the game is "
            "kept under *Replays*.")

    def __init__(self, title: str, scores: Scores, names: list[str] | None = None) -> None:
        super().__init__()
        self.game_title = title
        self.scores = scores
        names = names or []
        # Engines label rows "Seat N"; show the names people chose.
        self.labels = [names[i] if i < len(names) and lab.startswith("Seat ") else lab
                       for i, lab in enumerate(scores.labels)]

    def compose(self) -> ComposeResult:
        s = self.scores
        winner = self.labels[s.ranking[0]] if s.ranking else ""
        with VerticalScroll(id="score-box"):
            yield Static(f"{self.game_title} — final scores", classes="page-title")
            yield Static(with_names(s.outcome, self.labels) if s.outcome else f"{winner} wins", id="outcome")
            yield self._table()
            yield Static("Chart", classes="section")
            order = list(s.ranking) or list(range(len(s.labels)))
            yield ScoreChart([self.labels[i] for i in order], s.categories, [s.rows[i] for i in order],
                             [s.totals[i] for i in order], id="score-chart")
            for note in s.notes:
                yield Static(note, classes="note")
        yield Footer()

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
        for c, cat in enumerate(s.categories):
            t.add_row(cat, *(str(s.rows[i][c]) for i in order))
        t.add_row("Total", *(str(s.totals[i]) for i in order))
        return t

    def action_done(self) -> None:
        self.dismiss(None)
