"""``dicepoker verify LOG``: check the dice of a game played at an online table, die by die (issue 9 §6).

The file is what the server's ``/api/tables/{id}/log`` gives once the game is over (a JSON-lines event
log, or a hand history of a betting game) with its fairness record and the revealed server seed. The
command recomputes the commitment from the seed and every chance outcome from the seeds, and compares
them with the log. Exit status: 0 everything matches, 1 a mismatch, 2 a file it cannot verify (a log that
stops replaying, or is cut short before the end of the game, is damaged rather than unfair: 2).

``--commitment HEX`` is the commitment you were shown when the table was created or joined (the terminal and
browser clients keep it): without it a log re-rolled from another seed, with that seed's own commitment,
verifies against itself. Only the dice are covered: the moves are checked to be legal and to replay to the
end of the game, not to be the ones that were played.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from dicepoker.cli.app import app
from dicepoker.cli.common import console, print_json, user_errors
from dicepoker.core.errors import CorruptLog

if TYPE_CHECKING:
    from dicepoker.server.tables.fairness import VerifyReport

MISMATCH_EXIT = 1
UNVERIFIABLE_EXIT = 2


@app.command("verify")
def verify(
    file: Annotated[Path, typer.Argument(help="An online game's log or hand history, with its fairness record.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
    seen: Annotated[
        str | None,
        typer.Option(
            "--commitment",
            metavar="HEX",
            help="The commitment you were shown when the table was created or joined: the log must carry it.",
        ),
    ] = None,
) -> None:
    """Check that every die of an online game came from the seeds its table committed to.

    Example: dicepoker verify table-3f2a.jsonl --commitment b8acbf92…   (exit 0: fair dice; 1: a die or the
    commitment does not match; 2: a log that cannot be verified, or cut short)
    """
    from dicepoker.cli.replay import read_log
    from dicepoker.server.tables.fairness import verify_log  # lazy: keeps the command's start-up light

    with user_errors():
        try:
            text = file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise CorruptLog(f"{file} is not a text file: not a dicepoker game log") from None
        log = read_log(text)
        report = verify_log(log, seen_commitment=seen)
    if as_json:
        print_json({"game": log.game, "config": dict(log.config), **report.to_json()})
    else:
        console.print(f"[bold]{escape(log.game)}[/] {escape(str(dict(log.config)))}: dice scheme {report.scheme}")
        _print_report(report)
    if report.ok:
        return
    # A log that stops replaying, or stops before the end, with every die so far in order is damaged rather
    # than unfair.
    damaged = report.end_problem is not None and report.commitment_ok and not report.mismatches
    raise typer.Exit(UNVERIFIABLE_EXIT if damaged else MISMATCH_EXIT)


def _print_report(report: VerifyReport) -> None:
    from dicepoker.server.tables.fairness import MOVES_NOT_COVERED

    console.print(f"commitment: {escape(report.commitment)}")
    if report.commitment_ok:
        console.print("  [green]ok[/]: it is the SHA-256 of the revealed server seed")
    elif report.seen_commitment_ok is not False:
        console.print(f"  [bold red]MISMATCH[/]: the revealed server seed hashes to {report.computed_commitment}")
    if report.seen_commitment is None:
        console.print(
            "  [yellow]not compared[/] with the one you were shown at the table: pass it as --commitment HEX"
            " (a log re-rolled from another seed carries that seed's own commitment)"
        )
    elif report.seen_commitment_ok:
        console.print("  [green]ok[/]: it is the commitment you were shown at the table")
    else:
        seen = escape(report.seen_commitment)
        console.print(f"  [bold red]MISMATCH[/]: you were shown {seen}: this log is not the game you played")
    seeds = ", ".join(repr(seed) for seed in report.client_seeds) or "none"
    console.print(f"client seeds: {seeds}", markup=False)
    for check in report.checks:
        verdict = "[green]ok[/]" if check.ok else f"[bold red]MISMATCH[/] expected {escape(check.expected)}"
        console.print(f"{check.index:5d}. dice: {escape(check.logged):<20} {verdict}")
    if report.error is not None:
        console.print(f"[bold red]replay stopped:[/] {escape(report.error)}")
    elif report.end_problem is not None:
        console.print(f"[bold red]cut short:[/] {escape(report.end_problem)}")
    if report.result is not None:
        console.print(f"replayed result: {escape(json.dumps(report.result))}")
    bad = len(report.mismatches)
    total = len(report.checks)
    if report.ok:
        console.print(f"[bold green]fair:[/] all {total} chance events match the committed seeds")
    else:
        problems = [f"{bad} of {total} chance events do not match"] if bad else []
        problems += ["the commitment does not match"] if not report.commitment_ok else []
        problems += ["the log does not replay to the end of the game"] if report.end_problem is not None else []
        console.print(f"[bold red]NOT verified:[/] {'; '.join(problems)}")
    console.print(f"note: {MOVES_NOT_COVERED}", markup=False)
