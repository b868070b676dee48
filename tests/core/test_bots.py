"""The bot levels: one factory, the search sees only views, and it repeats itself.

Search budgets here are small (a few iterations, short playouts) so the tests
are quick; the properties do not depend on the budget.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from coldwater.core import games
from coldwater.core.bots import BOT_NAMES, LEVELS, BotError, EasyBot
from coldwater.core.rng import Rng
from coldwater.core.search import FastRng, SearchBot, argmax
from coldwater.core.simulate import seat_bots, simulate
from coldwater.core.state import CHANCE, State


def small(game: Any, **kw: Any) -> SearchBot:
    """The game's hard bot with a test-sized budget and no clock cap."""
    bot = game.bot("hard")
    assert isinstance(bot, SearchBot)
    bot.iterations = kw.get("iterations", 6)
    bot.horizon = kw.get("horizon", 12)
    bot.max_seconds = math.inf
    return bot


def mid_game(name: str, players: int, seed: str, min_ply: int = 40) -> State[Any, Any]:
    """A position after some greedy play where the seat to act has a real choice."""
    g = games.get(name)
    s = g.new(players, seed=seed)
    greedy = g.bot("greedy")
    r = Rng(seed)
    while s.current is not None:
        cur = s.current
        if cur != CHANCE and s.ply >= min_ply and len(s.legal()) >= 3:
            return s
        s.apply(s.sample_chance() if cur == CHANCE else greedy.choose(s.view(cur), r.fork(s.ply)))
    raise AssertionError("no choice found")


@pytest.mark.parametrize("name", games.names())
def test_every_game_offers_every_level_through_one_factory(name: str) -> None:
    g = games.get(name)
    assert g.bots == BOT_NAMES and set(LEVELS) <= set(g.bots)
    for n in g.bots:
        assert g.bot(n).name == n
    with pytest.raises(BotError, match="has: random, easy, normal, hard, greedy"):
        g.bot("grandmaster")


@pytest.mark.parametrize("name,players", [("crown", 2), ("aquatica", 2), ("crown", 1)])
def test_search_sees_only_the_view(name: str, players: int) -> None:
    """Two positions that differ only in what the seat cannot see get the same choice.

    The second position is the first with its hidden values replaced by another
    draw (other fish weights, other hands and deck orders): the poison. The bot
    is also checked to pass nothing but the view it was handed to determinize.
    """
    g = games.get(name)
    s = mid_game(name, players, f"poison/{name}")
    seat = s.current
    view = s.view(seat)
    poisoned = g.determinize(view, Rng("poison"))
    assert poisoned.encode() != s.encode(), "the poisoned position must hide something different"
    assert poisoned.view(seat).encode() == view.encode()

    seen: list[Any] = []

    class Spy:
        def __getattr__(self, attr: str) -> Any:
            return getattr(g, attr)

        def determinize(self, v: Any, rng: Rng) -> Any:
            seen.append(v)
            return g.determinize(v, rng)

    bot = small(g)
    bot.game = Spy()
    a = bot.choose(s.view(seat), Rng("pick"))
    b = bot.choose(poisoned.view(seat), Rng("pick"))
    assert a == b
    assert seen and all(v.encode() == view.encode() and v.seed is None for v in seen)


@pytest.mark.parametrize("name", games.names())
def test_search_is_deterministic_for_a_seed_and_budget(name: str) -> None:
    g = games.get(name)
    players = 2
    s = mid_game(name, players, f"det/{name}")
    view = s.view(s.current)
    picks = {str(small(g).choose(view, Rng("same"))) for _ in range(2)}
    assert len(picks) == 1
    assert picks.pop() in {str(a) for a in s.legal()}


