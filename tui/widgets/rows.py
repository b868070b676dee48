"""Rows that never lose their end: a row too wide for its room is broken between its
items onto indented rows of its own, not cut with "…".

Table rows are made of items joined by separators ("Points you: 3 · Ann: 5",
"3:KKY 4:BBRK", "Salmon, Pike"); breaking at the widest separator that fits keeps
each item whole. Only a single item wider than the room is cut (the one place an
ellipsis can still appear). Pure: Rich text only.
"""

from __future__ import annotations

from rich.text import Text

SEPARATORS: tuple[str, ...] = (" │ ", " · ", "  ", ", ", " ")
"""Where a row may break, best first: a "," stays at the end of its row."""


def _head_fits(line: Text, cut: int, keep: int, width: int) -> bool:
    return line[: cut + keep].cell_len <= width


def break_row(line: Text, width: int, indent: int | None = None) -> list[Text]:
    """`line` as rows of at most `width` cells. Continuation rows start with `indent`
    spaces (default: the row's own leading spaces plus two, at most eight)."""
    width = max(1, width)
    if indent is None:
        lead = len(line.plain) - len(line.plain.lstrip(" "))
        indent = min(8, lead + 2)
    out: list[Text] = []
    line = line.copy()
    while line.cell_len > width:
        plain = line.plain
        cut, sep = -1, ""
        for candidate in SEPARATORS:
            keep = 1 if candidate == ", " else 0
            end = len(plain)
            while True:
                at = plain.rfind(candidate, 0, end)
                if at <= indent or not plain[:at].strip():
                    break
                if _head_fits(line, at, keep, width):
                    cut, sep = at, candidate
                    break
                end = at
            if cut > 0:
                break
        if cut < 0:  # one item wider than the room: cut it (nothing else is)
            line.truncate(max(1, width - 1))
            line.append("…", style="dim")
            break
        keep = 1 if sep == ", " else 0
        out.append(line[: cut + keep])
        line = Text(" " * indent) + line[cut + len(sep) :]
    line.no_wrap = True
    out.append(line)
    for row in out:
        row.no_wrap = True
    return out


def break_rows(lines: list[Text], width: int) -> list[Text]:
    return [row for line in lines for row in break_row(line, width)]
