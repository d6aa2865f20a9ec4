"""``getaway-ref review``: the body of the command, without the parser (cli.py reads the
arguments and calls :func:`review_command`)."""

from __future__ import annotations

import io
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from referee.archive.dask import DaskRunner
from referee.archive.games import TableError, read_game
from referee.archive.jobs import parse_jobs
from referee.archive.slices import Slice, WorkerFailed
from referee.archive.workers import PoolRunner
from referee.commands import UsageError, rules_options
from referee.engine import language as L
from referee.engine.language import gettext as _
from referee.engine.language import ngettext
from referee.engine.rules import RuleSet
from referee.files import recover
from referee.judging import wording as W
from referee.notation.reader import Reader, ReadError, chunks, read
from referee.notation.record import Game
from referee.notation.seek import ranges
from referee.players.solver import Solver
from referee.review.report import VERDICT_WORDS, ReviewFile, game_model, play_lines, position_model
from referee.review.review import (
    BUDGET,
    MARKS,
    SAMPLES,
    WINDOW,
    GameReview,
    PositionReview,
    review_game,
    review_position,
    said_action,
)

FORMATS = ("text", "json")


def _games(file: Path, game: int | None) -> list[Game]:
    if game is not None:
        try:
            return [read_game(file, game)]
        except TableError as e:
            raise UsageError(e.message) from None
    try:
        return list(read(file))
    except ReadError as e:
        raise UsageError(f"{e.path}: {e.message}") from None


def counted(n: int, word: str) -> str:
    """``1 blunder``, ``2 blunders``, ``0 inaccuracies``, in the current language."""
    if word == "blunder":
        said = ngettext("{n} blunder", "{n} blunders", n)
    elif word == "mistake":
        said = ngettext("{n} mistake", "{n} mistakes", n)
    elif word == "inaccuracy":
        said = ngettext("{n} inaccuracy", "{n} inaccuracies", n)
    else:
        said = ngettext("{n} only move", "{n} only moves", n)
    return said.format(n=n)


def game_head(number: int, rules: str, rest: str) -> str:
    """The first line of a game's review: "game 3 — rules pagat — ..."."""
    return _("game {number} — rules {rules} — {rest}").format(number=number, rules=rules, rest=rest)


def stops_early(why: str) -> str:
    return _("the replay stops early: {why}").format(why=why)


def text_review(r: GameReview) -> str:
    """A game's review as text: its line, then each play with a verdict or a mark, and each
    mistake the referee found where it happened."""
    n_exact = sum(p.exact for p in r.plays)
    bits = [_("{seat} lost").format(seat=r.loser) if r.loser else _("no loser recorded"),
            ngettext("{n} play or take, {exact} exact (at most {window} cards held)",
                     "{n} plays and takes, {exact} exact (at most {window} cards held)", len(r.plays)).format(
                n=len(r.plays), exact=n_exact, window=r.window)]
    rest = _(" — ").join(bits)
    if r.samples:
        rest += _(", ") + ngettext("chances from {n} sample a play (seed {seed})",
                                   "chances from {n} samples a play (seed {seed})", r.samples).format(
            n=r.samples, seed=r.seed)
    lines = [game_head(r.number, r.rules, rest)]
    if r.stopped:
        lines.append("  " + stops_early(r.stopped))
    if r.fewer_from is not None:
        first = r.plays[r.fewer_from - 1]
        lines.append("  " + ngettext(
            "the work budget ({budget} positions a game) was too short for {n} sample a play: from play {play} "
            "(line {line}) on, plays got fewer (some none); {spent} positions spent",
            "the work budget ({budget} positions a game) was too short for {n} samples a play: from play {play} "
            "(line {line}) on, plays got fewer (some none); {spent} positions spent", r.samples).format(
            budget=f"{r.work_budget:,}", n=r.samples, play=r.fewer_from, line=first.line, spent=f"{r.work:,}"))
    shown = [p for p in r.plays if p.verdict in ("blunder", "only move") or p.mark or p.mistake]
    for p in shown:
        lines.extend(play_lines(r.seats, p))
    tally = []
    for s, name in enumerate(r.seats):
        mine = [p for p in r.plays if p.seat == s]
        counts = {"blunder": sum(p.verdict == "blunder" or p.mark == "blunder" for p in mine),
                  "mistake": sum(p.mark == "mistake" for p in mine),
                  "inaccuracy": sum(p.mark == "inaccuracy" for p in mine),
                  "only move": sum(p.verdict == "only move" for p in mine)}
        tally.append(f"{name}: " + _(", ").join(counted(v, k) for k, v in counts.items()))
    lines.append("  " + _("; ").join(tally))
    lines.extend(_text_chances(r))
    return "\n".join(lines)


