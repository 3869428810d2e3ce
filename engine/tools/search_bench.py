"""Bench rows for the players: playouts, MCU simulations, MCTS iterations, PIMC worlds, budgets,
the search bidder's bidding and discard decisions.

Registered into ``engine.tools.bench.EXTRA_ROWS`` on import (``skat bench`` does it),
so every speed figure comes from one run of one command.
"""

from __future__ import annotations

import os
import random
import threading
import time

from ..evaluation import Evaluation
from ..game import Deal, GameState, Phase
from ..limits import Limit
from ..players.endgame import ENDGAME_TRICKS
from ..policy import playout_core
from ..policy.playout import BENCH_GAMES
from .bench import EXTRA_ROWS, BenchRow, best_of_alternating_rounds

_BENCH_CHUNK = 2000


def _run_playouts(deadline: float, seed: int, counts: list[int], slot: int) -> None:
    done = 0
    while time.perf_counter() < deadline:
        playout_core.random_deal_playouts(BENCH_GAMES, _BENCH_CHUNK, seed + done)
        done += _BENCH_CHUNK
    counts[slot] = done


def _playouts_per_second(seconds: float, threads: int) -> float:
    counts = [0] * threads
    start = time.perf_counter()
    deadline = start + seconds
    workers = [threading.Thread(target=_run_playouts, args=(deadline, 1000003 * (i + 1), counts, i))
               for i in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return sum(counts) / (time.perf_counter() - start)


def bench_playouts(seconds: float = 2.0) -> dict:
    """Full-game heuristic playouts per second from the first trick on random
    suit, grand and null deals, with one thread and with two threads."""
    playout_core.random_deal_playouts(BENCH_GAMES, 10, 0)  # compile or load from cache first
    one = _playouts_per_second(seconds / 2, 1)
    two = _playouts_per_second(seconds / 2, 2)
    return {
        "playouts_per_second_1_thread": round(one),
        "playouts_per_second_2_threads": round(two),
        "thread_scaling": round(two / one, 2) if one else 0.0,
        "cpus": os.cpu_count(),
    }


def bench_games(seconds: float = 2.0, seed: int = 1, spec: str = "heuristic") -> dict:
    """Complete games per second of three ``spec`` players (``heuristic``, the endgame search
    included, or ``heuristic:endgame=0``, the rules alone): bidding to the last trick through
    ``engine.series.play_game`` (games passed in count as games)."""
    from ..players.registry import make_player
    from ..series import play_game

    players = [make_player(spec, seed + i) for i in range(3)]
    rng = random.Random(seed)
    play_game(Deal.shuffled(rng), players)  # warm up (numba cache, lru caches)
    games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_game(Deal.shuffled(rng), players)
        games += 1
    elapsed = time.perf_counter() - start
    return {"games_per_second": round(games / elapsed, 1), "games": games, "seconds": round(elapsed, 2)}


def _heuristic_positions(count: int, seed: int, reached, wanted) -> list[GameState]:
    """Fresh deals (seeds ``seed``, ``seed`` + 1, ...) played by heuristic players until
    ``reached(state)`` holds or the game ends; the first ``count`` states ``wanted`` keeps."""
    from ..players.heuristic import HeuristicPlayer
    from ..series import play_game

    positions = []
    index = 0
    while len(positions) < count:
        state = play_game(Deal.shuffled(seed + index), [HeuristicPlayer(i) for i in range(3)], until=reached)
        index += 1
        if wanted(state):
            positions.append(state)
    return positions


def _first_trick_positions(count: int, seed: int = 99) -> list[GameState]:
    """Games bid by heuristic players, at the opening lead (suit, grand and null as they come)."""
    in_play = lambda state: state.phase == Phase.PLAY  # noqa: E731
    return _heuristic_positions(count, seed, in_play, in_play)


def _random_deal_positions(count: int, seed: int = 7) -> list[GameState]:
    """The prototype's PIMC workload (see the solver notes): random deals, the forehand
    declares a suit game with a random trump suit, keeps his ten cards and leads."""
    import random

    from ..game import Bid, Declare, Discard, Pass, PickUp
    from ..rules import GameType
    from ..scoring import Declaration

    rng = random.Random(seed)
    positions = []
    for _ in range(count):
        deal = Deal.shuffled(rng)
        state = GameState.new(deal)
        for move in (Pass(), Pass(), Bid(18), PickUp(), Discard(deal.skat),
                     Declare(Declaration(GameType(rng.randrange(4))))):
            state.push(move)
        positions.append(state)
    return positions


def _rate(make_player, positions, limit: Limit) -> tuple[float, float]:
    """Worlds per second and the mean decision time over the positions.

    One player makes all the decisions, as in a game: its solver tables are
    allocated once (the first decision is not timed, so it pays for them).
    """
    worlds = 0
    elapsed = 0.0
    player = make_player()
    player.choose(positions[0].view(positions[0].to_move), limit)
    for state in positions:
        start = time.perf_counter()
        decision = player.choose(state.view(state.to_move), limit)
        elapsed += time.perf_counter() - start
        worlds += decision.analysis.simulations
    return worlds / elapsed, elapsed / len(positions)


def _best_rates(make_player, positions, limit: Limit, rounds: int) -> dict[int, float]:
    """Worlds per second with 1 and 2 threads (best of alternating rounds)."""
    return best_of_alternating_rounds(lambda threads: _rate(lambda: make_player(threads), positions, limit)[0], rounds)


def player_rows(quick: bool) -> list[BenchRow]:
    from ..players.mcts import MCTSPlayer
    from ..players.mcu import MCUPlayer
    from ..players.pimc import PIMCPlayer

    rows: list[BenchRow] = []
    seconds = 0.5 if quick else 2.0
    playouts = bench_playouts(seconds)
    rows.append(BenchRow("players", "heuristic playouts/s", value=playouts["playouts_per_second_1_thread"], unit="/s",
                         goal=">= 50,000", note="full games from the first trick, 1 thread"))
    rows.append(BenchRow("players", "heuristic playouts/s, 2 threads", value=playouts["playouts_per_second_2_threads"], unit="/s",
                         note=f"x{playouts['thread_scaling']:.2f} of one thread"))
    games = bench_games(seconds, spec="heuristic:endgame=0")
    rows.append(BenchRow("players", "heuristic games/s, rules alone", value=games["games_per_second"], unit="/s",
                         goal=">= 200", note="bidding to last trick, Python bidding, endgame=0"))
    games = bench_games(seconds)
    rows.append(BenchRow("players", "heuristic games/s", value=games["games_per_second"], unit="/s",
                         goal=">= 20", note=f"the heuristic spec: its last {ENDGAME_TRICKS} tricks searched"))

    positions = _first_trick_positions(2 if quick else 6)
    sims = 100 if quick else 400
    rounds = 1 if quick else 3  # best of 3: one round is under a second of work
    mcu = _best_rates(lambda threads: MCUPlayer(Limit(simulations=sims), threads=threads, seed=1), positions,
                      Limit(simulations=sims), rounds)
    for threads in (1, 2):
        rows.append(BenchRow("players", "MCU simulations/s" if threads == 2 else "MCU simulations/s, 1 thread",
                             value=mcu[threads], unit="/s", goal=">= 5,000 on 2 threads" if threads == 2 else "",
                             note=f"{threads} thread(s), first trick, {sims} worlds a move, best of {rounds}"))
    iterations = 2_000 if quick else 20_000
    mcts = _best_rates(lambda threads: MCTSPlayer(Limit(simulations=iterations), threads=threads, seed=1), positions,
                       Limit(simulations=iterations), rounds)
    for threads in (1, 2):
        rows.append(BenchRow("players", "MCTS iterations/s" if threads == 2 else "MCTS iterations/s, 1 thread",
                             value=mcts[threads], unit="/s",
                             note=f"{threads} thread(s) (a tree each), first trick, {iterations:,} a move, heuristic "
                                  f"play-outs, best of {rounds}"))
    pimc_worlds = 20 if quick else 60
    for evaluation, label, goal in ((Evaluation("wins"), "win/loss per card", ">= 3,000 on 2 threads"),
                                    (Evaluation("mean"), "exact points per card", ">= 200 on 2 threads")):
        pimc = _best_rates(
            lambda threads: PIMCPlayer(Limit(simulations=pimc_worlds), evaluation=evaluation, threads=threads, seed=1),
            positions, Limit(simulations=pimc_worlds), rounds)
        for threads in (1, 2):
            name = "PIMC worlds/s" if (threads == 2 and evaluation.kind == "wins") else f"PIMC worlds/s, {label}"
            rows.append(BenchRow("players", name if threads == 2 else f"{name}, 1 thread", value=pimc[threads],
                                 unit="/s", goal=goal if threads == 2 else "",
                                 note=f"{label}, {threads} thread(s), best of {rounds}"))
    # The same rates on the workload the prototype's 990 / 35 worlds/s were measured on.
    random_deals = _random_deal_positions(3 if quick else 8)
    for evaluation, label in ((Evaluation("wins"), "win/loss per card"), (Evaluation("mean"), "exact points per card")):
        pimc = _best_rates(
            lambda threads: PIMCPlayer(Limit(simulations=pimc_worlds), evaluation=evaluation, threads=threads, seed=1),
            random_deals, Limit(simulations=pimc_worlds), rounds)
        for threads in (1, 2):
            rows.append(BenchRow("players", f"PIMC worlds/s, {label}, random deals, {threads} thread(s)",
                                 value=pimc[threads], unit="/s",
                                 note=f"declarer on lead (prototype: {'513 / 990' if evaluation.kind == 'wins' else '18 / 35'}"
                                      f" on 1 / 2 threads), best of {rounds}"))
    rows += budget_rows(positions, quick)
    return rows


def budget_rows(positions, quick: bool) -> list[BenchRow]:
    """How far a timed move overshoots its budget, and how fast a stop is obeyed."""
    from ..limits import wall_seconds
    from ..players.mcts import MCTSPlayer
    from ..players.mcu import MCUPlayer
    from ..players.pimc import PIMCPlayer

    rows = []
    budget = 0.3 if quick else 1.0
    for name, make in (("MCU", MCUPlayer), ("PIMC", PIMCPlayer), ("MCTS", MCTSPlayer)):
        overruns = []
        stops = {1: [], 2: []}
        interrupts = {1: [], 2: []}
        for state in positions[:3]:
            view = state.view(state.to_move)
            start = time.perf_counter()
            make(Limit(time=budget), threads=2, seed=1).choose(view)
            overruns.append(time.perf_counter() - start - wall_seconds(budget))
            for threads in (1, 2):
                stop = threading.Event()
                timer = threading.Timer(0.2, stop.set)
                timer.start()
                start = time.perf_counter()
                make(Limit(time=60), threads=threads, seed=1).choose(view, stop=stop)
                stops[threads].append(time.perf_counter() - start - 0.2)
                interrupts[threads].append(_interrupt_latency(make(Limit(time=60), threads=threads, seed=1), view))
        allowed = 0.05 * wall_seconds(budget) + 0.02
        rows.append(BenchRow("budgets", f"{name} overrun of a {budget:g} s move", value=max(overruns) * 1000,
                             unit="ms", goal=f"<= {allowed * 1000:.0f} ms", note="worst of 3 positions"))
        for threads in (2, 1):
            label = "" if threads == 2 else ", 1 thread"  # the 2-thread rows keep their names
            rows.append(BenchRow("budgets", f"{name} stop latency{label}", value=max(stops[threads]) * 1000,
                                 unit="ms", goal="<= 50 ms", note=f"{threads} thread(s), worst of 3 positions"))
            if interrupts[threads][0] is not None:
                rows.append(BenchRow("budgets", f"{name} Ctrl+C latency{label}", value=max(interrupts[threads]) * 1000,
                                     unit="ms", goal="<= 50 ms",
                                     note=f"SIGINT to the process, {threads} thread(s), worst of 3 positions"))
    return rows


def _interrupt_latency(player, view) -> float | None:
    """Seconds from a SIGINT to the KeyboardInterrupt out of a long search (None off the main thread,
    where no signal handler runs)."""
    import os
    import signal

    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return None
    sent = []
    timer = threading.Timer(0.2, lambda: (sent.append(time.perf_counter()), os.kill(os.getpid(), signal.SIGINT)))
    timer.start()
    try:
        player.choose(view)
    except KeyboardInterrupt:
        return time.perf_counter() - sent[0]
    finally:
        timer.cancel()
    raise RuntimeError("the search ended before the SIGINT")


def review_rows(quick: bool) -> list[BenchRow]:
    """``skat review`` of whole games: bid by heuristic players and played out by them,
    every card reviewed double-dummy and by PIMC at 100 worlds a decision on 2 threads."""
    from ..limits import Limit
    from ..players.heuristic import HeuristicPlayer
    from ..record import GameRecord
    from ..review import review_record
    from ..series import finish_game

    seconds = []
    cpu = []
    for index, state in enumerate(_first_trick_positions(1 if quick else 4, seed=7)):
        finish_game(state, [HeuristicPlayer(seat) for seat in range(3)])
        record = GameRecord.from_state(state, f"bench-{index}")
        start, start_cpu = time.perf_counter(), time.process_time()
        review = review_record(record, "pimc", Limit(simulations=100), seed=1, threads=2)
        seconds.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)  # what a busy machine cannot inflate
        cards = len(review.decisions)
    mean = sum(seconds) / len(seconds)
    return [BenchRow("players", "review of a game, PIMC 100 worlds a card, 2 threads", value=max(seconds), unit="s",
                     goal="<= 15 s", note=f"worst of {len(seconds)} heuristic games (mean {mean:.1f} s; CPU worst "
                                          f"{max(cpu):.1f} s, both threads), {cards} cards in the last")]


