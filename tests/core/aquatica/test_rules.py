"""A test per base rule the Cold Waters rulebook assumes (see docs/rulings-aquatica.md)."""

from __future__ import annotations

import pytest

from coldwater.core.aquatica.actions import Buy, Conquer, Exploit, Flip, PickKing, Raise, Recruit, Score, Skip
from coldwater.core.aquatica.game import GAME
from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE

from .helpers import char_id, do, give_hand, ready_state, settle_chance, tire_all, to_board, to_row, touch

K = GAME.deck


@pytest.mark.parametrize("players,chars,locs", [(1, 15, 40), (2, 20, 40), (3, 20, 50), (4, 25, 60), (5, 30, 70)])
def test_setup_deck_sizes_by_player_count(players: int, chars: int, locs: int) -> None:
    d = ready_state(players).data
    assert len(d.char_deck) + len(d.char_row) == chars and len(d.char_row) == 6
    assert len(d.loc_deck) + len(d.loc_bottom) == locs and len(d.loc_bottom) == 6 and d.loc_top == []
    if players in (2, 3, 4):
        per_type = {2: 6, 3: 4, 4: 2}[players]
        assert all([K.loc_type[x] for x in d.loc_box].count(t) == per_type for t in range(5))
        assert all(c >= 45 for c in d.char_box)  # discarded from one deck (the ◇ one)
    for p in d.ps:
        assert len(p.mantas) == 4 and all(m.ready for m in p.mantas)


def test_basic_kings_go_in_seat_order() -> None:
    d = ready_state(4).data
    for seat, p in enumerate(d.ps):
        assert K.king_id(seat + 1) in p.hand and p.king == seat + 1 and len(p.hand) == 7


def test_advanced_kings_draft_last_seat_first_hidden_picks() -> None:
    s = GAME.new(3, seed="draft", options={"kings": "advanced"})
    while s.current == CHANCE:
        s.apply(s.sample_chance())
    d = s.data
    assert d.phase == "kings" and s.current == 2 and len(d.draft) == 4
    assert all(c == -2 for c in s.view(1).data.draft)  # only the picker sees the Kings passed
    assert sorted(s.view(2).data.draft) == sorted(d.draft)
    first = s.legal()[0]
    assert isinstance(first, PickKing)
    s.apply(first)
    assert s.current == 1 and len(d.draft) == 3
    assert -2 in s.view(0).data.ps[2].hand  # the pick is sealed
    while d.phase == "kings" or s.current == CHANCE:
        s.apply(s.sample_chance() if s.current == CHANCE else s.legal()[0])
    assert len(d.king_box) == 1 and all(p.king for p in d.ps)


def test_fancelot_and_herbert_are_discarded_for_a_wild_manta() -> None:
    s = GAME.new(2, seed="fh", options={"kings": "advanced"})
    d = s.data
    while d.draws and d.draws[0].deck != "king":
        s.apply(s.sample_chance())
    for c in (K.king_id(10), K.king_id(1), K.king_id(2)):
        s.apply(GAME.parse_action(f"deal {c}"))
    assert s.current == 1
    do(s, "king 10")
    settle_chance(s)
    assert d.ps[1].king == 10 and K.king_id(10) in d.char_discard
    assert [m.wild >= 0 for m in d.ps[1].mantas] == [False] * 4 + [True]


def test_matrona_returns_discards_readies_mantas_and_stays_in_hand() -> None:
    s = ready_state(3)
    d = s.data
    p = d.ps[0]
    p.discard = [p.hand.pop(p.hand.index(3)), p.hand.pop(p.hand.index(4))]
    tire_all(s, 0)
    row = list(d.char_row)
    do(s, "play 0")
    assert 0 in p.hand and 3 in p.hand and 4 in p.hand and p.discard == []
    assert all(m.ready for m in p.mantas)
    assert d.char_row == row  # the leftmost discard is a 2-player rule only


def test_two_player_matrona_discards_the_leftmost_character() -> None:
    s = ready_state(2)
    d = s.data
    left = d.char_row[0]
    do(s, "play 0")
    assert s.current == CHANCE and left in d.char_discard and len(d.char_row) == 5
    settle_chance(s)
    assert len(d.char_row) == 6


