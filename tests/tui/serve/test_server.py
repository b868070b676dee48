"""`coldwater serve`: the app over SSH, tried as friends (and strangers) would.

The server runs in the test's event loop on loopback with throwaway keys; the
clients are asyncssh's and, once, the real OpenSSH `ssh` inside tmux. What a
session shows is rendered by pyte into an 80×24 screen, so the assertions are
about what a person would see, not about escape sequences.
"""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import asyncssh
import pytest

from coldwater.tui import serve, termcaps
from coldwater.tui.serve import keys
from tests.tui.serve.sshclient import DEADLINE, MENU, NEEDS_TERMINAL, connect, open_app, ssh_argv
from tests.tui.terminal import Terminal


async def test_a_friend_reaches_the_menu_at_80x24_and_quits(server: serve.Server, player_key: asyncssh.SSHKey) -> None:
    async with await connect(server, player_key) as conn:
        app = await open_app(conn)
        shown = await app.until(lambda s: MENU in s, "the main menu")
        assert "c o l d w a t e r" in shown
        app.proc.stdin.write(b"\x11")  # Ctrl+Q
        await asyncio.wait_for(app.proc.wait_closed(), DEADLINE)
        assert app.proc.exit_status == 0
    # The key has a folder of its own, readable by nobody else.
    homes = list((server.root / "ssh" / "players").iterdir())
    assert len(homes) == 1
    assert stat.S_IMODE(homes[0].stat().st_mode) == 0o700
    assert stat.S_IMODE((server.root / "ssh" / "players").stat().st_mode) == 0o700
    assert not server.apps
    # The server's database knows the key from now on (one session so far).
    ((fp, _, _, sessions),) = server.store.players()
    assert (fp, sessions) == (serve.key_fingerprint(player_key.public_data), 1)


async def test_the_table_follows_a_resize(server: serve.Server, player_key: asyncssh.SSHKey) -> None:
    async with await connect(server, player_key) as conn:
        app = await open_app(conn)
        shown = await app.until(lambda s: MENU in s, "the main menu")
        app.proc.stdin.write(b"s")
        await app.until(lambda s: "Solo game against bots" in s, "the new-game form")
        app.proc.stdin.write(b"\x13")  # Ctrl+S starts the game
        await app.until(lambda s: "Coldwater Crown" in s and "Step 1" in s, "the Crown table")
        app.resize(120, 40)
        shown = await app.until(lambda s: "esc" in s.splitlines()[39], "the footer on the 40th row after the resize")
        assert "Coldwater Crown" in shown
        app.proc.stdin.write(b"\x11")
        await asyncio.wait_for(app.proc.wait_closed(), DEADLINE)


async def test_sessions_are_separate_processes_with_separate_saves(
    server: serve.Server, tmp_path: Path, player_key: asyncssh.SSHKey
) -> None:
    other = asyncssh.generate_private_key("ssh-ed25519")
    assert server.config.allow is not None
    with server.config.allow.open("ab") as f:
        f.write(other.export_public_key())
    server.allowed = keys.load_allowed(server.config.allow)
    async with await connect(server, player_key) as a, await connect(server, other) as b:
        one, two = await open_app(a), await open_app(b)
        await one.until(lambda s: MENU in s, "the first menu")
        await two.until(lambda s: MENU in s, "the second menu")
        pids = {a.child.pid for a in server.apps}
        assert len(pids) == 2
        # Killing one person's app leaves the other's running.
        victim = min(pids)
        os.kill(victim, 9)
        await asyncio.wait_for(one.proc.wait_closed(), DEADLINE)
        assert [a.child.pid for a in server.apps] == [max(pids)]
        two.proc.stdin.write(b"u")  # the survivor still answers: the Rules screen opens
        await two.until(lambda s: "Rules" in s and MENU not in s, "the rules screen in the other session")
    assert len(list((server.root / "ssh" / "players").iterdir())) == 2


async def test_an_unknown_key_is_refused_without_guests(server: serve.Server) -> None:
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server, stranger)
    assert not server.apps


@pytest.mark.parametrize("server", [{"guests": True}], indirect=True)
async def test_guests_may_play_when_the_server_says_so(server: serve.Server) -> None:
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    async with await connect(server, stranger) as conn:
        app = await open_app(conn)
        await app.until(lambda s: MENU in s, "the main menu for a guest")


