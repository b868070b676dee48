"""Tables hosted by `coldwater serve`: opened from a session, shared by SSH and LAN players.

The sessions are driven through asyncssh and read through pyte at 80×24, as in
test_server.py; the server's tables listen on loopback and are not announced
(the network-namespace test below puts a LAN player on another address).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import re
import socket
import subprocess
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncssh
import pytest

from coldwater.tui import serve
from tests.net.netlab import NetLab, why_not
from tests.tui.serve.sshclient import (
    DEADLINE,
    GIVEN_BACK,
    MENU,
    NEEDS_TERMINAL,
    Screen,
    after_ssh,
    connect,
    modes,
    open_app,
    openssh,
    ssh_argv,
    write_key,
)
from tests.tui.terminal import RESEND, Terminal
from tests.tui.test_tmux import STEP_3, first_key, question

LOBBY = "Lobby — "


@pytest.fixture
def keys() -> list[asyncssh.SSHKey]:
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]


@pytest.fixture
async def server(
    tmp_path: Path, keys: list[asyncssh.SSHKey], request: pytest.FixtureRequest
) -> AsyncIterator[serve.Server]:
    allowed = tmp_path / "allowed_keys"
    allowed.write_bytes(b"".join(k.export_public_key() for k in keys))
    extra = getattr(request, "param", {})
    cfg = serve.ServeConfig(
        port=0,
        bind="127.0.0.1",
        host_key=tmp_path / "host_key",
        allow=allowed,
        table_bind="127.0.0.1",
        advertise=False,
        **extra,
    )
    s = serve.Server(cfg, root=tmp_path / "data", log=lambda line: None)
    s.port = await s.start()  # type: ignore[attr-defined]
    try:
        yield s
    finally:
        await s.close()


async def menu(server: serve.Server, key: asyncssh.SSHKey) -> tuple[asyncssh.SSHClientConnection, Screen]:
    conn = await connect(server, key)
    app = await open_app(conn)
    await app.until(lambda s: MENU in s, "the main menu")
    return conn, app


async def host_table(app: Screen, reserve: str = "") -> str:
    """From the menu: Host a LAN table with the form's defaults (2 seats), seat 2 reserved for `reserve`."""
    app.proc.stdin.write(b"o")
    await app.until(lambda s: "Host a table on this server" in s and "Open table" in s, "the host form")
    if reserve:
        app.proc.stdin.write(b"\x1b[B\x1b[B")  # down to Seat 2
        await asyncio.sleep(0.3)
        app.proc.stdin.write(b"\x1b[C\x1b[C")  # open → bot → reserved
        await app.until(lambda s: "reserved for a key" in s, "seat 2 reserved")
        app.proc.stdin.write(b"\t")
        await asyncio.sleep(0.3)
        app.proc.stdin.write(reserve.encode())
        await app.until(lambda s: reserve in s, "the fingerprint typed")
    app.proc.stdin.write(b"\x13")  # Ctrl+S opens the table
    return await app.until(lambda s: LOBBY in s and "Seat 1" in s, "the lobby of the server's table")


async def join_served(app: Screen, what: str = "on this server") -> str:
    """From the menu: Join, then the first table of this server."""
    app.proc.stdin.write(b"j")
    # The list wraps a long line at 80 columns: compare with the words joined by single spaces.
    await app.until(lambda s: what in " ".join(s.split()), f"a table {what!r} in the join list")
    # The list has the focus once it shows a table; this server's tables come first, so key 1 picks
    # it (Up + Enter picked the last row when other tests' LAN tables were listed too).
    await asyncio.sleep(0.3)
    app.proc.stdin.write(b"1")
    return await app.until(lambda s: LOBBY in s or "Refused" in s, "the lobby or a refusal")