INFERENCE_POSITIONS = 30
"""First-trick positions of the inference rows: the added time varies a lot from position to
position (one defender's inference worlds may take the solver twice as long, another's
less than the informed ones), so a handful of positions says little about the mean."""


def inference_rows(quick: bool) -> list[BenchRow]:
    """What ``sampler=inference`` adds to a decision: PIMC and MCU at 100 worlds at the
    first trick, the same positions and seeds with the informed sampler, position by
    position in turn, on one thread; CPU seconds (a busy machine inflates wall time, not
    these), summed over the positions."""
    from ..worlds.inference import InferenceSampler, pool_size
    from ..players.mcu import MCUPlayer
    from ..players.pimc import PIMCPlayer

    positions = _first_trick_positions(8 if quick else INFERENCE_POSITIONS)
    limit = Limit(simulations=100)
    rows = []
    for name, make in (("PIMC", PIMCPlayer), ("MCU", MCUPlayer)):
        players = {inference: make(limit, seed=1, inference=inference) for inference in (False, True)}
        for player in players.values():
            player.choose(positions[0].view(positions[0].to_move), limit)  # tables allocated, core loaded
        spent = {False: 0.0, True: 0.0}
        for state in positions:
            for inference, player in players.items():
                start = time.process_time()
                player.choose(state.view(state.to_move), limit)
                spent[inference] += time.process_time() - start
        informed, inferred = spent[False] / len(positions), spent[True] / len(positions)
        added = 100 * (inferred / informed - 1)
        rows.append(BenchRow("players", f"{name} 100 worlds, sampler=inference vs informed", value=added, unit="%",
                             goal="<= 50 %" if name == "PIMC" else "",
                             note=f"first trick, {len(positions)} positions, 1 thread, CPU s a decision "
                                  f"{informed:.3f} / {inferred:.3f}"))
    # the sampler's own part: drawing and weighing the pool (the rest is the search in other worlds)
    start = time.process_time()
    for state in positions:
        InferenceSampler(state.view(state.to_move), pool_size(100), 1)
    rows.append(BenchRow("players", "sampler=inference: pool drawn and weighed", value=1000 * (time.process_time() - start)
                         / len(positions), unit="ms", note=f"{pool_size(100)} candidate worlds (100-world search), "
                                                          f"first trick, CPU ms a decision"))
    return rows


