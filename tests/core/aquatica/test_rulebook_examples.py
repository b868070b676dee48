"""Every worked example and rule statement of the Cold Waters rulebook."""

from __future__ import annotations

import pytest

from coldwater.core.aquatica import payment, tribes
from coldwater.core.aquatica.actions import Buy, OppFlip, Place, RecruitTribe, Spend
from coldwater.core.aquatica.game import GAME
from coldwater.core.aquatica.model import Manta
from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE

from .helpers import char_id, do, give_hand, ready_state, settle_chance, tire_all, to_board, to_row, to_scored, touch

MATRONA = [0, 6, 12, 18, 24]
ENVOY = [5, 11, 17, 23, 29]
MERCHANT = [3, 9, 15, 21, 27]


def _pass_turn(s, seat: int) -> None:
    """Seat plays its Merchant and skips the buy, then ends the turn."""
    assert s.current == seat
    give_hand(s, seat) if MERCHANT[seat] in s.data.ps[seat].hand else give_hand(s, seat, MERCHANT[seat])
    do(s, f"play {MERCHANT[seat]}")
    if s.data.stack:
        do(s, "skip")
    do(s, "end")
    settle_chance(s)


def test_big_bad_walrus_then_sealord_has_3_coins() -> None:
    s = ready_state(2)
    walrus, sealord = char_id("walrus"), char_id("sealord")
    give_hand(s, 0, walrus, sealord)
    tire_all(s, 0)  # no Manta coins: the 3 coins come from the two cards alone
    to_row(s, 2)  # Jaw Cove: 3 coins
    to_row(s, 1)  # Fin Alley: 4 coins
    # 1. play the Big Bad Walrus and activate its normal effect (power 3, conquer): skip the conquer
    do(s, f"play {walrus}")
    while s.data.stack:
        do(s, "skip")
    # 2. it goes on top of the discard pile
    assert s.data.ps[0].discard[-1] == walrus
    do(s, "end")
    _pass_turn(s, 1)
    tire_all(s, 0)
    # 3. next turn: play the Sealord; the Walrus's Delayed Effect gives 2 coins first
    do(s, f"play {sealord}")
    # 4. then Sealord: +1 coin and buy 1 Location: 3 coins in total
    assert s.data.coins == 3
    legal = s.legal()
    assert Buy(2) in legal and Buy(1) not in legal
    do(s, "buy 2")
    assert s.data.coins == 0 and [loc.id for loc in s.data.ps[0].board] == [2]
    assert s.data.ps[0].discard[-1] == sealord  # the Walrus is covered: its Delayed Effect is off


def test_delayed_effect_fires_even_if_an_opponent_discarded_it() -> None:
    s = ready_state(2)
    researcher, walrus = char_id("researcher"), char_id("walrus")
    give_hand(s, 0, researcher)
    give_hand(s, 1, walrus)
    tire_all(s, 0)
    to_row(s, 2)  # a 3-coin Location keeps the buy open
    do(s, f"play {researcher}")
    while s.current == 0 and s.data.stack:
        do(s, "skip")
    # Researcher's last effect: every other player discards a Character of their choice
    assert s.current == 1
    do(s, f"odisc {walrus}")
    assert s.data.ps[1].discard[-1] == walrus
    do(s, "end")
    tire_all(s, 1)
    do(s, f"play {MERCHANT[1]}")
    assert s.data.coins == 2 + 1  # the Walrus's +2 on the owner's own turn, then Merchant's +1


def test_delayed_effect_is_off_once_covered() -> None:
    s = ready_state(2)
    walrus = char_id("walrus")
    give_hand(s, 0, walrus)
    do(s, f"play {walrus}")
    while s.data.stack:
        do(s, "skip")
    # cover it (as an opponent's discard effect would)
    s.data.ps[0].discard.append(s.data.ps[0].hand.pop(s.data.ps[0].hand.index(ENVOY[0])))
    touch(s)
    do(s, "end")
    _pass_turn(s, 1)
    tire_all(s, 0)
    to_row(s, 14)  # a 1-coin Location keeps the buy open
    do(s, f"play {MERCHANT[0]}")
    assert s.data.coins == 1


