"""Self-play: complete games played by the bundled bots, written as ``.gwy`` records.

The bots and the table that drives a game through the engine are in
:mod:`referee.players.bots`; this module plays series of them, writes the file and shows
the progress. A game is dealt from a seeded :class:`random.Random`, so a seed gives the same
bytes on every machine.

``getaway-ref simulate`` is :func:`simulate_command`; the command line is read in
``referee/cli.py``.
"""

from __future__ import annotations

import io
import random
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO

from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

from referee.commands import UsageError, rules_options
from referee.commands.options import exists_already
from referee.commands.pipes import closed_pipe, same_terminal
from referee.engine import language as L
from referee.engine.rules import PRESETS, RuleSet
from referee.files import WriteError, check_distinct, reason_of, recover, replacing
from referee.notation.format import format_prelude
from referee.notation.record import Comment, Prelude
from referee.players.bots import (
    BOTS,
    SEARCH_BOTS,
    SimGame,
    SimStats,
    SimulationError,
    check_players,
    known_bot,
    play_game,
    seat_names,
)
from referee.reports.render import console


def game_seed(seed: int, number: int) -> str:
    """The seed of one game of a series: any game can be replayed on its own."""
    return f"getaway-ref/{seed}/{number}"


def simulate(players: int, games: int, seed: int, rules: RuleSet | None = None,
             bots: Sequence[str] | None = None, mistakes: float = 0.0, *, annotate: bool = False,
             dealer: bool = True, first: int = 1) -> Iterator[SimGame]:
    """Play ``games`` games between ``players`` bots under ``rules`` (default: pagat).

    Each game has its own generator seeded from ``seed`` and its number, so the same
    arguments give the same games, byte for byte.
    """

    rules = rules or PRESETS["pagat"]
    check_players(rules, players)
    if not 0.0 <= mistakes <= 1.0:
        raise ValueError(f"mistakes is a rate from 0 to 1, not {mistakes}")
    for number in range(first, first + games):
        s = game_seed(seed, number)
        yield play_game(rules, players, random.Random(s), bots=bots, mistakes=mistakes, number=number,
                        seed=s, annotate=annotate, dealer=-1 if dealer else None)


def file_header(players: int, games: int, seed: int, rules: RuleSet, bots: Sequence[str] | None,
                mistakes: float, annotate: bool = False) -> list[str]:
    """The comment lines that say how a file was made (to make it again)."""
    args = f"getaway-ref simulate --players {players} --games {games} --seed {seed} --rules '{rules.spec()}'"
    names = seat_names(players)
    if bots is not None and set(bots) != {"sensible"}:
        if len(set(bots)) == 1:
            args += f" --bot {bots[0]}"
        else:
            args += "".join(f" --bot {names[s]}={b}" for s, b in enumerate(bots) if b != "sensible")
    if mistakes:
        args += f" --mistakes {mistakes:g}"
    if annotate:
        args += " --comments"
    lines = [f"made by {args}"]
    if mistakes:
        lines.append("these games hold table mistakes on purpose, each penalised as ruling 1 says; "
                     "each game's header says which, and `getaway-ref check` reports exactly those")
    return lines


def write_file(out: IO[str] | str | Path, players: int, games: int, seed: int, rules: RuleSet | None = None,
               bots: Sequence[str] | None = None, mistakes: float = 0.0, *, annotate: bool = False,
               comments: Sequence[str] | None = None, progress: Callable[[int], None] | None = None) -> SimStats:
    """Write a whole ``.gwy`` file of simulated games to ``out`` (a text stream, or a path,
    which is created or overwritten); return the counts. ``comments`` replace the default
    file comment (the command that makes the file again); ``progress(k)`` after game k."""

    if isinstance(out, (str, Path)):
        with open(out, "w", encoding="utf-8", newline="") as f:
            return write_file(f, players, games, seed, rules, bots, mistakes, annotate=annotate,
                              comments=comments, progress=progress)
    rules = rules or PRESETS["pagat"]
    lines = (list(comments) if comments is not None
             else file_header(players, games, seed, rules, bots, mistakes, annotate))
    out.write(format_prelude(Prelude(1, [Comment(x) for x in lines])))
    total = SimStats()
    for k, g in enumerate(simulate(players, games, seed, rules, bots, mistakes, annotate=annotate), 1):
        out.write("\n")
        out.write(g.text)
        total.add(g.stats)
        if progress is not None:
            progress(k)
    return total


def simulate_text(players: int, games: int, seed: int, rules: RuleSet | None = None,
                  bots: Sequence[str] | None = None, mistakes: float = 0.0, *, annotate: bool = False,
                  comments: Sequence[str] | None = None, progress: Callable[[int], None] | None = None) -> str:
    """The whole file as a string (see :func:`write_file`)."""

    buf = io.StringIO()
    write_file(buf, players, games, seed, rules, bots, mistakes, annotate=annotate, comments=comments,
               progress=progress)
    return buf.getvalue()


