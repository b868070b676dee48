"""A cheap, deterministic keyboard policy for whole Fisheries games in pilot tests.

It reads only what is on screen (the decision list and the cursor mode) and
answers with key presses: preserve when it can, catch fish, chart a tile with
the cursor (steered by arrows, ``r`` and ``f`` to the first legal spot), sail
to the cheapest square, keep the lobster, end the day. Every action but ending
the day spends hours or tiles, so a game always ends.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.pilot import Pilot

from coldwater.core.fisheries.actions import Pass
from coldwater.tui.games.fisheries import info
from coldwater.tui.games.fisheries.screen import FisheriesTableScreen, UiCmd
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.widgets.choices import ChoiceList

from .driver import Pick, by_table, key, press_choice, settle
from .screen_text import screen_text


async def press(pilot: Pilot[Any], name: str) -> None:
    """A key that only moves the cursor: handled once the screen's queues are empty."""
    await key(pilot, name)


async def choose(pilot: Pilot[Any], screen: FisheriesTableScreen, name: str) -> None:
    """A key that makes a choice or opens the cursor: wait until the list is replaced."""
    await press_choice(pilot, screen, name)


def tag_of(value: Any) -> str:
    if isinstance(value, UiCmd):
        return f"ui:{value.kind}"
    return str(value).split()[0]


def keys_by_value(choices: ChoiceList) -> list[tuple[str, Any]]:
    """(hotkey, value) of every entry with a hotkey, in list order."""
    by_oid = {oid: key for key, oid in choices._keys.items()}
    return [(by_oid[oid], v) for oid, v in choices._values.items() if oid in by_oid]


PREFERENCE = ("preserve", "fish", "ui:place", "ui:sail", "ui:put", "keep", "pass", "done", "end")


class Stats:
    def __init__(self) -> None:
        self.choices = 0
        self.cursor_placements = 0
        self.tiles = 0
        self.sails = 0
        self.handovers: list[str] = []
        self.tags: dict[str, int] = {}
        self.per_day: dict[tuple[int, int], int] = {}
        self.lobster_questions = 0
        self.cursor_uses: set[tuple[str, str]] = set()
        """(phase, cursor kind) pairs met: ("turn", "place"), ("bonus", "pick"), ..."""


async def steer_tile(pilot: Pilot[Any], screen: FisheriesTableScreen) -> None:
    """Drive the tile cursor by arrows, r and f onto the first legal spot, then Enter."""
    m = screen.mode
    assert m is not None and m.kind == "place"
    ctx = screen.ctx
    k, row, col = info.placement_anchor(ctx, m.shape, m.order[0])
    for n in range(9):
        if screen.mode.orient == k:
            break
        await press(pilot, "f" if n == 4 else "r")
    assert screen.mode.orient == k, "r and f reach every orientation"
    for _ in range(ctx.rows + ctx.cols):
        r, c = screen.mode.cursor
        if (r, c) == (row, col):
            break
        await press(pilot, "up" if r > row else "down" if r < row else "left" if c > col else "right")
    assert screen.mode.cursor == (row, col)
    assert screen.board.overlay.ghost_ok and screen.board.overlay.message.startswith("✓")
    await choose(pilot, screen, "enter")


def sail_key(screen: FisheriesTableScreen) -> str:
    """Enter if the cursor's square is next to a fish; else the hotkey of a square that is, or
    of the square furthest from shore."""
    m = screen.mode
    assert m is not None
    ctx = screen.ctx
    d = screen.table.state.data
    cur = info.cell_at(ctx, *m.cursor)

    def score(c: int) -> tuple[bool, int]:
        return any(d.fish[n] for n in ctx.neighbours[c]), ctx.col(c)

    best = max(m.order, key=lambda c: (score(c), -m.costs.get(c, 0)))
    if cur in m.targets and score(cur) >= score(best):
        return "enter"
    for hotkey, value in keys_by_value(screen.query_one("#decision", ChoiceList)):
        if value == m.targets[best]:
            return hotkey
    return "enter"


def check_parts(pilot: Pilot[Any], screen: FisheriesTableScreen) -> None:
    """On the rendered screen: the whole grid, each row on one line (nothing wraps), the
    card stacks and the standings; each player's board is on screen or behind the
    Board key (F2) in the footer."""
    text = screen_text(pilot.app)
    rows = text.splitlines()
    ctx = screen.ctx
    letters = [chr(97 + c) for c in range(ctx.cols)]
    assert any(row.replace("•", " ").replace("◆", " ").split()[: ctx.cols] == letters for row in rows), (
        f"the grid's column letters are not on one row:\n{text}"
    )
    for r in range(1, ctx.rows + 1):
        # (A row the last move changed has a • beside it, in the board's left column, and a ◆
        # before each thing on it that changed.)
        assert any(row.lstrip(" •◆").startswith(f"{r} ") and len(row.split()) >= 3 for row in rows), (
            f"grid row {r}:\n{text}"
        )
    d = screen.current_view().data
    assert "Stacks (top card)" in text or "Preservation stacks" in text or "Market" in text, "no card stacks"
    names = [s.name for s in screen.table.seats]
    assert all(f"{n} " in rows[1] for n in names) and " pt" in rows[1], f"standings: {rows[1]}"
    footer = rows[-1]
    for n in names:
        assert n[:11] in text or "Board" in footer, f"{n}'s board is neither on screen nor behind a key"
    assert (
        d.phase != "lobster"
        or screen.query_one("#decision", ChoiceList).highlighted_value is None
        or tag_of(screen.query_one("#decision", ChoiceList).highlighted_value) != "lobster"
    ), "lobster highlighted"