def test_frosty_depth_every_other_player_flips_a_ready_manta() -> None:
    s = ready_state(3)
    to_board(s, 0, 62)  # Walrus Rocks... opp_flip Depths
    assert GAME.deck.loc_depths[62][0].op == "opp_flip"
    tire_all(s, 2)  # seat 3 has no ready Manta: it is passed over
    do(s, "expl 62")
    assert s.current == 1
    assert s.legal() == [OppFlip(i) for i in range(4)]
    with pytest.raises(IllegalAction, match="Manta"):
        s.apply(OppFlip(7))
    do(s, "oflip 2")
    assert not s.data.ps[1].mantas[2].ready
    assert s.current == 0 and s.data.phase == "pre"


def test_frosty_depth_copies_an_effect_depth_but_never_a_resource() -> None:
    s = ready_state(2)
    to_board(s, 0, 57)  # Frost Cave: copy
    to_board(s, 0, 43)  # Ash Ridge: raise 1 visible
    to_board(s, 0, 58)  # Glacier Tongue: coins visible (a resource)
    to_board(s, 0, 3)  # Tiger Trench: power, power
    do(s, "expl 57")
    assert s.current == CHANCE  # Frost Cave is now fully risen and shows a Wild Manta
    settle_chance(s)
    assert len(s.data.ps[0].mantas) == 5
    assert [str(a) for a in s.legal()] == ["copy 43 0", "skip"]
    do(s, "copy 43 0")
    legal = [str(a) for a in s.legal()]
    assert "raise 3 1" in legal and "raise 57 1" not in legal  # Frost Cave is risen (and the source)
    do(s, "raise 3 1")
    board = {loc.id: loc.pos for loc in s.data.ps[0].board}
    assert board[3] == 1 and board[43] == 0  # copying does not exploit Ash Ridge


def test_frosty_depth_copies_any_visible_depth_not_only_the_top_one() -> None:
    # "Copy the effect from any visible Depth on any other Location": every
    # unexploited Depth shows below the board, so a Location whose top Depth is
    # a resource still offers the effect Depths beneath it.
    s = ready_state(2)
    to_board(s, 0, 57)  # Frost Cave: copy
    to_board(s, 0, 45)  # Magma Rift: coins 1 on top, raise 1 below
    to_board(s, 0, 3)  # Tiger Trench: something to raise
    assert [e.op for e in GAME.deck.loc_depths[45]] == ["coins", "raise"]
    do(s, "expl 57")
    settle_chance(s)
    assert [str(a) for a in s.legal()] == ["copy 45 1", "skip"]
    with pytest.raises(IllegalAction):
        s.apply(GAME.parse_action("copy 45 0"))  # the coins Depth is a resource
    do(s, "copy 45 1", "raise 3 1")
    board = {loc.id: loc.pos for loc in s.data.ps[0].board}
    assert board[3] == 1 and board[45] == 0  # copying exploits nothing


def _tribes_game(players: int = 3):
    s = ready_state(players, {"module": "tribes"})
    return s


def test_tribe_cost_is_base_plus_one_per_other_players_manta() -> None:
    s = _tribes_game(3)
    d = s.data
    t = d.tribes[0]
    base = GAME.deck.content.tribes.tribes[t].cost
    assert tribes.cost(d, GAME.deck, t, 0) == base
    for seat in (1, 2):
        d.ps[seat].mantas[0].placed = True
        d.ps[seat].tribes.append(t)
        d.tribe_mantas[0].append(seat)
    assert tribes.cost(d, GAME.deck, t, 0) == base + 2
    assert tribes.cost(d, GAME.deck, t, 1) == base + 1  # a seat's own Manta does not count


