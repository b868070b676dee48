"""Ratings per key and game on `coldwater serve` (tui/ratings.py), the history a key asks for
over its control path, `coldwater serve --ratings`, and the History screen over SSH."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest

from coldwater.core import games, record
from coldwater.core.simulate import simulate
from coldwater.tui import serve
from coldwater.tui.serve import applink, database, ratings, tables
from coldwater.tui.serve.database import GameResult, SeatResult
from tests.tui.serve.keeper import ALICE, BOB, CAROL, link_for
from tests.tui.serve.sshclient import MENU, connect, open_app

ANN, BEN, CAT = "aaaa-0000-0000-0001", "bbbb-0000-0000-0002", "cccc-0000-0000-0003"


def played(
    n: int, places: dict[str, int], *, game: str = "crown", agreed: bool = True, bots: int = 0, rec: bytes = b""
) -> GameResult:
    seats = [
        SeatResult(seat=i, name=who[:4], player=who, score=50 - 10 * place, place=place)
        for i, (who, place) in enumerate(places.items())
    ]
    seats += [
        SeatResult(seat=len(seats) + j, name="bot", bot=True, score=0, place=len(places) + 1 + j) for j in range(bots)
    ]
    return GameResult(
        id=n,
        table=f"T{n}",
        game=game,
        ended=1000.0 + n,
        outcome="",
        digest="0" * 64,
        plies=10,
        agreed=agreed,
        why_not="" if agreed else "a seat forfeited",
        seats=seats,
        record=rec,
    )


def test_the_winner_rises_above_the_loser_and_only_agreed_games_between_keys_count() -> None:
    results = [
        played(1, {ANN: 1, BEN: 2}),
        played(2, {ANN: 1, BEN: 2}),
        played(3, {BEN: 1, ANN: 2}, agreed=False),  # disputed: counts for nobody
        played(4, {CAT: 1}, bots=2),  # one key against bots: rates nobody
        played(5, {ANN: 1, BEN: 2}, game="fisheries"),
    ]
    r = ratings.rate(reversed(results))  # (any order: taken as the games ended)
    ann, ben = r.by_player[ANN]["crown"], r.by_player[BEN]["crown"]
    assert ann.games == ben.games == 2
    assert ann.shown > ben.shown and ann.mu > 25 > ben.mu
    assert CAT not in r.by_player and 3 not in r.changes and 4 not in r.changes
    assert r.by_player[ANN]["fisheries"].games == 1  # per game
    first, second = r.changes[1][ANN], r.changes[2][ANN]
    assert first.before == 0.0 and first.after < second.before + 1e-9 <= second.after + 1e-9
    assert second.before == pytest.approx(first.after)
    # The same history gives the same ratings (a restored backup, another run).
    assert ratings.rate(results) == r


def test_three_seats_rate_by_place_and_bots_are_left_out() -> None:
    r = ratings.rate([played(1, {ANN: 2, BEN: 1, CAT: 3}, bots=1)])
    shown = {p: r.by_player[p]["crown"].shown for p in (ANN, BEN, CAT)}
    mus = {p: r.by_player[p]["crown"].mu for p in (ANN, BEN, CAT)}
    assert mus[BEN] > mus[ANN] > mus[CAT]
    assert shown[BEN] >= shown[ANN] >= shown[CAT]
    assert set(r.changes[1]) == {ANN, BEN, CAT}


def test_the_report_lists_each_game_best_first_with_names() -> None:
    results = [played(1, {ANN: 1, BEN: 2}), played(2, {ANN: 1, BEN: 2})]
    text = ratings.report(ratings.rate(results), ratings.names_of(results))
    lines = text.splitlines()
    assert lines[0] == "crown:" and "rating" in lines[1]
    assert ANN in lines[2] and "(aaaa)" in lines[2] and BEN in lines[3]
    assert ratings.report(ratings.rate([])).startswith("No rated games yet")


def a_record() -> bytes:
    """A real finished game's record (Fisheries: two seats, quick)."""
    done = next(simulate(games.get("fisheries"), 2, 1, 7, records=True))
    assert done.record is not None
    return record.dumps(done.record)


