"""Read back what a terminal shows, colours included, from ``tmux capture-pane -e``.

tmux writes each row as text with SGR sequences (``ESC [ … m``) wherever the
attributes change. :func:`cells` turns that into one :class:`Cell` per character
with its foreground, background and attributes, so a test can ask what a person
would see: which colour a letter is drawn in and on what.

A colour is ``None`` (the terminal's own default), an int 0–255 (a palette index)
or an ``(r, g, b)`` tuple (truecolor). :func:`rgb` resolves one against a
:class:`Palette`, since what "default" and "index 3" look like is the terminal's
choice: the test checks against both a dark and a light one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Colour = int | tuple[int, int, int] | None

SGR = re.compile(r"\x1b\[([0-9;:]*)m")
OTHER_ESCAPE = re.compile(r"\x1b(?:\[[0-9;?]*[A-Za-ln-z]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>])")


@dataclass(frozen=True)
class Cell:
    char: str
    fg: Colour = None
    bg: Colour = None
    bold: bool = False
    dim: bool = False
    italic: bool = False
    underline: bool = False
    reverse: bool = False

    @property
    def attributes(self) -> tuple[bool, bool, bool, bool]:
        """What tells this cell apart without colour."""
        return (self.bold, self.underline, self.reverse, self.italic)


@dataclass
class _Pen:
    fg: Colour = None
    bg: Colour = None
    flags: dict[str, bool] = field(default_factory=dict)

    def reset(self) -> None:
        self.fg = self.bg = None
        self.flags = {}

    def cell(self, char: str) -> Cell:
        return Cell(char, self.fg, self.bg, **self.flags)


FLAGS_ON = {1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "reverse"}
FLAGS_OFF = {22: ("bold", "dim"), 23: ("italic",), 24: ("underline",), 27: ("reverse",)}


def _extended(params: list[int], i: int) -> tuple[Colour, int]:
    """A 38/48 colour starting at params[i] (the 5 or 2); returns it and the next index."""
    if i < len(params) and params[i] == 5 and i + 1 < len(params):
        return params[i + 1], i + 2
    if i < len(params) and params[i] == 2 and i + 3 < len(params):
        return (params[i + 1], params[i + 2], params[i + 3]), i + 4
    return None, len(params)


def _apply(pen: _Pen, text: str) -> list[str]:
    """Apply one SGR's parameters; returns the colour codes it used (for the no-colour check)."""
    params = [int(p) if p else 0 for p in re.split("[;:]", text)] if text else [0]
    colour_codes: list[str] = []
    i = 0
    while i < len(params):
        p = params[i]
        i += 1
        if p == 0:
            pen.reset()
        elif p in FLAGS_ON:
            pen.flags[FLAGS_ON[p]] = True
        elif p in FLAGS_OFF:
            for name in FLAGS_OFF[p]:
                pen.flags.pop(name, None)
        elif 30 <= p <= 37 or 90 <= p <= 97:
            pen.fg = p - 30 if p < 90 else p - 90 + 8
            colour_codes.append(str(p))
        elif 40 <= p <= 47 or 100 <= p <= 107:
            pen.bg = p - 40 if p < 100 else p - 100 + 8
            colour_codes.append(str(p))
        elif p in (38, 48):
            colour, i = _extended(params, i)
            if p == 38:
                pen.fg = colour
            else:
                pen.bg = colour
            colour_codes.append(f"{p};…")
        elif p == 39:
            pen.fg = None
        elif p == 49:
            pen.bg = None
    return colour_codes


def cells(capture: str) -> tuple[list[list[Cell]], list[str]]:
    """The screen as rows of cells, and every colour code that was sent."""
    pen = _Pen()
    rows: list[list[Cell]] = []
    codes: list[str] = []
    for line in capture.split("\n"):
        row: list[Cell] = []
        pos = 0
        line = OTHER_ESCAPE.sub("", line)
        for m in SGR.finditer(line):
            row.extend(pen.cell(ch) for ch in line[pos : m.start()])
            codes.extend(_apply(pen, m.group(1)))
            pos = m.end()
        row.extend(pen.cell(ch) for ch in line[pos:])
        rows.append(row)
    return rows, codes


@dataclass(frozen=True)
class Palette:
    """What a terminal shows for its default colours (the 16 named ones are xterm's)."""

    name: str
    fg: tuple[int, int, int]
    bg: tuple[int, int, int]


DARK = Palette("a dark terminal", fg=(229, 229, 229), bg=(0, 0, 0))
LIGHT = Palette("a light terminal", fg=(0, 0, 0), bg=(255, 255, 255))

XTERM_16: tuple[tuple[int, int, int], ...] = (
    (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
    (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255),
    (255, 255, 255),
)  # fmt: skip


def rgb(colour: Colour, default: tuple[int, int, int]) -> tuple[int, int, int]:
    if colour is None:
        return default
    if isinstance(colour, tuple):
        return colour
    if colour < 16:
        return XTERM_16[colour]
    if colour < 232:
        n = colour - 16
        steps = (0, 95, 135, 175, 215, 255)
        return steps[n // 36], steps[(n // 6) % 6], steps[n % 6]
    grey = 8 + 10 * (colour - 232)
    return grey, grey, grey


def _luminance(c: tuple[int, int, int]) -> float:
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours: 1 (the same) to 21 (black on white)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def seen(cell: Cell, palette: Palette) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The colours a person sees for a cell, letter then background (reverse swaps them)."""
    fg, bg = rgb(cell.fg, palette.fg), rgb(cell.bg, palette.bg)
    return (bg, fg) if cell.reverse else (fg, bg)


def unreadable(rows: list[list[Cell]], palette: Palette, least: float) -> list[str]:
    """Every row holding a visible character whose colours contrast less than `least`,
    described as the row's text with the characters at fault."""
    found: list[str] = []
    for y, row in enumerate(rows):
        bad = [c for c in row if not c.char.isspace() and contrast(*seen(c, palette)) < least]
        if bad:
            text = "".join(c.char for c in row).rstrip()
            chars = "".join(dict.fromkeys(c.char for c in bad))
            first = bad[0]
            found.append(
                f"row {y} {text!r}: {chars!r} drawn fg={first.fg} bg={first.bg} reverse={first.reverse} "
                f"on {palette.name} (contrast {contrast(*seen(first, palette)):.2f})"
            )
    return found