def test_tribe_paid_with_scoring_pile_locations_lost_forever() -> None:
    s = _tribes_game(2)
    d = s.data
    t = d.tribes[0]
    cost = tribes.cost(d, GAME.deck, t, 0)
    tire_all(s, 0)
    # Scoring Pile worth cost - 1 PP in total; the Envoy gives 1 coin
    pile = []
    for x in sorted(range(70), key=lambda x: -GAME.deck.loc_pp[x]):
        if x in d.loc_deck and sum(GAME.deck.loc_pp[y] for y in pile) + GAME.deck.loc_pp[x] <= cost - 1:
            pile.append(x)
        if sum(GAME.deck.loc_pp[y] for y in pile) == cost - 1:
            break
    assert sum(GAME.deck.loc_pp[y] for y in pile) == cost - 1
    for x in pile:
        to_scored(s, 0, x)
    do(s, f"play {ENVOY[0]}")
    assert RecruitTribe(t) in s.legal()
    do(s, f"rt {t}")
    while s.data.pay is not None:
        spend = [a for a in s.legal() if isinstance(a, Spend)]
        assert spend, "only Scoring-Pile Locations can pay here"
        s.apply(spend[0])
    assert all(x in d.loc_discard for x in pile) and d.ps[0].scored == []
    assert s.legal() == [Place(i) for i in range(4)]  # a Trained Manta; no flipping in multiplayer
    do(s, "place 1")
    assert t in d.ps[0].tribes and d.ps[0].mantas[1].placed and d.tribe_mantas[0] == [0]


def test_a_recruit_used_on_a_tribe_recruits_no_character() -> None:
    s = _tribes_game(2)
    d = s.data
    t = d.tribes[0]
    for x in sorted(d.loc_deck, key=lambda x: -GAME.deck.loc_pp[x])[:3]:
        to_scored(s, 0, x)
    hand = len(d.ps[0].hand)
    do(s, f"play {ENVOY[0]}", f"rt {t}")
    while d.pay is not None:
        s.apply(s.legal()[0])
    do(s, "place 0")
    while s.current == CHANCE or d.stack:
        s.apply(s.sample_chance() if s.current == CHANCE else s.legal()[-1])
    assert len(d.ps[0].hand) == hand - 1  # only the Envoy left the hand
    with pytest.raises(IllegalAction):
        s.apply(RecruitTribe(t))


def test_each_tribe_once_per_player() -> None:
    s = _tribes_game(2)
    d = s.data
    t = d.tribes[0]
    d.ps[0].tribes.append(t)
    d.ps[0].mantas[0].placed = True
    d.tribe_mantas[0].append(0)
    assert t not in tribes.recruitable(d, GAME.deck, 0)


# ---- solo --------------------------------------------------------------------------


def _level(level: int, seed: str = "lv"):
    return ready_state(1, {"module": "tribes", "solo_level": level}, seed=seed)


def test_tribes_solo_setup_20_locations_circle_deck() -> None:
    s = _level(1)
    d = s.data
    assert len(d.loc_deck) + len(d.loc_bottom) == 20
    types = [GAME.deck.loc_type[x] for x in d.loc_deck + d.loc_bottom]
    assert all(types.count(t) == 4 for t in range(5))
    assert all(c < 45 for c in d.char_deck + d.char_row) and len(d.char_deck) + len(d.char_row) == 15
    assert len(d.tribes) == 8


@pytest.mark.parametrize("level,split", [(1, (4, 4)), (2, (6, 2)), (3, (4, 4)), (6, (2, 6))])
def test_tribes_solo_tribe_split(level: int, split: tuple[int, int]) -> None:
    d = _level(level).data
    tiers = [GAME.deck.content.tribes.tribes[t].tier for t in d.tribes]
    assert (tiers.count(1), tiers.count(2)) == split


