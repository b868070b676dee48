"""Readable in every terminal: the app in tmux, read back with its colours.

Each case starts the installed ``coldwater`` under one terminal setting (NO_COLOR,
an 8/16-colour TERM, a monochrome vt100, the ANSI theme that a light terminal
shows on white, the hex themes), captures the menu, the new-game form and a table
with ``capture-pane -e`` and checks every visible character against its
background on a dark and on a light terminal (:mod:`tests.tui.sgr`). A letter
drawn in (nearly) its background's colour fails the test with the row it is on.

Under NO_COLOR (and on a vt100) not one colour code may be sent, and what colour
told apart must still differ by attribute: the highlighted menu entry and choice,
and Crown's bait letters. ``TERM=dumb`` gets one line saying why the app cannot run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from coldwater.tui import termcaps
from tests.tui import sgr
from tests.tui.terminal import TMUX, Terminal

COLDWATER = Path(sys.executable).with_name("coldwater")

LEAST_CONTRAST = 1.5
"""Below this WCAG ratio a letter is, for a reader, in its background's colour (bright
yellow on white is 1.07, bright green on white 1.37; black on white is 21)."""

GAME_TITLES = {"crown": "Coldwater Crown", "fisheries": "Fisheries of Gloucester", "aquatica": "Aquatica"}

CASES: dict[str, tuple[dict[str, str], tuple[str, ...], tuple[sgr.Palette, ...]]] = {
    # name: (environment, arguments, the terminal backgrounds it may be shown on)
    "NO_COLOR=1 truecolor": ({"NO_COLOR": "1", "TERM": "xterm-256color", "COLORTERM": "truecolor"}, (), ()),
    "TERM=vt100": ({"TERM": "vt100"}, (), ()),
    "TERM=xterm": ({"TERM": "xterm"}, (), (sgr.DARK, sgr.LIGHT)),
    "TERM=linux": ({"TERM": "linux"}, (), (sgr.DARK,)),  # the Linux console is dark
    "--theme ansi": ({"TERM": "xterm-256color"}, ("--theme", "ansi"), (sgr.DARK, sgr.LIGHT)),
    "--theme dark on 16 colours": ({"TERM": "xterm"}, ("--theme", "dark"), (sgr.DARK, sgr.LIGHT)),
    "dark": ({"TERM": "xterm-256color"}, (), (sgr.DARK, sgr.LIGHT)),
    "--theme light truecolor": (
        {"TERM": "xterm-256color", "COLORTERM": "truecolor"},
        ("--theme", "light"),
        (sgr.DARK, sgr.LIGHT),
    ),
}
PLAIN = ("NO_COLOR=1 truecolor", "TERM=vt100")

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")


def run_app(home: Path, config: Path, env: Mapping[str, str], args: tuple[str, ...]) -> Terminal:
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.json").write_text('{"bot_delay": 0.0}')
    return Terminal([COLDWATER, *args], env={"COLDWATER_HOME": str(home), **env}, config_dir=config)


def coloured(term: Terminal) -> str:
    return term.tmux("capture-pane", "-e", "-p", "-t", "test")


CHOICE = re.compile(r"^ ?[0-9a-z]  \S")


def choice_rows(text: str) -> list[int]:
    """Rows of the table's choice list: below the board's edge (a row of ▔), each a
    hotkey, two spaces and a label in the left column."""
    lines = text.splitlines()
    edge = next((i for i, line in enumerate(lines) if line.strip() and set(line.strip()) == {"▔"}), None)
    if edge is None:
        return []
    return [i for i in range(edge + 1, len(lines)) if CHOICE.match(lines[i].split("▏")[0])]


def at_table(text: str) -> bool:
    return len(choice_rows(text)) >= 2 and "thinking" not in text


def open_table(term: Terminal, game: str) -> str:
    """From the menu, start a solo game of `game` and return the settled table, coloured."""
    shown = term.wait_for("Solo against bots")
    term.answer("s", shown)
    shown = term.settled(lambda s: "Solo game against bots" in s, "the new-game form")
    while f"◀ {GAME_TITLES[game]}" not in shown:
        shown = term.answer("Right", shown)
        shown = term.settled(lambda s: "◀ " in s, "the game field changing")
    term.answer("C-s", shown)
    term.settled(at_table, f"a {game} table with choices")
    return coloured(term)


def check(name: str, screen: str, what: str) -> None:
    _env, _args, palettes = CASES[name]
    rows, codes = sgr.cells(screen)
    if name in PLAIN:
        assert not codes, f"{name}: the {what} was sent colour codes {sorted(set(codes))[:8]}"
    faults = [fault for palette in palettes for fault in sgr.unreadable(rows, palette, LEAST_CONTRAST)]
    assert not faults, f"{name}: unreadable on the {what}:\n" + "\n".join(faults)


def label_attributes(rows: list[list[sgr.Cell]], y: int) -> tuple[bool, ...]:
    """The attributes of a row's first label letter (after its hotkey)."""
    text = "".join(c.char for c in rows[y])
    m = re.search(r"[0-9a-z]  (\S)", text)
    assert m is not None
    cell = rows[y][m.start(1)]
    return (*cell.attributes, cell.bg is not None)


