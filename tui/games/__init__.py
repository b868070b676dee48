"""Each game's table screen, with its wording and cursor logic apart from Textual."""
