"""What a person must be able to see on the table at any size (issue #30), as checks
on the screen as drawn: the highlighted choice in view, no table line cut, the round
and turn in the title."""

from __future__ import annotations

import re
from typing import Any

from textual.pilot import Pilot

from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import ChoiceList

from .frame_driver import screen_text

CLOCK = re.compile(r"round \d+( of \d+)? · turn \d+")
"""The round and turn in the title ("round 3 · turn 5", "round 2 of 7 · turn 4")."""


def highlight_problem(pilot: Pilot[Any], screen: TableScreen) -> str:
    """Why the highlighted choice is not on screen ("" when it is, or nothing is highlighted).

    Checked twice: by the list's own geometry (the option's rows inside the rows the list
    shows, the list inside the screen) and on the drawn rows themselves (the option's first
    row of text where the list is drawn), so a list clipped by its container is caught too."""
    choices = screen.query_one("#decision", ChoiceList)
    at = choices.highlighted
    if at is None or not choices.display:
        return ""
    prompt = choices.get_option_at_index(at).prompt
    first = str(prompt).split("\n")[0].strip()
    top = choices.scroll_offset.y
    shown = choices.scrollable_content_region.height
    y = choices._index_to_line.get(at)
    if y is None:
        return f"the highlighted choice {first!r} is not laid out"
    height = choices._heights.get(at, 1)
    if not (top <= y and y + min(height, shown) <= top + shown):
        where = f"rows {y}-{y + height - 1}, the list shows {top}-{top + shown - 1}"
        return f"the highlighted choice {first!r} is at {where}"
    region = choices.region
    rows = screen_text(pilot).split("\n")
    if region.bottom > len(rows) or region.height < 1:
        return f"the list ({region}) is not on the screen ({len(rows)} rows)"
    row = region.y + (y - top)
    drawn = rows[row][region.x : region.right]
    if first[:20] not in drawn:
        return f"the highlighted choice {first!r} is not drawn at row {row}: {drawn!r}"
    return ""


def cut_lines(pilot: Pilot[Any], screen: TableScreen) -> list[str]:
    """Rows of the table (status, standings, board) that end cut ("…")."""
    rows = screen_text(pilot).split("\n")
    main = screen.query_one("#table-main").region
    board = screen.query_one("#board-scroll").region
    shown = rows[: main.y] + [row[board.x : board.right] for row in rows[board.y : board.bottom]]
    return [row for row in shown if row.rstrip(" ▁▂▃▄▅▆▇█").endswith("…")]


def clock_in_title(screen: TableScreen) -> bool:
    return bool(CLOCK.search(str(screen.query_one("#status").render())))


def _lines(console: Any, renderable: Any, width: int) -> list[str]:
    rows = console.render_lines(renderable, console.options.update_width(width), pad=False)
    return ["".join(seg.text for seg in row).rstrip() for row in rows]


DANGLING = (" ·", ",", " │")
"""A row that ends on a separator was cut between its items (Crown's fish list ending in a
comma), unless the next row goes on with the list (indented)."""


def silent_cuts(pilot: Pilot[Any], screen: TableScreen) -> list[str]:
    """Rows of the table cut without "…" (issue 45): the title and standings wider than the
    screen and not ending "…", a board row the terminal crops (drawn at the board's width it
    reads other than drawn at any width), or a row that ends on a separator."""
    from rich.cells import cell_len
    from rich.text import Text
    from textual.widgets import Static

    console = screen.app.console
    rows = screen_text(pilot).split("\n")
    out: list[str] = []
    for sel in ("#status", "#standings"):
        line = screen.query_one(sel, Static)
        if not line.display or line.region.height < 1:
            continue
        drawn = rows[line.region.y][line.region.x : line.region.right].rstrip()
        text = str(line.content)
        for want in text.split("\n")[:1]:
            if cell_len(want) > line.content_region.width and not drawn.endswith("…"):
                out.append(f"{sel} cut without …: {drawn!r}")
        if drawn.endswith(DANGLING):
            out.append(f"{sel} ends on a separator: {drawn!r}")
    board = screen.query_one("#board")
    if board.display and board.region.width:
        width = board.content_region.width
        render = board.render() if type(board).render is not Static.render else board.content  # type: ignore[attr-defined]
        if isinstance(render, str):
            render = Text(render)
        narrow = _lines(console, render, width)
        wide = _lines(console, render, 1000)
        if len(narrow) == len(wide):
            for n, w in zip(narrow, wide, strict=True):
                if n != w and not n.endswith("…"):
                    out.append(f"board row cut without …: {n!r} (all of it: {w!r})")
        for at, n in enumerate(narrow):
            goes_on = at + 1 < len(narrow) and narrow[at + 1].startswith("  ")
            if n.endswith(DANGLING) and not goes_on:
                out.append(f"board row ends on a separator: {n!r}")
    return out
