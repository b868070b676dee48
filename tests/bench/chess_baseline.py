"""The yardstick for engine speed: python-chess in random play on this machine.

The Crown issue asks for twice python-chess's random-play rate, measured on the
same machine at the same time, so the benchmark measures both. python-chess is
not a dependency: without it the baseline is reported as missing.
"""

from __future__ import annotations

import time

from coldwater.core.rng import Rng


def chess_random_plies(seconds: float = 3.0) -> tuple[float, float] | None:
    """(plies/s CPU, plies/s wall) of python-chess random play, or None if absent."""
    try:
        import chess
    except ImportError:
        return None
    r = Rng("chess-baseline")
    plies = 0
    w0, t0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - w0 < seconds:
        board = chess.Board()
        while not board.is_game_over(claim_draw=False) and board.ply() < 400:
            moves = list(board.legal_moves)
            board.push(moves[r.below(len(moves))])
            plies += 1
    return plies / (time.process_time() - t0), plies / (time.perf_counter() - w0)
