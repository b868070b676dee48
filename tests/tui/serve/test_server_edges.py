"""SSH sessions' edges (#29 item 8), with the real OpenSSH client where one is involved: the key
as `ssh-keygen -l` prints it, refusals that always arrive with stdin at EOF, the cap on sessionless
(`ssh -N`) connections, the terminal set up on every attach and given back on every close the
server makes, and an idle rule that keeps a watcher whose screen is still being drawn."""

from __future__ import annotations

import asyncio
import shutil
import signal
import subprocess
from pathlib import Path

import asyncssh
import pytest

from coldwater.tui import serve
from coldwater.tui.serve import connection, process
from tests.tui.serve.sshclient import (
    GIVEN_BACK,
    MENU,
    NEEDS_SSH,
    NEEDS_TERMINAL,
    Raw,
    after_ssh,
    connect,
    in_shell,
    modes,
    open_app,
    openssh,
    serving,
    ssh_argv,
    write_key,
)
from tests.tui.terminal import Terminal


@pytest.mark.skipif(shutil.which("ssh-keygen") is None, reason="needs ssh-keygen")
@pytest.mark.parametrize("kind", ["ssh-ed25519", "ecdsa-sha2-nistp256", "ssh-rsa"])
def test_the_fingerprint_is_the_one_ssh_keygen_prints(kind: str, tmp_path: Path) -> None:
    key = asyncssh.generate_private_key(kind)
    path = write_key(tmp_path / "id", key)
    out = subprocess.run(
        ["ssh-keygen", "-l", "-E", "sha256", "-f", str(path.with_suffix(".pub"))],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split()[1] == serve.openssh_fingerprint(key.public_data)


@NEEDS_SSH
def test_refusals_arrive_with_stdin_at_eof(served: tuple[int, Path], tmp_path: Path) -> None:
    port, key = served
    for i in range(6):  # it hung 3 times in 6
        for extra, command, said in (
            (("-tt",), ["ls"], "coldwater serves only its app; `ls` is not a command here."),
            ((), ["ls"], "coldwater needs a terminal"),
            (("-T",), [], "coldwater needs a terminal"),
        ):
            p = subprocess.run(
                [*ssh_argv(port, key, tmp_path, *extra), *command],
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=30,
            )
            assert p.returncode == 1, (i, extra, p)
            assert said in p.stdout, (i, extra, p)


async def test_sessionless_connections_of_a_key_are_capped(server: serve.Server, player_key: asyncssh.SSHKey) -> None:
    server.session_grace = 0.5
    conns = [await connect(server, player_key) for _ in range(connection.NO_SESSION_PER_KEY)]
    try:
        extra = await connect(server, player_key)
        await asyncio.wait_for(extra.wait_closed(), 30)  # closed by the server, not by us
        assert len(server.no_session[player_key.public_data]) == connection.NO_SESSION_PER_KEY
        # A connection that asks for a session is no longer counted: the person can still play.
        app = await open_app(conns[0])
        await app.until(lambda s: MENU in s, "the menu")
        assert len(server.no_session[player_key.public_data]) == connection.NO_SESSION_PER_KEY - 1
    finally:
        for c in conns:
            c.close()


async def test_a_takeover_sets_up_the_new_terminal_and_gives_back_the_old(
    server: serve.Server, player_key: asyncssh.SSHKey
) -> None:
    async with await connect(server, player_key) as conn:
        first = Raw(await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None))
        await first.until(MENU.encode())
        async with await connect(server, player_key) as other:
            second = Raw(await other.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None))
            await second.until(MENU.encode())
            assert second.data.startswith(process.TERMINAL_SETUP)  # alternate screen, mouse, before the redraw
            await asyncio.wait_for(first.proc.wait_closed(), 30)
            await first.task
            tail = first.data[first.data.rindex(b"\x1b[?1049l") - 200 :]
            for off in (b"\x1b[?1000l", b"\x1b[?1003l", b"\x1b[?1006l", b"\x1b[?1049l", b"\x1b[?25h"):
                assert off in tail
            assert first.data.rstrip().endswith(
                b"[coldwater: your game was taken up by a newer connection with your key]"
            )


@pytest.mark.parametrize("server", [{"idle_timeout": 1.5}], indirect=True)
async def test_idle_keeps_a_screen_being_drawn_and_closes_a_still_one_saying_why(
    server: serve.Server, player_key: asyncssh.SSHKey
) -> None:
    async with await connect(server, player_key) as conn:
        raw = Raw(await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None))
        await raw.until(MENU.encode())
        app = server.apps[0]
        for i in range(8):
            # 4 s in which the app keeps drawing, no key pressed (as a watcher's screen as moves come;
            # here a resize makes it redraw): not idle.
            raw.proc.change_terminal_size(80 + i % 2, 24)
            await asyncio.sleep(0.5)
        assert app.last_input < app.last_output
        assert server.apps and server.apps[0] is app, "closed while its screen was still being drawn"
        await asyncio.wait_for(raw.proc.wait_closed(), 30)
        await raw.task
    assert b"\x1b[?1049l" in raw.data and b"\x1b[?25h" in raw.data
    assert b"[coldwater: closed after" in raw.data and b"no key pressed" in raw.data


