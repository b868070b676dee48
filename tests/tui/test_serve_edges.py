"""SSH sessions' edges (#29 item 8), with the real OpenSSH client where one is involved: the key
as `ssh-keygen -l` prints it, refusals that always arrive with stdin at EOF, the cap on sessionless
(`ssh -N`) connections, the terminal set up on every attach and given back on every close the
server makes, and an idle rule that keeps a watcher whose screen is still being drawn."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
from pathlib import Path

import asyncssh
import pytest

from coldwater.tui import serve
from tests.tui.test_serve import MENU, allowed, connect, open_app, player_key, served, server, write_key

__all__ = ["allowed", "player_key", "served", "server"]  # fixtures, used by name

NEEDS_SSH = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")


def ssh_argv(port: int, key: Path, tmp_path: Path, *extra: str) -> list[str]:
    return [
        "ssh",
        "-p",
        str(port),
        "-i",
        str(key),
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "BatchMode=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        f"UserKnownHostsFile={tmp_path / 'known_hosts'}",
        "-o",
        "LogLevel=ERROR",
        "-F",
        "/dev/null",
        *extra,
        "play@127.0.0.1",
    ]


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
    conns = [await connect(server, player_key) for _ in range(serve.NO_SESSION_PER_KEY)]
    try:
        extra = await connect(server, player_key)
        await asyncio.wait_for(extra.wait_closed(), 10)  # closed by the server, not by us
        assert len(server.no_session[player_key.public_data]) == serve.NO_SESSION_PER_KEY
        # A connection that asks for a session is no longer counted: the person can still play.
        app = await open_app(conns[0])
        await app.until(lambda s: MENU in s, "the menu")
        assert len(server.no_session[player_key.public_data]) == serve.NO_SESSION_PER_KEY - 1
    finally:
        for c in conns:
            c.close()


class Raw:
    """Everything a session's terminal was sent."""

    def __init__(self, proc: asyncssh.SSHClientProcess[bytes]) -> None:
        self.proc = proc
        self.data = b""
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while chunk := await self.proc.stdout.read(65536):
            self.data += chunk

    async def until(self, what: bytes) -> None:
        for _ in range(600):
            if what in self.data:
                return
            await asyncio.sleep(0.1)
        raise AssertionError(f"never sent {what!r}; sent {self.data[-400:]!r}")


async def test_a_takeover_sets_up_the_new_terminal_and_gives_back_the_old(
    server: serve.Server, player_key: asyncssh.SSHKey
) -> None:
    async with await connect(server, player_key) as conn:
        first = Raw(await conn.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None))
        await first.until(MENU.encode())
        async with await connect(server, player_key) as other:
            second = Raw(await other.create_process(term_type="xterm-256color", term_size=(80, 24), encoding=None))
            await second.until(MENU.encode())
            assert second.data.startswith(serve.TERMINAL_SETUP)  # alternate screen, mouse, before the redraw
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
