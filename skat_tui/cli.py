"""The ``skat`` command: the table by default, and subcommands for scripts.

Subcommands that need no screen (``replay --json``, ``solve``, ``bench``, …)
import only the engine; Textual is imported only when a screen opens.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Sequence


MAX_SEED = 2**32 - 1
MAX_DEALS = 1_000_000
EXIT_INTERRUPTED = 130  # the shell's code for a stop by SIGINT
EXIT_TERMINATED = 143  # and by SIGTERM
DEFAULT_TOURNAMENT_DEALS = 100
DEFAULT_TOURNAMENT_SEED = 1


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
        "analyze", help="what MCU or PIMC would do at a position of a recorded game",
        description="What an MCU or PIMC player would do at a position of a recorded game, from the view of the "
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
                         help="an MCU or PIMC player spec, e.g. pimc, pimc:sampler=inference or "
                              "pimc:simulations=100,bidding=search (default mcu)")
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
            spec = validate_spec(_analyze_spec(args))
            if spec.kind not in ("mcu", "pimc"):
                raise ValueError(f"--player: analyze runs an mcu or pimc player, not {spec.kind!r}")
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
        return _replay_json(args.file) if args.json else _open_replay(args.file)
    if args.command == "solve":
        return _solve(args.file, args.trick, args.threshold, args.json, args.german)
    if args.command == "analyze":
        return _analyze(args)
    if args.command == "review":
        return _review(args)
    if args.command == "calibrate":
        return _calibrate()
    if args.command == "serve":
        return _serve(args)
    if args.command == "tournament":
        return _tournament(args)
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


def _replay_json(path: str) -> int:
    from engine.record import RecordError, iter_records, summary

    failed = 0
    out = sys.stdout
    try:
        handle = open(path, "rb")  # decoded line by line: a bad byte or an endless line fails only its line
    except OSError as exc:
        print(f"skat replay: cannot open {path}: {exc.strerror}", file=sys.stderr)
        return 2
    with handle:
        for item in iter_records(handle):
            if isinstance(item, RecordError):
                failed += 1
                print(f"{path}: {item}", file=sys.stderr)
                continue
            try:
                line = summary(item)
            except ValueError as exc:  # an engine error while replaying
                failed += 1
                print(f"{path}: {RecordError(str(exc), item.line, record_id=item.id)}", file=sys.stderr)
                continue
            if "result_mismatch" in line:
                print(f"{path}: warning: {RecordError(line['result_mismatch'], item.line, record_id=item.id)}",
                      file=sys.stderr)
            out.write(json.dumps(line) + "\n")
    return 1 if failed else 0


def _analyze(args: argparse.Namespace) -> int:
    from engine.game import Phase
    from engine.limits import Limit
    from engine.players.registry import make_player
    from engine.positions import state_before_card
    from engine.record import read_records

    records, errors = read_records(args.file)
    matching = [r for r in records if r.id == args.id]
    if not matching:
        for err in errors:
            print(f"{args.file}: {err}", file=sys.stderr)
        print(f"skat analyze: no record with ID {args.id} in {args.file}", file=sys.stderr)
        return 2
    record = matching[0]
    try:
        if args.move is not None:
            state = _state_before_move(record, args.move)
        else:
            state = state_before_card(record, args.trick or 1, args.card or 1)
    except ValueError as exc:
        print(f"skat analyze: {exc}{'' if args.move is not None else _how_it_ended(record)}", file=sys.stderr)
        return 2
    player = make_player(_analyze_spec(args), args.seed)  # checked in main
    # --time / --simulations, else the spec's own budget (100 worlds when it names none)
    limit = Limit(time=args.time) if args.time is not None else (
        Limit(simulations=args.simulations) if args.simulations is not None else player.limit)
    seat = state.to_move
    try:
        decision = player.choose(state.view(seat), limit)
    except Exception as exc:  # noqa: BLE001 - a player that cannot search a house-rule position
        if not state.ramsch:
            raise
        print(f"skat analyze: the {args.player} player cannot analyze this Ramsch position of record {record.id} "
              f"({type(exc).__name__}: {exc}); skat solve and skat review value a Ramsch's cards double-dummy",
              file=sys.stderr)
        return 2
    if decision.analysis is None:  # decided by a rule, not a search (a Ramsch's skat round)
        move = state.iss(decision.move)
        if args.json:
            print(json.dumps({"id": args.id, "move": args.move, "seat": seat, "player": args.player,
                              "decision": move, "analysis": None}))
        else:
            print(f"Record {record.id} · move {args.move}: {state.phase.value.replace('_', ' ')} · "
                  f"{args.player} decides {move} by its rule, without a search to show")
        return 0
    if state.phase != Phase.PLAY:
        return _print_contract_analysis(args, record, state, decision)
    trick, card = len(state.tricks) + 1, len(state.trick) + 1
    if not args.json:
        from rich.console import Console

        from .analysis_table import analysis_report

        report = analysis_report(record, state, decision.analysis, trick, card, args.german,
                                 str(player.evaluation_for(state.view(seat))))
        Console(highlight=False).print(report)
        return 0
    out = decision.analysis.to_json() if decision.analysis is not None else {}
    out.pop("elapsed")
    out.update({"id": args.id, "trick": trick, "card": card, "seat": seat})
    if args.move is not None:
        out["move"] = args.move
    out.update(_beliefs_of_every_sampler(state.view(seat), decision.analysis.simulations, args.seed))
    print(json.dumps(out))
    return 0


def _state_before_move(record, number: int):
    """The full state before the record's move ``number`` (0: the first move after the deal)."""
    moves = len(record.moves)
    if not 0 <= number < moves:
        raise ValueError(f"record {record.id} has {moves} moves after the deal: --move takes 0 to {moves - 1}")
    state = record.state_at(number)
    if state.is_over or state.to_move is None:
        raise ValueError(f"nobody is to move before move {number} ({record.moves[number][1]}): the game is over")
    return state


