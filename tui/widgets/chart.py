"""A horizontal stacked bar chart of scores: one bar per player, one segment per category."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widget import Widget

# Segment styles cycle through the terminal's basic colours, so the chart reads in
# any theme; each segment also uses its own letter so it reads without colour.
SEGMENT_STYLES: tuple[str, ...] = ("blue", "green", "yellow", "magenta", "cyan", "red", "bright_blue",
                                   "bright_green", "bright_yellow", "bright_magenta")
SEGMENT_MARKS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class ScoreChart(Widget):
    DEFAULT_CSS = "ScoreChart { height: auto; }"

    def __init__(self, labels: Sequence[str], categories: Sequence[str], rows: Sequence[Sequence[int]],
                 totals: Sequence[int], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.labels = list(labels)
        self.categories = list(categories)
        self.rows = [list(r) for r in rows]
        self.totals = list(totals)

    def render(self) -> RenderableType:
        name_w = min(16, max((len(lab) for lab in self.labels), default=4))
        room = max(10, self.size.width - name_w - 8)
        top = max([1] + [sum(max(0, v) for v in r) for r in self.rows])
        scale = min(2.0, room / top)  # at most two cells per point, so small scores stay readable
        lines: list[RenderableType] = []
        for label, row, total in zip(self.labels, self.rows, self.totals):
            line = Text(f"{label[:name_w]:<{name_w}} ", no_wrap=True)
            used = 0.0
            drawn = 0
            for c, value in enumerate(row):
                if value <= 0:
                    continue
                used += value * scale
                cells = max(1, round(used) - drawn)
                drawn += cells
                mark = SEGMENT_MARKS[c % len(SEGMENT_MARKS)]
                line.append(mark * cells, style=f"bold black on {SEGMENT_STYLES[c % len(SEGMENT_STYLES)]}")
            line.append(f" {total}", style="bold")
            lines.append(line)
        legend = Text("", no_wrap=False)
        for c, cat in enumerate(self.categories):
            legend.append(f" {SEGMENT_MARKS[c % len(SEGMENT_MARKS)]} ",
                          style=f"bold black on {SEGMENT_STYLES[c % len(SEGMENT_STYLES)]}")
            legend.append(f" {cat}  ")
        lines.append(Text(""))
        lines.append(legend)
        return Group(*lines)
