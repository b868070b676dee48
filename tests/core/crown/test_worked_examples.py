"""Every worked example of the Coldwater Crown rulebook, as a test."""

from __future__ import annotations

from coldwater.core.crown.model import COLOUR_INDEX, SPACE_INDEX
from coldwater.core.state import CHANCE

from .helpers import (
    T,
    board,
    card,
    deck_top,
    give_fish,
    give_tackle,
    legal_text,
    play,
    refresh,
    set_discard,
    set_zones,
    settle,
    settle_until_task,
    started,
    tokens,
)
from .hooks import conservation


def test_gameplay_example_1a_storm_fills_zone_4_from_port() -> None:
    s = started(2, seed="storm")
    d = s.data
    set_zones(s, 0, {3: "red,yellow,black", 4: ""})
    tokens(s, red=1, yellow=1, black=2)
    d.parties[0].token = 1
    refresh(s)
    play(s, "place port")
    assert legal_text(s)[:2] == ["fill 4", "take " + str(d.ma_row[0])] or "fill 4" in legal_text(s)
    assert "fill 3" not in legal_text(s)  # Zone 3 is already full
    bag_before = sum(d.bag)
    play(s, "fill 4")
    assert s.current == CHANCE
    play(s, "bait green", "bait black", "bait purple", "bait blue")
    z4 = d.parties[0].zones[1]
    assert [z4[COLOUR_INDEX[c]] for c in ("green", "black", "purple", "blue")] == [1, 1, 1, 1]
    assert sum(z4) == 4 and sum(d.bag) == bag_before - 4
    # A "1" on Port is one Port action: Step 1 is over.
    assert d.step == 2 and s.current == 0
    conservation(d)


def test_gameplay_example_1b_storm_casts_all_black() -> None:
    s = started(2, seed="storm")
    d = s.data
    set_zones(s, 0, {3: "red,yellow,black", 4: ""})
    tokens(s, red=1, yellow=1, black=2)
    d.parties[0].token = 1
    d.parties[0].ma = []
    refresh(s)
    play(s, "place port", "fill 4", "bait green", "bait black", "bait purple", "bait blue")
    discard_black = d.discard[COLOUR_INDEX["black"]]
    play(s, "remove black")
    # A "2" casts every black bait from every Zone; with no Master Angler card they are discarded.
    assert all(z[COLOUR_INDEX["black"]] == 0 for z in d.parties[0].zones)
    assert d.discard[COLOUR_INDEX["black"]] == discard_black + 2
    assert d.parties[0].fish == []  # no Zone was emptied
    assert legal_text(s)[0] == "end" and d.step == 3
    play(s, "end")
    # Step 3: the removed "2" is flipped to its "1" side for Storm's next turn.
    assert d.parties[0].token == 1
    assert d.tokens[SPACE_INDEX["black"]] == 0 and d.tokens[SPACE_INDEX["port"]] == 1
    assert d.turn == 1


def test_gameplay_example_2_griffins_flounder() -> None:
    s = started(2, seed="griffin")
    d = s.data
    set_zones(s, 0, {3: "green,red", 4: "green", 5: "", 6: ""})
    give_tackle(s, 0, "lure")
    flounder = card("flounder", 3)
    board(s, "shore", 4, flounder)
    top = d.tops[0]
    assert top is not None
    d.parties[0].token = 1
    tokens(s, red=1, yellow=1, black=1)
    refresh(s)
    play(s, "place green")
    # Zone 4 is empty: Griffin catches the Shore fish in Zone 4; Zone 3 still holds red bait.
    assert legal_text(s) == ["catch 4 shore 4"]
    play(s, "catch 4 shore 4")
    p = d.parties[0]
    assert [f.card for f in p.fish] == [flounder]
    # Restocked from the top of the Shore deck at the end of the Step.
    assert d.zones[0][1] is top
    assert sum(p.zones[0]) == 1 and p.zones[0][COLOUR_INDEX["red"]] == 1
    settle(s)
    # Griffin sees the weight side; Storm's view does not.
    assert s.view(0).data.parties[0].fish[0].card == flounder
    assert s.view(1).data.parties[0].fish[0].card is None
    conservation(d)