def text_position(r: PositionReview) -> str:
    """Every seat's class at one point of a game, as text: the game's line, then a seat a line."""
    head = W.review_position_head(r.where, r.trick, r.held)
    lines = [game_head(r.number, r.rules, f"{head[0].lower()}{head[1:]}")]
    if r.stopped:
        lines.append("  " + stops_early(r.stopped))
    for t in r.standings:
        lines.append("  " + W.review_standing(r.seats[t.seat], t.cls, t.draws, t.chance, r.budget, r.why_unknown))
    return "\n".join(lines)


def _text_chances(r: GameReview) -> list[str]:
    """Every seat's chance of losing after each trick and each take, from its own view."""
    charted = [p for p in r.plays if p.chances]
    if not charted:
        return []
    out = ["  " + _("chances of losing, each seat from what it could know:"),
           "    " + _("(each seat is judged from its own view, the hands it could not see dealt at random, so the "
                      "seats' chances need not add up to 100%)")]
    for i, p in enumerate(charted):
        last_of_trick = i + 1 == len(charted) or p.trick is None or charted[i + 1].trick != p.trick
        if not last_of_trick:
            continue
        each = _(", ").join(f"{name} {'?' if c is None else W.percent(c)}" for name, c in zip(r.seats, p.chances))
        if p.trick is not None:
            said = _("after trick {trick} (line {line}): {chances}").format(trick=p.trick, line=p.line, chances=each)
        else:
            said = _("after {seat} {action} (line {line}): {chances}").format(
                seat=r.seats[p.seat], action=said_action(p.action), line=p.line, chances=each)
        out.append("    " + said)
    return out


# ---- one game, here or in a --jobs worker -----------------------------------------------------

# What every game of the run is reviewed with: rules, window, samples, seed (a worker's
# initializer sets it in each worker process).
Settings = tuple[RuleSet | None, int, int, int]
_settings: Settings = (None, WINDOW, SAMPLES, 0)
# A Dask worker runs its tasks in threads, and the reader keeps its state per process: one
# slice at a time (as check's Dask task does; the GIL would allow no more anyway).
_reviewing = threading.Lock()


def _init(base: RuleSet | None, window: int, samples: int, seed: int) -> None:
    global _settings
    _settings = (base, window, samples, seed)


def syntax_errors(number: int) -> str:
    return _("game {number}: syntax errors (run getaway-ref check)").format(number=number)


def stopped_game(number: int, why: str) -> str:
    return _("game {number}: {why}").format(number=number, why=stops_early(why))


def _one(g: Game, settings: Settings, progress: Callable[[int, int], None] | None = None) -> GameReview | str:
    """A game's review, or why it was not reviewed. A fresh solver each game: its table and
    budget then depend on the game alone, so --jobs and --dask never change a verdict."""
    base, window, samples, seed = settings
    if g.errors:
        return syntax_errors(g.number)
    return review_game(g, base, window=window, samples=samples, seed=seed, solver=Solver(max_nodes=BUDGET),
                       progress=progress)


class ReviewProgress(Protocol):
    """What a review tells of its progress: each play as it is reached (``done`` of ``total``
    in the game), each new game, and the end. The terminal's bar; the site's page has its own."""

    def __call__(self, done: int, total: int) -> None: ...

    def game(self) -> None: ...

    def close(self) -> None: ...