def test_recruit_row_prices_are_the_slot_number() -> None:
    s = ready_state(2)
    tire_all(s, 0)
    do(s, "play 5")  # Envoy: +1 coin, recruit
    legal = s.legal()
    assert Recruit(0) in legal and Recruit(1) in legal and Recruit(2) not in legal
    c = s.data.char_row[1]
    do(s, "rc 1")
    assert c in s.data.ps[0].hand and s.data.coins == 0 and s.current == CHANCE


def test_conquer_top_row_costs_one_less_power() -> None:
    s = ready_state(2)
    tire_all(s, 0)
    to_row(s, 3, top=True)  # Tiger Trench: 4 power, top row: 3
    to_row(s, 17)  # Cannon Rest: 5 power
    to_row(s, 44)  # Black Chimney: 3 power, bottom row
    do(s, "play 4")  # Warrior: +3 power, conquer
    legal = s.legal()
    assert Conquer(3) in legal and Conquer(44) in legal and Conquer(17) not in legal
    do(s, "conq 3")
    assert s.data.power == 0 and s.data.ps[0].board[0].id == 3


def test_buy_needs_a_free_board_slot() -> None:
    s = ready_state(2)
    for x in (0, 14, 28, 42, 56):
        to_board(s, 0, x)
    to_row(s, 2)
    do(s, "play 3")  # Merchant: +1 coin, buy
    assert s.data.phase == "post"  # no slot: the buy passes
    with pytest.raises(IllegalAction):
        s.apply(Buy(2))


def test_scout_is_optional_and_discards_down_to_four() -> None:
    s = ready_state(2)
    d = s.data
    do(s, "play 1")  # Sea Horse: scout, +1 power, conquer
    assert Skip() in s.legal()
    bottom = list(d.loc_bottom)
    do(s, "scout")
    assert d.cutting and len(s.legal()) == 6
    do(s, f"cut {bottom[0]}", f"cut {bottom[1]}")
    assert d.loc_top == bottom[2:] and d.loc_bottom == [] and s.current == CHANCE
    settle_chance(s)
    assert len(d.loc_bottom) == 6 and set(bottom[:2]) <= set(d.loc_discard)


def test_raise_never_raises_its_own_location_and_splits() -> None:
    s = ready_state(2)
    to_board(s, 0, 43)  # Ash Ridge: raise 1
    to_board(s, 0, 3)  # Tiger Trench: 2 Depths
    do(s, "expl 43")
    settle_chance(s)  # Ash Ridge is fully risen: its Wild Manta
    legal = s.legal()
    assert Raise(3, 1) in legal and all(not (isinstance(a, Raise) and a.loc == 43) for a in legal)
    do(s, "skip")
    do(s, "play 2")  # Wave-Teller: raise 2 split, then score
    assert Raise(3, 1) in s.legal() and Raise(3, 2) in s.legal()
    do(s, "raise 3 1")
    assert s.data.stack[-1].left == 1
    do(s, "raise 3 1")
    settle_chance(s)  # Tiger Trench is fully risen: Wild Manta (Ash Ridge gave one too)
    assert len(s.data.ps[0].mantas) == 6
    assert Score(3) in s.legal()
    do(s, "score 3")
    assert s.data.ps[0].scored == [3]


def test_score_depth_never_scores_its_own_location() -> None:
    s = ready_state(2)
    to_board(s, 0, 1)  # Fin Alley: one Depth, score
    to_board(s, 0, 0)  # Hammerhead Reef: no Depths, fully risen
    do(s, "expl 1")
    settle_chance(s)
    assert s.legal() == [Score(0), Skip()]


