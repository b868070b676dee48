"""The server's database (tui/serve/database.py): migrations, durability under kill -9, the backup."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from coldwater.tui.serve import database
from coldwater.tui.serve.database import GameResult, SeatResult, Store, StoreError
from tests.packaging import REPO


def result(n: int, player: str = "ab12-cd34-ef56-7890") -> GameResult:
    return GameResult(
        table=f"Table {n}",
        game="crown",
        ended=1_700_000_000.0 + n,
        outcome="Seat 1 is crowned champion",
        digest=f"{n:064x}",
        plies=100 + n,
        agreed=True,
        seats=[
            SeatResult(seat=0, name="Ann", player=player, score=40, place=1),
            SeatResult(seat=1, name="bot", bot=True, score=30, place=2),
        ],
        record=b"record %d" % n,
    )


def test_a_new_database_is_migrated_to_the_latest_schema_with_wal_and_full_sync(tmp_path: Path) -> None:
    store = Store(tmp_path / "ssh" / "serve.db")
    try:
        assert store.version == database.SCHEMA_VERSION >= 1
        assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert oct(os.stat(store.path).st_mode & 0o777) == oct(0o600)
    finally:
        store.close()
    again = Store(tmp_path / "ssh" / "serve.db")  # opening again migrates nothing and keeps the version
    assert again.version == database.SCHEMA_VERSION
    again.close()


def test_results_round_trip_and_are_found_by_player(tmp_path: Path) -> None:
    store = Store(tmp_path / "serve.db")
    try:
        ids = [store.add_result(result(1)), store.add_result(result(2, player="ffff-0000-ffff-0000"))]
        assert ids == [1, 2]
        newest, oldest = store.results()
        assert newest == GameResult(**{**_fields(result(2, player="ffff-0000-ffff-0000")), "id": 2})
        assert oldest.seats[0].player == "ab12-cd34-ef56-7890" and oldest.record == b"record 1"
        assert [r.id for r in store.results(player="ab12-cd34-ef56-7890")] == [1]
        assert store.results(game="fisheries") == []
        store.saw_key("ab12-cd34-ef56-7890", b"key", 10.0)
        store.saw_key("ab12-cd34-ef56-7890", b"key", 20.0)
        assert store.players() == [("ab12-cd34-ef56-7890", 10.0, 20.0, 2)]
    finally:
        store.close()


def _fields(r: GameResult) -> dict[str, object]:
    return {f: getattr(r, f) for f in r.__struct_fields__}


def test_a_database_from_a_newer_coldwater_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "serve.db"
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("UPDATE schema_version SET version = ?", (database.SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="made by a newer coldwater"):
        Store(path)
    assert path.read_bytes() == before


def test_a_version_3_database_keeps_its_turn_tables_and_their_seats_start_with_nothing_chosen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """3 → 4 adds what the others chose for a seat out of time (handed, botted, skips); seats kept before
    it have had nothing chosen for them."""
    path = tmp_path / "serve.db"
    with monkeypatch.context() as m:
        m.setattr(database, "MIGRATIONS", database.MIGRATIONS[:3])
        m.setattr(database, "SCHEMA_VERSION", 3)
        old = Store(path)
        with old.write() as db:
            db.execute(
                "INSERT INTO turn_tables (id, name, game, players, options, seed, content, per_move, opener, created,"
                " since) VALUES (1, 'Pond', 'crown', 2, '{}', 'ab', 'c', 3600, 'k', 1, 1)"
            )
            db.execute("INSERT INTO turn_seats (table_id, seat, player, name, bot) VALUES (1, 0, 'k', 'key k', 0)")
        old.close()
    store = Store(path)
    try:
        assert store.version == database.SCHEMA_VERSION >= 4
        row = store.db.execute("SELECT player, handed, botted, skips FROM turn_seats").fetchone()
        assert row == ("k", 0, 0, 0)
    finally:
        store.close()


def test_a_failed_migration_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "serve.db"
    bad = (*database.MIGRATIONS, ("CREATE TABLE extra (x INTEGER)", "this is not SQL"))
    monkeypatch.setattr(database, "MIGRATIONS", bad)
    monkeypatch.setattr(database, "SCHEMA_VERSION", len(bad))
    with pytest.raises(StoreError, match="cannot use the server's database"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT version FROM schema_version").fetchone()[0] == len(bad) - 1
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'extra'").fetchone() is None
    db.close()


WRITER = """
import sys
from coldwater.tui.serve.database import Store
from tests.tui.serve.test_database import result
store = Store(__import__("pathlib").Path(sys.argv[1]))
n = 0
while True:
    n += 1
    store.add_result(result(n))
    print(n, flush=True)  # acknowledged: committed
