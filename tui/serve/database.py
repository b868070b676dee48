"""The server's data: one SQLite database, `<data>/ssh/serve.db` (docs/ssh.md, "The server's data").

`coldwater serve` is kept running by a group of friends for months, so what it learns is kept in
one embedded database rather than in loose files: every key that connected, the turn-based tables
(turns.py: terms, seats, every step), and every game its tables finished (the seats' keys,
scores and places, whether the result is agreed, the record for a replay, the day's deal it was).
The standard library's `sqlite3` is enough for a handful of writes a game.

Durability, because the server can be killed at any moment (kill -9, a power cut):

- WAL journal with ``synchronous=FULL``: a commit returns only once its WAL frame is on disk, so
  a write the server acknowledged survives kill -9 and a power cut; readers (``--backup``,
  ``--ratings``) never block the server, nor it them.
- Every write is one transaction (``BEGIN IMMEDIATE`` … ``COMMIT``): a crash between two
  statements of one change leaves neither.

Schema changes are migrations: ``MIGRATIONS[i]`` takes a database from version ``i`` to
``i + 1`` in one transaction, and ``schema_version`` records where it is. A database made by a
newer coldwater is refused with that sentence (rather than written to by code that does not know
its tables). Nothing here runs on the event loop's behalf in threads: each call is a few
milliseconds, once a connection or a game.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import msgspec

DB_NAME = "serve.db"

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 0 → 1: the keys that connected, and the games the server's tables finished.
    (
        """CREATE TABLE players (
            fingerprint TEXT PRIMARY KEY,
            public_key BLOB NOT NULL UNIQUE,
            first_seen REAL NOT NULL,
            last_seen REAL NOT NULL,
            sessions INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE results (
            id INTEGER PRIMARY KEY,
            table_name TEXT NOT NULL,
            game TEXT NOT NULL,
            ended REAL NOT NULL,
            outcome TEXT NOT NULL,
            digest TEXT NOT NULL,
            plies INTEGER NOT NULL,
            agreed INTEGER NOT NULL,
            why_not TEXT NOT NULL DEFAULT '',
            record BLOB
        )""",
        """CREATE TABLE result_seats (
            result_id INTEGER NOT NULL REFERENCES results(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            player TEXT NOT NULL DEFAULT '',
            bot INTEGER NOT NULL,
            score INTEGER NOT NULL,
            place INTEGER NOT NULL,
            PRIMARY KEY (result_id, seat)
        )""",
        "CREATE INDEX result_seats_player ON result_seats(player)",
    ),
    # 1 → 2: turn-based tables (turns.py): the terms, the seats, and every step with its digest.
    (
        """CREATE TABLE turn_tables (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            game TEXT NOT NULL,
            players INTEGER NOT NULL,
            options TEXT NOT NULL,
            seed TEXT NOT NULL,
            content TEXT NOT NULL,
            per_move REAL NOT NULL,
            window_start INTEGER,
            window_end INTEGER,
            opener TEXT NOT NULL,
            created REAL NOT NULL,
            since REAL NOT NULL,
            ended REAL,
            outcome TEXT NOT NULL DEFAULT '',
            result_id INTEGER REFERENCES results(id)
        )""",
        """CREATE TABLE turn_seats (
            table_id INTEGER NOT NULL REFERENCES turn_tables(id),
            seat INTEGER NOT NULL,
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            bot INTEGER NOT NULL,
            PRIMARY KEY (table_id, seat)
        )""",
        """CREATE TABLE turn_moves (
            table_id INTEGER NOT NULL REFERENCES turn_tables(id),
            ply INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            action TEXT NOT NULL,
            digest TEXT NOT NULL,
            at REAL NOT NULL,
            by_bot INTEGER NOT NULL,
            PRIMARY KEY (table_id, ply)
        )""",
        "CREATE INDEX turn_seats_player ON turn_seats(player)",
    ),
    # 2 → 3: the deal of the day (turns.py): which day's deal a table and a result belong to.
    (
        "ALTER TABLE turn_tables ADD COLUMN deal TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE results ADD COLUMN deal TEXT NOT NULL DEFAULT ''",
        "CREATE INDEX results_deal ON results(deal)",
    ),
    # 3 → 4: a seat out of time at a turn-based table (turns.py): what the others chose for it.
    # handed: the bot has the seat now (until its owner opens the table); botted: it had it once;
    # skips: how many of the seat's turns the others skipped (the bot made those moves).
    (
        "ALTER TABLE turn_seats ADD COLUMN handed INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE turn_seats ADD COLUMN botted INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE turn_seats ADD COLUMN skips INTEGER NOT NULL DEFAULT 0",
    ),
)
"""Each entry takes the database one version up; append, never edit one that has shipped."""
SCHEMA_VERSION = len(MIGRATIONS)


class StoreError(Exception):
    """The database cannot be used (unreadable, or made by a newer coldwater); the message says why."""


class SeatResult(msgspec.Struct, frozen=True, kw_only=True):
    seat: int
    name: str
    player: str = ""
    """The SSH key fingerprint of the person at the seat ("" for a bot or a LAN player the server cannot name)."""
    bot: bool = False
    score: int
    place: int
    """1 for the winner; seats that tie share a place."""


class GameResult(msgspec.Struct, frozen=True, kw_only=True):
    """A finished game at one of the server's tables, as stored."""

    table: str
    game: str
    ended: float
    """Seconds since the epoch."""
    outcome: str
    digest: str
    plies: int
    agreed: bool
    """Every seat's result agrees and nothing took it out of the ratings (see `why_not`)."""
    why_not: str = ""
    seats: list[SeatResult]
    record: bytes = b""
    """The game's record (core.record.dumps), for a replay or a review; b"" when the host kept none."""
    deal: str = ""
    """For a deal of the day, which (``<game>/solo/2026-12-06``); "" for any other game."""
    id: int = 0


def db_path(root: Path) -> Path:
    return root / "ssh" / DB_NAME


class Store:
    """The server's database, open for as long as the server runs (one connection, this thread)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # isolation_level=None: transactions are ours (BEGIN IMMEDIATE … COMMIT), never implicit.
            self.db = sqlite3.connect(path, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the server's database {path}: {e}") from e
        with contextlib.suppress(OSError):
            os.chmod(path, 0o600)  # the keys and games of friends: the server's user only
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self.db.execute("PRAGMA busy_timeout=5000")  # a backup reading at the same moment
            migrate(self.db, path)
        except sqlite3.Error as e:
            self.db.close()
            raise StoreError(f"cannot use the server's database {path}: {e}") from e
        except StoreError:
            self.db.close()
            raise

    def close(self) -> None:
        self.db.close()

    @contextlib.contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One transaction: all of it reaches the disk, or none of it does."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    @property
    def version(self) -> int:
        return version_of(self.db)

    # ---- players -------------------------------------------------------------------------
    def saw_key(self, fingerprint: str, public_key: bytes, now: float) -> None:
        """A session of this key started."""
        with self.write() as db:
            db.execute(
                "INSERT INTO players (fingerprint, public_key, first_seen, last_seen, sessions) VALUES (?, ?, ?, ?, 1)"
                " ON CONFLICT(fingerprint) DO UPDATE SET last_seen = excluded.last_seen, sessions = sessions + 1",
                (fingerprint, public_key, now, now),
            )

    def players(self) -> list[tuple[str, float, float, int]]:
        """(fingerprint, first seen, last seen, sessions) of every key that connected."""
        rows = self.db.execute("SELECT fingerprint, first_seen, last_seen, sessions FROM players ORDER BY first_seen")
        return [(str(f), float(a), float(b), int(n)) for f, a, b, n in rows]

    # ---- results -------------------------------------------------------------------------
    def add_result(self, r: GameResult) -> int:
        """Keep a finished game; its id."""
        with self.write() as db:
            return self.insert_result(db, r)

    @staticmethod
    def insert_result(db: sqlite3.Connection, r: GameResult) -> int:
        """Keep a finished game inside the caller's transaction (:meth:`write`); its id."""
        cur = db.execute(
            "INSERT INTO results (table_name, game, ended, outcome, digest, plies, agreed, why_not, record, deal)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                r.table,
                r.game,
                r.ended,
                r.outcome,
                r.digest,
                r.plies,
                int(r.agreed),
                r.why_not,
                r.record or None,
                r.deal,
            ),
        )
        rid = cur.lastrowid
        assert rid is not None
        db.executemany(
            "INSERT INTO result_seats (result_id, seat, name, player, bot, score, place) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(rid, s.seat, s.name, s.player, int(s.bot), s.score, s.place) for s in r.seats],
        )
        return rid

    def result(self, result_id: int) -> GameResult | None:
        found = self.results(result_id=result_id, limit=1)
        return found[0] if found else None

    def results(
        self, *, player: str = "", game: str = "", result_id: int = 0, deal: str = "", limit: int = 1000
    ) -> list[GameResult]:
        """The finished games, newest first; only those `player` sat at, of `game`, `result_id`, of the
        day's `deal`, when given."""
        where: list[str] = []
        args: list[object] = []
        if deal:
            where.append("deal = ?")
            args.append(deal)
        if result_id:
            where.append("id = ?")
            args.append(result_id)
        if player:
            where.append("id IN (SELECT result_id FROM result_seats WHERE player = ?)")
            args.append(player)
        if game:
            where.append("game = ?")
            args.append(game)
        sql = "SELECT id, table_name, game, ended, outcome, digest, plies, agreed, why_not, record, deal FROM results"
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY ended DESC, id DESC LIMIT ?"
        out = []
        rows = self.db.execute(sql, (*args, limit)).fetchall()
        for rid, table, g, ended, outcome, digest, plies, agreed, why_not, rec, deal_of in rows:
            seats = [
                SeatResult(seat=s, name=n, player=p, bot=bool(b), score=sc, place=pl)
                for s, n, p, b, sc, pl in self.db.execute(
                    "SELECT seat, name, player, bot, score, place FROM result_seats WHERE result_id = ? ORDER BY seat",
                    (rid,),
                )
            ]
            out.append(
                GameResult(
                    id=int(rid),
                    table=str(table),
                    game=str(g),
                    ended=float(ended),
                    outcome=str(outcome),
                    digest=str(digest),
                    plies=int(plies),
                    agreed=bool(agreed),
                    why_not=str(why_not),
                    seats=seats,
                    record=bytes(rec or b""),
                    deal=str(deal_of),
                )
            )
        return out


def version_of(db: sqlite3.Connection) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    row = db.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the database up to SCHEMA_VERSION, one migration per transaction."""
    have = version_of(db)
    if have > SCHEMA_VERSION:
        raise StoreError(
            f"the server's database {path} is at schema {have}, made by a newer coldwater "
            f"(this one knows up to {SCHEMA_VERSION}); upgrade coldwater, or restore an older backup"
        )
    for v in range(have, SCHEMA_VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            for statement in MIGRATIONS[v]:
                db.execute(statement)
            db.execute("DELETE FROM schema_version")
            db.execute("INSERT INTO schema_version (version) VALUES (?)", (v + 1,))
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")


def backup(source: Path, dest: Path) -> int:
    """Copy the database at `source` to `dest` with SQLite's online backup (a consistent copy, even
    while the server writes), checked before it replaces `dest`; the schema version copied."""
    if not source.exists():
        raise StoreError(f"no server database at {source} (has `coldwater serve` run with this data folder?)")
    if dest.is_dir():
        raise StoreError(f"{dest} is a folder; name the backup file")
    part = dest.with_name(dest.name + ".part")
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            out = sqlite3.connect(part)
            try:
                src.backup(out)
                ok = out.execute("PRAGMA integrity_check").fetchone()
                if ok is None or ok[0] != "ok":
                    raise StoreError(f"the copy in {part} does not check out: {ok}")
                # The copy is a plain database (no WAL beside it): one file, to keep anywhere.
                out.execute("PRAGMA journal_mode=DELETE")
                version = version_of(out)
            finally:
                out.close()
        finally:
            src.close()
        os.chmod(part, 0o600)
        with open(part, "rb") as f:
            os.fsync(f.fileno())
        os.replace(part, dest)
    except sqlite3.Error as e:
        part.unlink(missing_ok=True)
        raise StoreError(f"cannot back up {source} to {dest}: {e}") from e
    except (OSError, StoreError) as e:
        part.unlink(missing_ok=True)
        raise StoreError(f"cannot back up {source} to {dest}: {e}") from e
    return version