class _Progress:
    """A progress bar on stderr (rich) for a review that takes more than a moment, only where
    stderr is a terminal: it appears once a game's review has run SHOW_AFTER seconds, and is
    gone when the review ends (a pipe or a file gets nothing)."""

    SHOW_AFTER = 1.5

    def __init__(self) -> None:
        self._start = time.monotonic()
        self._on = sys.stderr.isatty()
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if not self._on:
            return
        if self._bar is None:
            if time.monotonic() - self._start < self.SHOW_AFTER:
                return
            self._bar = Progress(TextColumn(_("reviewing")), BarColumn(), MofNCompleteColumn(), TextColumn(_("plays")),
                                 TimeElapsedColumn(), console=Console(stderr=True), transient=True)
            self._bar.start()
            self._task = self._bar.add_task("review", total=total)
        if self._task is not None:
            self._bar.update(self._task, completed=done, total=total)

    def game(self) -> None:
        """A new game: its plays count from 0 again."""
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=0)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def review_slice(piece: Slice, settings: Settings | None = None) -> list[GameReview | str]:
    """The reviews of one slice of a file (check's slices, check's worker pool), with the
    run's settings (None: those the worker's initializer set)."""
    settings = settings or _settings
    path, start, end, games, lines, chars, name = piece
    with open(path, "rb") as f:
        f.seek(start)
        data = f.read(end - start)
    reader = Reader(name)
    out: list[GameReview | str] = []
    for number, text, first_line, offset in chunks(io.BytesIO(data), name, number=games, line=lines,
                                                  offset=chars, byte_offset=start):
        if number == 0:
            reader.read_prelude(text, offset)
            continue
        out.append(_one(reader.parse_game(text, number, first_line, offset), settings))
    return out


def review_slice_with(fields: list[str | int], base: RuleSet | None, window: int, samples: int,
                      seed: int, lang: str = L.ENGLISH) -> list[GameReview | str]:
    """review_slice on a Dask worker, which no initializer of ours started: the settings and
    the run's language come with the slice, and the slice as a list (a tuple would be read
    by Dask as a task)."""
    with _reviewing, L.speaking(lang):
        return review_slice(Slice(*fields), (base, window, samples, seed))  # type: ignore[arg-type]


def _reviewed(file: Path, game: int | None, jobs: int, dask: str | None,
              progress: ReviewProgress | None = None) -> Iterator[GameReview | str]:
    recover([file])  # a rewrite of it cut short by a kill: put back before it is read
    if game is not None or (jobs <= 1 and dask is None) or not file.is_file():
        for g in _games(file, game):
            if progress is not None:
                progress.game()
            yield _one(g, _settings, progress)
        return
    runner: PoolRunner | DaskRunner
    try:
        runner = DaskRunner(dask) if dask is not None else PoolRunner(jobs, _init, _settings)
    except WorkerFailed as e:
        raise UsageError(str(e)) from None
    done = False
    try:
        # A game a slice: a review takes seconds, the cut a few microseconds.
        cut = (Slice(str(file), *r, str(file)) for r in ranges(str(file), 1))
        results = (runner.map(review_slice_with, cut, *_settings, L.current()) if isinstance(runner, DaskRunner)
                   else runner.map(review_slice, cut))
        for reviewed in results:
            yield from reviewed
        done = True
    except ReadError as e:
        raise UsageError(f"{e.path}: {e.message}") from None
    except WorkerFailed as e:
        raise UsageError(f"{file}: {e}") from None
    finally:
        runner.close(abort=not done)


def _positions(file: Path, game: int | None, base: RuleSet | None, after: int | None, window: int, samples: int,
               seed: int) -> Iterator[PositionReview | str]:
    """Every seat's class at the end of each game (or after trick ``after``), or why not."""
    for g in _games(file, game):
        if g.errors:
            yield syntax_errors(g.number)
            continue
        try:
            yield review_position(g, base, after=after, window=window, samples=samples, seed=seed,
                                  solver=Solver(max_nodes=BUDGET))
        except ValueError as e:
            yield str(e)