async def test_a_table_opened_over_ssh_is_hosted_by_the_server(
    server: serve.Server, keys: list[asyncssh.SSHKey]
) -> None:
    conn, app = await menu(server, keys[0])
    me = serve.key_fingerprint(keys[0].public_data)
    # (The menu's text and the key line under it may reach the client in separate writes.)
    await app.until(lambda s: f"Over SSH with key {me}" in s, "the key under the menu")
    shown = await host_table(app)
    assert f"SSH key {me}" in shown
    assert list(server.tables.tables) == ["Coldwater table"]
    assert "on this server" in shown
    # Leaving the lobby on purpose (Esc) closes the table the key opened; a drop would not.
    app.proc.stdin.write(b"\x1b")
    await app.until(lambda s: MENU in s, "the menu again")
    for _ in range(100):
        if not server.tables.tables:
            break
        await asyncio.sleep(0.05)
    assert not server.tables.tables
    conn.close()


def seat_row(shown: str, seat: int) -> str:
    return next((line for line in shown.splitlines() if line.strip().startswith(f"Seat {seat}")), "")


async def test_two_keys_share_a_table_that_outlives_its_hosts_app(
    server: serve.Server, keys: list[asyncssh.SSHKey]
) -> None:
    a_conn, a = await menu(server, keys[0])
    await host_table(a)
    b_conn, b = await menu(server, keys[1])
    shown = await join_served(b)
    assert LOBBY in shown, shown
    shown = await b.until(lambda s: "(you)" in seat_row(s, 2), "the joiner at seat 2")
    b_lan = server.tables.lan_identity(keys[1].public_data).fingerprint
    assert b_lan in seat_row(shown, 2)
    await a.until(lambda s: b_lan in seat_row(s, 2), "the joiner in the host's lobby")

    # The host's app goes away altogether (not just the connection): the table stays,
    # its seat 1 kept for the host's key, and the other player is still seated.
    pid = server.app_of(keys[0].public_data).child.pid  # type: ignore[union-attr]
    import os
    import signal

    os.kill(pid, signal.SIGKILL)
    await asyncio.wait_for(a.proc.wait_closed(), DEADLINE)
    a_conn.close()
    me = serve.key_fingerprint(keys[0].public_data)
    shown = await b.until(lambda s: f"reserved for SSH key {me}" in seat_row(s, 1), "seat 1 kept for the host's key")
    assert list(server.tables.tables) == ["Coldwater table"]

    # The same key comes back in a new connection (a new app) and sits back down.
    a_conn, a = await menu(server, keys[0])
    shown = await join_served(a, "your seat: sit back down")
    shown = await a.until(lambda s: "(you)" in seat_row(s, 1), "the host back at seat 1")
    await b.until(lambda s: "reserved for" not in seat_row(s, 1) and seat_row(s, 1), "the host back in the other lobby")
    a_conn.close()
    b_conn.close()


async def test_a_seat_reserved_for_an_ssh_key_refuses_other_keys(
    server: serve.Server, keys: list[asyncssh.SSHKey]
) -> None:
    friend = serve.key_fingerprint(keys[1].public_data)
    a_conn, a = await menu(server, keys[0])
    shown = await host_table(a, reserve=friend)
    assert f"reserved for SSH key {friend}" in seat_row(shown, 2)
    c_conn, c = await menu(server, keys[2])
    shown = await join_served(c)
    assert "the free seats are reserved for other keys" in " ".join(shown.split()), shown
    b_conn, b = await menu(server, keys[1])
    await join_served(b)
    await b.until(lambda s: "(you)" in seat_row(s, 2), "the friend at the seat kept for them")
    for conn in (a_conn, b_conn, c_conn):
        conn.close()


# Whole games by keys ---------------------------------------------------------------

QUIET = 0.1
"""A screen unchanged this long is settled. Short, as answers are safe to resend: `answer` sends
its key again if the screen does not change, and a key taken by the next question is still a
legal choice (the first one, or e). 0.3 s made the three-seat game 6 minutes, 0.1 s about 2.5; with
its LAN seat played by the greedy bot it took 61 s alone and 82 s in a whole loaded run (2026-12-02)."""


async def settled(app: Screen, ok: Callable[[str], bool], what: str) -> str:
    """The screen once `ok` accepts it and it stays the same for QUIET seconds (see tests/tui/terminal.py)."""
    while True:
        shown = await app.until(ok, what)
        await asyncio.sleep(QUIET)
        if app.text == shown:
            return shown


def over(shown: str) -> bool:
    return "final scores" in shown