# ---- the command -----------------------------------------------------------------------------------


def parse_bots(specs: Sequence[str], players: int, default: str = "sensible") -> list[str]:
    """``--bot`` values: ``SEAT=KIND`` (a seat's name or number from 1), or ``KIND`` for all."""
    names = [n.lower() for n in seat_names(players)]
    bots = [default] * players
    for spec in specs:
        seat, eq, kind = spec.partition("=")
        if not eq:
            seat, kind = "all", seat
        kind = kind.strip().lower()
        if not known_bot(kind):
            raise ValueError(L.gettext("{option}: the bots are {bots} ({form}: N samples a choice)").format(
                option=f"--bot {spec}", bots=", ".join(BOTS + SEARCH_BOTS), form="pimc:N"))
        key = seat.strip().lower()
        if key in ("all", "*"):
            bots = [kind] * players
        elif key in names:
            bots[names.index(key)] = kind
        elif re.fullmatch(r"[0-9]{1,3}", key) and 1 <= int(key) <= players:
            bots[int(key) - 1] = kind
        else:
            raise ValueError(L.gettext("{option}: no seat '{seat}' (the seats are {seats})").format(
                option=f"--bot {spec}", seat=seat, seats=", ".join(seat_names(players))))
    return bots


def simulate_command(*, players: int = 4, games: int = 1, seed: int = 0, rules: str | None = None,
                     rules_file: Path | None = None, sets: Sequence[str] = (), bot: Sequence[str] = (),
                     mistakes: float = 0.0, comments: bool = False, output: Path | None = None,
                     force: bool = False) -> int:
    """``getaway-ref simulate``: games between bots written as a .gwy record (standard output
    or ``output``), a summary on standard error; the exit code."""
    default, overrides = rules_options(rules, rules_file, sets)
    rs = default or PRESETS["pagat"]
    if overrides:
        rs = rs.with_options(**overrides)
    try:
        check_players(rs, players)
        bots = parse_bots(bot, players)
    except ValueError as ex:
        raise UsageError(str(ex)) from None
    if output is not None and output.exists() and not force:
        raise UsageError(exists_already(output))
    inputs = [rules_file] if rules_file is not None else []
    if output is not None:
        recover([output])  # a rewrite cut short by a kill: put back first
        try:
            check_distinct(output, inputs)  # never over the house rules it reads, by any name
        except WriteError as ex:
            raise UsageError(str(ex)) from None
    err = console(stderr=True)
    bar = None
    # rich redirects standard output to the bar's terminal by default: right when the record
    # is written to that screen, wrong when it was sent to a file or a pipe (issue 24).
    if games > 200 and sys.stderr.isatty():
        bar = Progress(TextColumn(escape(L.gettext("simulating"))), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       console=err, transient=True, redirect_stdout=output is None and same_terminal())
    task: TaskID | None = None

    def tick(k: int) -> None:
        if bar is not None and task is not None:
            bar.update(task, completed=k)

    try:
        if bar is not None:
            bar.start()
            task = bar.add_task("simulate", total=games)
        if output is None:
            stats = write_file(sys.stdout, players, games, seed, rs, bots, mistakes, annotate=comments,
                               progress=tick)
            sys.stdout.flush()
        else:
            stats = _write_output(output, players, games, seed, rs, bots, mistakes, comments, tick, inputs)
    except BrokenPipeError:
        # The reader of stdout went away (| head): stop quietly, exit 2 as every command does.
        return closed_pipe()
    except SimulationError as ex:
        err.print("[bold red]error[/]: " + escape(L.gettext("the engine contradicted itself: {why}").format(why=ex)))
        return 2
    except WriteError as ex:  # its own one line, naming the file
        raise UsageError(str(ex)) from None
    except OSError as ex:  # standard output: a full disk, a file size limit
        raise UsageError(L.gettext("{file}: cannot write: {why}").format(
            file=output if output is not None else L.gettext("standard output"), why=reason_of(ex))) from None
    finally:
        if bar is not None:
            bar.stop()
    # In the language chosen (--lang, else the environment's): the counts, then the file.
    err.print(stats.summary(seat_names(players)), markup=False)
    if output is not None:
        err.print(L.gettext("wrote {file}").format(file=output), markup=False)
    return 0


def _write_output(path: Path, players: int, games: int, seed: int, rules: RuleSet, bots: Sequence[str],
                  mistakes: float, comments: bool, tick: Callable[[int], None],
                  inputs: Sequence[Path] = ()) -> SimStats:
    """Write through referee.files: nothing is left behind if the run fails or is killed,
    an existing file (--force) keeps its links, mode and owner, and a file made or changed
    by someone else while the games are played is kept."""

    with replacing(path, inputs=inputs) as f:
        stats = write_file(f, players, games, seed, rules, bots, mistakes, annotate=comments, progress=tick)
    return stats
