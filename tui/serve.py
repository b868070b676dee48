"""`coldwater serve`: the app over SSH, for friends who have nothing but `ssh`.

Each SSH session gets its own `coldwater` process in its own pseudo-terminal.
A process per session is the simplest design that keeps sessions apart: a
crash, a hang or a runaway bot in one person's app cannot touch another's, and
the operating system reclaims everything when the session ends.

Who you are is the public key you connect with. Each key gets its own data
folder under the server's (saves, settings, records, LAN identity), so "resume
my game" is per key. Passwords are never accepted; `--allow` names the keys that
may play (authorized_keys format), and `--guests` lets any other key in too.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import fcntl
import hashlib
import os
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import asyncssh
import msgspec

from coldwater.net import paths

DEFAULT_PORT = 2222
NEEDS_TERMINAL = (
    "coldwater needs a terminal: connect with `ssh -t` (a plain `ssh HOST` asks for one).\r\n"
)


class ServeConfig(msgspec.Struct, frozen=True, kw_only=True):
    """How a server runs; every limit has a default a small group of friends never meets."""

    port: int = DEFAULT_PORT
    bind: str = ""  # all interfaces: friends connect from their own machines
    host_key: Path | None = None  # default: <data>/ssh/host_key, made on first start
    allow: Path | None = None  # authorized_keys file; None: only guests (if allowed)
    guests: bool = False
    max_sessions: int = 32
    max_per_key: int = 3
    idle_timeout: float = 30 * 60.0  # seconds without a key press before a session closes
    command: tuple[str, ...] = ()  # the program each session runs; default: this Python's coldwater


def key_fingerprint(public_blob: bytes) -> str:
    """A player's SSH key shown the way LAN identities are: four groups of four hex digits."""
    h = hashlib.sha256(b"coldwater-ssh\x00" + public_blob).hexdigest()[:16]
    return "-".join(h[i : i + 4] for i in range(0, 16, 4))


def openssh_fingerprint(public_blob: bytes) -> str:
    """`SHA256:...` as `ssh-keygen -l` and ssh's first-connection prompt print it."""
    digest = base64.b64encode(hashlib.sha256(public_blob).digest()).decode().rstrip("=")
    return f"SHA256:{digest}"


def _private_dir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)  # mkdir's mode is masked by umask, and parents get the default
    return path


def player_home(root: Path, public_blob: bytes) -> Path:
    """The data folder of the person holding this key: theirs alone, like a home directory."""
    _private_dir(root / "ssh")
    _private_dir(root / "ssh" / "players")
    return _private_dir(root / "ssh" / "players" / hashlib.sha256(public_blob).hexdigest()[:32])