async def test_a_password_is_never_accepted(server: serve.Server) -> None:
    with pytest.raises(asyncssh.PermissionDenied):
        await connect(server, None, password="hunter2")


async def test_a_session_without_a_terminal_is_told_it_needs_one(
    server: serve.Server, player_key: asyncssh.SSHKey
) -> None:
    async with await connect(server, player_key) as conn:
        result = await conn.run("anything", encoding="utf-8")
    assert result.exit_status == 1
    assert "needs a terminal" in str(result.stdout)
    assert not server.apps


@pytest.mark.parametrize("server", [{"max_sessions": 1, "guests": True}], indirect=True)
async def test_a_full_server_says_so(server: serve.Server, player_key: asyncssh.SSHKey) -> None:
    async with await connect(server, player_key) as conn:
        first = await open_app(conn)
        await first.until(lambda s: MENU in s, "the first session's menu")
        async with await connect(server, asyncssh.generate_private_key("ssh-ed25519")) as other:
            second = await open_app(other)
            shown = await second.until(lambda s: "full" in s, "the refusal")
            assert "The server is full (1 sessions)" in shown
            await asyncio.wait_for(second.proc.wait_closed(), DEADLINE)
            assert second.proc.exit_status == 1
        assert len(server.apps) == 1 and server.apps[0].session is not None


async def test_a_second_connection_with_the_same_key_takes_the_game_over(
    server: serve.Server, player_key: asyncssh.SSHKey
) -> None:
    # A key is one identity with one data folder, so it has one app; a newer connection
    # (say, after the old one hung without the server noticing) takes it over.
    async with await connect(server, player_key) as conn:
        first = await open_app(conn)
        await first.until(lambda s: MENU in s, "the first session's menu")
        first.proc.stdin.write(b"u")
        await first.until(lambda s: MENU not in s and "Rules" in s, "the Rules screen")
        async with await connect(server, player_key) as other:
            second = await open_app(other)
            await second.until(lambda s: "Rules" in s and MENU not in s, "the same app in the new connection")
            await asyncio.wait_for(first.proc.wait_closed(), DEADLINE)
            assert "taken up by a newer connection" in first.text
            assert len(server.apps) == 1


@pytest.mark.parametrize("server", [{"idle_timeout": 1.0}], indirect=True)
async def test_an_idle_session_is_closed(server: serve.Server, player_key: asyncssh.SSHKey) -> None:
    async with await connect(server, player_key) as conn:
        app = await open_app(conn)
        await asyncio.wait_for(app.proc.wait_closed(), DEADLINE)
    assert not server.apps


async def test_a_dropped_connection_sits_back_down_at_the_same_app(
    server: serve.Server, player_key: asyncssh.SSHKey
) -> None:
    conn = await connect(server, player_key)
    app = await open_app(conn)
    await app.until(lambda s: MENU in s, "the main menu")
    app.proc.stdin.write(b"u")
    await app.until(lambda s: MENU not in s and "Rules" in s, "the Rules screen")
    pid = server.apps[0].child.pid
    conn.abort()  # the network goes away; the app does not
    await asyncio.sleep(0.5)
    assert [a.child.pid for a in server.apps] == [pid] and server.apps[0].session is None
    async with await connect(server, player_key) as again:
        back = await open_app(again, 100, 30)
        shown = await back.until(lambda s: "Rules" in s and MENU not in s, "the Rules screen again")
        assert len(shown.splitlines()) == 30
        assert [a.child.pid for a in server.apps] == [pid]


@pytest.mark.parametrize("server", [{"keep_detached": 1.0}], indirect=True)
async def test_a_left_app_nobody_returns_to_is_closed(server: serve.Server, player_key: asyncssh.SSHKey) -> None:
    conn = await connect(server, player_key)
    app = await open_app(conn)
    await app.until(lambda s: MENU in s, "the main menu")
    conn.abort()

    async def gone() -> None:
        while server.apps:
            await asyncio.sleep(0.1)

    await asyncio.wait_for(gone(), DEADLINE)