def stands_out(rows: list[list[sgr.Cell]], ys: list[int]) -> bool:
    """One of these rows is drawn unlike the rest (the highlighted one)."""
    looks = [label_attributes(rows, y) for y in ys]
    return any(looks.count(look) == 1 for look in looks) and len(set(looks)) == 2


@pytest.fixture
def config(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


@pytest.mark.parametrize("name", sorted(CASES))
def test_menu_form_and_crown_table_are_readable(name: str, home: Path, config: Path) -> None:
    env, args, _palettes = CASES[name]
    term = run_app(home, config, env, args)
    try:
        term.wait_for("Solo against bots")
        menu = coloured(term)
        check(name, menu, "menu")
        rows, _ = sgr.cells(menu)
        entries = [y for y, row in enumerate(rows) if re.match(r"^\s+[shojrputq]  \S", "".join(c.char for c in row))]
        assert len(entries) == 9 and stands_out(rows, entries), f"{name}: no menu entry is highlighted"
        table = open_table(term, "crown")
        check(name, table, "Crown table")
        rows, _ = sgr.cells(table)
        ys = choice_rows(term.screen())
        assert stands_out(rows, ys), f"{name}: the highlighted choice looks like the others:\n{term.last}"
        if name in PLAIN:
            baits_told_apart(rows)
    finally:
        term.close()


def baits_told_apart(rows: list[list[sgr.Cell]]) -> None:
    """Crown's bait letters (B R P K G Y) after a Line's "3:" and the like: each letter
    always drawn the same way, no two letters alike, none plain."""
    looks: dict[str, set[tuple[bool, ...]]] = {}
    for row in rows:
        text = "".join(c.char for c in row)
        for m in re.finditer(r"\b[3-6]:([BRPKGY]+)\b", text):
            for i in range(m.start(1), m.end(1)):
                looks.setdefault(text[i], set()).add(row[i].attributes)
    assert len(looks) >= 3, f"too few bait letters on the board to compare: {sorted(looks)}"
    for letter, seen in looks.items():
        assert len(seen) == 1, f"bait {letter} is drawn in {len(seen)} ways"
        assert any(next(iter(seen))), f"bait {letter} is plain: nothing tells it from the others"
    kinds = [next(iter(s)) for s in looks.values()]
    assert len(set(kinds)) == len(kinds), f"two bait letters look alike: {looks}"


@pytest.mark.parametrize("game", ["fisheries", "aquatica"])
@pytest.mark.parametrize("name", ["NO_COLOR=1 truecolor", "TERM=xterm"])
def test_the_other_tables_are_readable(name: str, game: str, home: Path, config: Path) -> None:
    env, args, _palettes = CASES[name]
    term = run_app(home, config, env, args)
    try:
        table = open_table(term, game)
        check(name, table, f"{game} table")
    finally:
        term.close()


def test_a_dumb_terminal_gets_one_line_saying_why(home: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "TERM"} | {"TERM": "dumb", "COLDWATER_HOME": str(home)}
    done = subprocess.run([COLDWATER], env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "TERM=dumb" in lines[0] and "terminal" in lines[0], done.stderr


@pytest.mark.parametrize(
    "env, plain",
    [
        ({"NO_COLOR": "1"}, True),
        ({"NO_COLOR": "0"}, True),  # any non-empty value (no-color.org)
        ({"NO_COLOR": ""}, False),  # empty is unset
        ({"TERM": "vt100"}, True),
        ({"TERM": "vt220-w"}, True),
        ({"TERM": "xterm"}, False),
        ({"TERM": "linux"}, False),
    ],
)
def test_when_colour_is_off(env: dict[str, str], plain: bool) -> None:
    assert termcaps.no_color(env) is plain


@pytest.mark.parametrize("term", ["dumb", "", "unknown"])
def test_terminals_that_cannot_run_the_app(term: str) -> None:
    assert termcaps.cannot_run({"TERM": term}) is not None
    assert termcaps.cannot_run({}) is not None
    assert termcaps.cannot_run({"TERM": "xterm"}) is None
