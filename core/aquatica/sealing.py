"""An Aquatica view that advances itself, for a dealer nobody sees through.

The companion of core/crown/sealing.py (docs/fairplay.md). An Aquatica view holds
``-1`` (an unknown card) and ``-2`` (an unknown King) where its seat may not look:
the decks, the box, the Tribe and Goal pools, the Kings, and the Ocean Characters
in other seats' hands. The rules draw and move cards by id, so a view cannot
apply a draw by itself; here each chance outcome and each action that names a
card a view has blank is applied by first writing that card into one of the
view's blanks, then letting the rules run unchanged:

- a face-up deal (``deal 37`` to the Character row, a Location, a Goal token, a
  Tribe): the dealt card goes into a blank of its deck;
- a face-down discard to the box (``cd_disc``, ``ld_disc``): ``deal -1``, one
  blank from the deck to the box. The view needs no memory of which sub-deck a
  blank came from (◇ or ○, which Location type): every face-down discard of a
  deck is queued at setup before its first face-up deal, so the public queue
  already says a card of the right kind is there (``setup.outcomes`` lists the
  blank as a possible outcome for that);
- a King drawn for the draft: the first drafter writes it in; the others take ``deal -2``;
- a card played or discarded from a hand others see blank (``play 37``), a King
  picked (``king 4``): the card goes into one of the actor's blanks.

Afterwards the view forgets what its seat may not keep (another seat's hand, a
King it picked): exactly ``full.view(seat)``.

:func:`opens` lists what only the seat holding the values can show, before the
others apply the action: the Kings a picker passes on (to the next drafter), a card
played from a hand others see blank, the Conquer Characters a Goal is claimed
with, and the hidden cards of a seat queued to discard for an opponent's effect
that has none it may discard (all Matronas), so every view passes it by.

Slots: ``("hand", seat, i)`` (a card in a hand) and ``("draft", i)`` (a King in
the draft); both hold a card id.
"""

from __future__ import annotations

from collections.abc import Callable

from coldwater.core.errors import IllegalAction
from coldwater.core.state import CHANCE, EVERYONE, Opening, Openings

from .actions import AqAction, ClaimGoal, Deal, OppDiscard, PickKing, Play
from .content import Deck
from .effects import may_answer, opp_options
from .main_action import current
from .model import HIDDEN, HIDDEN_KING, KING_BASE, OCEAN_BASE, AqData

_FACE_DOWN = ("cd_disc", "ld_disc", "ld_keep")


def seen_outcome(d: AqData, outcome: AqAction, seat: int | None) -> AqAction:
    """At a chance node of the full state `d`: `outcome` as `seat` may know it."""
    dr = d.draws[0]
    if dr.deck in _FACE_DOWN:
        return Deal(HIDDEN)  # to the box face down: nobody sees it
    if dr.deck == "king" and (seat is None or not d.draft_order or d.draft_order[0] != seat):
        return Deal(HIDDEN_KING)  # only the first drafter sees the Kings drawn
    return outcome


# ---- cards a view can see -----------------------------------------------------------------------


def _chars_seen(d: AqData) -> set[int]:
    seen = set(d.char_deck + d.char_box + d.char_row + d.char_discard + d.draft + d.king_pool + d.king_box)
    for p in d.ps:
        seen.update(p.hand + p.discard)
    seen.add(d.playing)
    return {c for c in seen if c >= 0}


def _first(xs: list[int], marker: int, what: str) -> int:
    try:
        return xs.index(marker)
    except ValueError:
        raise IllegalAction(f"no unknown {what} is left for that") from None


def _check_char(d: AqData, k: Deck, c: int, king: bool) -> None:
    ok = KING_BASE <= c < k.n_chars if king else OCEAN_BASE <= c < KING_BASE
    if not ok:
        raise IllegalAction(f"{c} is not {'a King' if king else 'an Ocean Character'}")
    if c in _chars_seen(d):
        raise IllegalAction(f"card {c} is elsewhere already")


