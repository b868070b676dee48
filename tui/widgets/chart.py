"""A horizontal stacked bar chart of scores: one bar per player, one segment per category,
over a scale of points. Categories that are tie-breaks, not points, are not drawn."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.text import Text
from textual.widget import Widget

# Segment styles cycle through the terminal's basic colours, so the chart reads in
# any theme; each segment also uses its own letter so it reads without colour.
SEGMENT_STYLES: tuple[str, ...] = (
    "blue",
    "green",
    "yellow",
    "magenta",
    "cyan",
    "red",
    "bright_blue",
    "bright_green",
    "bright_yellow",
    "bright_magenta",
)
SEGMENT_MARKS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def is_tiebreak(category: str) -> bool:
    """A category that breaks ties and counts no points (fish left, say): the engines
    say so in its name, "(tie-break, not points)"."""
    return "tie-break" in category


def tiebreak_name(category: str) -> str:
    """The name without its note: "fish left (tie-break, not points)" → "fish left"."""
    return category.split(" (tie-break", 1)[0]


def scale_lines(indent: int, top: int, scale: float) -> list[Text]:
    """An axis under the bars: a tick every few points, the points under the ticks."""
    width = round(top * scale)
    step = next((s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500) if top / s <= 8 and s * scale >= 4), 1000)
    ticks = list(range(0, top + 1, step))
    if ticks[-1] != top and round((top - ticks[-1]) * scale) >= 4:
        ticks.append(top)
    axis = ["─"] * (width + 1)
    labels = [" "] * (width + 8)
    for v in ticks:
        at = round(v * scale)
        axis[at] = "└" if v == 0 else "┴"
        for n, ch in enumerate(str(v)):
            if at + n < len(labels):
                labels[at + n] = ch
    pad = " " * indent
    return [Text(pad + "".join(axis), style="dim"), Text(pad + "".join(labels).rstrip(), style="dim")]


class ScoreChart(Widget):
    DEFAULT_CSS = "ScoreChart { height: auto; }"

    def __init__(
        self,
        labels: Sequence[str],
        categories: Sequence[str],
        rows: Sequence[Sequence[int]],
        totals: Sequence[int],
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.labels = list(labels)
        self.categories = list(categories)
        self.rows = [list(r) for r in rows]
        self.totals = list(totals)

    def render(self) -> RenderableType:
        name_w = min(16, max((len(lab) for lab in self.labels), default=4))
        room = max(10, self.size.width - name_w - 8)
        points = [c for c, cat in enumerate(self.categories) if not is_tiebreak(cat)]
        top = max([1] + [sum(max(0, r[c]) for c in points if c < len(r)) for r in self.rows])
        scale = min(2.0, room / top)  # at most two cells per point, so small scores stay readable
        lines: list[RenderableType] = []
        for label, row, total in zip(self.labels, self.rows, self.totals):
            line = Text(f"{label[:name_w]:<{name_w}} ", no_wrap=True)
            used = 0.0
            drawn = 0
            for c in points:
                value = row[c] if c < len(row) else 0
                if value <= 0:
                    continue
                used += value * scale
                cells = max(1, round(used) - drawn)
                drawn += cells
                mark = SEGMENT_MARKS[c % len(SEGMENT_MARKS)]
                line.append(mark * cells, style=f"bold black on {SEGMENT_STYLES[c % len(SEGMENT_STYLES)]}")
            line.append(f" {total}", style="bold")
            lines.append(line)
        lines += scale_lines(name_w + 1, top, scale)
        legend = Text("", no_wrap=False)
        for c in points:
            legend.append(
                f" {SEGMENT_MARKS[c % len(SEGMENT_MARKS)]} ",
                style=f"bold black on {SEGMENT_STYLES[c % len(SEGMENT_STYLES)]}",
            )
            legend.append(f" {self.categories[c]}  ")
        lines.append(Text(""))
        lines.append(legend)
        return Group(*lines)


# Lines are drawn on the terminal's own background, dark or light: the bright
# colours vanish on a white one, so lines use the basic ones.
LINE_STYLES: tuple[str, ...] = (
    "bold cyan",
    "bold magenta",
    "bold blue",
    "bold red",
    "bold green",
    "bold yellow",
)


class ScoreOverTime(Widget):
    """Each player's score at the end of every round, drawn as a line chart of characters.

    Every player has a digit (their place in `labels`, from 1) as well as a colour,
    so the chart reads in monochrome too; between two rounds the line is dotted.
    The chart fits its width (up to 4 columns a round) and is `rows` rows high.
    """

    DEFAULT_CSS = "ScoreOverTime { height: auto; }"

    def __init__(
        self,
        labels: Sequence[str],
        rounds: Sequence[int],
        series: Sequence[Sequence[int]],
        *,
        unit: str = "points",
        rows: int = 8,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.labels = list(labels)
        self.rounds = list(rounds)
        self.series = [list(s) for s in series]
        self.unit = unit
        self.rows = rows

    def grid(self, width: int) -> list[list[tuple[str, str]]]:
        """The plot area as (character, style) cells, top row first."""
        n = len(self.rounds)
        rows = self.rows
        cells: list[list[tuple[str, str]]] = [[(" ", "") for _ in range(width)] for _ in range(rows)]
        top = max([1] + [v for s in self.series for v in s])
        low = min([0] + [v for s in self.series for v in s])
        span = max(1, top - low)

        def x_of(i: int) -> int:
            return 0 if n <= 1 else round(i * (width - 1) / (n - 1))

        def y_of(v: float) -> int:
            return rows - 1 - round((v - low) * (rows - 1) / span)

        for p, values in enumerate(self.series):
            style = LINE_STYLES[p % len(LINE_STYLES)]
            mark = str(p + 1)[-1]
            for i in range(len(values) - 1):  # dots first, so the marks win where they meet
                x0, x1 = x_of(i), x_of(i + 1)
                for x in range(x0 + 1, x1):
                    v = values[i] + (values[i + 1] - values[i]) * (x - x0) / max(1, x1 - x0)
                    y = y_of(v)
                    if cells[y][x][0] == " ":
                        cells[y][x] = ("·", style)
            for i, v in enumerate(values):
                cells[y_of(v)][x_of(i)] = (mark, f"bold {style}")
        return cells

    def render(self) -> RenderableType:
        if not self.rounds or not self.series:
            return Text("No scores by round were recorded for this game.", style="dim")
        top = max([1] + [v for s in self.series for v in s])
        low = min([0] + [v for s in self.series for v in s])
        axis_w = max(len(str(top)), len(str(low))) + 1
        # Up to 4 columns a round; a long game shares columns between rounds rather than overflow.
        width = max(10, min(self.size.width - axis_w - 2, 4 * len(self.rounds) + 1))
        lines: list[RenderableType] = []
        for r, row in enumerate(self.grid(width)):
            label = str(top) if r == 0 else (str(low) if r == self.rows - 1 else "")
            line = Text(f"{label:>{axis_w - 1}} ┤" if label else " " * (axis_w - 1) + " │", no_wrap=True, style="dim")
            for ch, style in row:
                line.append(ch, style=style)
            lines.append(line)
        lines.append(Text(" " * axis_w + "└" + "─" * width, style="dim", no_wrap=True))
        first, last = self.rounds[0], self.rounds[-1]
        head, tail = f"round {first}", f"round {last}"
        if len(head) + 1 + len(tail) > width:  # a short game: the two labels would run together
            head, tail = (f"rounds {first}–{last}" if last != first else head), ""
        lines.append(Text(" " * (axis_w + 1) + head.ljust(max(0, width - len(tail))) + tail, style="dim", no_wrap=True))
        legend = Text(f"{self.unit} at the end of each round: ", style="dim")
        for p, label in enumerate(self.labels):
            legend.append(f"{str(p + 1)[-1]} {label}", style=f"bold {LINE_STYLES[p % len(LINE_STYLES)]}")
            legend.append("  ")
        lines.append(legend)
        return Group(*lines)
