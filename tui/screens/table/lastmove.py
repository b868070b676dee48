"""The last move on the board (issue 45): what the other seats changed since the person last
acted is marked on the board until they act again: each thing they touched (a space, a zone, a
card, a tile's square: whatever the board writes as one item of a row) gets the board's
THING mark just before it and what changed in it is underlined, and its row gets the MARK in
the board's left column (BoardView).

The board is read as drawn (its rows as text, at its width) twice: when the others start
(the board then shows the position the person left) and when the person's turn comes back.
The rows that differ, or are new, are marked, and on each such row the things that differ
from the row it replaced. Both readings happen while others play, never on a keypress; a key
only clears the marks. Any game, any size and theme: the marks are symbols in the board's own
cells (NO_COLOR and TERM=xterm read them), the underline a text attribute.

A row's *things* are the items it lists: the runs of text between separators (two spaces or
more, " │ ", " · ", " › "), as every board lays out its rows (``widgets/rows.py`` breaks rows
at the same separators). A long item with a part changed (a player's summary where one zone
got bait) has only the words that changed underlined.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len

if TYPE_CHECKING:
    from coldwater.tui.widgets.board import BoardView

Span = tuple[int, int]
"""A part of a row, in cells from the row's left edge: (start, end)."""

Mark = tuple[int, int, int]
"""A changed thing on a row, in cells: (where the thing starts, start, end of what changed in it)."""

THING_SEPARATOR = re.compile(r" *[│›] +| *· (?=\S)| {2,}")
"""What separates two things on a board row: two spaces or more, or a " │ ", " › " or " · " (a
"·" with two spaces after it is a thing: an empty square on a grid)."""

LONG_THING = 4
"""Words in a thing above which its changed word, not the thing's start, is marked."""


def _plain(row: str) -> str:
    # Whose turn it is (▶) moves with every turn: not a change a move made; nor is the room
    # the pointer leaves or takes.
    return " ".join(row.replace("▶", " ").split())


def things(row: str) -> list[tuple[int, int]]:
    """The things on `row`: (start, end) character indices of each item, left to right."""
    out: list[tuple[int, int]] = []
    at = 0
    for sep in [*THING_SEPARATOR.finditer(row), None]:
        end = sep.start() if sep is not None else len(row.rstrip())
        text = row[at:end]
        if text.strip():
            lead = len(text) - len(text.lstrip())
            out.append((at + lead, at + len(text.rstrip())))
        if sep is None:
            break
        at = sep.end()
    return out


def cells(row: str, span: tuple[int, int]) -> Span:
    """Character indices `span` of `row` as cells (a wide character takes two)."""
    return cell_len(row[: span[0]]), cell_len(row[: span[1]])


def changed_rows(before: list[str], after: list[str]) -> frozenset[int]:
    """Rows of `after` that are not in `before` where they stand (changed or added)."""
    return frozenset(changed_things(before, after))


def _words(text: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"\S+", text)]