async def test_a_key_asks_for_its_history_and_a_replay_of_a_game_it_played(
    keeper: tables.ServerTables,
) -> None:
    assert keeper.store is not None
    alice, bob, carol = (serve.key_fingerprint(k) for k in (ALICE, BOB, CAROL))
    rec = a_record()
    keeper.store.add_result(played(0, {alice: 1, bob: 2}, game="fisheries", rec=rec))
    keeper.store.add_result(played(0, {bob: 1, carol: 2}, game="fisheries"))
    link = link_for(keeper, ALICE)
    reply = await link.history()
    assert [(x.game, x.games) for x in reply.ratings] == [("fisheries", 1)] and reply.ratings[0].rating >= 0
    (g,) = reply.games
    assert (g.place, g.seats, g.others, g.agreed, g.replay) == (1, 2, [f"{bob[:4]} (2nd, 30)"], True, True)
    assert g.change is not None and g.change[0] == 0.0
    path = await link.replay_of(g.id)
    assert path == serve.player_home(keeper.root, ALICE) / "records" / f"served-{g.id}.json"
    assert record.replay(record.loads(path.read_bytes())).current is None  # a whole finished game
    # A game the key did not play, or one that does not exist: refused, nothing written.
    with pytest.raises(applink.ServerUnavailable, match="you played no game 2"):
        await link.replay_of(2)
    with pytest.raises(applink.ServerUnavailable, match="you played no game 99"):
        await link.replay_of(99)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    # Carol's one game was not with a record; Bob sees both of his.
    assert len((await link_for(keeper, BOB).history()).games) == 2


def test_coldwater_serve_ratings_prints_the_table(tmp_path: Path) -> None:
    home = tmp_path / "data"
    store = database.Store(database.db_path(home))
    for n in (1, 2):
        store.add_result(played(n, {ANN: 1, BEN: 2}))
    store.close()
    coldwater = Path(sys.executable).with_name("coldwater")
    env = {**os.environ, "COLDWATER_HOME": str(home)}
    done = subprocess.run([str(coldwater), "serve", "--ratings"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "crown:" and ANN in lines[2] and BEN in lines[3]
    env["COLDWATER_HOME"] = str(tmp_path / "nowhere")
    done = subprocess.run([str(coldwater), "serve", "--ratings"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "no server database" in done.stderr


async def test_the_history_screen_over_ssh_shows_the_rating_and_replays_a_game(
    server: serve.Server, player_key: asyncssh.SSHKey
) -> None:
    me = serve.key_fingerprint(player_key.public_data)
    server.store.add_result(played(0, {me: 1, BEN: 2}, game="fisheries", rec=a_record()))
    async with await connect(server, player_key) as conn:
        app = await open_app(conn)
        # (The whole menu, its last entry and the key under it drawn: the served entries still fit 80×24.)
        await app.until(
            lambda s: MENU in s and "History and ratings" in s and "Quit" in s and "Over SSH with key" in s,
            "the whole menu with History",
        )
        app.proc.stdin.write(b"g")
        shown = await app.until(lambda s: "Ratings:" in s and "1st of 2" in s, "the ratings and the game")
        text = " ".join(shown.split())  # (a long line wraps at 80 columns)
        assert "Ratings: Fisheries of Gloucester" in text and "(1 game)" in text
        assert "vs bbbb (2nd, 30)" in text and "0.0 →" in text
        await asyncio.sleep(0.3)
        app.proc.stdin.write(b"\r")
        await app.until(lambda s: "Replay · " in s or " replay · " in s, "the replay of the game")
        assert (serve.player_home(server.root, player_key.public_data) / "records" / "served-1.json").exists()
