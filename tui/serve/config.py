"""How a server runs (`ServeConfig`) and how `coldwater serve`'s command line makes one.

Every limit has a default a small group of friends never meets. Passwords are never accepted:
``--allow`` names the keys that may play (authorized_keys format), and ``--guests`` lets any other
key in too; with neither, nobody could connect, and the command says so rather than start.
"""

from __future__ import annotations

import argparse
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

import msgspec

DEFAULT_PORT = 2222


class ServeConfig(msgspec.Struct, frozen=True, kw_only=True):
    """How a server runs; every limit has a default a small group of friends never meets."""

    port: int = DEFAULT_PORT
    bind: str = ""  # all interfaces: friends connect from their own machines
    host_key: Path | None = None  # default: <data>/ssh/host_key, made on first start
    allow: Path | None = None  # authorized_keys file; None: only guests (if allowed)
    guests: bool = False
    max_sessions: int = 32
    idle_timeout: float = 30 * 60.0  # seconds without a key press before a shown app closes
    keep_detached: float = 15 * 60.0  # seconds an app whose connection dropped waits for its key
    command: tuple[str, ...] = ()  # the program each session runs; default: this Python's coldwater
    table_bind: str = "0.0.0.0"  # where tables hosted by the server listen (LAN players join them there)
    advertise: bool = True  # announce the server's tables on the LAN (zeroconf)
    notify: str = ""  # a command run when a turn-based table's turn passes to a key (notify.py)


def parse_args(argv: Sequence[str]) -> ServeConfig:
    p = argparse.ArgumentParser(
        prog="coldwater serve",
        description="Serve the app over SSH: friends connect with `ssh -p PORT play@HOST`; their key is who they are.",
    )
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--bind", default="", help="address to listen on (default: every interface)")
    p.add_argument(
        "--host-key", type=Path, help="the server's private host key (default: made once in the data folder)"
    )
    p.add_argument("--allow", type=Path, metavar="KEYS_FILE", help="keys that may play, in authorized_keys format")
    p.add_argument("--guests", action="store_true", help="let in any other key too, as a guest")
    p.add_argument("--max-sessions", type=int, default=32)
    p.add_argument(
        "--table-bind",
        default="0.0.0.0",
        metavar="ADDR",
        help="where tables opened by SSH players listen, for LAN players to join (default: every interface)",
    )
    p.add_argument("--no-advertise", action="store_true", help="do not announce the server's tables on the LAN")
    p.add_argument("--idle-minutes", type=float, default=30.0, help="close a session after this long without a key")
    p.add_argument(
        "--keep-minutes",
        type=float,
        default=15.0,
        help="keep an app whose connection dropped this long for its key to return",
    )
    p.add_argument(
        "--backup",
        type=Path,
        metavar="FILE",
        help="copy the server's database to FILE and exit (safe while the server runs; docs/ssh.md)",
    )
    p.add_argument(
        "--notify",
        default="",
        metavar="CMD",
        help="run CMD with a player's key fingerprint and a table's name when it becomes their turn there",
    )
    p.add_argument("--ratings", action="store_true", help="print every key's rating per game on this server and exit")
    a = p.parse_args(list(argv))
    if a.allow is None and not a.guests:
        p.error("nobody could connect: name the keys that may play with --allow KEYS_FILE, or pass --guests")
    if not 0 <= a.port < 65536:
        p.error("--port must be between 1 and 65535 (0: any free port)")
    if a.max_sessions < 1:
        p.error("--max-sessions must be at least 1")
    if a.idle_minutes <= 0 or a.keep_minutes <= 0:
        p.error("--idle-minutes and --keep-minutes must be more than 0")
    if a.notify:
        try:
            words = shlex.split(a.notify)
        except ValueError as e:
            p.error(f"--notify: {e}")
        if not words or shutil.which(words[0]) is None:
            p.error(f"--notify: no command {words[0] if words else a.notify!r} here (give its path)")
    return ServeConfig(
        port=a.port,
        bind=a.bind,
        host_key=a.host_key,
        allow=a.allow,
        guests=a.guests,
        max_sessions=a.max_sessions,
        idle_timeout=a.idle_minutes * 60,
        keep_detached=a.keep_minutes * 60,
        table_bind=a.table_bind,
        advertise=not a.no_advertise,
        notify=a.notify,
    )
