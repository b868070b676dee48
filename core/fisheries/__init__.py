"""Fisheries of Gloucester (2 players): the rules engine.

Where each rule lives (open the file named after it):

- ``setup.py`` basic setup; ``variant_setup.py`` the B side; ``days.py`` phases I-II
  and turn order; ``chart_a_course.py`` tile placement; ``sail.py`` sailing costs and
  paths; ``fleet.py`` the fleet rule; ``fish.py``; ``preserve.py`` cards and their
  actions; ``market.py`` the market variant; ``lobster.py`` the double turn;
  ``end_of_day.py``; ``scoring.py``.
- ``model.py`` the position Struct and board geometry; ``actions.py`` the actions
  and notation; ``content.py`` the content schema; ``state.py`` dispatch;
  ``explain.py`` why an action is illegal, log text, a text picture of the board;
  ``game.py`` ``GAME``; ``bot.py`` the greedy bot.

For the table screen, ``FisheriesState`` offers ``chart_options(shape)`` (every legal
placement, to preview), ``sail_options(frm, budget=None)`` (hours and path of every
destination), ``fleet_limits(seat)`` (the progress board), ``cell_name(row, col)`` and
``cell_coords(name)``. Rulings: ``docs/rulings-fisheries.md``.
"""