"""


def test_kill_9_in_the_middle_of_writes_loses_nothing_acknowledged(tmp_path: Path) -> None:
    path = tmp_path / "serve.db"
    root = REPO  # (the writer imports the tests package)
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True, cwd=root, env={**os.environ}
    )
    assert proc.stdout is not None
    acked = 0
    for line in proc.stdout:
        acked = int(line)
        if acked >= 40:
            break
    os.kill(proc.pid, signal.SIGKILL)  # while it writes the next one
    proc.wait(30)
    assert acked >= 40, "the writer acknowledged too few games (did it start?)"
    store = Store(path)
    try:
        kept = {r.id for r in store.results(limit=10_000)}
        assert set(range(1, acked + 1)) <= kept  # every acknowledged game, and perhaps the one in flight
        assert len(kept) in (acked, acked + 1)
        assert store.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        store.close()


def test_a_backup_is_a_whole_checked_copy_made_while_the_server_writes(tmp_path: Path) -> None:
    store = Store(tmp_path / "serve.db")
    try:
        for n in range(1, 6):
            store.add_result(result(n))
        copy = tmp_path / "backups" / "serve-copy.db"
        copy.parent.mkdir()
        assert database.backup(store.path, copy) == database.SCHEMA_VERSION
        store.add_result(result(6))  # the server goes on writing
    finally:
        store.close()
    assert not (copy.parent / "serve-copy.db.part").exists()
    assert oct(copy.stat().st_mode & 0o777) == oct(0o600)
    restored = Store(copy)
    try:
        assert [r.id for r in restored.results()] == [5, 4, 3, 2, 1]
    finally:
        restored.close()


def test_a_backup_to_a_folder_or_from_nothing_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no server database"):
        database.backup(tmp_path / "missing.db", tmp_path / "copy.db")
    Store(tmp_path / "serve.db").close()
    with pytest.raises(StoreError, match="is a folder"):
        database.backup(tmp_path / "serve.db", tmp_path)
    assert not (tmp_path / "copy.db").exists()


def test_coldwater_serve_backup_copies_the_servers_database(tmp_path: Path) -> None:
    home = tmp_path / "data"
    store = Store(database.db_path(home))
    store.add_result(result(1))
    coldwater = Path(sys.executable).with_name("coldwater")
    env = {**os.environ, "COLDWATER_HOME": str(home)}
    try:  # the server (here: its open database) keeps running meanwhile
        done = subprocess.run(
            [str(coldwater), "serve", "--backup", str(tmp_path / "b.db")], env=env, capture_output=True, text=True
        )
    finally:
        store.close()
    assert done.returncode == 0, done.stderr
    assert "backed up" in done.stdout
    copy = Store(tmp_path / "b.db")
    assert [r.table for r in copy.results()] == ["Table 1"]
    copy.close()
    env["COLDWATER_HOME"] = str(tmp_path / "nowhere")
    done = subprocess.run(
        [str(coldwater), "serve", "--backup", str(tmp_path / "c.db")], env=env, capture_output=True, text=True
    )
    assert done.returncode == 1 and "no server database" in done.stderr
    assert not (tmp_path / "c.db").exists()