def _changed_in(old: str | None, new: str) -> list[tuple[int, int, int]]:
    """The things of row `new` that differ from row `old` (None: a new row, every thing), as
    (thing start, changed start, changed end) character indices: a long thing with some words
    changed, only those words."""
    mine = things(new)
    if old is None:
        return [(a, a, b) for a, b in mine]
    theirs = [_plain(old[a:b]) for a, b in things(old)]
    ours = [_plain(new[a:b]) for a, b in mine]
    out: list[tuple[int, int, int]] = []
    matcher = difflib.SequenceMatcher(None, theirs, ours, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for j in range(j1, j2):
            a, b = mine[j]
            start = a
            words = _words(new[a:b])
            if tag == "replace" and len(words) > LONG_THING and i2 - i1 == j2 - j1:
                was = theirs[i1 + j - j1].split()
                now = [new[a + x : a + y] for x, y in words]
                head = 0
                while head < min(len(was), len(now)) and was[head] == now[head]:
                    head += 1
                tail = 0
                while tail < min(len(was), len(now)) - head and was[-1 - tail] == now[-1 - tail]:
                    tail += 1
                last = max(head, len(now) - tail - 1)
                head = min(head, len(now) - 1)
                a, b = a + words[head][0], a + words[last][1]
            out.append((start, a, b))
    return out


def _likeliest(row: str, candidates: list[str]) -> str | None:
    """The row of `candidates` with the most of `row`'s words (None: none shares one): a row
    broken onto two, or pushed down by one, is compared with the row it came from."""
    mine = _plain(row).split()
    best, score = None, 0.0
    for old in candidates:
        ratio = difflib.SequenceMatcher(None, _plain(old).split(), mine, autojunk=False).ratio()
        if ratio > score:
            best, score = old, ratio
    return best


PANEL_GAP = re.compile(r" {6,}")
"""Between two panels side by side on one row (a wide board's columns): each panel's part of a row
is compared with the part of the old row in the same column, as rows of their own."""


def _panels(row: str) -> list[tuple[int, int]]:
    """The parts of `row` between wide gaps: (start, end) character indices."""
    out, at = [], 0
    for gap in [*PANEL_GAP.finditer(row), None]:
        end = gap.start() if gap is not None else len(row.rstrip())
        if row[at:end].strip():
            out.append((at, end))
        if gap is None:
            break
        at = gap.end()
    return out


def _distinctive(thing: str) -> bool:
    """Whether `thing` names something (a card, a Location) rather than a mark any square may
    have (a grid's "·", "O", "▲2"): a named thing found elsewhere moved, a mark did not."""
    return len(thing) >= 8 or (" " in thing and len(thing) >= 6)


def changed_things(before: list[str], after: list[str]) -> dict[int, list[Mark]]:
    """Row of `after` -> each thing on it that is not in `before` (rows changed or added), in
    cells (:data:`Mark`). A blank row is never marked, nor a part of a row whose things all stand
    in the part it came from (it only moved, or was broken onto two)."""
    out: dict[int, list[Mark]] = {}
    # What stood anywhere on the board before: a part of a row, or a named thing, found again
    # elsewhere moved (a list that lost an item; two columns that shift apart).
    seen = {_plain(row[a:b]) for row in before for a, b in _panels(row)}
    old_things = {_plain(row[a:b]) for row in before for a, b in things(row)}
    old = [_plain(row) for row in before]
    new = [_plain(row) for row in after]
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag not in ("replace", "insert"):
            continue
        parts = [(i, cell_len(before[i][:a]), before[i][a:b]) for i in range(i1, i2) for a, b in _panels(before[i])]
        for j in range(j1, j2):
            row = after[j]
            marks: list[Mark] = []
            for a, b in _panels(row):
                if _plain(row[a:b]) in seen:
                    continue  # the same part stood elsewhere before: it moved, nothing in it changed
                x = cell_len(row[:a])
                # The old part in the same column (within a few cells): where the block kept its
                # number of rows, the one at the same place (a grid's row), else the most alike.
                near = [(i, text) for i, ox, text in parts if abs(ox - x) <= 3] if tag == "replace" else []
                same = i1 + j - j1 if i2 - i1 == j2 - j1 else -1
                was = next((text for i, text in near if i == same), None)
                if was is None:
                    was = _likeliest(row[a:b], [text for _, text in near])
                for t, c, d in _changed_in(was, row[a:b]):
                    if _distinctive(text := _plain(row[a + c : a + d])) and text in old_things:
                        continue  # a card or a named thing that stood elsewhere before: it moved
                    marks.append((cell_len(row[: a + t]), *cells(row, (a + c, a + d))))
            if marks:
                out[j] = marks
    return out


class LastMove:
    """The table's part that keeps the board as the person left it and marks what changed."""

    def __init__(self) -> None:
        self.armed = False
        """The person acted: the next time others start, read the board as they left it."""
        self.before: list[str] | None = None

    def acted(self, board: BoardView[Any]) -> None:
        """The person made a move: their marks go, and the next reading is armed."""
        self.armed = True
        self.before = None
        board.set_marks({})

    def others_start(self, board: BoardView[Any]) -> None:
        """Another seat starts to play: the board shows the position the person left."""
        if self.armed:
            self.armed = False
            self.before = board.row_texts()

    def back_to_you(self, board: BoardView[Any]) -> None:
        """The person's turn is back (the board shows it now): mark what the others changed."""
        if self.before is not None:
            board.set_marks(changed_things(self.before, board.row_texts()))
            self.before = None
