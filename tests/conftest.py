"""Suite-wide hooks: how many xdist workers `-n auto` starts, and which test each starts with.

The README runs the suite with pytest-xdist's ``-n auto --dist worksteal``.

Workers. Many of the long tests spend most of their time waiting: on an app in a
subprocess (SSH sessions, tmux, LAN peers in network namespaces) or on a whole
game's keys and screens. One worker per core leaves a core idle while its worker
waits, so ``-n auto`` starts twice as many workers as cores (up to four more than
the cores); PYTEST_XDIST_AUTO_NUM_WORKERS still overrides it.

Order. worksteal first splits the collection, in order, into one contiguous slice
per worker; a worker that runs out takes the back half of the longest queue left.
It knows nothing of how long a test takes: sorted longest first, every long test
would land in the first worker's slice and run one after another there, while
the others finish everything else and wait. So each long test is placed at the
front of a slice, the next one on the slice with the least long work so far
(longest processing time first), and the short tests fill the rest of every
slice in their collected order, to be stolen by whoever runs out first.
"""

from __future__ import annotations

import os

import pytest

LONGEST: tuple[tuple[str, float], ...] = (
    # Node id prefixes with rough seconds on a quiet core (from CPU times and `--durations`
    # under load, tests/bench figures aside). A name missing here only starts later, in its
    # slice; nothing is left out, and a rough figure only makes the slices less even.
    ("tests/tui/test_serve_tables.py::test_two_ssh_players_and_a_lan_player_finish_one_game", 150),
    ("tests/tui/test_aquatica_play.py::test_whole_game_by_keyboard[80x24", 30),
    ("tests/tui/test_lan_join.py::test_peer_plays_its_seat_by_keyboard_to_the_end", 25),
    ("tests/tui/test_lan_play.py::test_host_from_app_peer_joins_play_to_the_end", 25),
    ("tests/tui/test_tmux.py::test_whole_solo_game_against_two_bots_with_the_panes", 25),
    ("tests/tui/test_serve.py::test_the_openssh_client_finishes_a_solo_game", 25),
    ("tests/tui/test_serve_tables.py::test_a_whole_solo_game_over_ssh_with_a_resize", 20),
    ("tests/tui/test_fisheries_play.py::test_whole_game_against_the_greedy_bot[160x50", 18),
    ("tests/tui/test_aquatica_play.py::test_whole_game_by_keyboard[160x50", 15),
    ("tests/test_types.py::test_package_type_checks", 15),
    ("tests/tui/test_crown_play.py::test_a_whole_game_by_keyboard_with_the_table_in_view", 13),
    ("tests/net/test_fairdeal_session.py::test_whole_crown_games_over_the_lan_session_with_the_fair_dealer", 10),
    # Merged from integ without a measurement of their own yet (a failover case "cost 25 s" under load).
    ("tests/net/test_fairdeal_netns.py::test_the_fair_host_dies", 15),
    ("tests/net/test_fairdeal_netns.py::test_no_process_holds", 15),
    ("tests/net/test_fairdeal_aquatica.py::test_whole_aquatica_games", 8),
    ("tests/net/test_fairdeal_failover.py::", 8),
    ("tests/tui/test_aquatica_play.py::test_five_seats_through_the_screen", 12),
    ("tests/tui/test_aquatica_play.py::test_hotseat_two_people_hide_their_hands", 11),
    ("tests/tui/test_fisheries_play.py::test_whole_game_against_the_greedy_bot", 10),
    ("tests/test_contract.py::test_many_games_with_the_cheap_bots", 6),
    ("tests/test_contract.py::test_random_play_many_seeds", 6),
    ("tests/tui/test_serve_tables.py::test_the_opener_sits_back_down_in_the_middle_of_a_game", 9),
    ("tests/tui/test_fisheries_play.py::test_hotseat_hands_over_between_two_people", 8),
    ("tests/net/test_watch_netns.py::", 6),
    ("tests/net/test_netns.py::", 5),
    ("tests/net/test_attacks_netns.py::", 5),
    ("tests/tui/test_serve_tables.py::", 6),
    ("tests/net/test_fairdeal_session.py::test_a_peer_whose_connection_drops_comes_back", 6),
    ("tests/net/test_fairdeal_session.py::test_a_reformed_tackle_stack", 15),
    ("tests/net/test_loopback.py::test_every_registered_game_plays_whole_games_over_the_lan", 5),
    ("tests/tui/test_app.py::test_every_theme_loads_every_stylesheet", 4),
    ("tests/net/test_fairdeal.py::test_any_deck_round_trips", 5),
    ("tests/net/test_fairdeal.py::test_a_whole_game_dealt_from_encrypted_decks", 5),
    ("tests/tui/test_frame.py::test_log_is_rebuilt_on_resume_with_names", 4),
    ("tests/tui/test_frame.py::test_done_key_safe_highlight_and_filter", 4),
    ("tests/tui/test_frame.py::test_undo_takes_back_a_decision_exactly", 4),
    ("tests/tui/test_crown_play.py::test_resume_rebuilds_the_board_and_log", 4),
    ("tests/tui/test_snapshots.py::test_screen[replay_goto", 4),
    ("tests/tui/test_crown_play.py::test_hotseat_hides_secrets_between_people", 4),
    ("tests/tui/test_around.py::test_the_end_of_a_game_charts_milestones_rematch_and_replay", 4),
)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    cores = _cores()
    return cores + min(cores, 4)


def _estimate(nodeid: str) -> float | None:
    return next((secs for prefix, secs in LONGEST if nodeid.startswith(prefix)), None)


def _seconds(item: pytest.Item) -> float:
    return _estimate(item.nodeid) or 0.0


def _slices(total: int, workers: int) -> list[int]:
    """The sizes of worksteal's first slices, as it cuts them (xdist/scheduler/worksteal.py)."""
    sizes = []
    for i in range(workers):
        sizes.append(total // (workers - i))
        total -= sizes[-1]
    return sizes


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Every worker computes the same order from the same collection, as xdist requires.
    long = sorted((item for item in items if _estimate(item.nodeid) is not None), key=lambda item: -_seconds(item))
    chosen = {id(item) for item in long}
    short = [item for item in items if id(item) not in chosen]
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers <= 1:
        items[:] = long + short
        return
    sizes = _slices(len(items), workers)
    heads: list[list[pytest.Item]] = [[] for _ in sizes]
    load = [0.0] * workers
    for item in long:
        # Longest first onto the least loaded slice that still has room.
        n = min((n for n in range(workers) if len(heads[n]) < sizes[n]), key=lambda n: load[n])
        heads[n].append(item)
        load[n] += _seconds(item)
    order: list[pytest.Item] = []
    rest = iter(short)
    for head, size in zip(heads, sizes):
        order += head
        order += [next(rest) for _ in range(size - len(head))]
    assert len(order) == len(items) and next(rest, None) is None
    items[:] = order