def _contract_positions(count: int, phase: Phase, seed: int = 11) -> list[GameState]:
    """Fresh deals at the first bid of a hand the heuristic's estimate bids (the search bidder
    values only those: it never bids above that limit), or games bid by heuristic players
    at the discard."""
    from ..policy import hand_eval

    if phase == Phase.BIDDING:
        return _heuristic_positions(
            count, seed, lambda state: True,
            lambda state: hand_eval.bid_limit(state.hands[state.to_move], state.to_move) >= 18)
    return _heuristic_positions(count, seed, lambda state: state.phase in (phase, Phase.PLAY),
                                lambda state: state.phase == phase)


def _contract_decisions_per_second(spec: str, positions: list[GameState], threads: int) -> float:
    """Decisions per second over ``positions``; with 2 threads two players decide side by side
    (one decision of the search bidder runs on one thread), each on half of the positions."""
    from ..players.registry import make_player, parse_spec

    limit = Limit(simulations=100)

    def decide(chunk: list[GameState], seed: int) -> None:
        player = make_player(parse_spec(spec), seed)
        for state in chunk:
            player.new_game(state.to_move)  # a new hand: nothing cached from the one before
            player.choose(state.view(state.to_move), limit)

    decide(positions[:1], 0)  # the core loaded, the first tables allocated
    chunks = [positions[i::threads] for i in range(threads)]
    workers = [threading.Thread(target=decide, args=(chunk, i + 1)) for i, chunk in enumerate(chunks)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return len(positions) / (time.perf_counter() - start)


def contract_rows(quick: bool) -> list[BenchRow]:
    """Bidding and discard decisions of the search bidder (``bidding=search``) at 100 worlds,
    per second on 1 and 2 threads (best of alternating rounds).  Quick: PIMC only."""
    rows = []
    count = 2 if quick else 4
    rounds = 1 if quick else 2
    kinds = ("pimc",) if quick else ("mcu", "pimc")
    for phase, what in ((Phase.BIDDING, "bidding"), (Phase.DISCARD, "discard")):
        positions = _contract_positions(count, phase)
        for kind in kinds:
            spec = f"{kind}:simulations=100,bidding=search"
            best = best_of_alternating_rounds(
                lambda threads: _contract_decisions_per_second(spec, positions, threads), rounds)
            for threads in (1, 2):
                note = ("first bid of a fresh hand the heuristic bids" if phase == Phase.BIDDING
                        else "twelve cards after the skat")
                note += f", {count} positions, best of {rounds}"
                if threads == 2:
                    note += "; two decisions side by side"
                rows.append(BenchRow("players", f"{kind.upper()} bidding=search {what} decisions/s, 100 worlds, "
                                                f"{threads} thread{'s' * (threads > 1)}",
                                     value=best[threads], unit="/s", note=note))
    return rows


if player_rows not in EXTRA_ROWS:
    EXTRA_ROWS.append(player_rows)
if review_rows not in EXTRA_ROWS:
    EXTRA_ROWS.append(review_rows)
if inference_rows not in EXTRA_ROWS:
    EXTRA_ROWS.append(inference_rows)
if contract_rows not in EXTRA_ROWS:
    EXTRA_ROWS.append(contract_rows)