async def answer(app: Screen, shown: str) -> None:
    """Take the first choice of the question on screen (or end the turn), as a person would."""
    key = "e" if question(shown) == STEP_3 else first_key(shown)
    for _ in range(6):  # a key that arrives while the table is busy is dropped: send it again
        app.proc.stdin.write(key.encode())
        try:
            await asyncio.wait_for(app.until(lambda s: s != shown, "a change"), RESEND)
            return
        except (AssertionError, TimeoutError):
            continue
    raise AssertionError(f"the screen did not answer {key!r}:\n{shown}")


def home_for(server: serve.Server, key: asyncssh.SSHKey) -> Path:
    """The key's data folder, made before it connects; bots there move without a pause."""
    home = serve.player_home(server.root, key.public_data)
    (home / "settings.json").write_text('{"bot_delay": 0.0}')
    return home


@pytest.mark.slow
async def test_a_whole_solo_game_over_ssh_with_a_resize(server: serve.Server, keys: list[asyncssh.SSHKey]) -> None:
    """Slow (a whole Crown game against one bot, by keys, a few minutes)."""
    home_for(server, keys[0])
    conn, app = await menu(server, keys[0])
    app.proc.stdin.write(b"s")
    await app.until(lambda s: "Solo game against bots" in s, "the new-game form")
    app.proc.stdin.write(b"\x13")
    answered = 0
    # Wider mid-game, then back to 80×24; the seed is new each game and a short one asks
    # about fifty questions, so both sizes come well before the end.
    sizes = {12: (100, 30), 30: (80, 24)}
    while True:
        shown = await settled(app, lambda s: question(s) is not None or over(s), "a question or the end")
        if over(shown):
            break
        await answer(app, shown)
        answered += 1
        if answered in sizes:
            cols, rows = sizes[answered]
            app.resize(cols, rows)
            shown = await app.until(
                lambda s: len(s.splitlines()) == rows and "esc" in s.splitlines()[-1], f"the table at {cols}×{rows}"
            )
        assert answered < 2000, "the game did not end"
    assert "Coldwater Crown — final scores" in shown
    assert answered > max(sizes), "the game ended before every resize was tried"
    app.proc.stdin.write(b"\r")  # back to the menu
    await app.until(lambda s: MENU in s, "the menu after the game")
    conn.close()


# SSH and LAN players at one table, across network namespaces -------------------------


def ns_socket(ns: str, port: int) -> socket.socket:
    """A TCP connection to 127.0.0.1:`port` inside the network namespace `ns`.

    The test's own loop stays in the root namespace: only a short-lived thread
    enters `ns` (setns changes the calling thread only), and the socket it
    connects keeps belonging to `ns` after the thread is gone.
    """

    def work() -> socket.socket:
        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open(f"/var/run/netns/{ns}", os.O_RDONLY)
        try:
            if libc.setns(fd, 0x40000000) != 0:  # CLONE_NEWNET
                raise OSError(ctypes.get_errno(), f"setns into {ns}")
        finally:
            os.close(fd)
        return socket.create_connection(("127.0.0.1", port), 10)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


async def ns_menu(ns: str, port: int, key: asyncssh.SSHKey) -> tuple[asyncssh.SSHClientConnection, Screen]:
    conn = await asyncssh.connect(
        sock=ns_socket(ns, port),
        username="play",
        known_hosts=None,
        client_keys=[key],
        agent_path=None,
    )
    app = await open_app(conn)
    await app.until(lambda s: MENU in s, "the main menu")
    return conn, app


async def play_to_the_end(apps: list[Screen], lan: subprocess.Popen[str]) -> list[str]:
    """Answer whichever session has a question until every session shows the final scores."""
    done: dict[int, str] = {}
    answered = 0
    while len(done) < len(apps):
        for i, app in enumerate(apps):
            if i in done:
                continue
            shown = app.text
            if over(shown):
                done[i] = shown
            elif question(shown) is not None:
                await asyncio.sleep(QUIET)
                if app.text == shown:
                    await answer(app, shown)
                    answered += 1
        assert lan.poll() in (None, 0), f"the LAN player stopped (rc {lan.returncode})"
        assert answered < 4000, "the game did not end"
        await asyncio.sleep(0.05)
    return [done[i] for i in range(len(apps))]