def test_search_plays_whole_games_legally() -> None:
    """Through simulate, with a different search level per seat."""
    g = games.get("crown")
    bots = [small(g, iterations=3, horizon=6), g.bot("easy")]
    s = g.new(2, seed="whole")
    r = Rng("whole")
    while (cur := s.current) is not None:
        s.apply(s.sample_chance() if cur == CHANCE else bots[cur].choose(s.view(cur), r.fork(s.ply)))
    assert s.scores().final


def test_easy_makes_mistakes_but_not_always() -> None:
    g = games.get("aquatica")
    easy, greedy = g.bot("easy"), g.bot("greedy")
    assert isinstance(easy, EasyBot)
    s = g.new(2, seed="easy")
    r = Rng("easy")
    same = differ = 0
    while (cur := s.current) is not None:
        if cur == CHANCE:
            s.apply(s.sample_chance())
            continue
        v = s.view(cur)
        a = easy.choose(v, r.fork(s.ply))
        if len(v.legal()) > 2:
            if a == greedy.choose(v, r.fork(s.ply)):
                same += 1
            else:
                differ += 1
        s.apply(a)
    assert differ > 0 and same > differ


def test_simulate_takes_a_bot_per_seat() -> None:
    g = games.get("crown")
    assert seat_bots(g, "easy", 3) == ["easy"] * 3
    assert seat_bots(g, "easy, greedy", 2) == ["easy", "greedy"]
    with pytest.raises(BotError, match="2 bots for 3 seats"):
        seat_bots(g, "easy,greedy", 3)
    with pytest.raises(BotError, match="unknown bot 'expert'"):
        list(simulate(g, 2, 1, "s", bot="expert"))
    (r,) = simulate(g, 2, 1, "s", bot="easy,greedy")
    assert r.outcome


def test_argmax_breaks_exact_ties_by_the_rng_only() -> None:
    assert argmax(["a", "b", "c"], [1.0, 3.0, 2.0], Rng(0)) == "b"  # type: ignore[type-var]
    picks = {argmax(["a", "b", "c"], [3.0, 3.0, 1.0], FastRng(Rng(i))) for i in range(40)}  # type: ignore[type-var]
    assert picks == {"a", "b"}