def prepare_deal(d: AqData, k: Deck, action: AqAction, seat: int | None) -> AqAction:
    """Write the dealt card into a blank of view `d` (changes `d`); the outcome to apply then."""
    if not isinstance(action, Deal) or not d.draws:
        raise IllegalAction(f"'{action}' is not a chance outcome pending here")
    dr = d.draws[0]
    c = action.card
    if dr.deck in _FACE_DOWN:
        if c != HIDDEN:
            raise IllegalAction("a card discarded to the box face down is seen by nobody: apply it as 'deal -1'")
        return action
    if c < 0:
        return action  # a blank draw the view lists itself (a King for another drafter)
    if dr.deck == "cd" and c not in d.char_deck:
        _check_char(d, k, c, king=False)
        d.char_deck[_first(d.char_deck, HIDDEN, "Character")] = c
    elif dr.deck == "ld" and c not in d.loc_deck:
        if not 0 <= c < len(k.loc_type) or c in _locs_seen(d):
            raise IllegalAction(f"{c} is not a Location this view can be dealt")
        d.loc_deck[_first(d.loc_deck, HIDDEN, "Location")] = c
    elif dr.deck == "king" and c not in d.king_pool:
        if seat is None or not d.draft_order or d.draft_order[0] != seat:
            raise IllegalAction("only the first drafter sees the Kings drawn")
        _check_char(d, k, c, king=True)
        d.king_pool[_first(d.king_pool, HIDDEN_KING, "King")] = c
    elif dr.deck == "goal" and c not in d.goal_pool:
        if not 4 <= c < len(k.goals) or c in d.goals or (c ^ 1) in d.goals:
            raise IllegalAction(f"{c} is not a Goal token side this view can be dealt")
        token = (c - 4) // 2
        for side in (4 + 2 * token, 5 + 2 * token):
            d.goal_pool[_first(d.goal_pool, HIDDEN, "Goal token")] = side
    elif dr.deck in ("tribe1", "tribe2") and c not in d.tribe_pool:
        if not 0 <= c < len(k.content.tribes.tribes) or c in d.tribes:
            raise IllegalAction(f"{c} is not a Tribe this view can be dealt")
        d.tribe_pool[_first(d.tribe_pool, HIDDEN, "Tribe")] = c
    return action


def _locs_seen(d: AqData) -> set[int]:
    seen = set(d.loc_deck + d.loc_box + d.loc_top + d.loc_bottom + d.loc_discard)
    for p in d.ps:
        seen.update(x.id for x in p.board)
        seen.update(p.scored)
    return {x for x in seen if x >= 0}


def prepare_move(d: AqData, k: Deck, action: AqAction) -> bool:
    """Write a card a player's action names into a blank of the actor's hand or
    of the draft, where view `d` cannot see it (changes `d`); False if none is needed."""
    cur = current(d)
    if cur is None or cur < 0:
        return False
    if isinstance(action, PickKing):
        c = k.king_id(action.number)
        if c in d.draft:
            return False
        _check_char(d, k, c, king=True)
        d.draft[_first(d.draft, HIDDEN_KING, "King")] = c
        return True
    if isinstance(action, (Play, OppDiscard)):
        hand = d.ps[cur].hand
        c = action.card
        if c in hand or c < 0:
            return False
        _check_char(d, k, c, king=c >= KING_BASE)
        hand[_first(hand, HIDDEN_KING if c >= KING_BASE else HIDDEN, "card in hand")] = c
        _kings_number(d, cur, c)
        return True
    return False


def _kings_number(d: AqData, seat: int, c: int) -> None:
    """A King shown from a hand: the seat's King, which views blank while it is in hand, shows too."""
    if c >= KING_BASE and d.ps[seat].king == 0:
        d.ps[seat].king = c - KING_BASE + 1


# ---- slots ------------------------------------------------------------------------------------


def _place(d: AqData, slot: object) -> tuple[list[int], int]:
    if not isinstance(slot, tuple) or not slot:
        raise IllegalAction(f"{slot!r} is not a slot")
    if slot[0] == "hand" and len(slot) == 3:
        s, i = slot[1], slot[2]
        if type(s) is not int or not 0 <= s < d.players:
            raise IllegalAction(f"no seat {s!r} here")
        hand = d.ps[s].hand
        if type(i) is not int or not 0 <= i < len(hand):
            raise IllegalAction(f"no card {i!r} in that hand")
        return hand, i
    if slot[0] == "draft" and len(slot) == 2:
        i = slot[1]
        if type(i) is not int or not 0 <= i < len(d.draft):
            raise IllegalAction(f"no King {i!r} in the draft")
        return d.draft, i
    raise IllegalAction(f"{slot!r} is not an Aquatica slot")