def _print_contract_analysis(args: argparse.Namespace, record, state, decision) -> int:
    """A bidding, skat, discard or declaration decision: its candidates as JSON or a table."""
    from engine.players.contract_analysis import ContractAnalysis, declaration_json
    from engine.rules import SEAT_NAMES

    analysis = decision.analysis
    seat = state.to_move
    if not isinstance(analysis, ContractAnalysis):  # a decision this player explains no further
        print(json.dumps({"id": args.id, "move": args.move, "seat": seat, "phase": state.phase.value,
                          "decision": str(decision.move)}) if args.json
              else f"{SEAT_NAMES[seat]}: {decision.move} ({state.phase.value}; no analysis of it)")
        return 0
    if args.json:
        out = {"id": args.id, "move": args.move, "seat": seat, "player": analysis.player,
               "limit": {"time": analysis.limit.time, "simulations": analysis.limit.simulations}
               if analysis.limit else None,
               "decision": str(decision.move), **analysis.to_json()}
        if decision.plan is not None:  # the game a discard is meant for
            out["plan"] = declaration_json(decision.plan)
        print(json.dumps(out))
        return 0
    from rich.console import Console

    from .analysis_table import contract_report

    Console(highlight=False).print(contract_report(record, state, analysis, args.move, args.german))
    return 0


def _analyze_spec(args: argparse.Namespace) -> str:
    """--player with --eval added (a spec without parameters takes them after a colon)."""
    if not args.eval:
        return args.player
    return args.player + ("," if ":" in args.player else ":") + f"eval={args.eval}"


def _beliefs_of_every_sampler(view, worlds: int, seed: int) -> dict:
    """Where the mover believes each card it cannot see is, per sampler, and the worlds
    each sampler's belief rests on: every drawn world for the uniform samplers; for
    inference the effective sample size of the pool a search of ``worlds`` worlds draws,
    and the chance that each other seat plays like a searching program."""
    from engine.worlds.inference import SAMPLERS, beliefs, pool_size

    found = {sampler: beliefs(view, sampler, seed=seed, pool=pool_size(worlds or None)) for sampler in SAMPLERS}
    return {
        "beliefs": {sampler: b.as_dict() for sampler, b in found.items()},
        "effective_sample_size": {sampler: round(b.effective_sample_size, 1) if sampler == "inference" else worlds
                             for sampler, b in found.items()},
        # how the inference sampler reads each other seat's card play (seats as in the record)
        "searcher_chance": {str(seat): round(p, 4) for seat, p in sorted(found["inference"].searcher_chances.items())},
    }


