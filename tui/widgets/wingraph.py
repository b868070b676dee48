"""The review's win-chance graph: every seat's chance of winning through the game (issue 48).

A ``textual-plotext`` plot (a real plot widget: axes, ticks, a legend). Each seat's line is
drawn with its own seat number as the marker (``1``, ``2``, …), so the lines read apart under
NO_COLOR and on a monochrome terminal, not only by colour; the luckiest and unluckiest
moments of the seat reviewed are ``▲`` and ``▼``. It takes focus: ← → move a cursor (a
vertical line) over the points, Home/End jump to the ends, Enter opens the replay there
(:class:`WinGraph.Picked`). Its words under the plot say where the cursor is.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from textual.binding import Binding
from textual.message import Message
from textual_plotext import PlotextPlot


class Point(msgspec.Struct, frozen=True):
    """A place the cursor stops at: a move, the position's ply, and what is said there."""

    move: int
    ply: int
    text: str


class WinGraph(PlotextPlot):
    """Win chance (0–100%) by move, a line per seat; a cursor over the points."""

    can_focus = True
    BINDINGS = [
        Binding("right,l", "move(1)", "Next point", show=False),
        Binding("left,h", "move(-1)", "Previous point", show=False),
        Binding("home", "jump(0)", "First", show=False),
        Binding("end", "jump(-1)", "Last", show=False),
        Binding("enter", "pick", "Open the replay there"),
    ]

    class Picked(Message):
        """Enter on a point: open the replay at `ply`."""

        def __init__(self, ply: int) -> None:
            super().__init__()
            self.ply = ply

    class Moved(Message):
        """The cursor moved to `point`."""

        def __init__(self, point: Point) -> None:
            super().__init__()
            self.point = point

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names: list[str] = []
        self.lines: list[list[tuple[int, float]]] = []
        self.marks: list[tuple[int, float, str]] = []
        self.points: list[Point] = []
        self.cursor = -1

    def set_data(
        self,
        names: Sequence[str],
        lines: Sequence[Sequence[tuple[int, float]]],
        points: Sequence[Point],
        marks: Sequence[tuple[int, float, str]] = (),
    ) -> None:
        """One line per seat of (move, chance 0–1); the cursor's stops; marks (move, chance, symbol)."""
        self.names = list(names)
        self.lines = [list(line) for line in lines]
        self.points = list(points)
        self.marks = list(marks)
        self.cursor = len(self.points) - 1 if self.points else -1
        self.replot()

    def replot(self) -> None:
        plt = self.plt
        plt.clear_figure()
        plt.ylim(0, 100)
        plt.yticks([0, 50, 100], ["0%", "50%", "100%"])
        last = max((m for line in self.lines for m, _ in line), default=0)
        step = max(1, -(-last // 5))
        plt.xticks(list(range(0, last + 1, step)))
        for i, line in enumerate(self.lines):
            if not line:
                continue
            xs = [m for m, _ in line]
            ys = [100 * c for _, c in line]
            # No legend inside the plot (it covers the lines at 80×24): the marker is the seat's
            # number, and the screen says whose under the graph.
            plt.plot(xs, ys, marker=str(i + 1)[-1])
        for m, c, sym in self.marks:
            plt.scatter([m], [100 * c], marker=sym)
        if 0 <= self.cursor < len(self.points):
            plt.vline(self.points[self.cursor].move)
        self.refresh()

    @property
    def point(self) -> Point | None:
        return self.points[self.cursor] if 0 <= self.cursor < len(self.points) else None

    def _go(self, index: int) -> None:
        if not self.points:
            return
        self.cursor = max(0, min(len(self.points) - 1, index))
        self.replot()
        self.post_message(self.Moved(self.points[self.cursor]))

    def action_move(self, delta: int) -> None:
        self._go(self.cursor + delta)

    def action_jump(self, where: int) -> None:
        self._go(where if where >= 0 else len(self.points) - 1)

    def action_pick(self) -> None:
        p = self.point
        if p is not None:
            self.post_message(self.Picked(p.ply))