@pytest.mark.slow
@pytest.mark.netns
@pytest.mark.skipif(why_not() is not None, reason=why_not() or "")
async def test_two_ssh_players_and_a_lan_player_finish_one_game(tmp_path: Path, keys: list[asyncssh.SSHKey]) -> None:
    """Slow (a whole three-seat Crown game). The server and its sessions in one namespace, a LAN player in another."""
    lab = NetLab(2, tmp_path)
    conns: list[asyncssh.SSHClientConnection] = []
    try:
        allowed = tmp_path / "allowed_keys"
        allowed.write_bytes(b"".join(k.export_public_key() for k in keys))
        root = lab.home("server")
        for k in keys[:2]:
            (serve.player_home(root, k.public_data) / "settings.json").write_text('{"bot_delay": 0.0}')
        server = lab.start(
            0,
            ["-m", "coldwater.tui.cli", "serve", "--port", "2222", "--allow", str(allowed)],
            "server",
        )
        assert server.stdout is not None
        first = await asyncio.to_thread(server.stdout.readline)
        assert first.startswith("coldwater serve: listening"), (first, lab.stderr("server"))

        a_conn, a = await ns_menu(lab.names[0], 2222, keys[0])
        b_conn, b = await ns_menu(lab.names[0], 2222, keys[1])
        conns += [a_conn, b_conn]
        a.proc.stdin.write(b"o")
        await a.until(lambda s: "Host a table on this server" in s and "Open table" in s, "the host form")
        a.proc.stdin.write(b"\x1b[B")  # Game → Players
        await asyncio.sleep(QUIET)
        a.proc.stdin.write(b"\x1b[C")  # 2 → 3
        await a.until(lambda s: "◀ 3 ▶" in s, "three players on the form")
        a.proc.stdin.write(b"\x13")
        await a.until(lambda s: LOBBY in s and "Seat 3" in s, "the lobby of the server's table")
        await join_served(b)
        # The LAN player finds the table by its zeroconf advertisement, from another namespace. Its bot
        # is the greedy one: racing to 12 fish, it ends the game sooner than the random bot would (any
        # seat's 12th fish triggers the end), and which bot plays the LAN seat is not what is tested.
        lan = lab.start(
            1,
            ["-m", "coldwater.net.cli", "join", "Coldwater table", "--headless", "--bot", "greedy", "--timeout", "900"],
            "lan",
        )
        for app in (a, b):
            await app.until(lambda s: "Seat 3" in s and "open" not in seat_row(s, 2) + seat_row(s, 3), "a full table")
            app.proc.stdin.write(b"\x12")  # Ctrl+R: ready
        # A spectator in a third namespace watches the whole game from the lobby on: the
        # public view only (the watcher refuses, and reports, any sealed value or private view).
        watcher = lab.start(
            lab.add_node(),
            ["-m", "coldwater.net.cli", "join", "Coldwater table", "--watch", "--headless", "--timeout", "900"],
            "watcher",
        )
        screens = await play_to_the_end([a, b], lan)
        for shown in screens:
            assert "Coldwater Crown — final scores" in shown
            assert "audit failed" not in shown.lower()
        out, _ = await asyncio.to_thread(lan.communicate, timeout=120)
        result = json.loads(out.strip().splitlines()[-1])
        assert result["audit"] == "ok", result
        seen, _ = await asyncio.to_thread(watcher.communicate, timeout=120)
        watched = json.loads(seen.strip().splitlines()[-1])
        assert watched["role"] == "watcher" and watched["audit"] == "ok", (watched, lab.stderr("watcher"))
        assert (watched["plies"], watched["scores"], watched["outcome"]) == (
            result["plies"],
            result["scores"],
            result["outcome"],
        ), (watched, result)

        def ended() -> str:
            return next((ln for ln in lab.stderr("server").splitlines() if "ended:" in ln), "")

        for _ in range(600):
            if ended():
                break
            await asyncio.sleep(0.1)
        line = ended()
        signed = re.findall(r"seat (\d) ([0-9a-f]{64})", line)
        # Every seat's own digest, signed by that seat: the two SSH players' apps and the LAN player.
        assert sorted(s for s, _ in signed) == ["1", "2", "3"], line
        assert {d for _, d in signed} == {result["digest"]}, line
    finally:
        for conn in conns:
            conn.close()
        for p in lab.procs[:1]:
            p.terminate()  # the server stops its apps (lab.close kills process groups; apps have their own)
            with contextlib.suppress(subprocess.TimeoutExpired):
                await asyncio.to_thread(p.wait, 15)
        lab.close()


