"""Keyboard-only drivers for pilot tests: start games from the menu and play them."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input

from coldwater.core.state import State
from coldwater.tui.screens.handover import HandOverScreen
from coldwater.tui.screens.newgame import NewGameScreen
from coldwater.tui.screens.score import ScoreScreen
from coldwater.tui.screens.table import TableScreen
from coldwater.tui.widgets.choices import ChoiceList
from coldwater.tui.widgets.form import Cycler


async def key(pilot: Pilot[Any], name: str) -> None:
    """Press one key, as the terminal driver delivers it, and wait until it is handled.

    ``pilot.press`` waits for the whole process to go idle (tens of ms per key),
    which makes a 250-decision game slow; waiting for the screen's queues to drain
    is enough here, because the table screen says itself when it is busy.
    """
    app = pilot.app
    char = name if len(name) == 1 else None
    event = events.Key(name, char)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)
    await pilot._wait_for_screen()


async def settle(pilot: Pilot[Any]) -> None:
    """Every message queued on the screen handled and the screen laid out and drawn now,
    so its text can be read: what ``pilot.pause()`` ensures, without its wait for the
    whole process to go idle (20 ms at the least each time, up to a second on a busy
    machine; a whole game by keys reads the screen a thousand times)."""
    for _ in range(2):  # the first layout may queue work (scrolls, after-refresh calls)
        await pilot._wait_for_screen()
        pilot.app.screen._on_timer_update()
    await pilot._wait_for_screen()


async def press_choice(pilot: Pilot[Any], screen: TableScreen[Any, Any], name: str, *, must: bool = True) -> bool:
    """A key that makes a choice: wait until the choice list is replaced (pressing again before that
    would answer the old list). False if it never was (with `must`, that fails the test)."""
    choices = screen.query_one("#decision", ChoiceList)
    generation = choices.generation
    await key(pilot, name)
    for _ in range(5000):
        if choices.generation != generation or pilot.app.screen is not screen:
            return True
        await asyncio.sleep(0.001)
    if must:
        raise AssertionError(f"key {name!r} did not make a choice")
    return False


async def key_until(pilot: Pilot[Any], name: str, done: Callable[[], bool], limit: float = 10.0) -> None:
    """Press one key (:func:`key`) and wait until `done()` says it was handled: cheaper than
    ``pilot.press``, which waits twice for the whole process to go idle (20 ms at least)."""
    await key(pilot, name)
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while not done():
        if loop.time() > end:
            raise AssertionError(f"key {name!r} had no effect")
        await asyncio.sleep(0.001)


async def page_down(pilot: Pilot[Any], screen: TableScreen) -> bool:
    """PgDn on the board or the open pane, and wait until its scroll (animated) has
    landed and been drawn; False, pressing nothing, when it is already at the end."""
    scroller: Any = screen.panes.scroller()
    if scroller.scroll_y >= scroller.max_scroll_y:
        return False
    target = scroller.scroll_target_y
    await key_until(pilot, "pagedown", lambda: scroller.scroll_target_y != target)
    await pilot.wait_for_animation()
    await settle(pilot)
    return True


async def focus(pilot: Pilot[Any], selector: str | Widget, limit: int = 40) -> None:
    """Press Tab until the widget (or the one matching `selector`) has focus."""
    target = pilot.app.screen.query_one(selector) if isinstance(selector, str) else selector
    for _ in range(limit):
        if pilot.app.focused is target:
            return
        before = pilot.app.focused
        await key_until(pilot, "tab", lambda: pilot.app.focused is not before)
    raise AssertionError(f"could not reach {selector} with Tab")


async def set_cycler(pilot: Pilot[Any], selector: str | Cycler, value: Any) -> None:
    await focus(pilot, selector)
    cycler = pilot.app.screen.query_one(selector, Cycler) if isinstance(selector, str) else selector
    for turn in range(len(cycler.choices) + 1):
        if cycler.value == value:
            if turn:
                # A change rebuilds parts of the form (a game's options, a reserved seat's
                # fingerprint field) in handlers of its own: let them run before going on.
                await pilot.pause()
            return
        before = cycler.value
        await key_until(pilot, "right", lambda: cycler.value != before)
    raise AssertionError(f"{selector} never showed {value!r}")


async def type_text(pilot: Pilot[Any], selector: str, text: str) -> None:
    """Type `text` into the focused input `selector`, a key per character."""
    box = pilot.app.screen.query_one(selector, Input)
    for ch in text:
        if ch.isalnum():
            before = box.value
            await key_until(pilot, ch, lambda: box.value != before)
        else:  # a key with a name of its own ("slash"): pilot.press knows them
            await pilot.press(ch)


async def start_game(
    pilot: Pilot[Any],
    *,
    mode_key: str,
    game: str,
    seats: list[str],
    seed: str,
    options: dict[str, Any] | None = None,
    content: str | None = None,
) -> None:
    """From the menu: open the form with `mode_key`, fill it in by keyboard, start.

    `seats` holds each seat's kind as the form names it: ``person`` or ``bot:NAME``;
    `content` is typed into *Card data*.
    """
    await pilot.press(mode_key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, NewGameScreen)
    await set_cycler(pilot, "#game", game)
    await set_cycler(pilot, "#players", len(seats))
    for i, kind in enumerate(seats):
        await set_cycler(pilot, f"#seat-{i}", kind)
    for name, value in (options or {}).items():
        for c in pilot.app.screen.query(".option").results(Cycler):
            if getattr(c, "option_name", None) == name:
                await set_cycler(pilot, c, value)
    if content is not None:
        await focus(pilot, "#content-path")
        await pilot.press(*content)
    await focus(pilot, "#seed")
    await type_text(pilot, "#seed", seed)
    await focus(pilot, "#start")
    await pilot.press("enter")
    await pilot.pause()


async def play(
    pilot: Pilot[Any], *, max_presses: int = 5000, stop_after: int | None = None, handovers: list[str] | None = None
) -> int:
    """Answer every decision with keys until the score screen (or `stop_after` presses).

    Choices rotate through the list's hotkeys so the play is varied but repeatable.
    Returns the number of choices made.
    """
    made = 0
    for _ in range(max_presses * 20):
        screen = pilot.app.screen
        if isinstance(screen, ScoreScreen):
            return made
        if isinstance(screen, HandOverScreen):
            if handovers is not None:
                handovers.append(screen.player)
            await key(pilot, "enter")
            for _ in range(5000):  # one Enter only: a second would answer the table
                if pilot.app.screen is not screen:
                    break
                await asyncio.sleep(0.001)
            continue
        if isinstance(screen, TableScreen) and screen.my_turn() and not screen.busy:
            choices = screen.query_one("#decision", ChoiceList)
            keys = [k for k in "1234567890abcdefghijklmnopqrstuvwxyz" if choices.has_key(k)]
            assert keys, "a person's turn with no choices"
            pick = keys[(made * 7 + 3) % len(keys)] if len(keys) > 1 else keys[0]
            await press_choice(pilot, screen, pick)
            made += 1
            if stop_after is not None and made >= stop_after:
                return made
            if made >= max_presses:
                raise AssertionError("the game did not end")
            continue
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()
    raise AssertionError(f"stuck on {pilot.app.screen!r}")


Pick = Callable[[State[Any, Any], list[Any], int], Any]
"""A policy for :func:`by_table`: (the person's view, its legal actions, decisions made so far) -> the action."""


async def by_table(screen: TableScreen, pick: Pick, made: int, upto: int) -> int:
    """Make the person's decisions number `made` .. `upto` - 1 straight on the table the
    screen drives (``submit``, then ``step`` until a person is asked again), with no key
    and no repaint in between; then hand the table back to the screen (``drive``), which
    draws the position reached (or finishes the game). Returns the decisions made.

    The second whole game of a title goes through here between the decisions it checks
    on the screen: a key costs a repaint of the whole table, and the first game already
    pressed one for every decision.
    """
    t = screen.table
    assert screen.my_turn() and not screen.busy, "take the table only while the screen waits for the person"
    while made < upto and t.waiting_for_person:
        view = t.view(t.current)
        action = pick(view, view.legal(), made)
        t.submit(action)  # (the log describes it from the position before it, which its event carries)
        made += 1
        while True:  # bots and chance, until a person is asked or the game ends
            if not await t.step():
                break
    screen.drive()
    return made


def rotating(view: State[Any, Any], legal: list[Any], made: int) -> Any:
    """:func:`play`'s rotation through the choices, for :func:`by_table`."""
    return legal[(made * 7 + 3) % len(legal)]


async def play_sampled(
    pilot: Pilot[Any], *, keys_first: int = 20, sample_every: int = 10, pick: Pick = rotating
) -> int:
    """:func:`play` for the first `keys_first` decisions, then every `sample_every`-th by
    key and the others straight on the table the screen drives (:func:`by_table`, which a
    LAN host's and a joined peer's tables take too), until the score screen. Returns the
    decisions made."""
    made = await play(pilot, stop_after=keys_first)
    loop = asyncio.get_running_loop()
    end = loop.time() + 300
    while not isinstance(pilot.app.screen, ScoreScreen):
        assert loop.time() < end, f"stuck on {pilot.app.screen!r} after {made} decisions"
        screen = pilot.app.screen
        if isinstance(screen, TableScreen) and screen.my_turn() and not screen.busy:
            if made % sample_every:
                made = await by_table(screen, pick, made, made + sample_every - made % sample_every)
            else:
                made += await play(pilot, stop_after=1)
            continue
        await asyncio.sleep(0.002)
        await pilot._wait_for_screen()
    return made