def _add_review_parser(sub) -> None:
    review = sub.add_parser("review", help="score every card of recorded games: double-dummy and from each seat's view")
    review.add_argument("file", help="record file, one ISS record per line")
    review.add_argument("--id", default=None, help="review only the record with this ID (default: all)")
    review.add_argument("--player", choices=("pimc", "mcu"), default="pimc", help="the own-view search (default pimc)")
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


@contextlib.contextmanager
def _ctrl_c_noted():
    """Yield an event set by Ctrl+C (SIGINT) while the block runs.  The signal still raises
    KeyboardInterrupt; the event also keeps it when Python swallows that exception (raised
    inside a finalizer it is only printed as "Exception ignored"), so the caller can stop at
    its next step and exit 130 all the same.  A SIGINT the shell ignores stays ignored."""
    import signal
    import threading

    noted = threading.Event()
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield noted
        return

    def on_sigint(signum, frame):
        noted.set()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_sigint)
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _review(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from engine.limits import Limit
    from engine.record import read_records
    from engine.review import describe_game, review_records, store_cached
    from engine.tournament import default_workers

    err = Console(stderr=True)
    records, errors = read_records(args.file)
    for problem in errors:
        err.print(f"{args.file}: {problem}", highlight=False)
    if args.id is not None:
        records = [r for r in records if r.id == args.id]
        if not records:
            err.print(f"skat review: no record with ID {args.id} in {args.file}", highlight=False)
            return 2
    playable = []
    for record in records:
        try:
            describe_game(record)
        except ValueError as exc:  # the moves do not replay: said once, the others are reviewed
            err.print(f"{args.file}: line {record.line}, record {record.id}: {exc}", highlight=False)
            errors.append(exc)
            continue
        playable.append(record)
    limit = Limit(time=args.time) if args.time is not None else Limit(
        simulations=args.simulations if args.simulations is not None else 100)
    workers = args.workers if args.workers is not None else default_workers()
    out = Console(highlight=False, soft_wrap=args.json)
    index_of = {id(record): i for i, record in enumerate(playable)}
    finished: dict[int, object] = {}  # index → review, or None for a failed one
    shown = [0]  # reviews are printed in the file's order, each as soon as those before it are done
    reviews: list = []

    def emit() -> None:
        while shown[0] in finished:
            review = finished.pop(shown[0])
            shown[0] += 1
            if review is None:
                continue
            reviews.append(review)
            if args.json:
                for line in review.json_lines():
                    print(line)
                sys.stdout.flush()
            else:
                from .review_table import review_report

                out.print(review_report(review, args.german))

    def show(index: int, review) -> None:
        finished[index] = review
        emit()

    def failed(record, exc: Exception) -> None:
        errors.append(exc)
        err.print(f"{args.file}: line {record.line}, record {record.id}: the review failed: {exc}", highlight=False)
        finished[index_of[id(record)]] = None
        emit()

    interrupted = False
    # stdout is not redirected through the bar: the reviews go to stdout, the bar to stderr
    with (Progress(TextColumn("[bold]reviewing"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=err, transient=True, redirect_stdout=False, redirect_stderr=False) as progress,
          _ctrl_c_noted() as ctrl_c):
        task = progress.add_task("records", total=len(playable))

        def on_progress(done: float, total: int) -> None:
            if ctrl_c.is_set():
                raise KeyboardInterrupt  # a Ctrl+C whose exception was swallowed on its way here
            progress.update(task, completed=done)

        try:
            review_records(playable, args.player, limit, args.seed, workers, args.scheduler,
                           on_progress=on_progress, on_review=show, on_error=failed)
        except KeyboardInterrupt:
            interrupted = True  # the reviews printed so far stay complete, and are kept
        except (RuntimeError, ImportError, OSError) as exc:
            err.print(f"skat review: {exc}", highlight=False)
            return 2
        interrupted = interrupted or ctrl_c.is_set()
    if not args.no_cache and reviews:
        try:
            store_cached(args.file, reviews)
        except OSError as exc:
            err.print(f"skat review: could not store the reviews beside {args.file}: {exc.strerror}",
                      highlight=False)
    if interrupted:
        return EXIT_INTERRUPTED
    return 1 if errors else 0


def _how_it_ended(record) -> str:
    """Why a record has no such position: ': record 5 was passed in (all three passed), no card was played'."""
    from engine.game import Phase
    from engine.rules import SEAT_NAMES

    try:
        final = record.replay()
    except ValueError:
        return ""
    name = f"record {record.id}"
    if final.is_ramsch:
        played = len(final.tricks) * 3 + len(final.trick)
        return f": {name} (Ramsch) ended after {played} card{'s' * (played != 1)} ({str(final.end or 'not finished').replace('_', ' ')})"
    if final.phase == Phase.PASSED:
        return f": {name} was passed in (all three passed), no card was played"
    if final.declaration is None:
        who = "" if final.left_seat is None else f" {SEAT_NAMES[final.left_seat]}"
        how = "ran out of time" if final.end == "timeout" else "left the table"
        return f": {name} ended before a game was declared ({who.strip() or 'a player'} {how})"
    played = len(final.tricks) * 3 + len(final.trick)
    return (f": {name} ({final.declaration.describe()}) ended after {played} card{'s' * (played != 1)}"
            f" ({final.end.replace('_', ' ')})")


def _calibrate() -> int:
    from engine.calibration import calibrate
    from engine.limits import calibration_file

    data = calibrate()
    print(f"workload: {data['workload_seconds']:.3f} s here, {data['reference_seconds']:.3f} s on the reference machine")
    print(f"speed factor {data['speed_factor']:.2f}: a budget of 2 reference seconds thinks "
          f"{2 / data['speed_factor']:.2f} s here")
    print(f"stored in {calibration_file()}")
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    from rich import box
    from rich.table import Table

    from engine import tournament as t
    from engine.house_rules import rules_from_arguments

    err = Console(stderr=True)
    journal = None
    try:
        if args.resume is not None:
            journal = t.read_journal(args.resume)
            for warning in journal.warnings:
                err.print(f"skat tournament: {warning}", markup=False, highlight=False)
            specs, deals, seed, out_dir = journal.specs, journal.deals, journal.seed, args.resume
        else:
            specs = [str(s) for s in t.split_specs(args.players)]
            if len(specs) != 3:
                raise ValueError(f"--players needs three specs, got {len(specs)}: {', '.join(specs)}")
            rules = rules_from_arguments(args)
            seed = args.seed if args.seed is not None else DEFAULT_TOURNAMENT_SEED
            deals = (t.read_deals(args.deals_file) if args.deals_file
                     else t.generate_deals(args.deals if args.deals is not None else DEFAULT_TOURNAMENT_DEALS, seed))
            out_dir = args.out if args.out is not None else f"tournament-{seed}-{time.strftime('%Y%m%d-%H%M%S')}"
        # before the first game, not after the last
        t.prepare_outputs(out_dir, args.csv, args.overwrite, resume=journal is not None)
    except (ValueError, OSError) as exc:
        err.print(f"skat tournament: {exc}", markup=False, highlight=False)
        return 2
    workers = args.workers if args.workers is not None else t.default_workers()
    started = time.perf_counter()
    done_before = len(journal.outcomes) if journal is not None else 0
    with Progress(
        TextColumn("[bold]games"), BarColumn(), MofNCompleteColumn(),
        TextColumn("{task.fields[rate]} games/s"), TimeRemainingColumn(), console=err, transient=False,
    ) as progress:
        task = progress.add_task("games", total=len(deals) * len(t.arrangements(specs)), completed=done_before,
                                 rate="-")

        def advance(done: int, total: int) -> None:
            rate = (done - done_before) / max(1e-9, time.perf_counter() - started)
            progress.update(task, completed=done, rate=f"{rate:.1f}")

        try:
            if journal is not None:
                run = t.resume_tournament(journal, workers, args.scheduler, advance)
            else:
                run = t.run_tournament(specs, deals, seed, workers, args.scheduler, advance, t.command_line(),
                                       rules, args.ramsch_only, journal_dir=out_dir)
        except (ValueError, RuntimeError, ImportError) as exc:
            err.print(f"skat tournament: {exc}", markup=False, highlight=False)
            return 2
        except OSError as exc:  # the journal could not be started
            err.print(f"skat tournament: cannot write into {out_dir}: {exc.strerror or exc}", markup=False,
                      highlight=False)
            return 2
    if run.journal_error:
        err.print(f"skat tournament: {run.journal_error}; stopped", markup=False, highlight=False)
    try:
        results = t.write_outputs(run, out_dir)
        if args.csv:
            t.write_csv(results, args.csv)
    except OSError as exc:
        # the folder went away or the disk is full: the results still reach the terminal
        err.print(f"skat tournament: the results could not be written ({exc}); here they are as JSON",
                  markup=False, highlight=False)
        print(json.dumps(run.results()))
        return EXIT_INTERRUPTED if run.interrupted else 1
    if run.interrupted:
        err.print(f"stopped: kept {len(run.outcomes)} games; continue with skat tournament --resume {out_dir}",
                  markup=False, highlight=False, soft_wrap=True)  # the command unbroken, to copy
    status = EXIT_INTERRUPTED if run.interrupted else 0
    if args.json:
        print(json.dumps(results))
        return status
    table = Table(title=f"{len(run.outcomes)} games, {results['run']['deals_played']} deals, seed {seed}",
                  caption="decl. won / lost: the player's own games as declarer; card points: taken in all games; "
                          "score: plain; SF: Seeger-Fabian", box=box.SIMPLE_HEAD)
    for column in ("player", "games", "decl.\nwon", "decl.\nlost", "card\npoints", "score", "SF",
                   "SF/game\n±95%"):
        if column == "player":
            table.add_column(column, overflow="fold")
        else:
            table.add_column(column, justify="right", no_wrap=True)
    for row in results["players"]:
        table.add_row(
            f"{row['spec']} ×{row['instances']}", str(row["games"]), str(row["declarer_won"]),
            str(row["declarer_lost"]), str(row["card_points"]), str(row["score"]), str(row["seeger_fabian"]),
            f"{row['seeger_fabian_per_game']:.1f} ± {row['ci95']:.1f}",
        )
    console = Console()
    console.print(table)
    if any(row["ramsch_games"] for row in results["players"]):
        ramsch = Table(title="Ramsch", caption="lost/game: list points lost per Ramsch game (a Durchmarsch counts "
                                               "as a gain)", box=box.SIMPLE_HEAD)
        ramsch.add_column("player", overflow="fold")
        for column in ("Ramsch\ngames", "score", "lost/game\n±95%"):
            ramsch.add_column(column, justify="right", no_wrap=True)
        for row in results["players"]:
            ramsch.add_row(f"{row['spec']} ×{row['instances']}", str(row["ramsch_games"]), str(row["ramsch_score"]),
                           f"{row['ramsch_lost_per_game']:.1f} ± {row['ramsch_ci95']:.1f}")
        console.print(ramsch)
    if results["run"]["rules"].get("kontra"):
        console.print(_calls_table(results["players"]))
    for pair in results["pairs"]:
        console.print(
            f"{pair['a']} − {pair['b']}: {pair['seeger_fabian_per_game_difference']:+.1f} ± {pair['ci95']:.1f}"
            f" Seeger-Fabian per game, paired over {pair['deals']} deals"
        )
        if pair.get("ramsch_deals"):
            console.print(
                f"{pair['a']} − {pair['b']}: {pair['ramsch_lost_per_game_difference']:+.1f} ± "
                f"{pair['ramsch_ci95']:.1f} points lost per Ramsch game, paired over {pair['ramsch_deals']} deals"
            )
    console.print(f"files in {out_dir}/")
    return status


def _calls_table(players: list[dict]):
    """How each player's Kontras and Res turned out (a call that loses shows here, not only in a total)."""
    from rich import box
    from rich.table import Table

    table = Table(title="Kontra and Re", caption="Kontra: said in its defended games; won: the games the call "
                  "doubled that the caller's side won", box=box.SIMPLE_HEAD)
    table.add_column("player", overflow="fold")
    for column in ("defended", "Kontra", "Kontra\nwon", "Re", "Re\nwon"):
        table.add_column(column, justify="right", no_wrap=True)

    def count_and_share(count: int, of: int) -> str:
        return f"{count} ({count / of:.0%})" if of else str(count)

    for row in players:
        table.add_row(f"{row['spec']} ×{row['instances']}", str(row["defended"]),
                      count_and_share(row["kontra"], row["defended"]),
                      count_and_share(row["kontra_defenders_won"], row["kontra"]),
                      str(row["re"]), count_and_share(row["re_declarer_won"], row["re"]))
    return table


def _solve(path: str, trick: int, threshold: int | None, as_json: bool = False, german: bool = False) -> int:
    from engine.cards import Card
    from engine.dds.solver import solve, solve_threshold
    from engine.positions import ramsch_solve, solver_position, state_at_trick
    from engine.record import read_records

    if trick < 1 or trick > 10:
        print("skat solve: --trick must be 1..10", file=sys.stderr)
        return 2
    records, errors = read_records(path)
    for err in errors:
        print(f"{path}: {err}", file=sys.stderr)
    failed = len(errors)
    from engine.tools.warmup import SOLVER, warm_up

    warm_up(SOLVER)  # load the compiled core first, so that "ms" is the solve alone
    for record in records:
        try:
            state = state_at_trick(record, trick)
            if state.is_ramsch and threshold is not None:
                raise ValueError("a Ramsch has no declarer to reach a threshold: solve it without --threshold")
            pos = None if state.is_ramsch else solver_position(state)
        except ValueError as exc:
            failed += 1
            print(f"{path}: line {record.line}, record {record.id}: {exc}", file=sys.stderr)
            continue
        start = time.perf_counter()
        if pos is None:
            res = ramsch_solve(state)
        else:
            res = solve(pos) if threshold is None else solve_threshold(pos, threshold)
        ms = (time.perf_counter() - start) * 1000
        if as_json:
            print(json.dumps({
                "id": record.id,
                "trick": trick,
                **({"game": "ramsch"} if pos is None else {}),
                "to_move": state.to_move,
                "value": res.value,
                "per_card": {str(Card(c)): v for c, v in sorted(res.per_card.items())},
                "nodes": res.nodes,
                "ms": round(ms, 3),
            }))
        else:
            print("\n".join(solve_report(record.id, state, trick, threshold, res, ms, german)) + "\n")
    return 1 if failed else 0


def solve_report(record_id: str, state, trick: int, threshold: int | None, res, ms: float,
                 german: bool = False) -> list[str]:
    """``skat solve``'s readable block for one record: the position, the value, one line per card
    (▶ marks the cards that keep the value for the side to move)."""
    from engine.cards import Card
    from engine.rules import SEAT_NAMES, sorted_cards

    if state.is_ramsch:
        lines = [f"Record {record_id} · trick {trick} · Ramsch · {SEAT_NAMES[state.to_move]} to move, "
                 f"both others against him",
                 f"best play: he ends with {res.value} card points (the skat with the last trick)",
                 "    card  his card points"]
        for card in sorted_cards(sum(1 << c for c in res.per_card), state.game):
            value = res.per_card[card]
            lines.append(f"  {'▶' if value == res.value else ' '} {Card(card).unicode(german):<5} {value}")
        lines.append(f"  {res.nodes:,} nodes, {ms:.1f} ms")
        return lines
    if state.declaration.game.name == "NULL":
        heading, worth = "declarer", lambda v: f"{'wins' if v else 'loses'} ({v})"
        best = worth
    elif threshold is not None:
        heading, worth = f"reaches {threshold}?", lambda v: f"{'yes' if v else 'no'} ({v})"
        best = lambda v: f"reaches {threshold}? {worth(v)}"  # noqa: E731
    else:
        heading, worth = "declarer's card points", str
        best = lambda v: f"ends with {v} card points"  # noqa: E731
    side = "declarer" if state.to_move == state.declarer else "defenders"
    lines = [f"Record {record_id} · trick {trick} · {state.declaration.describe(german)}, declarer "
             f"{SEAT_NAMES[state.declarer]} · {SEAT_NAMES[state.to_move]} to move ({side})",
             f"best play: the declarer {best(res.value)}",
             f"    card  {heading}"]
    for card in sorted_cards(sum(1 << c for c in res.per_card), state.declaration.game):
        value = res.per_card[card]
        lines.append(f"  {'▶' if value == res.value else ' '} {Card(card).unicode(german):<5} {worth(value)}")
    lines.append(f"  {res.nodes:,} nodes, {ms:.1f} ms")
    return lines


if __name__ == "__main__":
    raise SystemExit(main())
