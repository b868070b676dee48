"""The server's side of history and ratings: a finished table's game as the database keeps it, and the
answers to a key's ``history`` and ``replay`` requests (control.py carries them; docs/ssh.md).

Apart from tables.py, the tables' keeper, because this
is what the server *remembers* of games, read by the history screen and ``--ratings`` alike.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from coldwater.tui.serve.control import Failed, HistoryReply, MyRating, PlayedGame, Reply, Saved

if TYPE_CHECKING:
    from coldwater.net.session import Result
    from coldwater.tui.serve.database import GameResult, Store
    from coldwater.tui.serve.tables import Hosted, ServerTables


def ordinal(place: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def history(store: Store, me: str, limit: int = 200) -> Reply:
    """The games the key `me` (its fingerprint) finished, newest first, with what each did to its rating."""
    from coldwater.tui.serve.ratings import rate

    ratings = rate(store.results(limit=1_000_000))
    mine = ratings.by_player.get(me, {})
    games = []
    for r in store.results(player=me, limit=limit):
        seat = next(s for s in r.seats if s.player == me)
        others = [
            f"{s.name or 'seat ' + str(s.seat + 1)}{' (bot)' if s.bot else ''} ({ordinal(s.place)}, {s.score})"
            for s in r.seats
            if s is not seat
        ]
        moved = ratings.changes.get(r.id, {}).get(me)
        games.append(
            PlayedGame(
                id=r.id,
                game=r.game,
                table=r.table,
                ended=r.ended,
                outcome=r.outcome,
                place=seat.place,
                seats=len(r.seats),
                others=others,
                score=seat.score,
                agreed=r.agreed,
                why_not=r.why_not,
                change=(moved.before, moved.after) if moved is not None else None,
                replay=bool(r.record),
            )
        )
    rows = [MyRating(game=g, rating=x.shown, games=x.games) for g, x in sorted(mine.items())]
    return HistoryReply(rows, games)


def replay_of(store: Store, me: str, home: Path, game_id: int) -> Reply:
    """Write the record of a game the key `me` played into its own records folder, `home`/records (a
    record is larger than a control frame, and there the Replays list finds it again)."""
    from coldwater.core import record
    from coldwater.net.play import records
    from coldwater.tui.serve.deals import may_replay

    found = store.result(game_id)
    if found is None or not (any(s.player == me for s in found.seats) or may_replay(store, me, found.deal)):
        # (Another key's deal of the day opens once the asker has finished the same deal.)
        return Failed(f"you played no game {game_id} on this server")
    if not found.record:
        return Failed("the server kept no record of that game")
    try:
        rec = record.loads(found.record)
    except Exception as e:  # a damaged row: said, nothing written
        return Failed(f"the record of that game cannot be read: {e}")
    folder = home / "records"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"served-{game_id}.json"
    records.save(rec, path)
    return Saved(str(path))


def game_result(tables: ServerTables, hosted: Hosted, result: Result) -> GameResult:
    """A finished game as the database keeps it: who sat where (SSH keys named), scores and places, the
    record, and whether the result is agreed (what ratings count)."""
    from coldwater.core import record
    from coldwater.tui.serve.database import GameResult, SeatResult

    host = hosted.host
    totals = [result.scores.get(f"Seat {i + 1}", 0) for i in range(host.info.players)]
    rec = None
    with contextlib.suppress(Exception):  # a host that kept no whole record: places from the totals
        rec = host.full_record() or (host.table.record if host.table is not None else None)
    order: list[int] = []
    if rec is not None:
        with contextlib.suppress(Exception):
            order = [r for r in record.replay(rec).scores().ranking if r < len(totals)]
    places = {seat: i + 1 for i, seat in enumerate(order)} if len(order) == len(totals) else {}
    if not places:  # by the totals, ties sharing a place
        places = {s: 1 + sum(1 for t in totals if t > totals[s]) for s in range(len(totals))}
    seats = []
    for info in host.lobby():
        if info.seat >= len(totals):
            continue
        player = hosted.ssh_seats.get(info.seat, "") or tables.ssh_key_of(info.key)
        seats.append(
            SeatResult(
                seat=info.seat,
                name=info.name,
                player=player if info.kind != "bot" else "",
                bot=info.kind == "bot",
                score=totals[info.seat],
                place=places[info.seat],
            )
        )
    why_not = ""
    if not result.audit_ok:
        why_not = "the audit at the end failed"
    elif result.forfeit:
        why_not = "a seat forfeited"
    elif any(" did not move for " in p for p in host.problems):
        why_not = "a bot played a person's seat for a while"
    return GameResult(
        table=host.name,
        game=result.game,
        ended=tables.wall_clock(),
        outcome=result.outcome,
        digest=result.digest,
        plies=result.plies,
        agreed=not why_not,
        why_not=why_not,
        seats=seats,
        record=record.dumps(rec) if rec is not None else b"",
    )
