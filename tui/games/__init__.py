"""Each game's table: its screen, board widgets and the pure wording/cursor logic."""
