"""Your-turn notices (tui/serve/notify.py): in the terminal of a key whose app is on screen (OSC 9, OSC
777, a bell; through tmux's passthrough), never inside one of the app's own sequences, and the host's
`--notify` hook."""

from __future__ import annotations

import asyncio
import os
import random
import stat
from pathlib import Path

import asyncssh
import pytest

from coldwater.tui import serve
from coldwater.tui.serve import notify
from coldwater.tui.serve.notify import Rest
from coldwater.tui.serve.turnwire import OpenTurnTable
from tests.tui.serve.sshclient import MENU, Raw, connect

PIECES = [b"ab", b"\x1b[1;2H", b"c", "é".encode(), b"\x1b]0;title\x07", b"d", b"\x1bP+q\x1b\\", "€".encode(), b"\x1b(B"]


def test_the_stream_is_at_rest_only_between_two_sequences_or_characters() -> None:
    stream = b"".join(PIECES)
    bounds = {0}
    for p in PIECES:
        bounds.add(max(bounds) + len(p))
    bounds |= {1}  # ("a" | "b": plain letters)
    for cut in range(len(stream) + 1):
        r = Rest()
        r.feed(stream[:cut])
        assert r.at_rest == (cut in bounds), (cut, stream[:cut])
        r.feed(stream[cut:])
        assert r.at_rest  # and the rest brings it back


def test_a_notice_is_osc_9_osc_777_and_a_bell_with_nothing_that_could_escape() -> None:
    out = notify.notice("coldwater", "your turn at Pond\x1b]52;c;evil\x07; (Crown)", "xterm-256color")
    assert out.startswith(b"\x1b]9;coldwater: your turn at Pond") and out.endswith(b"\x07\x07")
    assert b"\x1b]777;notify;coldwater;your turn at Pond" in out
    assert out.count(b"\x1b") == 2 and out.count(b"\x07") == 3  # the two OSCs and the bell: nothing else
    r = Rest()
    r.feed(out)
    assert r.at_rest
    tmux = notify.notice("coldwater", "your turn", "tmux-256color")
    assert b"\x1bPtmux;\x1b\x1b]9;coldwater: your turn\x07\x1b\\" in tmux
    assert b"\x1bPtmux;\x1b\x1b]777;notify;coldwater;your turn\x07\x1b\\" in tmux


def test_notify_must_name_a_command_that_is_there() -> None:
    with pytest.raises(SystemExit):
        serve.parse_args(["--guests", "--notify", "/no/such/hook"])
    with pytest.raises(SystemExit):
        serve.parse_args(["--guests", "--notify", "'unclosed"])
    assert serve.parse_args(["--guests", "--notify", "true --quiet"]).notify == "true --quiet"


async def test_the_key_whose_turn_it_is_gets_a_notice_and_the_hook_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    fps = [serve.key_fingerprint(k.public_data) for k in keys]
    allowed = tmp_path / "allowed"
    allowed.write_bytes(b"".join(k.export_public_key() for k in keys))
    told = tmp_path / "told"
    hook = tmp_path / "hook.sh"
    hook.write_text(f'#!/bin/sh\necho "$1 $2 $COLDWATER_GAME" >> {told}\n')
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    cfg = serve.ServeConfig(
        port=0, bind="127.0.0.1", host_key=tmp_path / "hk", allow=allowed, advertise=False, notify=str(hook)
    )
    server = serve.Server(cfg, root=tmp_path / "data", log=lambda line: None)
    server.port = await server.start()  # type: ignore[attr-defined]
    turns = server.tables.turns
    assert turns is not None
    monkeypatch.setattr("coldwater.tui.serve.turns.BOT", "random")
    try:
        async with await connect(server, keys[0]) as conn:
            a = Raw(await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None))
            await a.until(MENU.encode())
            # Ben (not connected) opens a table with Ann, and plays until it is Ann's turn.
            pos = await turns.open(fps[1], OpenTurnTable(game="crown", name="Pond", seats=["me", fps[0]]))
            t = turns.tables[pos.info.id]
            rng = random.Random(2)
            ann = t.seat_of(fps[0])
            assert ann == 1
            while t.state.current != ann:
                mine = turns.view(fps[1], t.id)
                await turns.move(fps[1], t.id, mine.info.ply, rng.choice(mine.legal))
            want = notify.notice("coldwater", "your turn at Pond (Coldwater Crown)", "xterm-256color")
            await a.until(want)
            before = a.data[: a.data.index(want)]
            r = Rest()
            r.feed(before)
            assert r.at_rest  # it came between two of the app's own sequences
            for _ in range(200):
                if told.exists() and told.read_text():
                    break
                await asyncio.sleep(0.05)
            assert told.read_text() == f"{fps[0]} Pond crown\n"
            # Ann's own moves in her turn tell nobody; the turn passing to Ben tells Ben (not connected:
            # the hook only).
            while t.state.current == ann:
                mine = turns.view(fps[0], t.id)
                await turns.move(fps[0], t.id, mine.info.ply, rng.choice(mine.legal))
            assert a.data.count(want) == 1
            for _ in range(200):
                if len(told.read_text().splitlines()) == 2:
                    break
                await asyncio.sleep(0.05)
            assert told.read_text().splitlines() == [f"{fps[0]} Pond crown", f"{fps[1]} Pond crown"]
    finally:
        await server.close()
    assert os.environ.get("COLDWATER_KEY") is None  # (the hook's environment is its own)
