"""The end of a game: the score sheet, scores round by round, when each trophy or
goal was won, and what next (a rematch, the replay, the menu).

The table screen opens it with the final scores; given the table too (or found
underneath, the table screen it replaces), it reads the game's record for the
chart and the milestones, and can start a rematch: the same game, seats,
options and card data, with a new seed.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import DataTable, Footer, Static

from coldwater.core.record import GameRecord
from coldwater.core.state import Scores
from coldwater.net.tablelike import TableLike
from coldwater.tui import keymap
from coldwater.tui.screens.base import BaseScreen
from coldwater.tui.screens.table import with_names
from coldwater.tui.widgets.chart import ScoreChart, ScoreOverTime


class ScoreScreen(BaseScreen):
    BINDINGS = keymap.bindings("score")
    HELP = """\
**The end of the game.** The score sheet lists every scoring category for each player,
best first, and the bars draw the same numbers. Below: each player's score at the end
of every round, and when each trophy or goal was won. ↑ ↓ PgUp PgDn scroll.

- **r**: a rematch — the same game, seats, options and card data, with a new seed;
- **p**: open the replay of this game;
- Enter or Esc: back to the main menu. The game is kept under *Replays*.
"""

    def __init__(
        self, title: str, scores: Scores, names: list[str] | None = None, *, table: TableLike | None = None
    ) -> None:
        super().__init__()
        self.game_title = title
        self.scores = scores
        names = names or []
        if table is None:
            # The table screen switches to this one; while it is still on top, its table is ours.
            try:
                table = getattr(self.app.screen, "table", None)
            except Exception:  # no app yet (a test building the screen on its own)
                table = None
        self.table = table
        # Engines label rows "Seat N"; show the names people chose.
        self.labels = [
            names[i] if i < len(names) and lab.startswith("Seat ") else lab for i, lab in enumerate(scores.labels)
        ]

    @property
    def record(self) -> GameRecord | None:
        rec = getattr(self.table, "record", None)
        if rec is None:  # a LAN host: the net layer's own table keeps the record
            rec = getattr(getattr(getattr(self.table, "party", None), "table", None), "record", None)
        return rec

    def compose(self) -> ComposeResult:
        s = self.scores
        winner = self.labels[s.ranking[0]] if s.ranking else ""
        with VerticalScroll(id="score-box"):
            yield Static(f"{self.game_title} — final scores", classes="page-title")
            yield Static(with_names(s.outcome, self.labels) if s.outcome else f"{winner} wins", id="outcome")
            yield self._table()
            order = list(s.ranking) or list(range(len(s.labels)))
            yield ScoreChart(
                [self.labels[i] for i in order],
                s.categories,
                [s.rows[i] for i in order],
                [s.totals[i] for i in order],
                id="score-chart",
            )
            for note in s.notes:
                yield Static(note, classes="note")
            yield Static("Score by round", classes="section")
            yield Static("Working it out…", id="over-time-note", classes="note")
            yield Static("Trophies and goals", classes="section", id="milestones-title")
            yield Static("", id="milestones", markup=False)
            yield Static(self.actions_line(), id="score-actions", classes="note")
        yield Footer()

    def actions_line(self) -> str:
        parts = []
        if self.can_rematch():
            parts.append("r  rematch (same seats and options, new seed)")
        if self.record is not None:
            parts.append("p  open the replay")
        parts.append("Enter  back to the menu")
        return "   ·   ".join(parts)

    def on_mount(self) -> None:
        self.query_one("#score-box", VerticalScroll).focus()
        self.call_after_refresh(self._timeline)

    def _timeline(self) -> None:
        """Replay the record once for the chart and the milestones."""
        from coldwater.tui.screens.timeline import Timeline

        note = self.query_one("#over-time-note", Static)
        rec = self.record
        game = getattr(self.table, "game", None)
        if rec is None or game is None:
            note.update("The record of this game is not at hand here, so there is no chart.")
            self.query_one("#milestones-title").display = False
            return
        tl = Timeline(rec, game)
        labels, rounds, series = tl.score_series()
        names = [self.labels[i] if i < len(self.labels) else lab for i, lab in enumerate(labels)]
        unit = "PP" if getattr(game, "name", "") == "aquatica" else "points"
        note.display = False
        self.query_one("#score-box", VerticalScroll).mount(
            ScoreOverTime(names, rounds, series, unit=unit, id="score-over-time"), after=note
        )
        seat_names = [self.labels[i] if i < len(self.labels) else f"Seat {i + 1}" for i in range(rec.players)]
        lines = [
            f"{tl.when(m.pos):<20} {seat_names[m.seat] if m.seat < len(seat_names) else m.seat}: {m.text}"
            for m in tl.milestones()
        ]
        milestones = self.query_one("#milestones", Static)
        if lines:
            milestones.update("\n".join(lines))
        else:
            milestones.update("This game has no trophies or goals to win along the way.")

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

    # ---- actions -------------------------------------------------------------
    def can_rematch(self) -> bool:
        """A rematch needs a local table (seats, options); a LAN table is hosted anew instead."""
        from coldwater.net.table import Table

        return isinstance(self.table, Table)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return self.can_rematch()
        if action == "replay":
            return self.record is not None
        return True

    def action_done(self) -> None:
        self.dismiss(None)

    def action_rematch(self) -> None:
        from coldwater.net.table import Table

        t = self.table
        if not isinstance(t, Table):
            return
        try:
            new = Table.new(
                t.game,
                list(t.seats),
                seed=None,
                options=t.record.options or None,
                meta={k: v for k, v in t.record.meta.items() if k in ("mode",)},
                content=t.content,
            )
        except (ValueError, OSError) as e:
            self.notify(f"Cannot start a rematch: {e}", severity="error")
            return
        self.app.switch_screen(self.cw.catalog.table_screen(t.game.name)(new))

    def action_replay(self) -> None:
        from coldwater.tui.screens.replays import ReplayScreen

        rec, game = self.record, getattr(self.table, "game", None)
        if rec is None or game is None:
            return
        self.app.push_screen(ReplayScreen(rec, game, self.cw.catalog.table_screen(game.name).BOARD))