def test_resource_depths_only_to_pay_one_per_location_per_action() -> None:
    s = ready_state(2)
    tire_all(s, 0)
    to_board(s, 0, 17)  # Cannon Rest: coins 1... two coin Depths
    assert Exploit(17) not in s.legal()  # not before the Main Action: it would be wasted
    with pytest.raises(IllegalAction, match="resource Depth"):
        s.apply(Exploit(17))
    need = K.loc_depths[17][0].n + K.loc_depths[17][1].n + 1
    target = next(x for x in range(70) if K.loc_coins[x] == need and x in s.data.loc_deck)
    cheap = next(x for x in range(70) if K.loc_coins[x] == 2 and x in s.data.loc_deck)
    to_row(s, target)
    to_row(s, cheap)
    do(s, "play 3")  # Merchant: +1 coin
    legal = s.legal()
    assert Buy(target) not in legal  # the second coin Depth would need a second exploit
    do(s, f"buy {cheap}")
    assert s.data.pay is not None and s.legal() == [Exploit(17)]
    do(s, "expl 17")
    assert s.data.pay is None and s.data.ps[0].board[0].pos == 1
    assert s.data.phase == "post" and not s.data.ps[0].board[0].used  # reset for the next Main Action


def test_a_single_source_may_overpay_a_wasted_one_may_not_be_used() -> None:
    s = ready_state(2)
    d = s.data
    tire_all(s, 0)
    d.ps[0].mantas[0].ready = True  # Trained Manta: +1 coin
    d.ps[0].mantas[1].ready = True  # Trained Manta: +1 power
    touch(s)
    to_board(s, 0, 17)  # coins Depth
    cost2 = next(x for x in range(70) if K.loc_coins[x] == 2 and x in d.loc_deck)
    to_row(s, cost2)
    do(s, "play 3", f"buy {cost2}")  # 1 coin from the Merchant, 1 owed
    assert Flip(1) not in s.legal()  # power toward coins: wholly wasted
    assert set(s.legal()) == {Flip(0), Exploit(17)}
    do(s, "expl 17")  # the Depth gives more than owed: allowed, the rest is lost at the end
    assert d.pay is None


def test_empty_depth_blocks_until_raised_past() -> None:
    s = ready_state(2)
    to_board(s, 0, 63, pos=2)  # Frosty Location whose third Depth is empty
    assert K.loc_depths[63][2].op == "empty"
    assert Exploit(63) not in s.legal()
    with pytest.raises(IllegalAction, match="empty"):
        s.apply(Exploit(63))


def test_goal_claimed_once_and_spots_score_by_order() -> None:
    s = ready_state(2)
    d = s.data
    d.ps[1].mantas[0].placed = True
    d.ps[1].goals.append(0)
    d.tracks[0].append(1)
    for c in (char_id("trader"), char_id("meg")):
        give_hand(s, 0, c)  # 8 Characters in hand (King counts)
    assert len(d.ps[0].hand) == 9
    assert "goal 0 0" in [str(a) for a in s.legal()]
    do(s, "goal 0 2")
    assert d.tracks[0] == [1, 0] and d.ps[0].mantas[2].placed
    assert not any(str(a).startswith("goal 0") for a in s.legal())
    from coldwater.core.aquatica.goals import points

    assert points(d, K, 1) == 5 and points(d, K, 0) == 4


def test_all_goals_claimed_triggers_final_turns_for_everyone() -> None:
    s = ready_state(3)
    d = s.data
    d.ps[0].goals = [1, 2, 3]
    for g, m in ((1, 1), (2, 2), (3, 3)):
        d.tracks[g].append(0)
        d.ps[0].mantas[m].placed = True
    give_hand(s, 0, char_id("trader"), char_id("meg"))
    do(s, "goal 0 0")  # the 4th Goal (position 0 holds "8 Characters in hand")
    assert d.trigger
    for seat in (0, 1, 2, 0):
        assert s.current == seat
        do(s, f"play {[0, 6, 12][seat]}")
        settle_chance(s)
        do(s, "end")
    assert s.is_over


def test_location_deck_running_out_ends_after_one_more_turn_each() -> None:
    s = ready_state(2)
    d = s.data
    d.loc_box += d.loc_deck[2:]
    del d.loc_deck[2:]
    touch(s)
    do(s, "play 1", "scout")
    do(s, f"cut {d.loc_bottom[0]}")
    do(s, f"cut {d.loc_bottom[0]}")
    settle_chance(s)
    assert d.trigger and d.loc_deck == []
    while s.data.phase != "post":
        do(s, "skip")
    do(s, "end")
    for seat in (1, 0):
        assert s.current == seat
        do(s, f"play {[0, 6][seat]}")
        settle_chance(s)
        do(s, "end")
    assert s.is_over and s.scores().final


