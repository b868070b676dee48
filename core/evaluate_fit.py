"""Fitted data behind the evaluator's win chance (core/evaluate.py): generated, do not edit.

Made by ``tests/bench/fit_evaluator.py`` (docs/coach.md, "The win chance"); run it again
to refit. Per "game/players": (a, b) of P(win) = 1 / (1 + exp(-(a + b * points))), where
points is the evaluator's expected worth of the position to the seat to move.

``VALUE_FIT`` (``--value``): per "game/players", the weights of the game's cut features
(``evaluate.LinearCut``): a row's expected final total is their weighted sum.
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

VALUE_FIT: Final[dict[str, tuple[float, ...]]] = {
    # tests/bench/fit_evaluator.py --value --games 200 --every 3 --jobs 2 --write
    "crown/1": (
        12.3895,
        14.5032,
        0.5972,
        -0.2015,
        -0.1846,
        1.0784,
        0.5274,
        0.4409,
        -1.4544,
        0.2364,
        0.0857,
        -0.037,
        0.1395,
        0.8439,
        0.5279,
    ),
    "crown/2": (
        14.5692,
        15.3281,
        0.6845,
        -0.9532,
        -0.1366,
        1.1914,
        0.4702,
        0.4908,
        -0.0992,
        0.7932,
        0.0578,
        0.0612,
        0.7586,
        -0.2713,
        0.0185,
    ),
    "crown/3": (
        11.4684,
        14.8318,
        0.7978,
        -1.0627,
        -0.2901,
        1.1096,
        0.8846,
        0.4493,
        -0.7465,
        0.846,
        0.2137,
        -0.2799,
        0.533,
        0.1676,
        0.1227,
    ),
    "crown/4": (
        11.6018,
        13.3778,
        0.7283,
        -1.007,
        -0.8553,
        1.3027,
        1.1013,
        0.5645,
        -0.9954,
        0.697,
        0.1722,
        -0.3245,
        0.5738,
        0.3867,
        0.2136,
    ),
}
