"""The server's tests' fixtures: a client key on the allowed list, and a server in the test's loop or
in a process of its own (sshclient.py has the clients that connect to them)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncssh
import pytest

from coldwater.tui import serve
from coldwater.tui.serve import tables
from tests.tui.serve.keeper import new_keeper
from tests.tui.serve.sshclient import config, serving, write_key


@pytest.fixture
def player_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
def allowed(tmp_path: Path, player_key: asyncssh.SSHKey) -> Path:
    p = tmp_path / "allowed_keys"
    p.write_bytes(b"# friends\n" + player_key.export_public_key())
    return p


@pytest.fixture
async def server(tmp_path: Path, allowed: Path, request: pytest.FixtureRequest) -> AsyncIterator[serve.Server]:
    extra = getattr(request, "param", {})
    s = serve.Server(config(tmp_path, allowed, **extra), root=tmp_path / "data", log=lambda line: None)
    s.port = await s.start()  # type: ignore[attr-defined]
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def served(tmp_path: Path, allowed: Path, player_key: asyncssh.SSHKey) -> Iterator[tuple[int, Path]]:
    """`coldwater serve` as a person starts it, in its own process; yields (port, client key)."""
    with serving(tmp_path, allowed) as (_, port):
        yield port, write_key(tmp_path / "id_ed25519", player_key)


@pytest.fixture
async def keeper(tmp_path: Path) -> AsyncIterator[tables.ServerTables]:
    t, store = new_keeper(tmp_path)
    try:
        yield t
    finally:
        await t.close()
        store.close()
