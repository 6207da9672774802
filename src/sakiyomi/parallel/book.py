"""The store as an opening book: building it, looking positions up, playing from it.

``build_book`` enumerates every position up to ``depth`` plies from a root (transpositions and
mirror images once), solves each undecided position at that depth exactly as one job
(spread over the backend's workers; positions already solved in the store are skipped, so a
killed build resumes), then fills in every shallower position by negamax, each with a best
move.  ``lookup`` finds a position (or its mirror image) and ``BookAgent`` plays the book's
move where it has one and asks another agent elsewhere (``sakiyomi play --book FILE``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from sakiyomi.agents import Agent
from sakiyomi.game import Game, GameError, MirrorSymmetry, capable
from sakiyomi.games import load
from sakiyomi.parallel.backend import Backend
from sakiyomi.parallel.combine import Node, best_edge, refresh
from sakiyomi.parallel.jobs import Job
from sakiyomi.parallel.split import SplitPlan, SplitTree
from sakiyomi.parallel.store import Bounds, JobRecord, Store

M = TypeVar("M", bound=Hashable)


@dataclass(frozen=True, slots=True)
class BookReport:
    """What a build did: positions in the book from this root, jobs run, nodes searched."""

    positions: int
    jobs: int
    nodes: int
    value: int


def build_book(game_name: str, root: str, depth: int, backend: Backend, store: Store,
               engine: str = "auto",
               on_progress: Callable[[int, int], object] | None = None) -> BookReport:
    """Solve every position up to ``depth`` plies below ``root`` into ``store`` (see the
    module doc); ``on_progress(done, total)`` after each job.
    """
    game = load(game_name, root)
    if game.outcome() is not None:
        raise GameError(f"position {root!r} is already finished")
    tree = SplitTree(game_name, root, game, store,
                     SplitPlan(target=1 << 62, max_depth=depth, order_depth=0), engine)
    todo = [n for n in tree.frontier() if n.own_lo < n.own_hi]
    queue = list(todo)
    running: dict[int, Node] = {}
    done = nodes = 0
    ids = 0
    while queue or running:
        while queue and backend.idle():
            node = queue.pop(0)
            ids += 1
            running[ids] = node
            backend.submit(Job(ids, game_name, root, node.path, "solve", 0, engine))
        for result in backend.poll(0.25):
            node = running.pop(result.job_id)
            if result.status == "error":
                raise GameError(f"book position {node.text}: {result.error}")
            if result.status != "done":
                queue.append(node)
                continue
            done += 1
            nodes += result.nodes
            store.record(JobRecord(node.store_key, node.text, "solve", result.value,
                                   result.value, result.value, result.best, result.nodes,
                                   result.seconds, result.worker),
                         Bounds(result.value, result.value, result.best))
            node.learn(result.value, result.value, result.best)
            if on_progress is not None:
                on_progress(done, len(todo))
    refresh(tree.root)
    for node in tree.nodes.values():
        if node.children and node.lo == node.hi:
            edge = best_edge(node, node.lo)
            store.merge(node.store_key, node.text,
                        Bounds(node.lo, node.hi, edge.move if edge else None))
    return BookReport(len(tree.nodes), done, nodes, tree.root.lo)


def lookup(store: Store, game: Game[M]) -> tuple[Bounds, M | None] | None:
    """The stored bounds of ``game``'s position (or of its mirror image) and the stored best
    move as a move of ``game``, if the position is in the store.
    """
    found = store.get(game.key())
    if found is not None:
        return found, game.move_from_text(found.best) if found.best else None
    if capable(game, MirrorSymmetry):
        mirror = cast(MirrorSymmetry[M], game)
        image = cast(Game[M], mirror.mirrored())
        found = store.get(image.key())
        if found is not None:
            move = mirror.mirror_move(image.move_from_text(found.best)) if found.best else None
            return found, move
    return None


@dataclass
class BookAgent(Generic[M]):
    """Plays the book's move in a solved position, otherwise asks ``fallback``."""

    store: Store
    fallback: Agent[M]
    report: Callable[[str], None] | None = None
    name: str = field(init=False)

    def __post_init__(self) -> None:
        self.name = f"{self.fallback.name}+book"

    def choose(self, game: Game[M]) -> M:
        """The stored best move of a solved position, else the fallback's choice."""
        found = lookup(self.store, game)
        if found is not None:
            bounds, move = found
            if bounds.exact and move is not None and move in list(game.legal_moves()):
                if self.report is not None:
                    self.report(f"book: {game.move_to_text(move)} (value {bounds.lower})")
                return move
        return self.fallback.choose(game)


def describe(store: Store, game: Game[Any]) -> str:
    """One line about a position in the book (for ``sakiyomi book probe``)."""
    found = lookup(store, game)
    if found is None:
        return "not in the book"
    bounds, move = found
    best = game.move_to_text(move) if move is not None else "-"
    if bounds.exact:
        return f"value {bounds.lower} best {best}"
    return f"between {bounds.lower} and {bounds.upper} best {best}"
