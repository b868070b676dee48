"""The greedy bot plays sensibly: it beats the random bot and submits its heaviest fish."""

from __future__ import annotations

from coldwater.core.crown.game import GAME
from coldwater.core.rng import Rng
from coldwater.core.simulate import play_out

from .helpers import legal_text, play, refresh, set_zones, started, tokens


def test_greedy_beats_random() -> None:
    wins = 0
    for g in range(6):
        s = GAME.new(2, seed=f"greedy-vs-random/{g}")
        seat = g % 2
        bots = [GAME.bot("random"), GAME.bot("random")]
        bots[seat] = GAME.bot("greedy")
        play_out(s, bots, Rng(g))
        wins += s.scores().ranking[0] == seat
    assert wins >= 5


def test_greedy_routes_bait_to_master_angler_cards_and_catches() -> None:
    from coldwater.core.crown.model import MAProgress

    s = started(2, seed="g")
    d = s.data
    set_zones(s, 0, {3: "red", 4: "blue,blue,green,green"})
    if 14 in d.ma_row:
        d.ma_row.remove(14)
        d.ma_row.append(d.ma_deck.pop())
    else:
        d.ma_deck.remove(14)
    d.parties[0].ma = [MAProgress(14, [])]  # MA14 Char: green, red, black
    tokens(s, port=1, yellow=1, black=1)
    refresh(s)
    bot = GAME.bot("greedy")
    a = bot.choose(s.view(0), Rng(1))
    assert str(a) == "place red"  # empties Zone 3 and fills a Master Angler spot
    play(s, str(a))
    assert str(bot.choose(s.view(0), Rng(1))) == "route 14"


def test_greedy_submits_heaviest() -> None:
    from coldwater.core.crown.endgame import start_contests

    from .helpers import card, give_fish

    s = started(2, seed="g2")
    for p in s.data.parties:
        p.fish = []
    give_fish(s, 0, [card("pike", 4), card("pike", 16)])
    give_fish(s, 1, [card("pike", 5)])
    start_contests(s.data)
    refresh(s)
    assert legal_text(s) == ["submit pike 1", "submit pike 2"]
    assert str(GAME.bot("greedy").choose(s.view(0), Rng(2))) == "submit pike 1"
