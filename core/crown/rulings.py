"""Every ruling where the Coldwater Crown rulebook is silent, in one place.

The game declares :data:`RULINGS` (``CrownGame.rulings``) and the in-app rules help shows
them; ``docs/rulings-crown.md`` repeats them (a test keeps the two in step). The code that
applies a ruling names it in a comment.
"""

from __future__ import annotations

from typing import Final

from coldwater.core.rulings import Ruling

RULINGS: Final[tuple[Ruling, ...]] = (
    # ---- from the component data sheet (agreed for the project) ----
    Ruling(
        "Bag runs out",
        "If the bag runs out while filling a Zone, it is treated as if the clear-white bait were drawn: the "
        "discard pile goes back into the bag and filling goes on. If bag and discards together hold too "
        "little, the Zone is filled as far as they allow.",
        "components",
    ),
    Ruling(
        "Empty Zones",
        "A catch may only take a fish from a Zone that holds one. A Zone emptied earlier in the same Step "
        "stays empty until the Step ends, so no later catch, Rod or Line can reach it; a default catch "
        "from an empty Zone is lost.",
        "components",
    ),
    Ruling(
        "Filling Zones",
        'A Port action may fill only a Zone that is not already full, and a "2" on Port may not fill the '
        "same Zone twice.",
        "components",
    ),
    Ruling(
        "Unused tokens",
        "With fewer than 4 players the unused Angler tokens stay in the box: 3 on the board plus one per player.",
        "components",
    ),
    Ruling(
        "Practice Pond trophies",
        "Practice Pond uses the 2-player trophy stacks (5 and 3); the silent player starts with the "
        "5-point Small Species trophy.",
        "components",
    ),
    # ---- decided in the engine ----
    Ruling("Start player", "Seat 1 starts (the table seats whoever most recently caught a fish in seat 1).", "engine"),
    Ruling(
        "When Reels and Lures are played",
        "A Reel or a Lure is played between the Steps of your turn: before placing your token, before "
        "removing one, or before ending the turn. Fish caught by a Reel are caught at once and their Zones "
        "are restocked when the Reel is resolved; they count in the Step in which the Reel was played "
        "(for the Mystery Weight limit and for playing tackle drawn by it).",
        "engine",
    ),
    Ruling(
        "Reel bait",
        "Bait removed with a Reel counts as cast: each piece may go to an open spot of the same colour on "
        "one of your Master Angler cards, or to the discard pile.",
        "engine",
    ),
    Ruling("Lure", "A Lure swaps two different-coloured bait that lie in two different Zones.", "engine"),
    Ruling(
        "Tackle drawn in Step 2",
        'Tackle drawn in Step 2 may be played in Step 3 of the same turn ("the next Step of your turn").',
        "engine",
    ),
    Ruling(
        "Zone 5 tackle",
        "Emptying Zone 5 of your player board earns the tackle offer even when the catch itself is lost "
        "or taken elsewhere with a Rod or Line; the offer is made after that catch is resolved.",
        "engine",
    ),
    Ruling(
        "Mystery Weight",
        "The Mystery Weight tile is taken automatically when a fish of exactly its weight is caught, "
        "revealing that fish to everyone.",
        "engine",
    ),
    Ruling(
        "Catches are mandatory",
        "When the Zone owes a fish and holds one, you must catch a fish (a Rod, a Line or the Zone 6 "
        "bonus may change which); only an empty Zone lets the catch be lost.",
        "engine",
    ),
    Ruling(
        "Port with nothing to do",
        "A Port action that cannot be taken (every Zone full or filled already, no card you may take) is skipped.",
        "engine",
    ),
    Ruling(
        "Contest submissions",
        "A species of which you hold a single fish is submitted without asking (submitting never lowers a "
        "total, a tag count or a tie-break). Submissions are secret until every seat has chosen, and a "
        "fish is named by its weight rank (1 = your heaviest of that species).",
        "engine",
    ),
    Ruling(
        "Thrown-back fish",
        "Fish not submitted to a contest are thrown back face down; every card is revealed when the game ends.",
        "engine",
    ),
    Ruling(
        "Ties",
        "A contest tie and a final tie both go to the party that submitted the single fish with the "
        "earliest timestamp (at that location for a contest, anywhere for the final score). If neither "
        "submitted a fish, seat order decides.",
        "engine",
    ),
    Ruling(
        "Silent player's fish",
        "The silent player's fish are public (you check their weights for it). Each of its bait draws "
        "counts as a Step for the Mystery Weight limit; its catches are restocked at once.",
        "engine",
    ),
    Ruling(
        "Clear-white in Practice Pond",
        "The Practice Pond clear-white rule (a Master Angler card to the silent player, then your choice "
        "of a second card or 7 bait to the discard) applies to every clear-white draw in a solo game, "
        "including yours while filling a Zone, where the Zone is then finished before the clear-white "
        "bait returns to the bag.",
        "engine",
    ),
    Ruling(
        "Silent player's Master Angler cards",
        "Cards in the silent player's score pile count for it as completed Master Angler cards: 1 point "
        "each, and toward Three Same and Four Different.",
        "engine",
    ),
    Ruling(
        "Silent player's bag",
        "If the bag is empty when the silent player draws, the discard pile goes back in first; with "
        "nothing to draw the draw is skipped. Drawing 7 bait to the discard stops if the bag runs out.",
        "engine",
    ),
    Ruling(
        "End in Practice Pond",
        "If the silent player triggers the end, you take one final turn and the silent player does not "
        "play again; if you trigger it, the silent player takes its final turn.",
        "engine",
    ),
    Ruling(
        "Winning Practice Pond",
        "You win only if your score exceeds the silent player's; a tie goes to the silent player.",
        "engine",
    ),
)
