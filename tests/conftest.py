"""Suite-wide hooks: the longest tests start first.

The README runs the suite with pytest-xdist's ``--dist worksteal``: each worker
gets a slice of the collection in order, and a worker that runs out takes the back
half of the longest queue left. It knows nothing of how long a test takes, so a
one-minute test collected late could start last and keep one core busy for a
minute while the other idles. Collecting the longest tests first makes them start
first, one after another on the first worker, while the short ones fill in around
them and at the end.
"""

from __future__ import annotations

import pytest

LONGEST: tuple[str, ...] = (
    # Node id prefixes, longest first (`--durations` of a whole run; each 10–40 s on a
    # quiet core). A name missing here only starts later; nothing is left out.
    "tests/tui/test_serve_tables.py::test_two_ssh_players_and_a_lan_player_finish_one_game",
    "tests/tui/test_tmux.py::test_whole_solo_game_against_two_bots_with_the_panes",
    "tests/tui/test_serve_tables.py::test_a_whole_solo_game_over_ssh_with_a_resize",
    "tests/tui/test_serve.py::test_the_openssh_client_finishes_a_solo_game",
    "tests/tui/test_fisheries_play.py::test_whole_game_against_the_greedy_bot",
    "tests/tui/test_crown_play.py::test_a_whole_game_by_keyboard_with_the_table_in_view",
    "tests/tui/test_aquatica_play.py::test_whole_game_by_keyboard",
    "tests/tui/test_lan_play.py::test_host_from_app_peer_joins_play_to_the_end",
    "tests/tui/test_lan_join.py::test_peer_plays_its_seat_by_keyboard_to_the_end",
    "tests/tui/test_aquatica_play.py::test_five_seats_through_the_screen",
    "tests/test_contract.py::test_random_play_many_seeds",
    "tests/test_contract.py::test_many_games_with_the_cheap_bots",
    "tests/tui/test_aquatica_play.py::test_hotseat_two_people_hide_their_hands",
    "tests/net/test_fairdeal.py::test_any_deck_round_trips",
    "tests/net/test_fairdeal.py::test_a_whole_game_dealt_from_encrypted_decks",
    "tests/tui/test_frame.py::test_log_is_rebuilt_on_resume_with_names",
    "tests/tui/test_frame.py::test_done_key_safe_highlight_and_filter",
    "tests/tui/test_frame.py::test_undo_takes_back_a_decision_exactly",
    "tests/tui/test_crown_play.py::test_resume_rebuilds_the_board_and_log",
    "tests/net/test_netns.py::",
    "tests/net/test_attacks_netns.py::",
    "tests/tui/test_snapshots.py::test_screen[replay_goto",
    "tests/tui/test_crown_play.py::test_hotseat_hides_secrets_between_people",
    "tests/tui/test_around.py::test_the_end_of_a_game_charts_milestones_rematch_and_replay",
)


def _rank(nodeid: str) -> int:
    return next((n for n, prefix in enumerate(LONGEST) if nodeid.startswith(prefix)), len(LONGEST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A stable sort: the rest keeps its collected order. Every xdist worker sorts the
    # same collection the same way, as xdist requires.
    items.sort(key=lambda item: _rank(item.nodeid))