@NEEDS_TERMINAL
async def test_a_takeover_gives_the_openssh_terminal_back_whole(
    server: serve.Server, player_key: asyncssh.SSHKey, tmp_path: Path
) -> None:
    term = openssh(server.port, player_key, tmp_path / "a")
    try:
        await asyncio.to_thread(term.wait_for, MENU)
        async with await connect(server, player_key) as other:
            second = await open_app(other)
            await second.until(lambda s: MENU in s, "the menu in the newer connection")
            shown = await asyncio.to_thread(after_ssh, term)
            left = modes(term)
    finally:
        term.close()
    assert left == GIVEN_BACK
    assert "[coldwater: your game was taken up by a newer connection with your key]" in shown


@NEEDS_TERMINAL
@pytest.mark.parametrize("server", [{"idle_timeout": 2.0}], indirect=True)
async def test_an_idle_close_gives_the_openssh_terminal_back_with_the_whole_reason(
    server: serve.Server, player_key: asyncssh.SSHKey, tmp_path: Path
) -> None:
    term = openssh(server.port, player_key, tmp_path / "a")
    try:
        await asyncio.to_thread(term.wait_for, MENU)
        shown = await asyncio.to_thread(after_ssh, term)
        left = modes(term)
    finally:
        term.close()
    assert left == GIVEN_BACK
    # Longer than the 80 columns: with wrapping left off it read "... nothing new to sh]".
    why = f"[coldwater: closed after {2.0 / 60:g} minutes with no key pressed and nothing new to show]"
    assert len(why) > 80 and why in shown, shown


@NEEDS_TERMINAL
def test_sigterm_gives_every_connected_terminal_back_with_a_reason(tmp_path: Path, allowed: Path) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(2)]
    allowed.write_bytes(b"".join(k.export_public_key() for k in keys))
    with serving(tmp_path, allowed) as (proc, port):
        terms = [openssh(port, k, tmp_path / f"t{i}") for i, k in enumerate(keys)]
        try:
            for t in terms:
                t.wait_for(MENU)
            terms[1].press("s")  # one on the new-game form, one on the menu
            terms[1].wait_for("Solo game against bots")
            proc.send_signal(signal.SIGTERM)
            shown = [after_ssh(t) for t in terms]
            left = [modes(t) for t in terms]
            _, err = proc.communicate(timeout=60)
        finally:
            for t in terms:
                t.close()
    assert proc.returncode == 0, err
    for text, mode in zip(shown, left, strict=True):
        assert mode == GIVEN_BACK
        assert f"[coldwater: {serve.SHUTDOWN_REASON}]" in text, text


@NEEDS_TERMINAL
async def test_a_key_with_its_sessionless_cap_full_still_logs_in(
    server: serve.Server, player_key: asyncssh.SSHKey, tmp_path: Path
) -> None:
    """Four `ssh -N` of one key hold its cap; the same key's real login gets its menu all the same (it was
    counted as one more sessionless connection the moment it authenticated, and closed), and a fifth
    `ssh -N` is still closed."""
    server.session_grace = 1.0
    key = write_key(tmp_path / "id_ed25519", player_key)
    bare = [
        subprocess.Popen(ssh_argv(server.port, key, tmp_path, "-N"), stdin=subprocess.DEVNULL)
        for _ in range(connection.NO_SESSION_PER_KEY)
    ]
    term: Terminal | None = None
    try:
        for _ in range(600):
            if len(server.no_session.get(player_key.public_data, [])) == connection.NO_SESSION_PER_KEY:
                break
            await asyncio.sleep(0.1)
        assert len(server.no_session[player_key.public_data]) == connection.NO_SESSION_PER_KEY
        term = openssh(server.port, player_key, tmp_path / "login")
        await asyncio.to_thread(term.wait_for, MENU, 30.0)
        fifth = subprocess.Popen(ssh_argv(server.port, key, tmp_path, "-N"), stdin=subprocess.DEVNULL)
        assert await asyncio.to_thread(fifth.wait, 30) == 255  # closed by the server
        assert all(p.poll() is None for p in bare)
        term.press("C-q")
        await asyncio.to_thread(after_ssh, term)
        assert modes(term) == GIVEN_BACK
    finally:
        if term is not None:
            term.close()
        for p in bare:
            p.terminate()
            p.wait(10)


@NEEDS_TERMINAL
def test_the_too_small_notice_is_whole_at_40x10(served: tuple[int, Path], tmp_path: Path) -> None:
    port, key = served
    term = Terminal(
        in_shell(ssh_argv(port, key, tmp_path)),
        env={"TERM": "xterm-256color"},
        config_dir=tmp_path,
        width=40,
        height=10,
    )
    try:
        shown = term.settled(lambda s: "Ctrl+Q quits." in s, "the too-small notice")
        text = " ".join(shown.split())
        for words in (
            "The terminal is too small: 40×10.",
            "coldwater needs at least 80×24.",
            "(or reduce the font size)",
        ):
            assert words in text, shown
        term.press("C-q")
        after_ssh(term)
        assert modes(term) == GIVEN_BACK
    finally:
        term.close()


def test_serve_starts_and_stops_without_warnings(tmp_path: Path, allowed: Path) -> None:
    with serving(tmp_path, allowed) as (proc, _):
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0
    assert "Warning" not in err and "DSA" not in err, err
