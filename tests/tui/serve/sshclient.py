"""The clients the server's tests drive: asyncssh's, read through pyte, and the real OpenSSH `ssh`.

asyncssh's client runs in the test's event loop; what a session shows is rendered by pyte into a
screen of the session's size, so the assertions are about what a person would see, not about escape
sequences. The OpenSSH client runs in a tmux pane (tests/tui/terminal.py), against a server started
in the test's loop or as a person starts it (``serving``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import asyncssh
import pyte
import pytest

from coldwater.tui import serve
from tests.tui.terminal import TMUX, Terminal

DEADLINE = 60.0  # a session starts a whole Python app; the machine may be busy
MENU = "Solo against bots"


def write_key(path: Path, key: asyncssh.SSHKey) -> Path:
    path.write_bytes(key.export_private_key())
    path.chmod(0o600)
    path.with_suffix(".pub").write_bytes(key.export_public_key())
    return path


def config(tmp_path: Path, allowed: Path | None, **kw: object) -> serve.ServeConfig:
    return serve.ServeConfig(port=0, bind="127.0.0.1", host_key=tmp_path / "host_key", allow=allowed, **kw)  # type: ignore[arg-type]


async def connect(server: serve.Server, key: asyncssh.SSHKey | None, **kw: object) -> asyncssh.SSHClientConnection:
    return await asyncssh.connect(
        "127.0.0.1",
        server.port,
        username="play",
        known_hosts=None,  # type: ignore[attr-defined]
        client_keys=[key] if key else None,
        agent_path=None,
        **kw,  # type: ignore[arg-type]
    )


class Screen:
    """One SSH session's output drawn into a pyte screen of the session's size."""

    def __init__(self, proc: asyncssh.SSHClientProcess[bytes], cols: int = 80, rows: int = 24) -> None:
        self.proc = proc
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.changed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while data := await self.proc.stdout.read(65536):
            self.stream.feed(data)
            self.changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def until(self, ok: Callable[[str], bool], what: str) -> str:
        async def wait() -> str:
            while not ok(self.text):
                self.changed.clear()
                await self.changed.wait()
            return self.text

        try:
            return await asyncio.wait_for(wait(), DEADLINE)
        except TimeoutError:
            raise AssertionError(f"waited {DEADLINE:.0f} s for {what}; the screen shows:\n{self.text}") from None

    def resize(self, cols: int, rows: int) -> None:
        self.screen.resize(rows, cols)
        self.proc.change_terminal_size(cols, rows)


async def open_app(conn: asyncssh.SSHClientConnection, cols: int = 80, rows: int = 24) -> Screen:
    proc = await conn.create_process(term_type="xterm-256color", term_size=(cols, rows), encoding=None)
    return Screen(proc, cols, rows)


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


# The real OpenSSH client ----------------------------------------------------------

NEEDS_SSH = pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client")
NEEDS_TERMINAL = pytest.mark.skipif(
    TMUX is None or shutil.which("ssh") is None, reason="needs tmux and the OpenSSH client"
)


@contextlib.contextmanager
def serving(tmp_path: Path, allowed: Path, *extra: str) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """`coldwater serve` as a person starts it, in its own process (stderr kept); yields it and its port."""
    coldwater = Path(sys.executable).with_name("coldwater")
    argv = [str(coldwater), "serve", "--port", "0", "--bind", "127.0.0.1", "--allow", str(allowed)]
    argv += ["--host-key", str(tmp_path / "host_key"), *extra]
    proc = subprocess.Popen(
        argv,
        env={**os.environ, "COLDWATER_HOME": str(tmp_path / "data")},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("coldwater serve: listening"), first
        port = int(first.rsplit("port", 1)[1])
        assert proc.stdout.readline().startswith("host key fingerprint: SHA256:")
        yield proc, port
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.communicate(timeout=20)
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


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


# The terminal after ssh: what the server leaves it in (issue 47) -------------------------------------

GIVEN_BACK = {
    "alternate_on": "0",
    "wrap_flag": "1",
    "cursor_flag": "1",
    "mouse_any_flag": "0",
    "mouse_standard_flag": "0",
    "mouse_button_flag": "0",
    "mouse_all_flag": "0",
    "mouse_sgr_flag": "0",
}
"""A terminal as a shell expects it back: the main screen, lines that wrap, a cursor, no mouse reporting
(tmux's own record of the pane's modes, read after ssh has exited)."""


def modes(term: Terminal) -> dict[str, str]:
    names = list(GIVEN_BACK)
    shown = term.tmux("display-message", "-p", "-t", "test", " ".join(f"#{{{n}}}" for n in names)).split()
    return dict(zip(names, shown, strict=True))


ENDED = "[ssh exited"


def after_ssh(term: Terminal) -> str:
    """Wait for ssh to end; the pane's text with wrapped lines joined (a line cut by a terminal that
    does not wrap stays cut)."""
    term.wait_for(ENDED)
    return " ".join(term.tmux("capture-pane", "-p", "-J", "-t", "test").split())


def in_shell(argv: list[str]) -> list[str]:
    """`argv` run as from a shell that lives on after it (tmux marks a dead pane's cursor hidden, so the
    pane must outlive ssh for its modes to be the ones ssh left)."""
    return ["sh", "-c", f'{shlex.join(argv)}; echo "{ENDED} $?]"; exec sleep 3600']


def openssh(port: int, key: asyncssh.SSHKey, where: Path, cols: int = 80, rows: int = 24) -> Terminal:
    """The real `ssh` with `key`, from a shell in a tmux pane of its own, under `where`."""
    where.mkdir(exist_ok=True)
    argv = in_shell(ssh_argv(port, write_key(where / "id_ed25519", key), where))
    return Terminal(argv, env={"TERM": "xterm-256color"}, config_dir=where, width=cols, height=rows)
