"""`skat analyze`: what a player would do at one decision of a record, as a table or JSON."""

from __future__ import annotations

import argparse
import json
import sys


def run(args: argparse.Namespace) -> int:
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
    player = make_player(analyze_spec(args), args.seed)  # checked in main
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

        from ..analysis_table import analysis_report

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

    from ..analysis_table import contract_report

    Console(highlight=False).print(contract_report(record, state, analysis, args.move, args.german))
    return 0


def analyze_spec(args: argparse.Namespace) -> str:
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