def load_host_key(path: Path) -> asyncssh.SSHKey:
    """The server's host key, generated once and kept (0600) so returning friends can trust it."""
    if path.exists():
        return asyncssh.read_private_key(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(key.export_private_key())
    os.replace(tmp, path)
    return key


def load_allowed(path: Path) -> set[bytes]:
    """Public key blobs from an authorized_keys file.

    A line that is not a key is an error naming the line: a typo must not
    silently lock a friend out (or, worse, look like an empty list).
    """
    try:
        text = path.read_text()
    except OSError as e:
        raise ValueError(f"cannot read the allowed keys in {path}: {e.strerror or e}") from e
    blobs: set[bytes] = set()
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        # authorized_keys lines may start with options ("no-pty,from=... ssh-ed25519 AAAA... me").
        start = next((i for i, f in enumerate(fields) if f.startswith(("ssh-", "ecdsa-", "sk-"))), None)
        try:
            if start is None:
                raise asyncssh.KeyImportError("no key type")
            key = asyncssh.import_public_key(" ".join(fields[start:]))
        except (asyncssh.KeyImportError, ValueError) as e:
            raise ValueError(f"{path}, line {number}: not a public key ({e})") from e
        blobs.add(key.public_data)
    if not blobs:
        raise ValueError(f"{path} lists no keys")
    return blobs


def low_colour(term: str | None, env: dict[str, str]) -> bool:
    """True when the client's terminal reports fewer than 256 colours (then the ANSI theme suits)."""
    if env.get("COLORTERM", "").lower() in ("truecolor", "24bit"):
        return False
    return not term or "256color" not in term and "direct" not in term


class Sessions:
    """Counts live sessions, in all and per key, to enforce the server's limits."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.per_key: dict[bytes, int] = {}

    @property
    def total(self) -> int:
        return sum(self.per_key.values())

    def admit(self, blob: bytes) -> str | None:
        """None when a new session of this key may start, else the reason it may not."""
        if self.total >= self.config.max_sessions:
            return f"The server is full ({self.config.max_sessions} sessions). Try again later."
        if self.per_key.get(blob, 0) >= self.config.max_per_key:
            return f"Your key already has {self.config.max_per_key} sessions open here; close one first."
        self.per_key[blob] = self.per_key.get(blob, 0) + 1
        return None

    def leave(self, blob: bytes) -> None:
        left = self.per_key.get(blob, 0) - 1
        if left > 0:
            self.per_key[blob] = left
        else:
            self.per_key.pop(blob, None)


def _set_winsize(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", max(rows, 1), max(cols, 1), 0, 0))


class Server:
    """Owns the listening socket, the limits and the per-key folders."""

    def __init__(self, config: ServeConfig, *, root: Path | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self.config = config
        self.root = root or paths.data_dir()
        self.sessions = Sessions(config)
        self.allowed: set[bytes] = load_allowed(config.allow) if config.allow else set()
        self.host_key = load_host_key(config.host_key or _private_dir(self.root / "ssh") / "host_key")
        self.log = log or (lambda line: print(line, file=sys.stderr, flush=True))
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self.children: set[asyncio.subprocess.Process] = set()

    @property
    def host_fingerprint(self) -> str:
        return openssh_fingerprint(self.host_key.public_data)

    def admits_key(self, blob: bytes) -> bool:
        return blob in self.allowed or self.config.guests

    def command(self, theme_ansi: bool) -> list[str]:
        cmd = list(self.config.command) or [sys.executable, "-m", "coldwater.tui.cli"]
        return [*cmd, "--theme", "ansi"] if theme_ansi else cmd

    async def start(self) -> int:
        """Listen; returns the port (useful with port 0 in tests)."""
        server = self

        class _Conn(asyncssh.SSHServer):
            def __init__(self) -> None:
                self.key_blob: bytes | None = None

            def begin_auth(self, username: str) -> bool:
                return True  # every connection must authenticate with a key

            def password_auth_supported(self) -> bool:
                return False

            def kbdint_auth_supported(self) -> bool:
                return False

            def public_key_auth_supported(self) -> bool:
                return True

            def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
                blob = key.public_data
                if server.admits_key(blob):
                    self.key_blob = blob
                    return True
                server.log(f"refused key {openssh_fingerprint(blob)} (not on the allowed list; no guests)")
                return False

            def session_requested(self) -> asyncssh.SSHServerSession[bytes]:
                assert self.key_blob is not None  # sessions come only after authentication
                return _Session(server, self.key_blob)

        self._acceptor = await asyncssh.create_server(
            _Conn, self.config.bind, self.config.port, server_host_keys=[self.host_key],
            encoding=None, line_editor=False, allow_scp=False, agent_forwarding=False,
            x11_forwarding=False, login_timeout=30, keepalive_interval=30,
        )
        sockets = self._acceptor.sockets
        return int(sockets[0].getsockname()[1]) if sockets else self.config.port

    async def close(self) -> None:
        for child in list(self.children):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGHUP)
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()


class _Session(asyncssh.SSHServerSession[bytes]):
    """One SSH session: a pty, the app in it, bytes copied both ways."""

    def __init__(self, server: Server, key_blob: bytes) -> None:
        self.server = server
        self.key_blob = key_blob
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.master: int | None = None
        self.child: asyncio.subprocess.Process | None = None
        self.admitted = False
        self.last_input = time.monotonic()
        self._tasks: list[asyncio.Task[None]] = []
        self._paused = False

    # asyncssh session callbacks ------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        self.term = term_type
        if term_size[0] and term_size[1]:
            self.size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return True  # answered in session_started: the app is the only thing served

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        self._tasks.append(asyncio.get_running_loop().create_task(self._run()))

    def data_received(self, data: bytes, datatype: int | None) -> None:
        self.last_input = time.monotonic()
        if self.master is not None:
            with contextlib.suppress(OSError):
                os.write(self.master, data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.size = (width, height)
        if self.master is not None and self.child is not None:
            _set_winsize(self.master, width, height)
            # The pty is not the child's controlling terminal, so the kernel sends no
            # SIGWINCH by itself: tell the app's process group.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.child.pid, signal.SIGWINCH)

    def eof_received(self) -> bool:
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal_name: str) -> None:
        return None

    def soft_eof_received(self) -> None:
        return None

    def pause_writing(self) -> None:
        # The client reads slower than the app draws: stop reading the pty until it catches up.
        self._paused = True
        if self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)

    def resume_writing(self) -> None:
        self._paused = False
        if self.master is not None and self.child is not None and self.child.returncode is None:
            asyncio.get_running_loop().add_reader(self.master, self._pump)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_child()
        if self.admitted:
            self.server.sessions.leave(self.key_blob)
            self.admitted = False

    # the session's life ------------------------------------------------------------
    def _finish(self, text: str, status: int) -> None:
        assert self.chan is not None
        with contextlib.suppress(Exception):
            self.chan.write(text.encode())
            self.chan.exit(status)

    async def _run(self) -> None:
        assert self.chan is not None
        if self.term is None:
            self._finish(NEEDS_TERMINAL, 1)
            return
        refusal = self.server.sessions.admit(self.key_blob)
        if refusal is not None:
            self._finish(refusal + "\r\n", 1)
            return
        self.admitted = True
        env_from_client = {k: v for k, v in self._client_env().items() if k in ("COLORTERM", "NO_COLOR", "LANG")}
        home = player_home(self.server.root, self.key_blob)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "LANG": env_from_client.get("LANG", "C.UTF-8"),
            "TERM": self.term,
            "COLDWATER_HOME": str(home),
            "COLDWATER_SSH_KEY": key_fingerprint(self.key_blob),
            **{k: v for k, v in env_from_client.items() if k != "LANG"},
        }
        master, slave = os.openpty()
        self.master = master
        _set_winsize(master, *self.size)
        os.set_blocking(master, False)
        try:
            self.child = await asyncio.create_subprocess_exec(
                *self.server.command(low_colour(self.term, env_from_client)),
                stdin=slave, stdout=slave, stderr=slave, env=env, cwd=str(home),
                start_new_session=True, close_fds=True,
            )
        except OSError as e:
            os.close(slave)
            self._finish(f"coldwater could not start: {e}\r\n", 1)
            return
        finally:
            with contextlib.suppress(OSError):
                os.close(slave)
        self.server.children.add(self.child)
        self.server.log(f"session for {key_fingerprint(self.key_blob)} started (pid {self.child.pid})")
        loop = asyncio.get_running_loop()
        loop.add_reader(master, self._pump)
        idle = loop.create_task(self._watch_idle())
        status = await self.child.wait()
        idle.cancel()
        self.server.children.discard(self.child)
        loop.remove_reader(master)
        self._drain()
        with contextlib.suppress(OSError):
            os.close(master)
        self.master = None
        self.server.log(f"session for {key_fingerprint(self.key_blob)} ended ({status})")
        with contextlib.suppress(Exception):
            self.chan.exit(max(status, 0))

    def _client_env(self) -> dict[str, str]:
        assert self.chan is not None
        try:
            return dict(self.chan.get_environment())
        except Exception:  # noqa: BLE001 - an odd environment request must not end the session
            return {}

    def _pump(self) -> None:
        if self.master is None or self.chan is None:
            return
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:  # EIO: the app closed its terminal
            asyncio.get_running_loop().remove_reader(self.master)
            return
        if data:
            self.chan.write(data)

    def _drain(self) -> None:
        while self.master is not None and self.chan is not None:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with contextlib.suppress(Exception):
                self.chan.write(data)

    async def _watch_idle(self) -> None:
        limit = self.server.config.idle_timeout
        while True:
            await asyncio.sleep(min(limit, 5.0))
            if time.monotonic() - self.last_input >= limit:
                self.server.log(f"session for {key_fingerprint(self.key_blob)} closed after {limit:.0f} s idle")
                self._stop_child()
                return

    def _stop_child(self) -> None:
        child = self.child
        if child is None or child.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(child.pid, signal.SIGHUP)

        async def _reap() -> None:
            try:
                await asyncio.wait_for(child.wait(), 3.0)
            except TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(child.pid, signal.SIGKILL)

        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().create_task(_reap())


def parse_args(argv: Sequence[str]) -> ServeConfig:
    import argparse

    p = argparse.ArgumentParser(
        prog="coldwater serve",
        description="Serve the app over SSH: friends connect with `ssh -p PORT play@HOST`; their key is who they are.",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--bind", default="", help="address to listen on (default: every interface)")
    p.add_argument("--host-key", type=Path, help="the server's private host key (default: made once in the data folder)")
    p.add_argument("--allow", type=Path, metavar="KEYS_FILE", help="keys that may play, in authorized_keys format")
    p.add_argument("--guests", action="store_true", help="let in any other key too, as a guest")
    p.add_argument("--max-sessions", type=int, default=32)
    p.add_argument("--max-per-key", type=int, default=3)
    p.add_argument("--idle-minutes", type=float, default=30.0, help="close a session after this long without a key")
    a = p.parse_args(list(argv))
    if a.allow is None and not a.guests:
        p.error("nobody could connect: name the keys that may play with --allow KEYS_FILE, or pass --guests")
    if not 0 <= a.port < 65536:
        p.error("--port must be between 1 and 65535 (0: any free port)")
    for name in ("max_sessions", "max_per_key"):
        if getattr(a, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if a.idle_minutes <= 0:
        p.error("--idle-minutes must be more than 0")
    return ServeConfig(port=a.port, bind=a.bind, host_key=a.host_key, allow=a.allow, guests=a.guests,
                       max_sessions=a.max_sessions, max_per_key=a.max_per_key, idle_timeout=a.idle_minutes * 60)


async def serve_forever(config: ServeConfig) -> None:
    server = Server(config)
    port = await server.start()
    where = config.bind or "every interface"
    print(f"coldwater serve: listening on {where}, port {port}", flush=True)
    print(f"host key fingerprint: {server.host_fingerprint} (friends see it on first connect)", flush=True)
    print(f"connect with: ssh -p {port} play@THIS-HOST", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        await server.close()


def main(argv: Sequence[str]) -> int:
    try:
        config = parse_args(argv)
        asyncio.run(serve_forever(config))
    except ValueError as e:
        print(f"coldwater serve: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"coldwater serve: cannot listen: {e}", file=sys.stderr)
        return 1
    return 0
