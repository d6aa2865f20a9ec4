"""Properties of whole games, with Hypothesis: whatever the rule set, seats, bots and deal,

(a) a game of legal actions, played through the engine, is accepted by the referee without
    a single diagnostic and ends with the loser the engine saw;
(b) after every action the engine's state is sound: every card in one place, the seat to act
    holds cards (or, when a draw is due, holds none), a finished game has one loser;
(c) one table mistake of each kind, made at a random point and penalised (ruling 1), is
    reported by the referee exactly once, at that card, and nothing else is.

A game is drawn from an integer seed, not from Hypothesis' own choices: a game makes
hundreds of random choices, more than an example's buffer holds, and a failing seed
replays the same game exactly. Keep the default run fast (well under a minute); set
GETAWAY_PROFILE=long for many more examples.
"""

from __future__ import annotations

import dataclasses
import os
import random

from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from referee.engine.rules import OPTIONS, PRESETS, coerce, option_values
from referee.engine.state import BEFORE_FIRST, BETWEEN, DRAW_DUE, IN_TRICK, OVER, check_invariant
from referee.judging.referee import Referee
from referee.notation.format import format_file
from referee.notation.reader import parse, parse_file_text
from referee.notation.record import Trick
from referee.players.bots import BOTS, MISTAKE_KINDS, play_game

PROFILE = os.environ.get("GETAWAY_PROFILE", "default")
SCALE = {"default": 1, "long": 20}.get(PROFILE, 1)


def examples(n: int):
    return settings(
        max_examples=n * SCALE,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        # Shrinking a seed says nothing more about the game; the failing seed is enough.
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )


# ---- strategies ------------------------------------------------------------------------------


@st.composite
def rule_sets(draw, packs=st.sampled_from([1, 1, 1, 2])):
    """A preset, then any of its options overridden with any of their values."""
    rules = PRESETS[draw(st.sampled_from(sorted(PRESETS)))]
    opts = {}
    for o in OPTIONS:
        if o == "packs":
            continue
        v = draw(st.none() | st.sampled_from(option_values(o)))
        if v is not None:
            opts[o] = coerce(o, v)
    opts["packs"] = draw(packs)
    return rules.with_options(**opts)


@st.composite
def tables(draw, min_players=2, packs=st.sampled_from([1, 1, 1, 2])):
    """(rules, players, bots, seed)."""
    rules = draw(rule_sets(packs=packs))
    top = 16 if rules.packs == 2 else 8
    low = 9 if rules.packs == 2 and draw(st.booleans()) else min_players  # a double pack: often 9+ seats
    players = draw(st.integers(max(low, min_players), top))
    bots = draw(st.lists(st.sampled_from(BOTS), min_size=players, max_size=players))
    seed = draw(st.integers(0, 2**32 - 1))
    return rules, players, bots, seed


def run(rules, players, bots, seed, **kw):
    return play_game(rules, players, random.Random(seed), bots=bots, seed=str(seed), **kw)


# ---- (a) legal games pass the referee ----------------------------------------------------------


@examples(250)
@given(tables())
def test_legal_games_pass_check(table):
    rules, players, bots, seed = table
    sim = run(rules, players, bots, seed)
    assert sim.mistakes == []
    [game] = parse(sim.text)
    assert game.errors == []
    res = Referee().judge(game)
    assert [(d.code, d.message) for d in res.diagnostics if d.is_error] == []
    assert res.finished and res.loser == sim.loser and res.legs == sim.legs
    assert game == dataclasses.replace(sim.game, number=game.number)
    prelude, games = parse_file_text("%gwy 1\n\n" + sim.text)
    assert format_file(prelude, games) == "%gwy 1\n\n" + sim.text


# ---- (b) the engine's invariants after every action ------------------------------------------------


class Watch:
    """Called after every action of a simulated game: checks the engine's state."""

    def __init__(self):
        self.actions = 0
        self.e = None

    def __call__(self, e, kind, args):
        self.actions += 1
        self.e = e
        problem = check_invariant(e)
        assert problem is None, f"after {kind} {args}: {problem}"
        sizes = [e.size(s) for s in range(e._n)]
        for s in range(e._n):
            if e._out[s]:
                assert sizes[s] == 0 or e._phase == OVER, f"{s} is out with {sizes[s]} cards"
        if e._phase == OVER:
            return
        if e._phase in (BEFORE_FIRST, BETWEEN):
            assert len(e.holding()) >= 2, "a game with one seat holding cards is over"
        s = e.to_act()
        if e._phase == DRAW_DUE:
            assert s == e._drawer and sizes[s] == 0 and not e._out[s]
            if e._draw_source is None:
                assert e.waste_size() > 0
            elif e._draw_source != "any":
                assert sizes[e._draw_source] > 0
        elif s >= 0:
            assert not e._out[s] and sizes[s] > 0, f"seat {s} is to act with no cards after {kind}"
            assert e.playable(s), f"seat {s} is to act with no legal card"
        else:
            # Only the first trick played in any order has no seat to act.
            assert e._phase == IN_TRICK and e._first and e._any_order


@examples(200)
@given(tables(), st.sampled_from([0.0, 0.0, 0.05]))
def test_engine_invariants_after_every_action(table, rate):
    rules, players, bots, seed = table
    watch = Watch()
    sim = run(rules, players, bots, seed, mistakes=rate, observer=watch)
    assert watch.actions >= sim.stats.plays
    e = watch.e  # the engine after the last action
    assert e._phase == OVER
    assert e._loser == sim.loser >= 0
    assert [s for s in range(players) if not e._out[s]] == [e._loser], "one loser, everyone else out"
    assert sorted(e._out_order) == sorted(s for s in range(players) if s != e._loser)
    assert e._legs == e.size(e._loser)