def test_a_table_seat_can_name_a_level(tmp_path: Any) -> None:
    from coldwater.net.play.table import Seat, SeatKind, Table

    t = Table.new(
        "crown",
        [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Bot", bot="hard")],
        seed="seat",
        save_path=tmp_path / "t.cwsave",
        autosave=False,
    )
    assert t.seats[1].bot == "hard"
    with pytest.raises(ValueError, match="unknown bot"):
        Table.new(
            "crown", [Seat(SeatKind.PERSON, "Ann"), Seat(SeatKind.BOT, "Bot", bot="expert")], seed="x", autosave=False
        )


@pytest.mark.parametrize("options", [None, {"board": "B", "market": True}], ids=["A", "B-market"])
def test_fisheries_built_sort_keys_are_the_notation(options: dict[str, Any] | None) -> None:
    """Fisheries builds its charts' and sails' sort keys by hand for speed: legal()
    must still come out in notation order, as every engine's does."""
    g = games.get("fisheries")
    for i in range(4):
        s = g.new(2, seed=f"keys/{i}", options=options)
        r = Rng(i)
        while (cur := s.current) is not None:
            legal = s.legal()
            assert [str(a) for a in legal] == sorted(str(a) for a in legal)
            s.apply(s.sample_chance(r) if cur == CHANCE else r.choice(legal))


def test_a_paused_search_plays_the_same_move() -> None:
    """The host's pause hook runs before every iteration and changes nothing chosen."""
    g = games.get("crown")
    s = mid_game("crown", 2, "pause/crown")
    view = s.view(s.current)
    plain = small(g).choose(view, Rng("p"))
    calls: list[int] = []
    bot = small(g)
    bot.pause = lambda: calls.append(1)
    assert bot.choose(view, Rng("p")) == plain
    assert len(calls) == bot.last_iterations > 0


def test_practice_pond_greedy_keeps_bait_from_the_silent_players_piles() -> None:
    """The silent player catches when its draw makes a colour's discard pile 3 to 6:
    casting into a pile of 2 to 5 feeds it, pushing one past 5 starves it; with
    real rivals there is no silent player to feed."""
    from coldwater.core.crown.bot import GreedyBot

    g = games.get("crown")
    solo, duo = g.new(1, seed="feed").data, g.new(2, seed="feed").data
    for d in (solo, duo):
        d.discard[0] = 1
    assert GreedyBot.feeds_silent(solo, 0, 1) == 1.0  # 1 -> 2: one silent draw from a fish
    assert GreedyBot.feeds_silent(solo, 0, 0) == 0.0
    solo.discard[0] = 4
    assert GreedyBot.feeds_silent(solo, 0, 1) == 0.0  # 4 -> 5: still in range
    assert GreedyBot.feeds_silent(solo, 0, 2) == -1.0  # 4 -> 6: out of its reach
    assert GreedyBot.feeds_silent(duo, 0, 1) == 0.0


def _turn_start(players: int, seed: str) -> State[Any, Any]:
    """A Crown position where seat 0 places its Angler token (Step 1)."""
    from coldwater.core.crown.actions import Place

    g = games.get("crown")
    s = g.new(players, seed=seed)
    greedy = g.bot("greedy")
    r = Rng(seed)
    while not (s.current == 0 and any(isinstance(a, Place) for a in s.legal())):
        cur = s.current
        s.apply(s.sample_chance() if cur == CHANCE else greedy.choose(s.view(cur), r.fork(s.ply)))
    return s


def test_practice_pond_greedy_stays_a_fish_behind_the_silent_player() -> None:
    """While you have fewer fish than the silent player it draws one bait a turn, not two:
    a cast that would catch you level with it is passed over (another move is taken),
    unless you would still be behind, or the game's end has come anyway."""
    from coldwater.core.crown.actions import Place, Space
    from coldwater.core.crown.bot import GreedyBot
    from coldwater.core.crown.model import COLOUR_INDEX, SPACE_INDEX, Fish

    s = _turn_start(1, "level")
    d = s.data
    you, silent = d.parties[0], d.parties[1]
    fishing: tuple[Space, ...] = ("red", "blue", "green", "yellow", "black", "purple")
    space = next(sp for sp in fishing if not d.tokens[SPACE_INDEX[sp]])
    you.zones = [[0] * 6 for _ in range(4)]
    you.zones[0][COLOUR_INDEX[space]] = 1  # placing on `space` empties Zone 3: a fish
    you.fish = [Fish("pike")]
    silent.fish = [Fish("pike"), Fish("perch")]
    bot = GreedyBot(games.get("crown").tables)
    catch = Place(space)
    assert bot.choose(s.view(0), Rng("a")) != catch  # 1 fish to 2: level with the silent player
    silent.fish.append(Fish("roach"))
    assert bot.choose(s.view(0), Rng("a")) == catch  # 2 fish to 3: still behind
    silent.fish.pop()
    d.end_triggered = True
    assert bot.choose(s.view(0), Rng("a")) == catch  # the last turn: catch everything


def test_practice_pond_greedy_takes_master_angler_cards_toward_the_trophies() -> None:
    """Of two cards with the same spots, the one of a new species (Four Different) or the
    third of a species (Three Same) is taken, while that trophy is still open; with
    real rivals the bonus is off."""
    from coldwater.core.crown.actions import Take
    from coldwater.core.crown.bot import GreedyBot
    from coldwater.core.crown.model import Trophy

    g = games.get("crown")
    bot = GreedyBot(g.tables)
    crab, dogfish = Take(3), Take(19)  # the same spots (red, black, yellow)
    assert g.tables.ma_species[3] == "crab" and g.tables.ma_species[19] == "dogfish"
    solo = g.new(1, seed="sets").data
    you = solo.parties[0]
    you.ma, you.ma_done = [], [1, 7]  # a crab and a conger eel caught
    assert bot.value(solo, you, dogfish) > bot.value(solo, you, crab)  # a third species
    you.ma_done = [1, 2]  # two crabs
    you.trophies = [Trophy("four_different", 2)]
    assert bot.value(solo, you, crab) > bot.value(solo, you, dogfish)  # the third crab
    you.trophies.append(Trophy("three_same", 2))
    assert bot.value(solo, you, crab) == bot.value(solo, you, dogfish)  # both trophies won
    duo = g.new(2, seed="sets").data
    rival = duo.parties[0]
    rival.ma, rival.ma_done = [], [1, 7]
    assert bot.value(duo, rival, dogfish) == bot.value(duo, rival, crab)


def test_a_ply_budget_stops_the_search_between_rounds_and_repeats() -> None:
    """`max_plies` counts the plies a decision plays: it ends the search after the
    round that reaches it (never inside one), and the same seed gives the same move."""
    from coldwater.core.aquatica.bot import GreedyBot

    g = games.get("aquatica")
    s = mid_game("aquatica", 2, "plies/aquatica")
    view = s.view(s.current)
    bot = small(g, iterations=400, horizon=10_000)
    bot.max_plies = 300
    first = bot.choose(view, Rng("b"))
    assert 0 < bot.last_iterations < 400
    assert bot.last_plies >= 300
    again = small(g, iterations=400, horizon=10_000)
    again.max_plies = 300
    assert again.choose(view, Rng("b")) == first and again.last_plies == bot.last_plies
    with pytest.raises(ValueError, match="plies"):
        SearchBot(g, GreedyBot(), lambda st, a: [0.0], name="x", iterations=1, max_plies=0)


def test_aquatica_solo_worth_is_on_the_pp_scale_not_around_the_root() -> None:
    """A whole solo game's worth grows with its PP, whatever PP the search began at,
    and stays inside (0, 1) so games of 40 and 80 PP are told apart."""
    from coldwater.core.aquatica.bot import evaluate

    g = games.get("aquatica")
    ends = []
    for seed in ("worth/1", "worth/2", "worth/3"):
        s = g.new(1, seed=seed)
        greedy = g.bot("greedy")
        r = Rng(seed)
        while (cur := s.current) is not None:
            s.apply(s.sample_chance() if cur == CHANCE else greedy.choose(s.view(cur), r.fork(s.ply)))
        ends.append((s.scores().totals[0], evaluate(s, (0,))[0], evaluate(s, (30,))[0]))
    for pp, w0, w30 in ends:
        assert w0 == w30 and 0.05 < w0 < 0.95, (pp, w0)
    by_pp = sorted(ends)
    assert all(a[1] <= b[1] for a, b in zip(by_pp, by_pp[1:]))
    assert len({pp for pp, _, _ in ends}) > 1


def test_the_clock_cap_needs_a_clock_handed_in() -> None:
    """Core reads no clock: a search bot's wall-clock cap works only with the clock that
    net hands it (`net.play.thinker.timed`); without one the budget alone decides."""
    from coldwater.net.play.thinker import timed

    view = mid_game("crown", 2, "clock")
    view = view.view(view.current)
    bare = small(games.get("crown"), iterations=12)
    bare.max_seconds = 0.0
    assert bare.clock is None
    bare.choose(view, Rng("c"))
    assert bare.last_iterations == (12 // bare.width) * bare.width  # no cap without a clock

    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 1.0  # every look at the clock is a second later
        return ticks[0]

    capped = small(games.get("crown"), iterations=12)
    capped.max_seconds = 0.5
    capped.clock = clock
    capped.choose(view, Rng("c"))
    assert capped.last_iterations == capped.width  # the first round always runs, then time is up
    assert timed(games.get("crown").bot("hard")).clock is not None  # type: ignore[attr-defined]
    assert not hasattr(timed(games.get("crown").bot("greedy")), "clock")
