"""Coldwater Crown: the rules engine (1 to 4 players; 1 player is the Practice Pond).

Each rule lives in a module named after it; ``state.py`` only dispatches.

=================  ==============================================================
``model.py``       the position (one msgspec Struct) and the rulebook's vocabulary
``content.py``     card data: schema, checks, lookup tables (``data/crown.json``)
``setup.py``       setup A–L and the Practice Pond changes
``turns.py``       the flow: Steps, queued work, which chance draw or decision is next
``anglers.py``     Angler spaces and tokens (and the silent player's token path)
``port.py``        the Port: filling Zones from the bag, taking Master Angler cards
``casting.py``     casting bait, routing it to Master Angler cards, completing them
``catching.py``    catches owed for emptied Zones, Rod/Line/Zone 6 bonus, restocking
``tackle.py``      the tackle stack, the Zone 5 draw, Reels and Lures
``trophies.py``    Mystery Weight, 8 Species, Small Species, Master Angler, 12 Fish
``endgame.py``     end of turn, end triggers, final turns
``contests.py``    the Shore, Lake and River contests
``scoring.py``     final scores, ranking and tie-breaks
``practice_pond.py``  the silent player's turn
``views.py``       sealed values: what a seat may see; ``determinize``
``explain.py``     why an action is refused; log lines
``rulings.py``     every ruling where the rulebook is silent
``actions.py``     every action and chance outcome, with notation
``game.py``        ``GAME``, the registry's entry
``bot.py``         the greedy bot
=================  ==============================================================
"""