def sealed_value(d: AqData, slot: object) -> int | None:
    xs, i = _place(d, slot)
    return xs[i] if xs[i] >= 0 else None


def reveal(d: AqData, k: Deck, slot: object, value: object) -> None:
    """Write card `value` into the sealed `slot` of view `d`; IllegalAction (changing nothing) if it cannot hold it."""
    xs, i = _place(d, slot)
    if type(value) is not int:
        raise IllegalAction(f"{value!r} is not a card")
    if xs[i] >= 0:
        if xs[i] != value:
            raise IllegalAction(f"the card at {slot!r} is {xs[i]}, not {value}")
        return
    king = xs[i] == HIDDEN_KING
    _check_char(d, k, value, king=king)
    xs[i] = value
    if xs is not d.draft:  # a hand: _place found the seat's
        _kings_number(d, next(s for s, p in enumerate(d.ps) if p.hand is xs), value)


def _conquers(k: Deck, c: int) -> bool:
    return any(e.op == "conquer" for e in k.char_effs[c])


def claims_on_hidden(d: AqData, k: Deck, action: AqAction) -> bool:
    """A Goal claim whose condition counts cards in hand that other seats see blank."""
    if not isinstance(action, ClaimGoal) or not 0 <= action.goal < len(d.goals):
        return False
    return k.goals[d.goals[action.goal]].cond == "conquer_chars"


def must_show(public: AqData, k: Deck) -> list[int]:
    """Seats queued to discard for an opponent's effect whose answer hangs on cards
    only they see (`public`: the public view after the action): each shows those
    cards if none of them may be discarded (they are all Matronas), so that every
    view passes it by as the rules do."""
    if public.opp_kind != "discard":
        return []
    return [s for s in public.opp_seats if not opp_options(public, k, s) and may_answer(public, k, s)]


def opens(
    before: AqData, k: Deck, action: AqAction, seat: int | None, legal: Callable[[], bool], shown: list[int]
) -> Openings:
    """What a player's `action` opens, as `seat`'s view `before` can tell.

    A King picked in the draft: the picker hands the Kings it passes on to the
    next drafter. A card played or discarded from a hand others see blank: its
    holder shows it (the action names it; the opening lets a dealer check it).
    `legal` says whether the action is legal on this view (with the blanks it names filled).
    """
    actor = current(before)
    claim = claims_on_hidden(before, k, action)
    if actor is None or actor == CHANCE or not (legal() or (claim and seat != actor)):
        raise IllegalAction(f"'{action}' is not a player's legal move now")
    named: list[Opening] = []
    namers: tuple[int, ...] = ()
    if claim:
        # A Goal met through cards in hand others see blank: the claimant shows them.
        namers = (actor,)
        if seat == actor:
            hand = before.ps[actor].hand
            named = [
                Opening(("hand", actor, i), EVERYONE) for i, c in enumerate(hand) if c >= OCEAN_BASE and _conquers(k, c)
            ]
    if isinstance(action, PickKing) and len(before.draft_order) > 1:
        namers = (actor,)
        picked = k.king_id(action.number)
        if seat == actor:
            nxt = before.draft_order[1]
            skip = before.draft.index(picked)
            named = [Opening(("draft", i), nxt) for i in range(len(before.draft)) if i != skip]
    elif isinstance(action, (Play, OppDiscard)) and action.card >= OCEAN_BASE:
        namers = (actor,)
        if seat == actor:
            named = [Opening(("hand", actor, before.ps[actor].hand.index(action.card)), EVERYONE)]
    if shown:
        namers = tuple(sorted({*namers, *shown}))
        if seat in shown and not opp_options(before, k, seat):
            hand = before.ps[seat].hand
            named += [Opening(("hand", seat, i), EVERYONE) for i, c in enumerate(hand) if c >= OCEAN_BASE]
    return Openings((), tuple(named), namers)