def _paid_tribe(level: int):
    s = _level(level)
    d = s.data
    d.ps[0].mantas.append(Manta(wild=d.wild_supply.pop(0)))
    for x in sorted(d.loc_box, key=lambda x: -GAME.deck.loc_pp[x])[:4]:
        to_scored(s, 0, x)
    return s


def test_level_1_place_a_trained_manta_or_flip_the_card() -> None:
    s = _paid_tribe(1)
    t = s.data.tribes[0]
    do(s, f"play {ENVOY[0]}", f"rt {t}")
    while s.data.pay is not None:
        s.apply(s.legal()[0])
    assert s.legal() == [Place(-1), Place(0), Place(1), Place(2), Place(3)]  # no Wild Manta below level 3
    do(s, "place -1")
    assert t in s.data.ps[0].flipped
    assert tribes.pp(s.data, GAME.deck, 0) == 0  # a flipped Tribe gives no bonus


def test_level_3_wild_mantas_may_be_placed_and_no_flipping() -> None:
    s = _paid_tribe(3)
    do(s, f"play {ENVOY[0]}", f"rt {s.data.tribes[0]}")
    while s.data.pay is not None:
        s.apply(s.legal()[0])
    assert s.legal() == [Place(i) for i in range(5)]


@pytest.mark.parametrize("seed", ["a", "b", "c", "d", "e", "f"])
def test_level_3_location_deck_has_at_least_6_wild_mantas(seed: str) -> None:
    s = GAME.new(1, seed=seed, options={"module": "tribes", "solo_level": 3})
    while s.data.draws and s.data.draws[0].deck == "ld_keep":
        s.apply(s.sample_chance())
    assert sum(GAME.deck.loc_manta[x] for x in s.data.loc_deck) >= 6


def test_level_4_scoring_pile_pays_1_and_level_5_not_at_all() -> None:
    s4 = _paid_tribe(4)
    x = s4.data.ps[0].scored[0]
    assert payment.spend_value(s4.data, GAME.deck, x) == 1 < GAME.deck.loc_pp[x]
    s5 = _paid_tribe(5)
    s5.data.coins = 0
    assert not any(
        isinstance(a, Spend) for a, _ in [(a, 0) for a, _ in payment.sources(s5.data, GAME.deck, "c", -1, True)]
    )
    s1 = _paid_tribe(1)
    assert any(isinstance(a, Spend) for a, _ in payment.sources(s1.data, GAME.deck, "c", -1, True))


def test_level_6_reports_pp() -> None:
    from coldwater.core.rng import Rng
    from coldwater.core.simulate import play_out

    s = play_out(GAME.new(1, seed="l6", options={"module": "tribes", "solo_level": 6}), [GAME.bot("random")], Rng("l6"))
    assert s.scores().outcome.endswith("PP")


def test_base_solo_rival_places_on_matrona_and_scout_and_titles() -> None:
    from coldwater.core.aquatica.solo import title

    s = ready_state(1)
    do(s, "play 0")  # Matrona: the rival moves (no 2-player discard in solo)
    assert s.data.rival_pending == 1 and len(s.data.char_row) == 6
    do(s, "rival 2")
    assert s.data.tracks[2] == [9]
    assert [title(v) for v in (30, 31, 60, 61, 90, 91)] == [
        "The Blobfish",
        "The Sea Serpent",
        "The Sea Serpent",
        "The Leviathan",
        "The Leviathan",
        "The Kraken",
    ]


def test_base_solo_rival_fourth_manta_gives_one_more_turn() -> None:
    s = ready_state(1)
    d = s.data
    d.tracks = [[9], [9], [9], []]
    d.rival_placed = 3
    touch(s)
    do(s, "play 0", "rival 3")
    assert d.trigger
    do(s, "end")
    assert s.current == 0 and d.final_left == 1  # one more turn
    do(s, "play 1")
    while s.current is not None and s.data.phase != "post":
        s.apply(s.sample_chance() if s.current == CHANCE else s.legal()[-1])
    do(s, "end")
    assert s.is_over
