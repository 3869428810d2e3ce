"""The ``skat`` command: the table by default, and subcommands for scripts.

Subcommands that need no screen (``replay --json``, ``solve``, ``bench``, …)
import only the engine; Textual is imported only when a screen opens.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Sequence

from .commands import DEFAULT_TOURNAMENT_DEALS, DEFAULT_TOURNAMENT_SEED, EXIT_INTERRUPTED, EXIT_TERMINATED


MAX_SEED = 2**32 - 1
MAX_DEALS = 1_000_000


def _whole_number(low: int, high: int):
    """An argparse type: a whole number in ``low..high``, refused with the range."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {low} to {high:,}, not {text!r}")
        return value
    return parse


def _seconds(text: str) -> float:
    """An argparse type: a finite number of seconds (NaN would never stop a search), within the
    engine's budget bounds (read when the option is given: the parser itself imports no engine)."""
    from engine.limits import MAX_SECONDS

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, at most {MAX_SECONDS:g}, not {text!r}")
    return value


_SEED = _whole_number(0, MAX_SEED)


def _simulations(text: str) -> int:
    """An argparse type: a number of worlds within the engine's budget bounds."""
    from engine.limits import MAX_SIMULATIONS

    return _whole_number(1, MAX_SIMULATIONS)(text)


