"""The deal of the day on `coldwater serve` (docs/ssh.md, "The deal of the day"), after Hanab Live's
seeded games: everyone on the server plays the same deal of a game, alone, and compares.

Each game has one deal a day: its own solo mode where it has one, else one seat against a bot.
The deal is the game started from an announced seed made of the server's name (from its host
key, so two servers deal differently), the game, the mode and the date (the server's local
time); the bot seat answers the same position the same way for everyone. It is played as a
one-person turn-based table on the server (turns.py: kept move by move, through restarts),
at most once a day per key. The results board lists every finished score on that deal, best first;
each score's replay opens once the asker has finished the same deal, so nobody learns the deal from
another's game first.
"""

from __future__ import annotations

import time

from coldwater.core import games
from coldwater.tui.serve.database import Store
from coldwater.tui.serve.turns import TurnError, TurnTablesKeeper
from coldwater.tui.serve.turnwire import DealInfo, DealScore, OpenTurnTable, TurnPosition

DEAL_HOURS = 24.0 * 14
"""A deal has no clock to speak of: it is played alone, whenever the person likes."""


def mode_of(game: str) -> tuple[str, list[str]]:
    """The deal's mode and seats: the game's own solo mode, else one seat against a bot."""
    g = games.get(game)
    return ("solo", ["me"]) if g.min_players == 1 else ("vs-bot", ["me", "bot"])


def today(now: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(now))


def deal_id(game: str, day: str) -> str:
    return f"{game}/{mode_of(game)[0]}/{day}"


class Deals:
    """Today's deals of one server (`server_id`: a short name of its host key)."""

    def __init__(self, keeper: TurnTablesKeeper, store: Store, server_id: str) -> None:
        self.keeper = keeper
        self.store = store
        self.server_id = server_id

    def seed(self, deal: str) -> str:
        return f"{self.server_id}/{deal}"

    def boards(self, me: str) -> list[DealInfo]:
        day = today(self.keeper.wall_clock())
        out = []
        for game in games.names():
            deal = deal_id(game, day)
            scores = []
            for r in sorted(self.store.results(deal=deal, limit=100_000), key=lambda r: r.id):
                seat = next((s for s in r.seats if s.player), None)
                if seat is not None:
                    scores.append((seat.score, seat.name, seat.player, r.id))
            scores.sort(key=lambda s: (-s[0], s[3]))
            board = [
                DealScore(name=n, player=p, score=sc, rank=1 + sum(1 for o in scores if o[0] > sc), result=rid)
                for sc, n, p, rid in scores
            ]
            table = next((t for t in self.keeper.tables.values() if t.deal == deal and me in t.players), None)
            out.append(
                DealInfo(
                    game=game,
                    mode=mode_of(game)[0],
                    day=day,
                    seed=self.seed(deal),
                    table=table.id if table is not None else 0,
                    mine=next((b for b in board if b.player == me), None),
                    board=board,
                )
            )
        return out

    async def play(self, me: str, game: str) -> TurnPosition:
        try:
            _, seats = mode_of(game)
        except KeyError:
            raise TurnError(f"this server has no game {game!r}") from None
        deal = deal_id(game, today(self.keeper.wall_clock()))
        mine = next((t for t in self.keeper.tables.values() if t.deal == deal and me in t.players), None)
        if mine is not None:
            return self.keeper.view(me, mine.id)
        request = OpenTurnTable(game=game, name=f"{deal} {me[:9]}", seats=seats, hours=DEAL_HOURS)
        return await self.keeper.open(me, request, seed=self.seed(deal), deal=deal)


def may_replay(store: Store, me: str, deal: str) -> bool:
    """Another key's game of `deal` opens for `me` once `me` has finished the same deal."""
    return bool(deal) and bool(store.results(deal=deal, player=me, limit=1))