async def answer_some(apps: list[Screen], count: int) -> None:
    """Answer `count` questions in whichever session is asked one."""
    answered = 0
    while answered < count:
        for app in apps:
            shown = app.text
            if question(shown) is not None and not over(shown):
                await asyncio.sleep(QUIET)
                if app.text == shown:
                    await answer(app, shown)
                    answered += 1
        await asyncio.sleep(0.05)


async def test_the_opener_sits_back_down_in_the_middle_of_a_game(
    server: serve.Server, keys: list[asyncssh.SSHKey]
) -> None:
    for k in keys[:2]:
        home_for(server, k)
    a_conn, a = await menu(server, keys[0])
    await host_table(a)
    b_conn, b = await menu(server, keys[1])
    await join_served(b)
    for app in (a, b):
        await app.until(lambda s: "(you)" in s and "open" not in seat_row(s, 2), "a full table")
        app.proc.stdin.write(b"\x12")  # Ctrl+R: ready; the server's table starts when both are
    for app in (a, b):
        await app.until(lambda s: "Coldwater Crown" in s and LOBBY not in s, "the game")
    await answer_some([a, b], 4)
    hosted = server.tables.tables["Coldwater table"]
    assert hosted.host.info.dealer == "fair" and hosted.host.table is None  # the server holds no full state
    ply = hosted.host.watch.public_source().ply  # type: ignore[union-attr]  # its observer's public view

    # The opener's app dies mid-game; the game waits for seat 1, on the server.
    pid = server.app_of(keys[0].public_data).child.pid  # type: ignore[union-attr]
    os.kill(pid, 9)
    await asyncio.wait_for(a.proc.wait_closed(), DEADLINE)
    a_conn.close()
    for _ in range(100):
        if not hosted.host.remotes[0].present:
            break
        await asyncio.sleep(0.05)
    assert not hosted.host.remotes[0].present and server.tables.tables["Coldwater table"] is hosted

    a_conn, a = await menu(server, keys[0])
    await join_served(a, "your seat: sit back down")
    await a.until(lambda s: "Coldwater Crown" in s and LOBBY not in s, "the game again, at seat 1")
    assert hosted.host.remotes[0].present
    await answer_some([a, b], 4)
    assert hosted.host.watch.public_source().ply > ply  # type: ignore[union-attr]
    a_conn.close()
    b_conn.close()


def short_clock(monkeypatch: pytest.MonkeyPatch, **more: Any) -> None:
    """Tables the server opens get 1 s a move and a 2 s bank: the form's shortest timer is a minute and
    its bank five, so this is the same clock in seconds (`more`: other terms of the table)."""
    from coldwater import net

    real = net.open_table

    async def opened(*args: Any, **kw: Any) -> Any:
        return await real(*args, **{**kw, "turn_timer": 1, "time_bank": 2, **more})

    monkeypatch.setattr(net, "open_table", opened)


async def on(t: Terminal, ok: Callable[[str], bool], what: str) -> str:
    """`t`'s screen once it has settled on what `ok` looks for (waited for in a thread: the loop runs on)."""
    return await asyncio.to_thread(t.settled, ok, what)


async def sit_at_one_table(a: Terminal, b: Terminal) -> None:
    """Two OpenSSH players from their menus: `a` opens a table on the server with the form's defaults,
    `b` joins it from the Join list, and both say they are ready (the game then starts)."""
    await on(a, lambda s: MENU in s, "a's menu")
    a.press("o")
    await on(a, lambda s: "Open table" in s, "the host form")
    a.press("C-s")
    await on(a, lambda s: LOBBY in s, "a's lobby")
    await on(b, lambda s: MENU in s, "b's menu")
    b.press("j")
    await on(b, lambda s: "on this server" in " ".join(s.split()), "the table in b's join list")
    b.press("1")
    for t in (a, b):
        await on(t, lambda s: "(you)" in s and "open" not in seat_row(s, 2), "a full table")
        t.press("C-r")  # ready