async def test_only_the_app_is_served(server: serve.Server, player_key: asyncssh.SSHKey) -> None:
    async with await connect(server, player_key) as conn:
        proc = await conn.create_process("cat /etc/passwd", term_type="xterm", term_size=(80, 24), encoding="utf-8")
        out = await asyncio.wait_for(proc.stdout.read(), DEADLINE)
        await proc.wait_closed()
    assert "is not a command here" in out and "root:" not in out
    assert proc.exit_status == 1 and not server.apps


def test_the_allowed_list_names_a_bad_line(tmp_path: Path) -> None:
    p = tmp_path / "keys"
    p.write_text("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI not-base64!\n")
    with pytest.raises(ValueError, match="line 1: not a public key"):
        keys.load_allowed(p)
    p.write_text("# nobody yet\n")
    with pytest.raises(ValueError, match="lists no keys"):
        keys.load_allowed(p)
    with pytest.raises(ValueError, match="cannot read"):
        keys.load_allowed(tmp_path / "missing")


def test_options_in_front_of_a_key_are_understood(tmp_path: Path) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    p = tmp_path / "keys"
    p.write_bytes(b'no-pty,from="10.0.0.1" ' + key.export_public_key())
    assert keys.load_allowed(p) == {key.public_data}


def test_the_host_key_is_made_once_and_kept_private(tmp_path: Path) -> None:
    path = tmp_path / "k" / "host_key"
    first = keys.load_host_key(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert keys.load_host_key(path).public_data == first.public_data


def test_serve_refuses_to_start_when_nobody_could_connect(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        serve.parse_args([])
    assert e.value.code == 2
    assert "--allow KEYS_FILE, or pass --guests" in capsys.readouterr().err


def test_a_terminal_with_few_colours_gets_the_ansi_theme() -> None:
    assert termcaps.low_colour("xterm", {})
    assert termcaps.low_colour("vt100", {})
    assert not termcaps.low_colour("xterm-256color", {})


@NEEDS_TERMINAL
def test_the_openssh_client_plays_in_a_real_terminal(served: tuple[int, Path], tmp_path: Path) -> None:
    port, key = served
    ssh = ssh_argv(port, key, tmp_path)
    term = Terminal(ssh, env={"TERM": "xterm-256color"}, config_dir=tmp_path)
    try:
        shown = term.wait_for(MENU)
        term.answer("s", shown)
        shown = term.settled(lambda s: "Solo game against bots" in s, "the new-game form")
        term.answer("C-s", shown)
        term.settled(lambda s: "Coldwater Crown" in s, "the Crown table over ssh")
        term.tmux("resize-window", "-x", "120", "-y", "40")
        term.settled(lambda s: len(s.splitlines()) >= 39 and "esc" in s.splitlines()[-1], "the table at 120×40")
        term.press("C-q")
        term.wait_until(lambda s: term.exited() is not None, "ssh ending when the app quits")
    finally:
        term.close()


@pytest.mark.slow
@NEEDS_TERMINAL
def test_the_openssh_client_finishes_a_solo_game(
    served: tuple[int, Path], tmp_path: Path, player_key: asyncssh.SSHKey
) -> None:
    """Slow (a whole Crown game against one bot, by keys, through the real `ssh` in tmux at 80×24)."""
    from tests.tui.test_tmux import STEP_1, play_turn, question

    port, key = served
    home = serve.player_home(tmp_path / "data", player_key.public_data)
    (home / "settings.json").write_text('{"bot_delay": 0.0}')  # the bot answers at once
    ssh = ssh_argv(port, key, tmp_path)
    term = Terminal(ssh, env={"TERM": "xterm-256color"}, config_dir=tmp_path)
    try:
        shown = term.wait_for(MENU)
        term.answer("s", shown)
        shown = term.settled(lambda s: "Solo game against bots" in s, "the new-game form")
        term.answer("C-s", shown)
        for turn in range(80):
            shown = term.settled(lambda s: question(s) == STEP_1 or "final scores" in s, "a turn or the end")
            if "final scores" in shown:
                break
            play_turn(term)
        else:
            raise term.fail("the game did not end in 80 turns")
        assert "Coldwater Crown — final scores" in shown and turn > 5
        term.answer("Enter", shown)
        shown = term.settled(lambda s: MENU in s, "the menu after the game")
        term.press("C-q")
        term.wait_until(lambda s: term.exited() is not None, "ssh ending when the app quits")
    finally:
        term.close()