def test_scoring_and_tie_breaks() -> None:
    s = ready_state(2)
    d = s.data
    d.ps[0].scored = []
    d.phase = "over"
    touch(s)
    sc = s.scores()
    assert sc.categories == ("Characters", "Goals", "Scoring Pile", "Tribes")
    assert sc.rows == ((7, 0, 0, 0), (7, 0, 0, 0))
    assert sc.ranking == (0, 1)  # tie: same Mantas, then the lower King (King 1)
    d.ps[0].mantas[0].ready = False
    assert s.scores().ranking == (1, 0) and "Mantas" in s.scores().outcome


def test_healer_replays_a_discarded_character_within_the_main_action() -> None:
    s = ready_state(2)
    d = s.data
    healer = char_id("healer")
    give_hand(s, 0, healer)
    d.ps[0].discard.append(d.ps[0].hand.pop(d.ps[0].hand.index(3)))  # Merchant in the discard pile
    tire_all(s, 0)
    to_row(s, 14)  # 1 coin
    do(s, f"play {healer}", "replay 3")
    assert d.coins == 1 and Buy(14) in s.legal()
    do(s, "buy 14")
    assert 3 in d.ps[0].discard and d.ps[0].discard[-1] == healer


def test_mantas_leader_readies_first() -> None:
    s = ready_state(2)
    leader = char_id("mantas_leader")
    give_hand(s, 0, leader)
    tire_all(s, 0)
    do(s, f"play {leader}")
    assert all(m.ready for m in s.data.ps[0].mantas)


def test_views_hide_hands_and_decks() -> None:
    s = ready_state(3, {"module": "tribes"})
    give_hand(s, 1, char_id("meg"))
    v = s.view(0)
    assert -1 in v.data.ps[1].hand and -2 in v.data.ps[1].hand
    assert char_id("meg") not in v.data.ps[1].hand
    assert all(x == -1 for x in v.data.loc_deck + v.data.char_deck + v.data.tribe_pool)
    assert char_id("meg") in s.view(1).data.ps[1].hand


def test_cold_waters_goal_conditions() -> None:
    from coldwater.core.aquatica.goals import count

    s = ready_state(2)
    d = s.data
    # 5 Locations on the board with different PP and different unexploited Depths
    picks = [0, 2, 4, 7, 13]  # Shark Bay: PP 1, 2, 3, 5, 6; open Depths 0, 1, 2, 3, 5
    for x in picks:
        to_board(s, 0, x)
    assert count(d, K, 0, "board_pp_distinct") == len({K.loc_pp[x] for x in picks}) == 5
    assert count(d, K, 0, "board_open_distinct") == 5
    d.ps[0].board[1].pos = 1  # exploited: it counts only open Depths (now 0, like Location 0)
    assert count(d, K, 0, "board_open_distinct") == 4
    low = [x for x in d.loc_deck if K.loc_pp[x] <= 3][:4]
    high = [x for x in d.loc_deck if K.loc_pp[x] > 3][:3]
    for x in low + high:
        from .helpers import to_scored

        to_scored(s, 0, x)
    assert count(d, K, 0, "scored") == 7 and count(d, K, 0, "scored_low") == 4


def test_the_grabber_conquers_twice_with_one_pool() -> None:
    s = ready_state(2)
    grabber = char_id("grabber")
    give_hand(s, 0, grabber)
    tire_all(s, 0)
    to_row(s, 0)  # Hammerhead Reef: 1 power
    to_row(s, 14, top=True)  # Galleon Grave: 2 power, 1 in the top row
    to_row(s, 16)  # Rum Hold: 3 power
    do(s, f"play {grabber}", "conq 0")  # +2 power, first Conquer: 1
    assert s.data.power == 1 and Conquer(14) in s.legal() and Conquer(16) not in s.legal()
    do(s, "conq 14")  # second Conquer with what is left
    assert s.data.phase == "post" and [loc.id for loc in s.data.ps[0].board] == [0, 14]
