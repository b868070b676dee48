"""The search bot: information-set Monte Carlo tree search over determinizations.

Every playout starts from one full position consistent with what the searching
seat knows (``game.determinize(view, rng)``: hidden fish weights, hands and deck
orders are sampled, never read), in the style of single-observer ISMCTS
(Cowling, Powley & Whitehouse 2012), shaped for budgets of tens of playouts:

- only the ``width`` actions the greedy policy rates best are candidates;
- the root is searched in rounds: one world per round, every candidate played in
  it with the same playout seed, and the greedy policy's first choice is kept
  unless another candidate beats it, paired by round, by ``confidence``
  standard errors (a small search that follows its noise plays worse than greedy);
- below the root one shared tree grows by UCB1 with availability counts once a
  node has ``expand_after`` visits; chance events are drawn inside the iteration;
- a playout is the greedy policy for every seat for at most ``horizon`` decisions,
  then the game's evaluation (to the end where it has none for the position).

The budget is a number of iterations, so a seed and a budget fix the choice on
every machine (LAN peers and tests agree). A wall-clock cap exists only as a
safety net for a slow or busy machine; when it binds the choice is still sound.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from .notation import Action
from .rng import Rng
from .state import CHANCE, Game, Scores, State

T = TypeVar("T")
A = TypeVar("A", bound=Action)


class Policy(Protocol):
    """A fast greedy policy: a value for each legal action (higher is better)."""

    def values(self, view: State[Any, Any], legal: Sequence[Action]) -> list[float]: ...


Evaluate = Callable[[State[Any, Any], tuple[int, ...]], list[float] | None]
"""Worth of a (possibly unfinished) position to each seat, each in [0, 1], given the
score totals where the search began (the yardstick for a solo game with one row); None
where it has nothing to say of an unfinished position (a solo mode judged by its own goal):
the playout then goes on to the end, as the coach's evaluator does (``evaluate.worth``)."""


def _sigmoid(x: float) -> float:
    if x < -40:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))