def _build_parser() -> argparse.ArgumentParser:
    from engine.house_rules import add_rules_arguments

    parser = argparse.ArgumentParser(
        prog="skat",
        description="Skat at the terminal: play against computer opponents, replay and analyze recorded games.",
    )
    parser.add_argument("--seed", type=_SEED, default=None, help="seed for reproducible deals")
    parser.add_argument("--opponent-left", metavar="SPEC", help="left opponent, e.g. heuristic, mcu:time=2, pimc:simulations=100")
    parser.add_argument("--opponent-right", metavar="SPEC", help="right opponent (same form)")
    parser.add_argument("--german", action="store_true", help="German rank names (B D K A)")
    parser.add_argument("--new", action="store_true", help="start a new series instead of resuming a saved one")
    # how `skat serve` starts each tab's table (see run_table): not for the command line
    parser.add_argument("--browser-tab", type=_whole_number(1, 1000), default=None, help=argparse.SUPPRESS)
    add_rules_arguments(parser, "A new series is played by the rules in the settings (the International Skat "
                                "Order unless changed there), changed by these options for this start; a resumed "
                                "series keeps its own rules. See docs/house-rules.md.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = sub.add_parser("replay", help="replay recorded games (ISS format)")
    replay.add_argument("file", help="record file, one ISS record per line")
    replay.add_argument("--json", action="store_true", help="print each game's result as a JSON line instead of opening the viewer")

    solve = sub.add_parser(
        "solve", help="solve recorded positions double-dummy (all hands open)",
        description="Solve each record's position at the start of a trick with all hands open: the declarer's "
                    "final card points under best play by all three (the skat included), and the same after each "
                    "card the player to move may play. In a null game a value is 1 (the declarer wins: takes no "
                    "trick) or 0 (loses); with --threshold T every value is 1 (the declarer reaches T) or 0. "
                    "A Ramsch has no declarer: its values are the card points the player to move ends with "
                    "(the skat with the last trick) when both others play to give him as many as they can.")
    solve.add_argument("file", help="record file, one ISS record per line")
    solve.add_argument("--trick", type=_whole_number(1, 10), default=1, help="solve at the start of this trick (1 = before the opening lead)")
    solve.add_argument("--threshold", type=_whole_number(0, 120), default=None,
                       help="answer 'declarer reaches >= T card points?' (1/0), T from 0 to 120")
    solve.add_argument("--json", action="store_true",
                       help="one JSON line per record (cards as ISS codes) instead of the readable table")

    bench = sub.add_parser("bench", help="measure solver, playout and search speed")
    bench.add_argument("--json", action="store_true", help="print the numbers as one JSON object")
    bench.add_argument("--quick", action="store_true", help="fewer positions (a smoke run)")
    analyze = sub.add_parser(
        "analyze", help="what MCU, PIMC or MCTS would do at a position of a recorded game",
        description="What an MCU, PIMC or MCTS player would do at a position of a recorded game, from the view of the "
                    "seat to move: a card (--trick, --card) or any decision (--move: a bid, hold or pass, taking "
                    "the skat or playing hand, the discard, the declaration, a card). Before the card play the "
                    "player's bidder decides: with bidding=search in the spec it values every candidate game "
                    "over sampled worlds; otherwise the heuristic's estimates are shown.")
    analyze.add_argument("file", help="record file, one ISS record per line")
    analyze.add_argument("--id", required=True, help="the record's ID")
    analyze.add_argument("--trick", type=_whole_number(1, 10), default=None, help="trick number 1..10 (default 1)")
    analyze.add_argument("--card", type=_whole_number(1, 3), default=None, help="before this card of the trick, 1..3 (default 1)")
    analyze.add_argument("--move", type=_whole_number(0, 10_000), default=None, metavar="N",
                         help="instead of --trick/--card: the position before the record's move N, counting from 0 "
                              "every move after the deal (each bid, hold and pass, taking the skat or declaring "
                              "hand, the discard, the declaration, each card)")
    analyze.add_argument("--player", default="mcu", metavar="SPEC",
                         help="an MCU, PIMC or MCTS player spec, e.g. pimc, pimc:sampler=inference, "
                              "mcts:simulations=1000,c=0.7 or pimc:simulations=100,bidding=search (default mcu)")
    budget = analyze.add_mutually_exclusive_group()
    budget.add_argument("--simulations", type=_simulations, default=None, help="worlds to sample (default: the spec's, else 100)")
    budget.add_argument("--time", type=_seconds, default=None, help="thinking time in reference seconds")
    analyze.add_argument("--eval", default=None, help="evaluation: mean, wins, step, type1-N, type2-N, type3")
    analyze.add_argument("--seed", type=_SEED, default=1)
    analyze.add_argument("--json", action="store_true", help="print the analysis as one JSON object instead of a table")

    _add_review_parser(sub)

    serve = sub.add_parser("serve", help="the table in a web browser (textual-serve); table options go before 'serve'")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=_whole_number(0, 65535), default=8000,
                       help="port to listen on (default 8000; 0: a free one, printed)")
    serve.add_argument("--tables", type=_whole_number(1, 1000), default=8,
                       help="the most browser tabs with a table at once, each its own series in its own folder "
                            "under the data folder (default 8); a tab beyond them shows why it has none")
    serve.set_defaults(command_parser=serve)  # its usage errors show serve's usage

    sub.add_parser("calibrate", help="measure this machine's speed against the reference and store it")

    tour = sub.add_parser(
        "tournament", help="compare players over the same deals with every seat arrangement",
        description="Compare players over the same deals with every seat arrangement.  Each finished deal is "
                    "journaled in the output folder (journal.jsonl), so a run that was stopped (Ctrl+C, a crash, "
                    "a reboot) continues with --resume DIR and ends with the results of an uninterrupted run.")
    # --players, --deals, --seed default to None so that --resume can tell them given (see _resume_conflicts)
    tour.add_argument("--players", metavar="SPEC,SPEC,SPEC",
                      help="three player specs, e.g. mcu:simulations=100,eval=type2-50,heuristic,heuristic")
    tour.add_argument("--deals", type=_whole_number(1, MAX_DEALS), default=None,
                      help=f"number of deals to generate (default {DEFAULT_TOURNAMENT_DEALS})")
    tour.add_argument("--seed", type=_SEED, default=None,
                      help=f"seed of the deals and the players (default {DEFAULT_TOURNAMENT_SEED})")
    tour.add_argument("--deals-file", metavar="FILE", help="play these deals instead (ISS records or a plain deal list)")
    tour.add_argument("--workers", type=_whole_number(1, 1024), default=None, help="local worker processes (default: one per core)")
    tour.add_argument("--scheduler", metavar="ADDRESS", help="run on a Dask cluster (needs the cluster extra)")
    tour.add_argument("--out", metavar="DIR", help="output folder, new or empty (default tournament-SEED-TIME)")
    tour.add_argument("--resume", metavar="DIR",
                      help="continue the stopped run whose folder is DIR: play the deals its journal lacks, then "
                           "write the results over all deals; the players, deals, seed and rules come from the "
                           "journal, so --players, --deals, --seed, --deals-file, --out, --ramsch-only and the "
                           "house-rule options are refused with it (--workers and --scheduler may differ)")
    tour.add_argument("--csv", metavar="FILE", help="also write the results table as CSV here (a new file)")
    tour.add_argument("--overwrite", action="store_true",
                      help="replace the results of an earlier run in --out (and the --csv file)")
    tour.add_argument("--json", action="store_true", help="print the results as one JSON object")
    tour.add_argument("--ramsch-only", action="store_true",
                      help="play every deal as a Ramsch (the three pass for the players; turns Ramsch on), "
                           "to compare Ramsch card play")
    add_rules_arguments(tour, "The games follow the International Skat Order unless house rules are chosen; "
                              "see docs/house-rules.md.")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    problem = _check_player_specs(args) or (_check_serve_address(args) if args.command == "serve" else None)
    if problem:
        getattr(args, "command_parser", parser).error(problem)  # a usage error, exit 2, before any work
    with _sigterm_like_ctrl_c(args.command is None or args.command == "serve"
                              or (args.command == "replay" and not args.json)) as terminated:
        status = _run(args)
    if status == EXIT_INTERRUPTED:
        if argv is None:
            # the process ends now: a second Ctrl+C must not break into the interpreter's shutdown
            # (joining the worker pool's threads), which would print "Exception ignored … KeyboardInterrupt"
            import signal

            signal.signal(signal.SIGINT, signal.SIG_IGN)
        if terminated.is_set():
            return EXIT_TERMINATED
    return status


