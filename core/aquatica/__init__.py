"""Aquatica with its Cold Waters expansion (1-5 players): rules engine and content.

Where each rule lives (a newcomer opens the file with the rule's name):

- ``setup.py`` decks by player count, every draw as a chance event; ``kings.py``
- ``main_action.py`` the turn (extras, one Main Action, end) and the flow between
  decisions; ``effects.py`` the effect interpreter; ``payment.py`` paying
- ``depths.py`` exploiting and its timing; ``mantas.py``; ``recruit.py``;
  ``locations.py`` (buy/conquer); ``scout.py``; ``raise_.py``; ``score.py``;
  ``delayed.py``
- ``goals.py``, ``tribes.py``, ``solo.py``, ``tribes_solo.py``, ``endgame.py``,
  ``scoring.py``
- ``model.py`` content schemas and the position Struct; ``content.py`` loading and
  validation; ``actions.py`` the notation; ``state.py``/``why.py`` the State, views
  and messages; ``game.py`` the Game object (``GAME``); ``bot.py`` the greedy bot.

Rulings where the rulebooks are silent: ``docs/rulings-aquatica.md``; content format
and stand-in design: ``docs/content-aquatica.md``.
"""