TABLE_PREFERENCE = ("preserve", "fish", "chart", "btile", "bship", "sail", "keep", "pass", "done", "end")


def table_pick(st: Stats, per_day: int) -> Pick:
    """The keyboard policy's preferences for :func:`by_table`, on the actions themselves."""

    def pick(view: Any, legal: list[Any], made: int) -> Any:
        d = view.data
        today = (d.turn, d.day)
        rank = {t: n for n, t in enumerate(TABLE_PREFERENCE)}
        if st.per_day.get(today, 0) >= per_day and any(tag_of(a) == "end" for a in legal):
            rank["end"] = -1
        if d.phase == "turn":
            st.per_day[today] = st.per_day.get(today, 0) + 1
        value = min(legal, key=lambda a: rank.get(tag_of(a), len(rank)))
        st.tags[tag_of(value)] = st.tags.get(tag_of(value), 0) + 1
        return value

    return pick


async def play_fisheries(
    pilot: Pilot[Any],
    stats: Stats | None = None,
    *,
    max_choices: int = 1500,
    cursor_every: int = 3,
    per_day: int = 4,
    check: bool = True,
    max_days: int = 99,
    table_after: int | None = None,
    sample_every: int = 10,
) -> Stats:
    """Play by keyboard until the score screen: at most `per_day` actions a day, then end it.
    Tiles go down with the cursor every `cursor_every`-th time (by hotkey otherwise); with
    `check`, the rendered screen is checked at every decision (:func:`check_parts`).
    From decision `table_after` on, only every `sample_every`-th decision is made (and
    checked) on the screen; the others go straight to the table (:func:`by_table`, with
    the same preferences, the first legal spot for a tile, the first square to sail to)."""
    st = stats or Stats()
    for _ in range(max_choices * 40):
        screen = pilot.app.screen
        if isinstance(screen, ScoreScreen):
            return st
        if isinstance(screen, FisheriesTableScreen) and screen.table.state.data.day > max_days:
            return st
        if isinstance(screen, HandOverScreen):
            st.handovers.append(screen.player)
            await key(pilot, "enter")
            await pilot._wait_for_screen()
            continue
        if (
            not (isinstance(screen, FisheriesTableScreen) and screen.my_turn() and not screen.busy)
            or screen.answers.ply == screen.table.state.ply
        ):
            await asyncio.sleep(0.002)
            await pilot._wait_for_screen()
            continue
        n = st.choices
        if table_after is not None and n >= table_after and (n - table_after) % sample_every and screen.mode is None:
            st.choices = await by_table(
                screen, table_pick(st, per_day), n, n + sample_every - (n - table_after) % sample_every
            )
            assert st.choices <= max_choices, "the game did not end"
            continue
        if check:
            for attempt in range(5):  # a board that changed layout lands a frame or two later
                await (settle(pilot) if attempt == 0 else pilot.pause())
                try:
                    check_parts(pilot, screen)
                    break
                except AssertionError:
                    if attempt == 4:
                        raise
                    await pilot.pause(0.05)
        st.choices += 1
        assert st.choices <= max_choices, "the game did not end"
        m = screen.mode
        if m is not None:
            st.cursor_uses.add((screen.table.state.data.phase, m.kind))
            if m.kind == "place":
                st.tiles += 1
                if st.tiles % cursor_every == 1:
                    st.cursor_placements += 1
                    await steer_tile(pilot, screen)
                else:
                    await choose(pilot, screen, "1")  # the first listed spot, by its hotkey
            else:
                st.sails += 1
                await choose(pilot, screen, sail_key(screen))
            continue
        entries = keys_by_value(screen.query_one("#decision", ChoiceList))
        if not entries:  # a question that answered itself: the move is on its way
            st.choices -= 1
            await asyncio.sleep(0.002)
            continue
        d = screen.table.state.data
        today = (d.turn, d.day)
        rank = {t: n for n, t in enumerate(PREFERENCE)}
        if st.per_day.get(today, 0) >= per_day and any(tag_of(v) == "end" for _, v in entries):
            rank["end"] = -1
        if d.phase == "turn":
            st.per_day[today] = st.per_day.get(today, 0) + 1
        if d.phase == "lobster":
            st.lobster_questions += 1
            choices = screen.query_one("#decision", ChoiceList)
            # Keeping it leaves the turn as it was: the default; discarding it spends it (issue 45).
            assert tag_of(choices.highlighted_value) == "pass", "keeping the lobster is not the default"
            assert choices.key_for(Pass()) == "e", "keeping the lobster is not on e (it ends the turn)"
            if st.lobster_questions == 1:
                st.tags["pass"] = st.tags.get("pass", 0) + 1
                await settle(pilot)
                for _ in range(len(choices.values)):  # highlight "Keep" with the arrows
                    await key(pilot, "down")
                    await settle(pilot)
                    if tag_of(choices.highlighted_value) == "pass":
                        break
                assert tag_of(choices.highlighted_value) == "pass", (
                    choices.highlighted,
                    choices.values,
                    pilot.app.focused,
                )
                await choose(pilot, screen, "exclamation_mark")  # keep it, and do not ask again this game
                assert screen.answers.always, "! did not stick"
                continue
        hotkey, value = min(entries, key=lambda kv: rank.get(tag_of(kv[1]), len(rank)))
        st.tags[tag_of(value)] = st.tags.get(tag_of(value), 0) + 1
        await choose(pilot, screen, hotkey)
    raise AssertionError(f"stuck on {pilot.app.screen!r}")
