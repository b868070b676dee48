"""Headless self-play: whole games by bots, for `coldwater simulate` and tests.

Pure: no printing and no clock; the same arguments give the same results on
every machine, because every chance outcome and every bot choice comes from a
generator forked from the seed by game number and ply.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import msgspec

from . import record as record_mod
from .bots import BotError
from .record import GameRecord
from .rng import Rng
from .state import CHANCE, Bot, Game, S, Scores


class GameResult(msgspec.Struct, frozen=True):
    game: str
    index: int
    seed: str
    players: int
    plies: int
    totals: tuple[int, ...]
    labels: tuple[str, ...]
    ranking: tuple[int, ...]
    outcome: str
    digest: str
    categories: tuple[str, ...] = ()
    rows: tuple[tuple[int, ...], ...] = ()
    record: GameRecord | None = None
    """The game's record, as a table keeps it (``simulate(..., records=True)``), so it can be
    replayed and reviewed."""


def play_out(
    state: S, bots: Sequence[Bot], rng: Rng, *, max_plies: int = 100_000, record: GameRecord | None = None
) -> S:
    """Play `state` to the end in place: chance from its seed, seats by `bots`.

    Chance comes from ``state.sample_chance()`` (the seed forked by ply), the
    same source a local table uses, so a seeded game is the same everywhere.
    Each step is appended to `record` if one is given.
    """
    bot_rng = rng.fork("bots")
    while True:
        cur = state.current
        if cur is None:
            return state
        if state.ply >= max_plies:
            raise RuntimeError(f"game did not end within {max_plies} plies")
        if cur == CHANCE:
            action = state.sample_chance()
        else:
            action = bots[cur].choose(state.view(cur), bot_rng.fork(state.ply))
        state.apply(action)
        if record is not None:
            record_mod.append(record, cur, action, state)


def seat_bots(game: Game[Any, Any], spec: str, players: int) -> list[str]:
    """Bot names per seat from ``hard`` (every seat) or ``hard,easy`` (one per seat).

    Raises BotError naming the known bots, or if the count does not match the seats.
    """
    names = [n.strip() for n in spec.split(",")]
    for n in names:
        if n not in game.bots:
            raise BotError(f"unknown bot {n!r}; {game.title} has: {', '.join(game.bots)}")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise BotError(f"{len(names)} bots for {players} seats: give one bot, or one per seat")
    return names


def simulate(
    game: Game[Any, Any],
    players: int,
    games: int,
    seed: int | str,
    *,
    bot: str = "random",
    options: object = None,
    records: bool = False,
) -> Iterator[GameResult]:
    """Play `games` whole games and yield each one's result as it finishes.

    `bot` is one bot name for every seat or a comma-separated name per seat. With
    `records`, each result carries the game's record (seat names are the bots').
    """
    names = seat_bots(game, bot, players)
    for i in range(games):
        game_seed = f"{seed}/{i}"
        state = game.new(players, seed=game_seed, options=options)
        bots = [game.bot(n) for n in names]
        rec = record_mod.start(game, state, options, meta={"seats": ", ".join(names)}) if records else None
        play_out(state, bots, Rng(game_seed), record=rec)
        sc: Scores = state.scores()
        yield GameResult(
            game=game.name,
            index=i,
            seed=game_seed,
            players=players,
            plies=state.ply,
            totals=sc.totals,
            labels=sc.labels,
            ranking=sc.ranking,
            outcome=sc.outcome,
            digest=state.digest(),
            categories=sc.categories,
            rows=sc.rows,
            record=rec,
        )