def test_gameplay_example_3_lydias_rod_and_zone_6_turn() -> None:
    # The Char she takes has "two open red spots": MA16 (red, red, green, blue).
    s = started(2, seed="lydia")
    d = s.data
    p = d.parties[0]
    set_zones(s, 0, {3: "blue,blue,green", 4: "", 5: "red,red", 6: "red"})
    give_tackle(s, 0, "rod")
    char = 16
    assert [T.ma_spots[char].count(COLOUR_INDEX[c]) for c in ("red", "green", "blue")] == [2, 1, 1]
    if char not in d.ma_row:
        d.ma_deck.append(d.ma_row.pop())
        d.ma_deck.remove(char)
        d.ma_row.append(char)
        d.ma_deck.sort()
    perch5, pike6, wrasse5, perch_top = card("perch", 3), card("pike", 10), card("wrasse", 6), card("perch", 4)
    board(s, "lake", 5, perch5)
    board(s, "lake", 6, pike6)
    board(s, "shore", 5, wrasse5)
    deck_top(s, "lake", perch_top)
    p.token = 2
    tokens(s, red=2, yellow=1, green=1)
    refresh(s)
    # A. A "2" on Port: fill Zone 4 and take the Char.
    play(s, "place port", "fill 4", "bait red", "bait green", "bait black", "bait blue", f"take {char}")
    settle(s)  # the Master Angler row is refilled from the deck
    assert [m.card for m in p.ma] == [char]
    assert d.step == 2
    # B. Remove the "2" from red: all four red bait are cast; two fill the Char's two red spots.
    play(s, "remove red")
    assert d.route_left == 4
    assert legal_text(s) == ["discard", f"route {char}"]
    play(s, f"route {char}")
    assert legal_text(s) == ["discard", f"route {char}"]  # the second red spot is still open
    discard_before = d.discard[COLOUR_INDEX["red"]]
    play(s, f"route {char}")
    assert p.ma[0].filled == [COLOUR_INDEX["red"]] * 2
    assert d.phase == "catch"  # with no open red spot left, the other two went to the discard
    assert d.discard[COLOUR_INDEX["red"]] == discard_before + 2
    # C. Zones 5 and 6 were emptied with red: the Lake's Perch and Pike, unless...
    moves = legal_text(s)
    assert "catch 5 lake 5" in moves and "catch 5 shore 5" in moves and "zone6" in moves
    assert "catch 6 shore 6" in moves  # the Rod could also be used on the Zone 6 catch
    play(s, "catch 5 shore 5")  # ...she plays the Rod for the Wrasse at the Shore
    assert [t.kind for t in p.tackle] == [] and d.tackle_discard == ["rod"]
    assert legal_text(s) == ["tackle n", "tackle y"]  # Zone 5 was emptied: a tackle piece
    play(s, "tackle y", "draw line")
    assert p.tackle[0].kind == "line" and p.tackle[0].fresh
    # The new Line cannot be used in this Step; the Zone 6 bonus is available.
    assert "catch 6 lake 5" not in legal_text(s)
    assert "zone6" in legal_text(s)
    play(s, "zone6")
    assert [f.card for f in p.fish] == [wrasse5, perch_top]
    settle(s)
    assert d.zones[2][2] is not None and d.zones[2][2].card == perch5  # the Perch stays in Zone 5
    assert d.zones[2][3] is not None and d.zones[2][3].card == pike6  # the Pike stays in Zone 6
    assert d.zones[0][2] is not None and d.zones[0][2].card != wrasse5  # the Shore's Zone 5 is restocked
    # D. Step 3: the removed "2" becomes a "1".
    assert d.step == 3 and not p.tackle[0].fresh
    play(s, "end")
    assert p.token == 1
    conservation(d)


def test_gameplay_example_4_shore_contest() -> None:
    from coldwater.core.crown.endgame import start_contests

    s = started(3, seed="shore")
    d = s.data
    for p in d.parties:
        p.fish = []
    storm = [card("flounder", 5), card("flounder", 2), card("wrasse", 4), card("mackerel", 5)]
    emmanuel = [card("john_dory", 6), card("mackerel", 6)]  # 12 lb
    lydia = [card("wrasse", 7), card("mackerel", 4)]  # 11 lb
    give_fish(s, 0, storm)
    give_fish(s, 1, emmanuel)
    give_fish(s, 2, lydia)
    start_contests(d)
    refresh(s)
    assert s.current == 0
    # Storm may submit only one Flounder; rank 1 is her heaviest, the five-pounder.
    assert legal_text(s) == ["submit flounder 1", "submit flounder 2"]
    # Her pick is secret until everyone has submitted.
    c = s.clone()
    play(c, "submit flounder 1")
    assert c.view(1).data.parties[0].picks == []
    play(s, "submit flounder 1")
    # Nobody else had a choice to make: the Shore contest is decided.
    shore = {i: [t.points for t in p.trophies if t.kind == "shore"] for i, p in enumerate(d.parties)}
    assert shore == {0: [5], 1: [3], 2: [2]}
    assert sorted(f.card for f in d.parties[0].submitted) == sorted([storm[0], storm[2], storm[3]])
    assert sum(s.TABLES.weight[f.card] for f in d.parties[0].submitted) == 14
    assert [f.card for f in d.thrown] == [storm[1]]  # the other Flounder is thrown back
    assert d.phase == "over"  # no Lake or River fish: those contests award nothing
    conservation(d)


def test_practice_pond_example_5_silent_player_turn() -> None:
    s = started(1, seed="silent")
    d = s.data
    # Play a quiet human turn, then arrange the board as in the example.
    tokens(s, green=1, red=1, yellow=1)
    d.parties[0].token = 1
    refresh(s)
    play(s, "place port")
    if d.phase == "port":
        play(s, next(m for m in legal_text(s) if m.startswith("take")))
    settle(s)
    play(s, "remove red")
    if d.phase == "route":
        while d.phase == "route":
            play(s, "discard")
    while d.phase == "catch":
        play(s, legal_text(s)[0])
        settle(s)
    settle(s)
    tokens(s, green=1, port=1, yellow=1)
    set_discard(s, "blue", 3)
    set_discard(s, "yellow", 1)
    lake4 = d.zones[2][1]
    assert lake4 is not None
    refresh(s)
    play(s, "end")
    assert s.current == CHANCE and d.tasks[0].kind == "silent"
    play(s, "bait blue")
    # Blue is unoccupied: the nearest token behind it on the path (Green) moves there.
    assert d.tokens[SPACE_INDEX["blue"]] == 1 and d.tokens[SPACE_INDEX["green"]] == 0
    # Four blue in the discard: the silent player catches the Lake fish in Zone 4.
    assert d.discard[COLOUR_INDEX["blue"]] == 4
    assert d.parties[1].fish[-1] is lake4
    settle_until_task(s, "silent")
    play(s, "bait yellow")
    # A token on Yellow moves on to the first empty space clockwise: Black.
    assert d.tokens[SPACE_INDEX["yellow"]] == 0 and d.tokens[SPACE_INDEX["black"]] == 1
    assert d.discard[COLOUR_INDEX["yellow"]] == 2
    assert len(d.parties[1].fish) == 1  # only two yellow: no catch
    settle(s)
    assert d.turn == 0 and s.current == 0  # back to you
    conservation(d)