def score_values(
    sc: Scores, players: int, scale: float, anchor: float = 0.0, totals: Sequence[float] | None = None
) -> list[float]:
    """Each seat's worth from a score sheet: winning, then the margin over the best rival row.

    With a single row (a solo game scored by title) there is nobody to beat:
    the worth grows with the total around `anchor`.
    """
    if totals is None:
        totals = sc.totals
    out = []
    for s in range(players):
        others = [t for j, t in enumerate(totals) if j != s]
        if not others:
            out.append(_sigmoid((totals[s] - anchor) / scale))
            continue
        win = (1.0 if sc.ranking[0] == s else 0.0) if sc.final else float(totals[s] > max(others))
        out.append(0.5 * win + 0.5 * _sigmoid((totals[s] - max(others)) / scale))
    return out


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[tuple[int, Action], _Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


class SearchBot:
    """ISMCTS with a greedy prior and greedy playouts. See the module docstring."""

    def __init__(
        self,
        game: Game[Any, Any],
        policy: Policy,
        evaluate: Evaluate,
        *,
        name: str,
        iterations: int,
        width: int = 5,
        horizon: int = 10_000,
        explore: float = 0.6,
        noise: float = 0.0,
        confidence: float = 1.0,
        expand_after: int = 8,
        max_seconds: float = 2.0,
        max_plies: int | None = None,
    ) -> None:
        if iterations < 1 or width < 1 or horizon < 0 or (max_plies is not None and max_plies < 1):
            raise ValueError("a search needs at least one iteration, one candidate, a horizon >= 0 and plies >= 1")
        self.name = name
        self.game = game
        self.policy = policy
        self.evaluate = evaluate
        self.iterations = iterations
        self.width = width
        """Candidates per decision: the greedy policy's best few."""
        self.horizon = horizon
        """Playout decisions before the evaluation stands in for the rest of the game."""
        self.explore = explore
        self.noise = noise
        """Chance of a uniformly random move in a playout (none by default: the worlds and
        the chance draws already vary, and paired comparisons want the same moves)."""
        self.confidence = confidence
        self.expand_after = expand_after
        """Standard errors by which a candidate must beat the prior's first to be played."""
        self.max_plies = max_plies
        """A second budget, in plies played (tree and playouts) by the whole decision,
        checked between rounds: early in a game a playout is several times longer than
        late, so a budget in plies keeps the time per decision about even while the
        iterations stay a cap; it is counted, not timed, so the choice stays repeatable."""
        self.last_plies = 0
        """Plies the last decision played in its iterations."""
        self.max_seconds = max_seconds
        """Wall-clock safety net, checked between rounds (a round is one playout per
        candidate), so a decision stays under about 3 s on a slow or busy machine.
        It needs a `clock`."""
        self.clock: Callable[[], float] | None = None
        """The wall clock behind `max_seconds`, handed in by whoever runs the search for a
        person who is waiting (net's tables and the bots' worker: `net.play.thinker.timed`).
        Without one the budget alone decides: core reads no clock, and a simulation, a
        review or a test gets the same choice on every machine."""
        self.last_iterations = 0
        """Iterations the last decision ran (below the budget only if the clock cap hit)."""
        self.pause: Callable[[], None] | None = None
        """Called before every iteration, so a host that runs the search in a thread
        beside its UI can hold it there while a key is handled (Python runs one thread
        at a time; a search sharing the interpreter would halve the UI's speed).
        Time spent paused does not count against `max_seconds`, and the budget is in
        iterations, so pausing never changes the choice."""

    # ---- the contract ------------------------------------------------------
    def choose(self, view: State[Any, Any], rng: Rng) -> Action:
        legal: list[Action] = view.legal()
        if len(legal) == 1:
            return legal[0]
        cands = self._candidates(view, legal)
        if len(cands) == 1:
            return cands[0]
        me = view.current
        assert me is not None  # legal() was not empty
        root = _Node()
        clock = self.clock
        deadline = clock() + self.max_seconds if clock is not None else math.inf
        # The root is searched in rounds: each round draws one world and plays every
        # candidate in it with the same playout seed (common random numbers), so the
        # candidates are compared on the same luck; below the root the tree is
        # shared across rounds and searched by UCB as usual.
        results: list[list[float]] = [[] for _ in cands]
        rounds = max(1, self.iterations // len(cands))
        n = 0
        start = view.ply
        plies = 0
        for j in range(rounds):
            over_time = clock is not None and clock() > deadline
            if j and (over_time or (self.max_plies is not None and plies >= self.max_plies)):
                break
            it = rng.fork(j)
            world = self.game.determinize(view, it.fork("world"))
            for i, a in enumerate(cands):
                if self.pause is not None:
                    t = clock() if clock is not None else 0.0
                    self.pause()
                    if clock is not None:
                        deadline += clock() - t
                st = world.clone() if i < len(cands) - 1 else world
                results[i].append(self._iterate(root, st, FastRng(it.fork("playout")), me, a))
                plies += st.ply - start
                n += 1
        self.last_iterations = n
        self.last_plies = plies
        return cands[self._pick(results)]

    def _pick(self, results: list[list[float]]) -> int:
        """The candidate to play: the prior's first, unless another beats it clearly.

        Each candidate's results are paired with the first's, round by round; a
        candidate must win by more than `confidence` standard errors of the paired
        difference. With a budget of tens of playouts the estimates are noisy, and
        a search that follows its noise plays worse than the greedy bot it starts from.
        """
        base = results[0]
        n = len(base)
        best, best_gain = 0, 0.0
        for i in range(1, len(results)):
            diffs = [x - y for x, y in zip(results[i], base)]
            mean = sum(diffs) / n
            if n > 1:
                var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
                margin = self.confidence * math.sqrt(var / n)
            else:
                margin = 0.0
            if mean > margin and mean > best_gain:
                best, best_gain = i, mean
        return best

    # ---- internals ---------------------------------------------------------
    def _candidates(self, st: State[Any, Any], legal: list[Action]) -> list[Action]:
        if len(legal) <= 1:
            return legal
        vals = self.policy.values(st, legal)
        idx = sorted(range(len(legal)), key=lambda i: (-vals[i], i))
        return [legal[i] for i in idx[: self.width]]

    def _iterate(self, root: _Node, st: State[Any, Any], rng: FastRng, me: int, first: Action) -> float:
        """One iteration from the root with `first` played there; `me`'s reward."""
        anchor = st.scores().totals
        node = root.children.get((me, first))
        if node is None:
            node = root.children[(me, first)] = _Node()
        st.apply(first)  # checked: the view's legal moves must be legal in every world
        path: list[tuple[_Node, int]] = [(node, me)]
        # Selection and expansion down the shared tree. A node grows children only
        # once it has been visited `expand_after` times: until then its playouts are
        # the greedy continuation, which is a better estimate than exploring.
        while node.visits >= self.expand_after:
            cur = st.current
            if cur is None:
                break
            if cur == CHANCE:
                st.apply_legal(draw_chance(st, rng))
                continue
            cands = self._candidates(st, st.legal())
            fresh = None
            for a in cands:
                child = node.children.get((cur, a))
                if child is None:
                    if fresh is None:
                        fresh = a
                else:
                    child.avail += 1
            if fresh is not None:
                child = node.children[(cur, fresh)] = _Node()
                st.apply_legal(fresh)
                path.append((child, cur))
                break
            k = self.explore
            best_a, best_v = cands[0], -1.0
            for a in cands:
                c = node.children[(cur, a)]
                v = c.total / c.visits + k * math.sqrt(math.log(c.avail) / c.visits)
                if v > best_v:
                    best_a, best_v = a, v
            node = node.children[(cur, best_a)]
            st.apply_legal(best_a)
            path.append((node, cur))
        self._playout(st, rng)
        rewards = self.evaluate(st, anchor)
        if rewards is None:  # no value at the cut for this setup: the goal at the end judges
            playout(st, self.policy, rng, _ALL, self.noise)
            rewards = self.evaluate(st, anchor)
            assert rewards is not None, "a finished game always has a worth"
        for n, seat in path:
            n.visits += 1
            n.total += rewards[seat]
        return rewards[me]

    def _playout(self, st: State[Any, Any], rng: FastRng) -> None:
        """The greedy policy for every seat (with a little noise), up to the horizon."""
        playout(st, self.policy, rng, self.horizon, self.noise)


_ALL = 1 << 62
"""A horizon no game reaches."""


def playout(
    st: State[Any, Any], policy: Policy, rng: FastRng, horizon: int, noise: float = 0.0, max_plies: int | None = None
) -> None:
    """The one playout loop (the search's and the evaluator's, ``evaluate.playout``): the
    policy for every seat, chance keyed by the ply, until the end, `horizon` decisions
    (chance draws are not counted), or `max_plies` plies in all (a safety net).

    `noise` is the chance of a uniformly random decision; without it no number is drawn
    for it, so two lines compared in one world stay paired.
    """
    steps = 0
    limit = st.ply + max_plies if max_plies is not None else math.inf
    cut = int(noise * (1 << 16))
    while steps < horizon and st.ply < limit:
        cur = st.current
        if cur is None:
            return
        if cur == CHANCE:
            st.apply_legal(draw_chance(st, rng))
            continue
        legal = st.legal()
        if len(legal) == 1:
            a = legal[0]
        elif cut and rng.below(1 << 16) < cut:
            a = rng.choice(legal)
        else:
            a = argmax(legal, policy.values(st, legal), rng)
        st.apply_legal(a)
        steps += 1


def draw_chance(st: State[Any, Any], rng: FastRng) -> Action:
    """A chance outcome keyed by the ply, not by how many draws came before: two
    lines of play compared in one world then see the same luck at the same ply."""
    outcomes: list[tuple[Action, int]] = st.chance_weights()
    x = rng.at(st.ply) % sum(w for _, w in outcomes)
    for a, w in outcomes:
        x -= w
        if x < 0:
            return a
    raise AssertionError("weights changed while drawing")  # pragma: no cover


_M64 = (1 << 64) - 1


class FastRng:
    """SplitMix64: a small, fully specified generator for playouts.

    A playout draws thousands of numbers; the SHA-256 stream (:class:`Rng`) is
    made for fairness between peers and costs a hash per few draws. This one is
    seeded from an Rng, so a search stays deterministic and portable.
    """

    __slots__ = ("_s",)

    def __init__(self, rng: Rng) -> None:
        self._s = rng.bits(64)

    def next64(self) -> int:
        self._s = z = (self._s + 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def at(self, k: int) -> int:
        """A 64-bit number for index `k`, independent of the stream's position."""
        z = (self._s + (k + 1) * 0x9E3779B97F4A7C15) & _M64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform in [0, n); the modulo bias (< n / 2**64) does not matter to a search."""
        return self.next64() % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.next64() % len(seq)]


def argmax(legal: Sequence[A], values: Sequence[float], rng: Rng | FastRng, eps: float = 1e-9) -> A:
    """The best-valued action; exact ties (within `eps`) are broken by `rng`."""
    best: list[A] = []
    top = -math.inf
    for a, v in zip(legal, values):
        if v > top + eps:
            top, best = v, [a]
        elif v >= top - eps:
            best.append(a)
    return best[0] if len(best) == 1 else rng.choice(best)
