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

Where the time goes (2026-12-02, per-test rusage over one whole run): the suite is CPU-bound,
about 12 CPU-minutes, each of the 4 workers busy all but its start; the fair-dealer netns games,
the loopback fair sessions and the netns games are the largest parts, and each worker spends
about 8 CPU-s collecting (assertion rewriting is redone in every worker where
PYTHONDONTWRITEBYTECODE is set). A shorter wall time needs less CPU, not a different order.

Bytecode. Where PYTHONDONTWRITEBYTECODE is set, nothing writes the project's ``.pyc`` files, so
every process the suite starts — each worker, and the hundreds of LAN peers, SSH servers, apps in
tmux and bot workers — compiled every module it imported from source: about an eighth of a LAN
test's CPU. The controller compiles them once before any worker starts (:func:`pytest_configure`);
the variable still keeps the processes from writing, and they read what is there. Test modules are
left out: pytest rewrites their asserts and caches that on its own terms.
"""

from __future__ import annotations

import compileall
import os
import re
from pathlib import Path

import pytest

from tests.packaging import package_dirs

ROOT = Path(__file__).resolve().parent.parent


def _folders() -> list[str]:
    """The folders whose modules processes import: the package's, as setup.py maps them (tui/root
    is inside tui/), and tests/ (the toy game, the hostile peer and other helpers that tests start
    as processes)."""
    dirs = [*package_dirs().values(), "tests"]
    return [d for d in dirs if not any(d.startswith(f"{o}/") for o in dirs)]


LONGEST: tuple[tuple[str, float], ...] = (
    # Node id prefixes (the first that matches counts) with seconds on a quiet core, measured
    # 2026-12-02 in one whole run (4 workers on 2 cores, load ~7 with another engineer's benchmarks):
    # each test's CPU, its own and its subprocesses', or its wall time divided by 4.1 (that run's
    # wall-to-CPU ratio) where it mostly waits. The three-seat served game is from a run of its own
    # after its LAN seat went greedy (27 CPU-s, 61 s alone), raised to 40 as it waits on every answer;
    # the probed Crown games of three and four seats and the seatless host's from runs after theirs did.
    # A name missing here only starts later, in its slice; nothing is left out.
    ("tests/tui/serve/test_tables_over_ssh.py::test_two_ssh_players_and_a_lan_player_finish_one_game", 40),
    (
        "tests/net/session/test_fairdeal_netns.py::test_no_aquatica_process_holds_another_seats_sealed_card_in_a_whole_fair_game[5-tribes-advanced]",
        36,
    ),
    (
        "tests/net/session/test_fairdeal_netns.py::test_no_process_holds_another_seats_sealed_value_in_a_whole_fair_game[4]",
        14,
    ),
    (
        "tests/net/session/test_fairdeal_netns.py::test_the_probe_finds_nothing_in_one_aquatica_seat_and_finds_what_is_planted_there[120-5]",
        18,
    ),
    ("tests/test_types.py::test_package_type_checks", 17),
    (
        "tests/net/session/test_fairdeal_netns.py::test_a_host_with_no_seat_holds_no_sealed_value_and_the_seats_none_of_each_others",
        12,
    ),
    (
        "tests/net/session/test_fairdeal_netns.py::test_no_aquatica_process_holds_another_seats_sealed_card_in_a_whole_fair_game[4-variable-goals-basic]",
        15,
    ),
    (
        "tests/net/session/test_fairdeal_netns.py::test_no_process_holds_another_seats_sealed_value_in_a_whole_fair_game[3]",
        10,
    ),
    (
        "tests/net/session/test_fairdeal_netns.py::test_no_aquatica_process_holds_another_seats_sealed_card_in_a_whole_fair_game[3-tribes-advanced]",
        13,
    ),
    (
        "tests/net/session/test_fairdeal_netns.py::test_the_probe_finds_nothing_in_one_aquatica_seat_and_finds_what_is_planted_there[None-5]",
        11,
    ),
    ("tests/tui/test_aquatica_play.py::test_whole_game_by_keyboard[80x24-3-goals]", 11),
    ("tests/tui/serve/test_server.py::test_the_openssh_client_finishes_a_solo_game", 11),
    ("tests/tui/test_fisheries_play.py::test_whole_game_against_the_greedy_bot[160x50]", 11),
    ("tests/tui/test_lan_play.py::test_host_from_app_peer_joins_play_to_the_end", 11),
    ("tests/net/test_netns.py::test_peers_find_the_table_by_name_and_agree[4-crown]", 9.9),
    ("tests/tui/test_tmux.py::test_whole_solo_game_against_two_bots_with_the_panes", 9.8),
    ("tests/tui/test_aquatica_play.py::test_whole_game_by_keyboard[160x50-2-tribes]", 8.9),
    (
        "tests/net/session/test_fairdeal_netns.py::test_the_fair_host_dies_a_peer_takes_over_and_its_seat_comes_back_from_its_save[wake]",
        8.9,
    ),
    (
        "tests/net/session/test_fairdeal_session.py::test_whole_crown_games_over_the_lan_session_with_the_fair_dealer[4]",
        8.6,
    ),
    ("tests/net/test_netns.py::test_a_hostile_peer_is_refused_while_the_game_goes_on[crown]", 8.5),
    ("tests/tui/test_aquatica_play.py::test_five_seats_through_the_screen", 8.2),
    (
        "tests/net/fairdeal/test_fairdeal_aquatica.py::test_an_observer_with_no_key_follows_a_whole_game_on_the_public_view[4-p-options1]",
        7.8,
    ),
    ("tests/tui/test_aquatica_content.py::test_own_card_data_is_used_named_saved_and_checked_on_resume", 7.5),
    ("tests/tui/test_fisheries_play.py::test_whole_game_against_the_greedy_bot[80x24]", 7.3),
    ("tests/tui/test_fisheries_screen.py::test_tile_cursor_refuses_with_reasons_and_sailing_shows_hours", 7.2),
    ("tests/tui/test_crown_play.py::test_a_whole_game_by_keyboard_with_the_table_in_view[80x24]", 7.1),
    ("tests/tui/serve/test_tables_over_ssh.py::test_a_whole_solo_game_over_ssh_with_a_resize", 7.0),
    ("tests/tui/test_aquatica_play.py::test_hotseat_two_people_hide_their_hands", 6.8),
    (
        "tests/net/session/test_fairdeal_session.py::test_an_observer_with_no_key_follows_a_whole_game_on_the_public_view[4-p]",
        6.7,
    ),
    ("tests/tui/test_around.py::test_the_end_of_a_game_charts_milestones_rematch_and_replay", 6.4),
    ("tests/tui/test_lan_join.py::test_peer_plays_its_seat_by_keys_to_the_end", 6.3),
    (
        "tests/net/session/test_fairdeal_session.py::test_a_host_with_no_seat_and_no_bot_deals_fair_from_an_observer[3]",
        6.1,
    ),
    (
        "tests/net/session/test_fairdeal_timer.py::test_a_move_while_the_bot_thinks_wins_and_the_person_has_the_seat_again",
        6.0,
    ),
    (
        "tests/net/session/test_fairdeal_timer.py::test_a_peer_who_never_moves_is_played_by_its_own_process_and_everyone_is_told",
        5.7,
    ),
    ("tests/net/test_netns.py::test_the_host_killed_and_the_game_finishes_under_a_new_host[crown]", 5.7),
    ("tests/net/test_netns.py::test_peers_find_the_table_by_name_and_agree[4-aquatica]", 5.6),
    (
        "tests/net/session/test_fairdeal_session.py::test_whole_crown_games_no_process_holds_a_sealed_value_before_it_shows[4-c]",
        5.6,
    ),
    ("tests/net/session/test_watch.py::test_a_watcher_of_a_whole_game_holds_the_public_view_only[crown]", 5.6),
    ("tests/net/test_netns.py::test_a_peer_killed_mid_game_restarts_and_finishes[crown]", 5.5),
    ("tests/tui/test_crown_play.py::test_a_whole_game_by_keyboard_with_the_table_in_view[160x50]", 5.4),
    (
        "tests/net/session/test_fairdeal_netns.py::test_the_fair_host_dies_a_peer_takes_over_and_its_seat_comes_back_from_its_save[kill]",
        5.2,
    ),
    ("tests/net/fairdeal/test_fairdeal_aquatica.py::test_a_seat_saved_mid_draft_comes_back_from_its_save", 5.2),
    (
        "tests/net/session/test_fairdeal_session.py::test_bot_seats_at_a_fair_table_are_seats_of_their_own_run_in_the_host_process[seats1]",
        5.2,
    ),
    (
        "tests/net/fairdeal/test_fairdeal_aquatica.py::test_whole_aquatica_games_over_the_lan_session_with_the_fair_dealer[4-options2-False]",
        4.9,
    ),
    ("tests/net/test_netns.py::test_a_hostile_peer_is_refused_while_the_game_goes_on[aquatica]", 4.7),
    ("tests/tui/test_frame.py::test_log_is_rebuilt_on_resume_with_names", 4.7),
    (
        "tests/net/fairdeal/test_fairdeal_aquatica.py::test_whole_aquatica_games_over_the_lan_session_with_the_fair_dealer[5-options3-False]",
        4.5,
    ),
    ("tests/tui/test_lan_rematch.py::test_the_opener_of_a_table_served_over_ssh_asks_for_the_rematch", 4.5),
    ("tests/core/test_contract.py::test_random_play_many_seeds[crown-4-3]", 4.5),
    ("tests/net/session/test_loopback.py::test_every_registered_game_plays_whole_games_over_the_lan[crown]", 4.4),
    ("tests/tui/test_fisheries_play.py::test_hotseat_hands_over_between_two_people", 4.4),
    (
        "tests/net/session/test_fairdeal_failover.py::test_a_peer_process_that_dies_comes_back_from_its_save_and_the_game_finishes",
        4.3,
    ),
    ("tests/tui/test_aquatica_play.py::test_base_solo_against_the_virtual_rival", 4.3),
    ("tests/tui/test_crown_play.py::test_practice_pond_says_what_the_silent_player_did", 4.3),
    ("tests/tui/test_fisheries_snapshots.py::test_table_120x40", 4.2),
    ("tests/tui/test_lan_watch.py::test_watch_a_game_from_the_join_screen_at_80x24", 4.1),
    (
        "tests/net/session/test_fairdeal_session.py::test_a_peer_whose_process_restarts_resumes_from_its_save_and_a_damaged_save_is_refused",
        4.0,
    ),
    ("tests/tui/serve/test_tables_over_ssh.py::test_the_opener_sits_back_down_in_the_middle_of_a_game", 4.0),
    (
        "tests/net/fairdeal/test_fairdeal_aquatica.py::test_whole_aquatica_games_no_process_holds_a_sealed_card_before_it_shows[5-h-options7]",
        3.9,
    ),
    (
        "tests/net/session/test_attacks_netns.py::test_13_a_frozen_host_is_replaced_within_10_s_and_the_game_finishes",
        3.7,
    ),
    (
        "tests/net/session/test_fairdeal_session.py::test_whole_crown_games_no_process_holds_a_sealed_value_before_it_shows[3-b]",
        3.6,
    ),
    (
        "tests/net/session/test_fairdeal_failover.py::test_the_host_dies_and_the_fair_game_finishes_under_a_new_host[crown-3-mid-deal]",
        3.6,
    ),
    ("tests/tui/serve/test_tables_over_ssh.py::test_two_keys_share_a_table_that_outlives_its_hosts_app", 3.6),
    ("tests/net/fairdeal/test_fairdeal.py::test_any_deck_round_trips", 3.6),
    ("tests/core/test_contract.py::test_many_games_with_the_cheap_bots[aquatica-4-3]", 3.5),
    ("tests/net/test_netns.py::test_a_peer_killed_mid_game_restarts_and_finishes[aquatica]", 3.5),
    ("tests/net/test_netns.py::test_peers_find_the_table_by_name_and_agree[3-crown]", 3.5),
    (
        "tests/net/fairdeal/test_fairdeal_aquatica.py::test_whole_aquatica_games_no_process_holds_a_sealed_card_before_it_shows[5-d-None]",
        3.5,
    ),
    ("tests/tui/test_frame.py::test_panes_and_scrolling_work_whatever_has_focus", 3.4),
    ("tests/tui/test_aquatica_content.py::test_bad_card_data_is_reported_in_the_form_and_starts_nothing", 3.4),
    # Every other test of a file whose tests take a second or more each, on average.
    ("tests/net/test_edge_netns.py::", 2.7),
    ("tests/net/session/test_watch_netns.py::", 2.5),
    ("tests/net/session/test_fairdeal_timer.py::", 2.5),
    ("tests/tui/test_fisheries_snapshots.py::", 2.3),
    ("tests/tui/test_crown_snapshots.py::", 2.3),
    ("tests/tui/serve/test_tables_over_ssh.py::", 2.2),
    ("tests/tui/test_bot_levels.py::", 2.1),
    ("tests/tui/test_tmux.py::", 2.1),
    ("tests/tui/test_frame.py::", 2.1),
    ("tests/tui/test_crown_play.py::", 2.0),
    ("tests/tui/test_aquatica_screen.py::", 2.0),
    ("tests/tui/test_aquatica_play.py::", 2.0),
    ("tests/net/test_netns.py::", 1.9),
    ("tests/net/session/test_fairdeal_failover.py::", 1.8),
    ("tests/tui/test_lan_timer.py::", 1.8),
    ("tests/net/session/test_attacks_netns.py::", 1.7),
    ("tests/net/session/test_fairdeal_netns.py::", 1.6),
    ("tests/tui/test_bot_thinking.py::", 1.6),
    ("tests/net/session/test_fairdeal_session.py::", 1.6),
    ("tests/net/fairdeal/test_fairdeal_aquatica.py::", 1.5),
)


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):
        return  # a worker: the controller compiled before starting it
    skip = re.compile(r"[/\\](test_[^/\\]*|conftest)\.py$")  # pytest compiles these itself
    for folder in _folders():
        # Writes only what is missing or older than its source, silently: a module that does not
        # compile is reported by the test that imports it.
        compileall.compile_dir(ROOT / folder, rx=skip, quiet=2, workers=1)


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
