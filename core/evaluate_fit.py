"""Fitted data behind the evaluator's win chance (core/evaluate.py): generated, do not edit.

Made by ``tests/bench/fit_evaluator.py`` (docs/coach.md, "The win chance"); run it again
to refit. Per "game/players": (a, b) of P(win) = 1 / (1 + exp(-(a + b * points))), where
points is the evaluator's expected worth of the position to the seat to move.
"""

from __future__ import annotations

from typing import Final

WIN_FIT: Final[dict[str, tuple[float, float]]] = {
    # tests/bench/fit_evaluator.py --games 30 --positions 6 --worlds 8 --jobs 1 --write
    "aquatica/1": (-18.9193, 0.3162),
    "aquatica/1/tribes": (-7.0179, 0.0389),
    "aquatica/2": (0.1617, 0.2148),
    "aquatica/3": (0.2953, 0.2915),
    "aquatica/4": (-0.2595, 0.2484),
    "crown/1": (-0.402, 0.2957),
    "crown/2": (-0.121, 0.1491),
    "crown/3": (0.2732, 0.3387),
    "crown/4": (-0.4162, 0.28),
    "fisheries/2": (-0.5363, 1.9557),
}
