"""The table screen's Help page (``?``): the frame's keys and habits, shared by every game;
a game's screen adds its own paragraph after it (``TableScreen.HELP``)."""

TABLE_HELP = """\
**The table.** The board is on the left (or on top in a small terminal), your
choices and the short log on the right (or below). Each legal choice has a key:
press it, or move with ↑ ↓ and press Enter, or click it. Only legal choices are
listed, and the highlighted one never spends, discards or ends anything.

**Panes.** **F2** (or **B**) shows the board on the whole screen, **F3** (or
**L**) the whole log, grouped by round and turn; a game may add its own (F4,
F5, ...: see the footer). The same key or Esc brings the table back.
PgUp / PgDn scroll the board (or the open pane) whatever has focus.

**No traps.** **e** ends your turn (or passes, or says "done") on every turn of
every game. **Ctrl+Z** takes back your own last decision (solo and hotseat; not
past a draw or anything revealed, and never a bot's move). A question with one
possible answer answers itself (Settings can turn that off). **/** filters a long
list of choices by text; **!** chooses the highlighted answer and gives it again
whenever the same question comes back this game.

**Hints.** **h** asks the hard bot for its best few choices here: each with how
many points it is behind the best and what it gains (a score category, or the
rival kept down), from what you can see. It thinks beside the table, so you can
still choose meanwhile (that drops the hint); Esc stops it or closes it. Solo and
hotseat tables give hints; a LAN table only when its host turned hints on.

At the start of your turn the log says what the others did since your last turn,
and the board shows what they changed until you move: a **◆** before each thing they
touched (a space, a zone, a card, a tile's square), what changed in it underlined, and a
**•** beside its row. **F7** (or **I**) looks anything up: a cursor on the board's things
(← → along a row, ↑ ↓ to the next row) and, beside the choices, the thing in full (a
card's whole text, a Location's Depths) and its row; Esc puts it away.
Esc opens the table menu (rules, leave). Every move is saved as it is made:
leaving and resuming later loses nothing, the log included.
"""