# ---- (c) one mistake of each kind, found exactly ---------------------------------------------------


@examples(300)
@given(st.sampled_from(MISTAKE_KINDS), st.integers(0, 80), tables(min_players=3))
def test_one_injected_mistake_is_found_exactly(code, at, table):
    rules, players, bots, seed = table
    sim = run(rules, players, bots, seed, inject=(code, at))
    event(f"{code} {'made' if sim.mistakes else 'no chance'}")
    if not sim.mistakes:
        return  # no chance for this kind from that play on: nothing to find, checked by (a)
    [m] = sim.mistakes
    assert m.code == code
    [game] = parse(sim.text)
    res = Referee().judge(game)
    assert [(d.code, d.trick) for d in res.diagnostics if d.is_error] == [(code, m.trick)], \
        [(d.code, d.trick, d.message) for d in res.diagnostics if d.is_error]
    [d] = [d for d in res.diagnostics if d.is_error]
    trick = next(a for a in game.actions if isinstance(a, Trick) and a.number == m.trick)
    play = trick.plays[-1]  # the mistake ends the trick (ruling 1): it is the trick's last play
    assert (play.seat, play.card) == (m.seat, m.card)
    assert d.span == play.card_span
    assert res.finished and res.loser == sim.loser


@examples(12)
@given(st.integers(0, 2**32 - 1))
def test_every_kind_of_mistake_can_be_injected(seed):
    """The planned injection finds a chance for each kind in an ordinary four-player game."""
    found = set()
    for code in MISTAKE_KINDS:
        for k in range(5):
            sim = run(PRESETS["pagat"], 4, ["random"] * 4, seed + k, inject=(code, 5))
            if sim.mistakes:
                found.add(sim.mistakes[0].code)
                break
    assert found == set(MISTAKE_KINDS)


# ---- the fuzz oracle: whatever the text, the commands tell the truth ------------------------------

_FUZZ_SOURCES = sorted((__import__("pathlib").Path(__file__).resolve().parent.parent / "records").glob("*.gwy"))


def _mutate(text: str, rnd: random.Random, steps: int) -> str:
    """A record's text with some lines dropped, doubled, swapped or their words shuffled."""
    lines = text.split("\n")
    words = text.split()
    for _ in range(steps):
        i = rnd.randrange(len(lines))
        op = rnd.randrange(5)
        if op == 0 and len(lines) > 1:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[rnd.randrange(len(lines))])
        elif op == 2:
            j = rnd.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3 and lines[i].split():
            parts = lines[i].split(" ")
            parts[rnd.randrange(len(parts))] = rnd.choice(words)
            lines[i] = " ".join(parts)
        else:
            lines[i] = lines[i] + " " + rnd.choice(words)
    return "\n".join(lines)


def _export_matches_record(model: dict, game) -> None:
    """Export read back equals the record: every action, in the order written, with what it says."""
    from referee.engine.cards import card_str
    from referee.notation.record import Counts, Draw, Take

    seats = list(game.seats)
    name = lambda s: seats[s] if s is not None and 0 <= s < len(seats) else "?"  # noqa: E731
    assert model["number"] == game.number and model["seats"] == seats
    assert model["at"] is not None
    # the record as written: lines out of number order stay where the text has them (ruling 10)
    written = game.written_order[0] if game.written_order is not None else game.actions
    assert len(model["actions"]) == len(written)
    for m, a in zip(model["actions"], written):
        assert m["at"] is not None or not a.span.line
        if isinstance(a, Trick):
            assert m["number"] == a.number
            assert [(p["seat"], p["card"]) for p in m["plays"]] == [
                (name(p.seat), card_str(p.card) if p.card >= 0 else "?") for p in a.plays]
        elif isinstance(a, Counts):
            assert [(s["seat"], s["size"]) for s in m["sizes"]] == [(name(s), n) for s, n in a.sizes]
        elif isinstance(a, Take):
            assert (m["taker"], m["target"]) == (name(a.taker), name(a.target))
        elif isinstance(a, Draw):
            assert m["seat"] == name(a.seat)


@examples(60)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6))
def test_fuzz_oracle_exit_code_diagnostics_and_export(seed, steps):
    """The oracle that found issue 13's lies: check exits 1 exactly when its report counts
    errors; every diagnostic of a game says where it is; the export says what the record says."""
    import contextlib
    import io
    import json
    import tempfile
    from pathlib import Path

    from referee.archive.check import run_check
    from referee.reports.export import write_export

    rnd = random.Random(seed)
    text = _mutate(rnd.choice(_FUZZ_SOURCES).read_text(encoding="utf-8"), rnd, steps)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "fuzz.gwy"
        p.write_text(text, encoding="utf-8")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = run_check([p], "json", None, {}, False, True, 1)
        report = json.loads(out.getvalue())
        assert code == (1 if report["errors"] else 0)
        for f in report["files"]:
            for g in f["games"]:
                for diag in g["diagnostics"]:
                    assert diag["location"] is not None, diag
        chunks: list[str] = []
        with open(p, "rb") as fh:
            write_export(fh, str(p), chunks.append)
        exported = json.loads("".join(chunks))
        prelude, games = parse_file_text(text, str(p))
        assert len(exported["games"]) == len(games)
        for m, g in zip(exported["games"], games):
            _export_matches_record(m, g)
