"""`skat tournament`: players compared on the same deals, the run's tables and files."""

from __future__ import annotations

import argparse
import json
import time

from . import DEFAULT_TOURNAMENT_DEALS, DEFAULT_TOURNAMENT_SEED, EXIT_INTERRUPTED


def run(args: argparse.Namespace) -> int:
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
    if any(row.get("rules") for row in results["players"]):
        console.print(_rules_table(results["players"]))
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
    for row in players:
        table.add_row(f"{row['spec']} ×{row['instances']}", str(row["defended"]),
                      _count_and_share(row["kontra"], row["defended"]),
                      _count_and_share(row["kontra_defenders_won"], row["kontra"]),
                      str(row["re"]), _count_and_share(row["re_declarer_won"], row["re"]))
    return table


def _count_and_share(count: int, of: int) -> str:
    return f"{count} ({count / of:.0%})" if of else str(count)


def _rules_table(players: list[dict]):
    """How the games ended in which a named rule chose a card (a rule that loses shows here)."""
    from rich import box
    from rich.table import Table

    from engine.players.montecarlo import CARD_RULES

    table = Table(title="Cards chosen by a rule", caption="games: those in which the rule chose at least one card; "
                  "won: of those, the games the player's side won; SF/game: the player's Seeger-Fabian points "
                  "in them", box=box.SIMPLE_HEAD)
    table.add_column("player", overflow="fold")
    table.add_column("rule", overflow="fold")
    for column in ("cards", "games", "won", "SF/game"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in players:
        for rule, tally in sorted(row.get("rules", {}).items()):
            games = tally["games"]
            table.add_row(f"{row['spec']} ×{row['instances']}", CARD_RULES.get(rule, rule), str(tally["cards"]),
                          str(games), _count_and_share(tally["won"], games),
                          f"{tally['seeger_fabian'] / games:.1f}" if games else "-")
    return table
