"""The yardstick for engine speed: python-chess in random play on this machine.

The Crown issue asks for twice python-chess's random-play rate, measured on the
same machine at the same time, so the benchmark measures both. python-chess is
not a dependency: without it the baseline is reported as missing.
"""

from __future__ import annotations

import time
from typing import Any

from coldwater.core.rng import Rng
from coldwater.core.state import CHANCE


def chess_random_plies(seconds: float = 3.0) -> tuple[float, float] | None:
    """(plies/s CPU, plies/s wall) of python-chess random play, or None if absent."""
    clock = ChessClock.make()
    if clock is None:
        return None
    plies, cpu, wall = clock.play(seconds)
    return plies / cpu, plies / wall


class ChessClock:
    """python-chess random play in slices: each ``play`` goes on from the last game.

    A benchmark on a shared machine alternates slices of this with slices of an
    engine, so load that comes and goes weighs on both sides alike.
    """

    def __init__(self, chess: Any) -> None:
        self._chess = chess
        self._rng = Rng("chess-baseline")
        self._board = chess.Board()

    @staticmethod
    def make() -> ChessClock | None:
        try:
            import chess
        except ImportError:
            return None
        return ChessClock(chess)

    def play(self, seconds: float) -> tuple[int, float, float]:
        """(plies, CPU s, wall s) of random play for about `seconds` of wall time."""
        r, board = self._rng, self._board
        plies = 0
        w0, t0 = time.perf_counter(), time.process_time()
        while time.perf_counter() - w0 < seconds:
            if board.is_game_over(claim_draw=False) or board.ply() >= 400:
                board = self._board = self._chess.Board()
            for _ in range(50):  # the clock is read every 50 plies, not every ply
                if board.is_game_over(claim_draw=False) or board.ply() >= 400:
                    break
                moves = list(board.legal_moves)
                board.push(moves[r.below(len(moves))])
                plies += 1
        return plies, time.process_time() - t0, time.perf_counter() - w0


def engine_random_plies(
    game: Any, players: int, games: int, options: Any = None, first: int = 0
) -> tuple[int, float, float]:
    """(plies, CPU s, wall s) of random play straight on the full state, as chess is measured.

    Each ply is ``legal()`` then ``apply()`` (chance draws included), like
    ``list(board.legal_moves)`` then ``push()``: the figure a search cares about.
    """
    plies = 0
    w0, t0 = time.perf_counter(), time.process_time()
    for g in range(first, first + games):
        s = game.new(players, seed=f"bench/{players}/{g}", options=options)
        r = Rng(g)
        while True:
            legal = s.legal()
            if not legal:
                break
            s.apply(s.sample_chance(r) if s.current == CHANCE else legal[r.below(len(legal))])
        plies += s.ply
    return plies, time.process_time() - t0, time.perf_counter() - w0


def print_ratio(title: str, plies: int, cpu: float, wall: float) -> None:
    """The engine's random-play rate beside python-chess's, measured now."""
    base = chess_random_plies()
    line = f"{title} random play on the state: {plies / cpu:,.0f} plies/s CPU, {plies / wall:,.0f} wall"
    if base is None:
        print(line + "; python-chess baseline: not installed (pip install chess to compare)")
    else:
        print(line + f"; python-chess {base[0]:,.0f} plies/s CPU -> {plies / cpu / base[0]:.2f}x (CPU)")
