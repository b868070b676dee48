"""Tests of core/: the engine contract, the games' rules (one folder per game), bots, review and hints."""
