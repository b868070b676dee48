"""Your-turn notices from `coldwater serve` (docs/ssh.md, "Your-turn notices").

Two ways out, both optional for the person and the host:

- **In the terminal** of a key whose app is on screen (anywhere in the app): a desktop notification
  by OSC 9 (iTerm2, Windows Terminal, WezTerm, Ghostty, ConEmu) and OSC 777 (rxvt-unicode, foot,
  Ghostty, WezTerm), which other terminals ignore, and a bell (BEL) as the fallback every terminal
  knows. Inside tmux (``TERM`` tmux-* or screen-*) each OSC is also wrapped in tmux's passthrough,
  which tmux forwards when ``set -g allow-passthrough on``; the bell goes through tmux regardless.
- **A hook** on the server (``coldwater serve --notify CMD``): CMD is run with the player's key
  fingerprint and the table's name as its two last arguments (and in ``COLDWATER_KEY``,
  ``COLDWATER_TABLE``, ``COLDWATER_GAME``), so a host can wire mail or a chat bot without the
  project knowing about either.

The server writes the terminal's notice into the stream of the app's own output, so it must never
land inside one of the app's escape sequences (or a UTF-8 character) cut across two reads:
:class:`Rest` follows that stream and says when it is between two of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import signal
from collections.abc import Callable

HOOK_TIMEOUT = 30.0
"""Seconds a --notify command may run before it is killed (with anything it started)."""

_UNSAFE = re.compile(r"[\x00-\x1f\x7f;]")


def clean(text: str, limit: int = 120) -> str:
    """Text safe inside an OSC string: no control characters (an ESC or BEL would end it early, or
    start something else), no ';' (OSC 777's separator); at most `limit` characters."""
    return _UNSAFE.sub(" ", text)[:limit]


def notice(title: str, body: str, term: str) -> bytes:
    """The bytes that make a terminal (and, where it can, the desktop) say `body`."""
    t, b = clean(title), clean(body)
    osc9 = f"\x1b]9;{t}: {b}\x07"
    osc777 = f"\x1b]777;notify;{t};{b}\x07"
    out = osc9 + osc777
    if term.startswith(("tmux", "screen")):
        # tmux's passthrough: DCS tmux; <the sequence, every ESC doubled> ST.
        out += "".join(f"\x1bPtmux;{s.replace(chr(27), chr(27) * 2)}\x1b\\" for s in (osc9, osc777))
    return (out + "\x07").encode()


class Rest:
    """Whether a terminal's byte stream is at rest: not inside an escape sequence or a UTF-8
    character. Fed every chunk in order; :attr:`at_rest` is true after a chunk that ended between two."""

    GROUND, ESC, CSI, STRING, STRING_ESC = range(5)

    def __init__(self) -> None:
        self.state = self.GROUND
        self.utf8 = 0
        """Continuation bytes still owed by the UTF-8 character being read."""

    @property
    def at_rest(self) -> bool:
        return self.state == self.GROUND and self.utf8 == 0

    def feed(self, data: bytes) -> None:
        for b in data:
            s = self.state
            if s == self.GROUND:
                if self.utf8:
                    if 0x80 <= b < 0xC0:
                        self.utf8 -= 1
                        continue
                    self.utf8 = 0  # a broken character: this byte starts afresh
                if b == 0x1B:
                    self.state = self.ESC
                elif 0xC0 <= b < 0xE0:
                    self.utf8 = 1
                elif 0xE0 <= b < 0xF0:
                    self.utf8 = 2
                elif 0xF0 <= b < 0xF8:
                    self.utf8 = 3
            elif s == self.ESC:
                if b == ord("["):
                    self.state = self.CSI
                elif b in (ord("]"), ord("P"), ord("_"), ord("^"), ord("X")):
                    self.state = self.STRING  # OSC, DCS, APC, PM, SOS: up to BEL or ST
                elif 0x20 <= b < 0x30:
                    pass  # an intermediate byte (ESC ( B): the final byte follows
                else:
                    self.state = self.GROUND
            elif s == self.CSI:
                if 0x40 <= b <= 0x7E:
                    self.state = self.GROUND
            elif s == self.STRING:
                if b == 0x07:
                    self.state = self.GROUND
                elif b == 0x1B:
                    self.state = self.STRING_ESC
            elif s == self.STRING_ESC:
                self.state = self.GROUND if b == ord("\\") else self.STRING


async def run_hook(command: str, player: str, table: str, game: str, log: Callable[[str], None]) -> None:
    """Run the host's `--notify` command for `player`'s turn at `table`; what goes wrong is logged."""
    argv = [*shlex.split(command), player, table]
    env = {**os.environ, "COLDWATER_KEY": player, "COLDWATER_TABLE": table, "COLDWATER_GAME": game}
    try:
        proc = await asyncio.create_subprocess_exec(
            *argv,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
            start_new_session=True,  # (its own group: a hook that hangs is killed whole)
        )
    except OSError as e:
        log(f"--notify could not run for {player} at {table!r}: {e}")
        return
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), HOOK_TIMEOUT)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
        log(f"--notify for {player} at {table!r} killed after {HOOK_TIMEOUT:.0f} s")
        return
    if proc.returncode:
        said = out.decode(errors="replace").strip()[-300:]
        log(f"--notify for {player} at {table!r} exited with {proc.returncode}: {said}")