def _run(args: argparse.Namespace) -> int:
    try:
        return _dispatch(args)
    except KeyboardInterrupt:
        # Ctrl+C: what was printed stays complete (one line per record); no traceback
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (e.g. `skat replay --json FILE | head`): stop quietly,
        # and keep Python's exit-time flush from raising the same error again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except OSError as exc:
        if exc.filename is None or args.command is None:
            raise
        # a record or deals file that is missing or unreadable: say which, no traceback
        print(f"skat {args.command}: cannot read {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2


def _check_player_specs(args: argparse.Namespace) -> str | None:
    """Every player spec of the command, checked by the engine's registry; the problem, or None."""
    from engine.players.registry import split_specs, validate_spec

    try:
        if args.command is None:
            for option, spec in (("--opponent-left", args.opponent_left), ("--opponent-right", args.opponent_right)):
                if spec is not None:
                    _check_table_opponent(option, validate_spec(spec))
        elif args.command == "analyze":
            if args.move is not None and (args.trick is not None or args.card is not None):
                return "--move names the position on its own: leave out --trick and --card"
            problem = _analyze_budget_twice(args)
            if problem:
                return problem
            from .commands.analyze import analyze_spec

            spec = validate_spec(analyze_spec(args))
            if spec.kind not in ("mcu", "pimc", "mcts"):
                raise ValueError(f"--player: analyze runs an mcu, pimc or mcts player, not {spec.kind!r}")
        elif args.command == "tournament":
            if args.resume is not None:
                return _resume_conflicts(args)
            if args.players is None:
                return "--players is needed: three player specs (or --resume DIR to continue a stopped run)"
            specs = split_specs(args.players)
            if len(specs) != 3:
                return f"--players needs three specs, got {len(specs)}: {', '.join(map(str, specs))}"
            for spec in specs:
                validate_spec(str(spec))
    except ValueError as exc:
        return str(exc)
    return None


def _analyze_budget_twice(args: argparse.Namespace) -> str | None:
    """``--simulations``/``--time``/``--eval`` beside a ``--player`` spec that gives the same: refused."""
    from engine.players.registry import parse_spec

    params = parse_spec(args.player).params
    in_spec = [f"{name}={params[name]}" for name in ("simulations", "time") if name in params]
    for option, given in (("--simulations", args.simulations), ("--time", args.time)):
        if given is not None and in_spec:
            return f"{option}: the spec {args.player!r} already gives the budget ({in_spec[0]}): give it once"
    if args.eval is not None and "eval" in params:
        return f"--eval: the spec {args.player!r} already gives eval={params['eval']}: give it once"
    return None


def _resume_conflicts(args: argparse.Namespace) -> str | None:
    """``--resume`` with an option the journal decides: refused, naming the options."""
    given = [option for option, value in (("--players", args.players), ("--deals", args.deals),
                                          ("--seed", args.seed), ("--deals-file", args.deals_file),
                                          ("--out", args.out)) if value is not None]
    if args.ramsch_only:
        given.append("--ramsch-only")
    given += _rules_flags(args)
    if given:
        return (f"--resume takes the players, deals, seed and rules from the run's journal: leave out "
                f"{' '.join(given)}")
    return None


def _check_table_opponent(option: str, spec) -> None:
    from engine.players.registry import OPPONENT_KINDS

    if spec.kind not in OPPONENT_KINDS:
        raise ValueError(f"{option}: the table seats {', '.join(OPPONENT_KINDS)} opponents, not {spec.kind!r}")


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "replay":
        if args.json:
            from .commands import replay

            return replay.run_json(args.file)
        return _open_replay(args.file)
    if args.command == "solve":
        from .commands import solve

        return solve.run(args.file, args.trick, args.threshold, args.json, args.german)
    if args.command == "analyze":
        from .commands import analyze

        return analyze.run(args)
    if args.command == "review":
        from .commands import review

        return review.run(args)
    if args.command == "calibrate":
        return _calibrate()
    if args.command == "serve":
        return _serve(args)
    if args.command == "tournament":
        from .commands import tournament

        return tournament.run(args)
    if args.command == "bench":
        import engine.tools.search_bench  # noqa: F401  (registers the player rows)
        from engine.tools.bench import run_bench

        return run_bench(json_out=args.json, quick=args.quick)
    return _open_table(args)


def _open_table(args: argparse.Namespace) -> int:
    from engine.house_rules import rules_options
    from skat_tui.app import run_table

    overrides = {}
    if args.opponent_left:
        overrides["left"] = args.opponent_left
    if args.opponent_right:
        overrides["right"] = args.opponent_right
    if args.german:
        overrides["german"] = True
    if args.new:
        overrides["new"] = True
    if args.browser_tab:
        overrides["browser_tab"] = args.browser_tab
    preset, switches = rules_options(args)
    if preset is not None or any(on is not None for on in switches.values()):
        overrides["rules"] = (preset, switches)
    run_table(args.seed, overrides)
    return 0


def _check_serve_address(args: argparse.Namespace) -> str | None:
    """``serve``'s --host and --port, tried before the server starts: an address that does not
    resolve or cannot be listened on is a usage error.  ``--port 0`` becomes the free port
    found, so that the address printed is the real one."""
    import errno
    import socket

    try:
        addresses = socket.getaddrinfo(args.host or None, args.port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        return f"--host {args.host!r} does not resolve to an address: {getattr(exc, 'strerror', None) or exc}"
    port = args.port
    with contextlib.ExitStack() as stack:
        for family, kind, proto, _, address in addresses:
            sock = stack.enter_context(socket.socket(family, kind, proto))
            # as the server binds: a port in TIME_WAIT is free, and an IPv6 socket leaves IPv4 to its own
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind((address[0], port, *address[2:]))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return f"--port {port}: the port is in use on {address[0]}; choose another (--port 0: any free one)"
                return f"cannot listen on {address[0]} port {port}: {exc.strerror or exc}"
            port = sock.getsockname()[1]  # the free port --port 0 found, for every address alike
    args.port = port
    args.listens_beyond_this_machine = not all(_is_loopback(address[0]) for *_, address in addresses)
    return None


def _is_loopback(address: str) -> bool:
    import ipaddress

    return ipaddress.ip_address(address.split("%")[0]).is_loopback


def _serve(args: argparse.Namespace) -> int:
    """Serve the table over HTTP: each browser tab runs ``skat`` with the same table options,
    in a folder of its own (``--browser-tab``).  The address was tried in ``main``
    (``_check_serve_address``); Ctrl+C exits 130, SIGTERM 143."""
    import shlex
    from pathlib import Path

    from .web_server import TableServer

    if args.listens_beyond_this_machine:
        print(f"skat serve: warning: listening on {args.host or 'every address'!s} reaches beyond this machine: "
              "anyone who can reach it can play at this table and read its data (the saved series, the game "
              "records, the settings). Use --host 127.0.0.1 to serve this machine only.", file=sys.stderr)
    command = [sys.executable, "-m", "skat_tui.cli"]
    if args.seed is not None:
        command += ["--seed", str(args.seed)]
    for option, value in (("--opponent-left", args.opponent_left), ("--opponent-right", args.opponent_right)):
        if value:
            command += [option, value]
    command += ["--german"] * args.german + ["--new"] * args.new
    command += _rules_flags(args)
    command += ["--browser-tab", str(args.tables)]
    templates = Path(__file__).resolve().parent / "web"  # the page says it is loading (app_index.html)
    shown = "127.0.0.1" if args.host in ("", "0.0.0.0") else "[::1]" if args.host == "::" else \
        f"[{args.host}]" if ":" in args.host else args.host  # a wildcard is reached at the loopback address
    server = TableServer(shlex.join(command), host=args.host, port=args.port, title="Skat",
                         public_url=f"http://{shown}:{args.port}", templates_path=templates)
    server.serve()
    return server.exit_code


def _rules_flags(args: argparse.Namespace) -> list[str]:
    """The house-rule options given, as flags again (for the table that ``serve`` starts)."""
    from engine.house_rules import SWITCH_FLAGS, rules_options

    preset, switches = rules_options(args)
    flags = [] if preset is None else ["--rules", preset]
    for name, on in switches.items():
        if on is not None:
            flags.append(SWITCH_FLAGS[name] if on else "--no-" + SWITCH_FLAGS[name][2:])
    return flags


def _open_replay(path: str) -> int:
    from skat_tui.app import run_replay

    run_replay(path)
    return 0


def _add_review_parser(sub) -> None:
    review = sub.add_parser("review", help="score every card of recorded games: double-dummy and from each seat's view")
    review.add_argument("file", help="record file, one ISS record per line")
    review.add_argument("--id", default=None, help="review only the record with this ID (default: all)")
    review.add_argument("--player", choices=("pimc", "mcu", "mcts"), default="pimc", help="the own-view search (default pimc)")
    budget = review.add_mutually_exclusive_group()
    budget.add_argument("--simulations", type=_simulations, default=None,
                        help="worlds per decision (default 100)")
    budget.add_argument("--time", type=_seconds, default=None, help="reference seconds per decision")
    review.add_argument("--seed", type=_SEED, default=1, help="seed of the searches (default 1)")
    review.add_argument("--json", action="store_true",
                        help="one JSON line per game, per decision and a summary line per game, instead of tables")
    review.add_argument("--workers", type=_whole_number(1, 1024), default=None,
                        help="cores to use (default: all): threads for one record, processes for several")
    review.add_argument("--scheduler", metavar="ADDRESS", help="review the records on a Dask cluster")
    review.add_argument("--no-cache", action="store_true",
                        help="do not store the reviews beside the record file (FILE.review.jsonl)")


@contextlib.contextmanager
def _sigterm_like_ctrl_c(own_handling: bool):
    """Yield an event set by SIGTERM while the block runs; the signal is handled as Ctrl+C
    (by whatever handles SIGINT then), so that a command stopped by ``kill`` keeps its output
    and journal and ends its workers as after Ctrl+C.  With ``own_handling`` (the table, the
    replay viewer and ``serve``: Textual and textual-serve) SIGTERM is left to them."""
    import signal
    import threading

    noted = threading.Event()
    if own_handling or threading.current_thread() is not threading.main_thread():
        yield noted
        return

    def on_sigterm(signum, frame):
        noted.set()
        handler = signal.getsignal(signal.SIGINT)
        if callable(handler):
            handler(signal.SIGINT, frame)
        raise KeyboardInterrupt  # SIGINT ignored or its handler did not raise: stop all the same

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield noted
    finally:
        signal.signal(signal.SIGTERM, previous)


def _calibrate() -> int:
    from engine.calibration import calibrate
    from engine.limits import calibration_file

    data = calibrate()
    print(f"workload: {data['workload_seconds']:.3f} s here, {data['reference_seconds']:.3f} s on the reference machine")
    print(f"speed factor {data['speed_factor']:.2f}: a budget of 2 reference seconds thinks "
          f"{2 / data['speed_factor']:.2f} s here")
    print(f"stored in {calibration_file()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