@NEEDS_TERMINAL
async def test_two_idle_openssh_players_keep_their_seats_until_the_other_hands_one_over(
    server: serve.Server, keys: list[asyncssh.SSHKey], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 29, break 6, with the OpenSSH client in two real terminals (tmux): both players idle past the
    turn timer and the bank. No bot plays a connected seat by itself at a normal table; the mover sees
    'out of time' in the title, the other is told and gets Ctrl+O, and only that hands the seat over."""
    short_clock(monkeypatch)
    terms: list[Terminal] = []
    for i, k in enumerate(keys[:2]):
        home_for(server, k)
        d = tmp_path / f"t{i}"
        d.mkdir()
        argv = ssh_argv(server.port, write_key(d / "id_ed25519", k), d)
        terms.append(Terminal(argv, env={"TERM": "xterm-256color"}, config_dir=d))
    a, b = terms

    try:
        await sit_at_one_table(a, b)
        hosted = server.tables.tables["Coldwater table"]
        assert (hosted.host.info.turn, hosted.host.info.bank, hosted.host.info.strict) == (1, 2, False)
        for _ in range(600):
            if any(question(t.screen()) is not None for t in terms):
                break
            await asyncio.sleep(0.1)
        mover, other = (a, b) if question(a.screen()) is not None else (b, a)
        ply = hosted.host.watch.public_source().ply  # type: ignore[union-attr]

        # Both idle well past 1 s a move and the 2 s bank: the seat is out of time and still its player's.
        await on(mover, lambda s: "out of time" in s.splitlines()[0], "'out of time' in the mover's title")
        await on(other, lambda s: "^o" in s.splitlines()[-1], "the hand-over key in the other's footer")
        await asyncio.sleep(4)
        assert hosted.host.watch.public_source().ply == ply, "a bot played a connected player's seat by itself"  # type: ignore[union-attr]
        assert question(mover.screen()) is not None, mover.screen()

        # The other player hands the seat over: now (and only now) a bot plays it.
        other.press("C-o")
        for _ in range(200):
            if hosted.host.watch.public_source().ply > ply:  # type: ignore[union-attr]
                break
            await asyncio.sleep(0.1)
        assert hosted.host.watch.public_source().ply > ply, f"no move after the hand-over:\n{other.screen()}"  # type: ignore[union-attr]
    finally:
        for t in terms:
            t.close()


@NEEDS_TERMINAL
async def test_the_hand_over_line_gives_the_real_idle_time_and_a_stop_gives_both_terminals_back(
    server: serve.Server, keys: list[asyncssh.SSHKey], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 47: a seat idle past its move's time and its bank was told 'You did not move within 1 s'
    (the per-move timer). With 1 s a move and a 2 s bank at a strict table, the bot takes the seat after
    3 s or more, and the line says so; then the server stops, and both OpenSSH terminals are given back."""
    short_clock(monkeypatch, strict_clock=True)
    for k in keys[:2]:
        home_for(server, k)
    terms = [openssh(server.port, k, tmp_path / f"t{i}") for i, k in enumerate(keys[:2])]
    a, b = terms

    try:
        await sit_at_one_table(a, b)
        said = re.compile(r"You did not move for (\d+):(\d\d): a bot plays your seat\.")
        found = None
        for _ in range(600):
            found = next((m for t in terms if (m := said.search(t.screen())) is not None), None)
            if found is not None:
                break
            await asyncio.sleep(0.1)
        assert found is not None, f"no hand-over line:\n{a.last}\n{b.last}"
        idle = int(found[1]) * 60 + int(found[2])
        assert idle >= 3, found[0]  # the move's second and the 2 s bank, at least
        await server.close()
        shown = [await asyncio.to_thread(after_ssh, t) for t in terms]
        for t, text in zip(terms, shown, strict=True):
            assert modes(t) == GIVEN_BACK
            assert f"[coldwater: {serve.SHUTDOWN_REASON}]" in text, text
    finally:
        for t in terms:
            t.close()