def position_command(file: Path, game: int | None, fmt: str, base: RuleSet | None, after: int | None, window: int,
                     samples: int, seed: int) -> int:
    """``review FILE --at END`` / ``--after TRICK``: every seat's class there, each game; exit
    1 if a game could not be judged there."""
    found: list[PositionReview] = []
    skipped: list[str] = []
    for r in _positions(file, game, base, after, window, samples, seed):
        if isinstance(r, str):
            skipped.append(r)
            continue
        if r.stopped:
            skipped.append(stopped_game(r.number, r.stopped))
        found.append(r)
    if fmt == "json":
        doc = ReviewFile(path=str(file), games=[], positions=[position_model(r) for r in found], not_reviewed=skipped)
        sys.stdout.write(doc.model_dump_json(indent=2, by_alias=True) + "\n")
    else:
        for r in found:
            print(text_position(r))
        for s in skipped:
            print(_("not reviewed: {why}").format(why=s))
    return 1 if skipped else 0


def review_command(file: Path, game: int | None = None, fmt: str = "text", rules: str | None = None,
                   window: int = WINDOW, samples: int = SAMPLES, seed: int = 0, jobs: str = "1",
                   dask: str | None = None, at: str | None = None, after: int | None = None,
                   progress: ReviewProgress | None = None) -> int:
    """Review the games of ``file`` (or game ``game``); exit 0 if every game was reviewed, 1
    if one could not be (syntax errors; the replay stopped early), 2 for a usage problem.
    ``jobs``: worker processes for a file of many games (check's pool; 'auto': one a core),
    the reviews in input order; ``dask``: a Dask scheduler's address, the games reviewed on
    its cluster as ``check --dask`` judges them (the workers read the file at its path);
    ``progress``: told of each play (default: a bar on a terminal's stderr)."""
    if fmt not in FORMATS:
        raise UsageError(_("{option} is one of {formats}, not '{value}'").format(
            option="--format", formats=", ".join(FORMATS), value=fmt))
    if window < 0 or samples < 0:
        raise UsageError(_("{window} and {samples} are 0 or more").format(window="--window", samples="--samples"))
    try:
        wanted = parse_jobs(jobs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    workers = wanted if wanted is not None else (os.cpu_count() or 1)
    default, overrides = rules_options(rules, None, [])
    base: RuleSet | None = default.with_options(**overrides) if default is not None and overrides else default
    if at is not None and at.lower() != "end":
        raise UsageError(_("{at} takes END (the end of the record), not '{value}'; for a trick, {after}").format(
            at="--at", value=at, after="--after TRICK"))
    if at is not None and after is not None:
        raise UsageError(_("{at} and {after} name two points: give one").format(at="--at END", after="--after TRICK"))
    if at is not None or after is not None:
        return position_command(file, game, fmt, base, after, window, samples, seed)
    _init(base, window, samples, seed)
    reviews: list[GameReview] = []
    skipped: list[str] = []
    if progress is None:
        progress = _Progress()
    try:
        for r in _reviewed(file, game, workers, dask, progress):
            if isinstance(r, str):
                skipped.append(r)
                continue
            if r.stopped:
                skipped.append(stopped_game(r.number, r.stopped))
            reviews.append(r)
    finally:
        progress.close()
    if fmt == "json":
        doc = ReviewFile(path=str(file), games=[game_model(r) for r in reviews], not_reviewed=skipped)
        sys.stdout.write(doc.model_dump_json(indent=2) + "\n")
    else:
        for r in reviews:
            print(text_review(r))
        for s in skipped:
            print(_("not reviewed: {why}").format(why=s))
        marks = _(", ").join(_("{points} points {mark}").format(points=p, mark=_(VERDICT_WORDS[name]))
                             for p, name in MARKS)
        if any(r.samples for r in reviews):
            print(_("marks from the rise in the chance of losing: {marks}").format(marks=marks))
    return 1 if skipped else 0
