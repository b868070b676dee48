"""Random and greedy self-play with invariants checked at every step; replay determinism."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from coldwater.core import record
from coldwater.core.rng import Rng
from coldwater.core.simulate import play_out, simulate
from coldwater.core.state import CHANCE

from .checks import play_checked, play_light
from .helpers import G

VARIANTS = [None, {"board": "B"}, {"market": True}, {"board": "B", "market": True}]
BOTS = [("random", "random"), ("greedy", "random"), ("greedy", "greedy")]


@pytest.mark.parametrize("options", VARIANTS, ids=["A", "B", "market", "B+market"])
@pytest.mark.parametrize("bots", BOTS, ids=["rr", "gr", "gg"])
@pytest.mark.parametrize("seed", range(2))
def test_random_play_keeps_every_invariant(seed: int, bots: tuple[str, str], options: dict | None) -> None:
    play_checked(f"quick/{seed}", options, bots, full=seed == 0)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(4))
def test_many_seeds(chunk: int) -> None:
    # Thousands of whole games with the cheap checks at every step ...
    for k in range(375):
        seed = chunk * 10_000 + k
        play_light(seed, VARIANTS[seed % 4], BOTS[seed % 3])
    # ... and some with every check.
    for k in range(4):
        seed = chunk * 10_000 + 5_000 + k
        play_checked(seed, VARIANTS[seed % 4], BOTS[seed % 3], full=False)


def _recorded_game(seed: str, options: dict | None) -> record.GameRecord:
    s = G.new(2, seed=seed, options=options)
    rec = record.start(G, s, options)
    bots = [G.bot("greedy"), G.bot("random")]
    rng = Rng(seed)
    while s.current is not None:
        cur = s.current
        a = s.sample_chance() if cur == CHANCE else bots[cur].choose(s.view(cur), rng.fork(s.ply))
        s.apply(a)
        record.append(rec, cur, a, s)
    return rec


@pytest.mark.parametrize("options", [None, {"board": "B", "market": True}], ids=["A", "B+market"])
def test_replay_in_another_process_gives_identical_digests(tmp_path, options: dict | None) -> None:
    rec = _recorded_game("replay", options)
    path = tmp_path / "game.json"
    record.save(rec, path)
    code = (
        "import sys; from coldwater.core import record; "
        "r = record.load(sys.argv[1]); print(record.replay(r).digest())"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == rec.entries[-1].digest
    assert record.replay(record.load(path)).digest() == rec.entries[-1].digest


def test_simulate_cli_is_identical_across_runs() -> None:
    args = [sys.executable, "-m", "coldwater.tui.cli", "simulate", "fisheries", "--players", "2", "--games", "3",
            "--seed", "7", "--json", "--bot", "greedy"]
    runs = [subprocess.run(args, capture_output=True, text=True, check=True).stdout for _ in range(2)]
    assert runs[0] == runs[1]
    rows = [json.loads(line) for line in runs[0].splitlines()]
    assert len(rows) == 3 and all(r["game"] == "fisheries" for r in rows)


GOLDEN = "9c61b1c358e25a510af1db95549f2d498861da5d9053b2f52a3299e379404e83"


def test_golden_digest_for_a_fixed_seed() -> None:
    s = play_out(G.new(2, seed="golden"), [G.bot("greedy"), G.bot("greedy")], Rng("golden"))
    assert s.digest() == GOLDEN, s.digest()


def test_simulate_results_are_reproducible() -> None:
    a = [r.digest for r in simulate(G, 2, 3, "again", bot="greedy", options={"board": "B"})]
    b = [r.digest for r in simulate(G, 2, 3, "again", bot="greedy", options={"board": "B"})]
    assert a == b


def test_greedy_beats_random() -> None:
    wins = 0
    for i in range(10):
        seat = i % 2
        bots = [G.bot("random"), G.bot("random")]
        bots[seat] = G.bot("greedy")
        s = play_out(G.new(2, seed=f"duel/{i}"), bots, Rng(f"duel/{i}"))
        wins += s.scores().ranking[0] == seat
    assert wins >= 8
