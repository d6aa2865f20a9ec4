"""Focused tests of the referee: the facts of Pagat's worked example, the penalty as the
engine's state shows it, and what every diagnostic carries.

Expected values are worked out from the rules texts (shared/rules/pagat-getaway.txt, the
main source; denexa-getaway.txt) and the rulings of shared/rules/README.md.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, RECORDS, run_cli
from typer.testing import CliRunner

from referee.cli import app
from referee.engine import state as E
from referee.engine.cards import card_str, parse_card
from referee.engine.events import DrawCard
from referee.engine.rules import rule_set
from referee.judging.referee import GameResult, Referee
from referee.notation.reader import Reader, parse
from referee.notation.record import Game
from referee.reports.diagnostics import CODES, Diagnostic

SEATS4 = ("North", "East", "South", "West")
N, EAST, S, W = range(4)
PAGAT = (RECORDS / "pagat-example.gwy").read_text(encoding="utf-8")

# Every place a diagnostic may cite for the rule it applies.
# A citation a user can look up: a public source and its section, or one of our rulings.
SOURCE = re.compile(r"^(Pagat, Getaway: [A-Z]|Denexa, How to Play Getaway: [A-Z]|docs/rulings\.md, rulings? \d)")
UNREACHABLE = re.compile(r"\.txt|shared/|README")


def games_of(text: str, path: str = "<text>") -> list[Game]:
    return parse(text, path)


def judge_text(text: str, **kw: Any) -> GameResult:
    """The one game of a text, judged."""
    games = games_of(text)
    assert len(games) == 1
    return Referee(**kw).judge(games[0])


def one(text: str, **kw: Any) -> GameResult:
    res = judge_text(text, **kw)
    assert res.game.errors == []
    return res


def place(text: str, line_starts: str, token: str, nth: int = 1) -> tuple[int, int]:
    """(line, col) of the nth ``token`` on the first line that starts with ``line_starts``."""
    for i, line in enumerate(text.split("\n"), 1):
        if line.startswith(line_starts):
            col = -1
            for _ in range(nth):
                col = line.index(token, col + 1)
            return i, col + 1
    raise AssertionError(f"no line starts with {line_starts!r}")


def engine_of(res: GameResult) -> E.Engine:
    """The final state of a game judged with keep_engine=True."""
    assert res.engine is not None, res.stopped
    return res.engine


def card(text: str) -> int:
    c = parse_card(text)
    assert c is not None, text
    return c


def at(d: Diagnostic) -> tuple[int, int]:
    assert d.span is not None
    return d.span.line, d.span.col


def sizes(res: GameResult) -> dict[str, int]:
    return {res.game.seats[i]: n for i, n in enumerate(res.sizes)}


HEADER = '%gwy 1\n%game\n[Seats "North East South West"]\n'
SIZES13 = "deal\nNorth 13\nEast 13\nSouth 13\nWest 13\n"
FULL = ("deal\nNorth KQJ.AKQJ.AK.AKQJ\nEast .T9876.QJT9.T987\n"
        "South T98765.5432.876.\nWest A432..5432.65432\n")
PAGAT_PLAYS = """\
1. West A♠, North J♠, East A♥, South 10♠
2. West 5♥, North 9♥, East Q♥, South J♥
3. East 3♥, South 7♥, West K♥, North 8♥
4. West 2♥, North 6♥, East K♣
counts North 12, East 9, South 10, West 9
5. North Q♦, East J♦, South A♦, West K♦
6. South 5♦, West K♠
counts South 10, West 7, North 11, East 8
"""
PAGAT_SIZES_ONLY = HEADER + SIZES13 + PAGAT_PLAYS


# ---- Pagat's worked example ("Second and subsequent tricks") -----------------------------


def test_pagat_example_checks_clean_with_hand_sizes_only() -> None:
    res = one(PAGAT)
    assert res.diagnostics == []
    assert res.judged and res.stopped is None
    assert res.tricks == 6
    assert not res.finished
    # Pagat: "South now has 10 cards, West 7, North 11 and East 8."
    assert sizes(res) == {"North": 11, "East": 8, "South": 10, "West": 7}


def test_pagat_example_counts_after_trick_4() -> None:
    # Pagat: "North now has 12 cards, East 9, South 10 and West 9."
    res = one(PAGAT, stop_after=4)
    assert res.diagnostics == []
    assert sizes(res) == {"North": 12, "East": 9, "South": 10, "West": 9}


def test_pagat_example_who_leads_each_trick() -> None:
    """West (A♠) leads trick 2; East (Q♥) trick 3; West (K♥) trick 4; North, whose 6♥ was
    the highest heart, picks up the tochoo'd trick 4 and leads 5; South (A♦) leads 6 and,
    alone in the suit led, picks up trick 6 and leads again."""
    expected = {1: W, 2: EAST, 3: W, 4: N, 5: S, 6: S}
    for trick, leader in expected.items():
        res = one(PAGAT, stop_after=trick, keep_engine=True)
        assert engine_of(res).view().phase == E.BETWEEN
        assert engine_of(res).view().power == leader, f"after trick {trick}"


def test_pagat_example_waste_pile() -> None:
    """Tricks 1, 2, 3 and 5 go to the waste pile (16 cards); tricks 4 and 6 are picked up."""
    res = one(PAGAT, keep_engine=True)
    assert engine_of(res).waste_size() == 16
    # The cards North picked up in trick 4 are known to be in North's hand.
    known_north = {card_str(c) for c in engine_of(res).known(N)}
    assert {"2♥", "6♥", "K♣"} <= known_north
    assert {card_str(c) for c in engine_of(res).known(S)} >= {"5♦", "K♠"}


MUTATIONS = [
    # (what changes, line start, old, new, code, the token the diagnostic points at)
    ("a count after trick 4 one too high", "counts North 12", "West 9", "West 10", "R111", "West 10"),
    ("A♥ played again in trick 5: it went to the waste pile in trick 1", "5.", "South A♦", "South A♥", "R105", "A♥"),
    ("North plays before West in trick 6", "6.", "West K♠", "North K♠", "M203", "K♠"),
    # North's 8♣ on a heart lead shows North's unseen cards hold no heart; North's 6♥ in
    # trick 4 proves the renege, which is reported at the 8♣.
    ("North throws a club in trick 3 and plays a heart in trick 4", "3.", "North 8♥", "North 8♣", "M201", "8♣"),
]


@pytest.mark.parametrize("what,start,old,new,code,token", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_pagat_example_mutated(what: str, start: str, old: str, new: str, code: str, token: str) -> None:
    lines = PAGAT_SIZES_ONLY.split("\n")
    for i, line in enumerate(lines):
        if line.startswith(start):
            assert old in line
            lines[i] = line.replace(old, new)
            break
    text = "\n".join(lines)
    res = judge_text(text)
    assert res.diagnostics, what
    first = min(res.diagnostics, key=at)
    assert first.code == code, [(d.code, at(d), d.message) for d in res.diagnostics]
    assert at(first) == place(text, start, token)
    assert sum(1 for d in res.diagnostics if d.code == code) == 1


UNFINISHED = [
    # East follows in trick 4 instead of the tochoo, and the record forgets South's card.
    pytest.param(PAGAT_SIZES_ONLY.replace("4. West 2♥, North 6♥, East K♣", "4. West 2♥, North 6♥, East 4♥"),
                 id="trick 4 without South"),
    # The first trick without South's card (every player plays to it: ruling 2).
    pytest.param(HEADER + SIZES13 + "1. West A♠, North J♠, East A♥\n2. West 5♥, North 9♥, East Q♥, South J♥\n",
                 id="trick 1 without South"),
]


@pytest.mark.parametrize("text", UNFINISHED)
def test_unfinished_trick_blames_no_player(text: str) -> None:
    """A record that moves on to the next trick while a player has not played to this one
    cannot be true (ruling 5): nobody at the table played a second card or out of turn in
    the next tricks, so no M2xx may be reported."""
    res = judge_text(text)
    assert res.diagnostics
    assert [(d.code, d.message) for d in res.diagnostics if d.code.startswith("M")] == []


# ---- the penalty (ruling 1), through the engine's state -------------------------------------


def test_penalty_play_after_tochoo_readme_example() -> None:
    """South plays after East's tochoo in trick 4: South picks up all four cards, North's
    pickup does not happen, and South leads trick 5."""
    text = HEADER + SIZES13 + PAGAT_PLAYS.split("counts")[0].replace(
        "4. West 2♥, North 6♥, East K♣", "4. West 2♥, North 6♥, East K♣, South 4♥")
    res = one(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["M202"]
    d = res.diagnostics[0]
    assert at(d) == place(text, "4.", "4♥")
    assert d.help and "South picks up the 4 cards of trick 4 and leads trick 5" in d.help
    e = engine_of(res)
    assert e.view().phase == E.BETWEEN and e.view().power == S and e.view().trick_no == 5
    assert sizes(res) == {"North": 9, "East": 9, "South": 13, "West": 9}
    assert {card_str(c) for c in e.known(S)} == {"2♥", "6♥", "K♣", "4♥"}
    assert e.known(N) == []
    assert E.check_invariant(e) is None


def test_penalty_renege_known_hand() -> None:
    """East holds ♦QJT9 and throws 10♣ on West's 5♦: East picks up the three cards (own
    included) and leads; the trick does not go to North, whose A♦ was highest."""
    text = HEADER + FULL + "1. West A♠, North K♠, East 10♥, South 10♠\n2. West 5♦, North A♦, East 10♣\n"
    res = one(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["M201"]
    assert at(res.diagnostics[0]) == place(text, "2.", "10♣")
    e = engine_of(res)
    assert e.view().power == EAST and e.view().phase == E.BETWEEN
    assert sizes(res) == {"North": 11, "East": 14, "South": 12, "West": 11}
    assert {"5♦", "A♦", "10♣"} <= {card_str(c) for c in e.known(EAST)}
    assert e.waste_size() == 4  # only the first trick
    assert E.check_invariant(e) is None


def test_penalty_renege_unnoticed_follows_the_record() -> None:
    """The same renege, but the record goes on as the table played it: North picks up the
    trick as if East's card had been a fair tochoo. One diagnostic, and it says so."""
    text = (HEADER + FULL + "1. West A♠, North K♠, East 10♥, South 10♠\n2. West 5♦, North A♦, East 10♣\n"
            "3. North K♦, East Q♦, South 8♦, West 4♦\n")
    res = one(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["M201"]
    assert any("penalty was not applied" in n for n in res.diagnostics[0].notes)
    # North picked up 3 in trick 2 (12 - 1 + 3 = 14) and played K♦ in trick 3.
    assert sizes(res) == {"North": 13, "East": 10, "South": 11, "West": 10}


def test_penalty_second_card_in_first_trick() -> None:
    """Ruling 2: a second card in the first trick is a mistake; ruling 1: the trick ends at
    once, North picks up the three cards and leads."""
    text = HEADER + SIZES13 + "1. West A♠, North J♠, North 9♠\n"
    res = one(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["M204"]
    e = engine_of(res)
    assert e.view().power == N and e.view().trick_no == 2 and not e.view().first_trick
    assert sizes(res) == {"North": 14, "East": 13, "South": 13, "West": 12}
    assert e.waste_size() == 0  # the trick did not go to the waste pile (ruling 1)
    assert {"A♠", "J♠", "9♠"} <= {card_str(c) for c in e.known(N)}


def test_penalty_out_of_turn() -> None:
    text = HEADER + SIZES13 + PAGAT_PLAYS.split("5.")[0] + "5. North Q♦, South A♦\n"
    res = one(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["M203"]
    assert "it was East's turn" in res.diagnostics[0].message
    assert engine_of(res).view().power == S
    assert sizes(res) == {"North": 11, "East": 9, "South": 11, "West": 9}


def test_higher_card_by_choice_is_legal_in_the_shootout() -> None:
    """Ruling 8: East answers North's drawn 8♣ with K♣ while holding 3♣. Legal: no penalty,
    North (no cards left) gets away and East loses with the 3♣ it kept; only a note says
    the 3♣ would have kept the game going."""
    path = DATA / "invalid" / "M206-shootout.gwy"
    for game in Reader(str(path)).read_text(path.read_text(encoding="utf-8")):
        res = Referee(keep_engine=True).judge(game)
        assert [(d.code, d.severity) for d in res.diagnostics] == [("M206", "note")]
        help = res.diagnostics[0].help
        assert res.diagnostics[0].penalty is None and help is not None and "3♣ would have kept the game going" in help
        assert res.finished and res.loser is not None and game.seats[res.loser] == "East" and res.legs == 1
        assert res.errors == 0


def _known_bug(path: Path) -> list[pytest.MarkDecorator]:
    """The strict xfail marker a corpus record's .expected asks for (first line
    '# xfail: BUG ...'), if any."""
    exp = path.with_suffix(".expected")
    first = exp.read_text(encoding="utf-8").split("\n", 1)[0] if exp.exists() else ""
    m = re.match(r"#\s*xfail:\s*(.*)", first)
    return [pytest.mark.xfail(strict=True, reason=m.group(1))] if m else []


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name, marks=_known_bug(p))
                                  for p in sorted((DATA / "invalid").glob("M2*.gwy"))
                                  if CODES[p.name[:4]].severity == "mistake"])
def test_penalty_both_ways(path: Path) -> None:
    """Every game of the M2xx records is named after how its record goes on. "penalty
    applied ...": as if the penalty was applied, accepted silently: one diagnostic, no
    note about it. "nobody noticed ...": as if it was not: one diagnostic whose note says
    the penalty was not applied (ruling 1; judge.py). Never a cascade."""
    for game in Reader(str(path)).read_text(path.read_text(encoding="utf-8")):
        event = game.tag("Event") or ""
        res = Referee().judge(game)
        assert len(res.diagnostics) == 1, (event, [(d.code, d.message) for d in res.diagnostics])
        notes = res.diagnostics[0].notes
        if event.startswith("penalty applied"):
            assert not any("not applied" in n for n in notes), event
        else:
            assert event.startswith("nobody noticed"), f"game {game.number} is not named after its penalty"
            assert any("penalty was not applied" in n for n in notes), event


# ---- renege proved later from unseen hands -------------------------------------------------


def test_renege_proved_later_is_reported_at_the_tochoo() -> None:
    path = DATA / "invalid" / "M201-renege-proved.gwy"
    text = path.read_text(encoding="utf-8")
    game = next(iter(Reader(str(path)).read_text(text)))
    res = Referee().judge(game)
    assert len(res.diagnostics) == 1  # and the counts after it still hold: no R111
    d = res.diagnostics[0]
    assert d.code == "M201" and d.trick == 4
    lines = text.split("\n")
    tochoo_line = next(i for i, ln in enumerate(lines, 1) if ln.startswith("4. West 2♥"))
    proof_line = next(i for i, ln in enumerate(lines, 1) if ln.startswith("7. South 2♣"))
    assert at(d) == (tochoo_line, lines[tochoo_line - 1].index("K♣") + 1)
    assert len(d.related) == 1
    r = d.related[0]
    assert (r.span.line, r.span.col) == (proof_line, lines[proof_line - 1].index("4♥") + 1)
    assert r.source_line == lines[proof_line - 1]
    assert any("4♥" in n and "trick 7" in n for n in d.notes)
    assert any("not applied" in n for n in d.notes)


def test_first_trick_renege_proved_later_cites_the_first_trick_rule() -> None:
    path = DATA / "invalid" / "M201-renege-proved.gwy"
    game = list(Reader(str(path)).read_text(path.read_text(encoding="utf-8")))[1]
    res = Referee().judge(game)
    [d] = res.diagnostics
    assert d.trick == 1
    assert any("First trick" in n for n in d.notes)
    assert "tochoo" not in d.label


def test_a_take_clears_what_was_known_of_a_void() -> None:
    """East showed no spade in trick 1, then took South's unseen hand: East's 3♠ may come
    from South's cards, so it proves nothing."""
    text = HEADER + SIZES13 + """\
1. West A♠, North J♠, East A♥, South 10♠
2. West 5♥, North 9♥, East Q♥, South J♥
East takes South
3. East 3♠, West K♠, North 8♠
"""
    res = one(text)
    assert res.diagnostics == []


# ---- taking, drawing: the facts of rulings 3 and 4 --------------------------------------


def test_take_of_the_player_due_to_lead_passes_the_lead_on() -> None:
    text = HEADER + """\
position
North 2♣ 3♣
East 4♣
South 5♣
West 6♣ 7♣
waste rest
lead East
trick 20
North takes East
"""
    res = one(text, keep_engine=True)
    assert res.diagnostics == []
    e = engine_of(res)
    assert EAST in e.view().out_order and e.view().power == S
    assert sizes(res)["North"] == 3


def test_last_card_draws_from_the_waste_and_leads_the_drawn_card() -> None:
    head = HEADER + """\
position
North 9♦
East 5♦ 7♣
South 4♦ 8♣
West out
waste rest
lead North
trick 30
30. North 9♦, East 5♦, South 4♦
"""
    res = one(head, keep_engine=True)
    assert res.diagnostics == []
    e = engine_of(res)
    assert e.view().phase == E.DRAW_DUE and e.view().to_act == N
    assert N not in e.view().out_order
    # The trick just played is not yet in the waste pile: its cards cannot be drawn.
    v = e.verdict(DrawCard(N, card("5♦"), None))
    assert v is not None and v.code == "R106"
    assert e.verdict(DrawCard(N, card("6♣"), None)) is None
    res = one(head + "North draws 6♣\n", keep_engine=True)
    e = engine_of(res)
    assert e.view().phase == E.BETWEEN and e.view().power == N
    assert [card_str(c) for c in e.known(N)] == ["6♣"]


def test_double_pack_holds_104_cards() -> None:
    once, twice = E.pack_masks(rule_set("pagat packs=2"))
    assert once.bit_count() + twice.bit_count() == 104


# ---- what every diagnostic carries -----------------------------------------------------------


def _corpus_diagnostics() -> list[tuple[Path, Diagnostic]]:
    out: list[tuple[Path, Diagnostic]] = []
    for path in sorted((DATA / "invalid").glob("*.gwy")):
        reader = Reader(str(path))
        games = list(reader.read_text(path.read_text(encoding="utf-8")))
        diags = list(reader.prelude.errors)
        for g in games:
            diags += Referee().judge(g).diagnostics
        out += [(path, d) for d in diags]
    return out


CORPUS_DIAGNOSTICS = _corpus_diagnostics()
# Rule diagnostics that cite no rules text (known bugs).
NO_SOURCE: dict[tuple[str, str, int], str] = {}


def _rule_params() -> list[Any]:
    params = []
    for path, d in CORPUS_DIAGNOSTICS:
        if d.code[0] not in "RM":
            continue
        key = (path.name, d.code, d.span.line if d.span else 0)
        marks = [pytest.mark.xfail(strict=True, reason="BUG: " + NO_SOURCE[key])] if key in NO_SOURCE else []
        params.append(pytest.param(path, d, id=f"{path.name}:{key[2]}:{d.code}", marks=marks))
    return params


def test_every_diagnostic_has_a_place() -> None:
    for path, d in CORPUS_DIAGNOSTICS:
        assert d.path == str(path), (path.name, d.code)
        assert d.span is not None and d.span.line >= 1 and d.span.col >= 1, (path.name, d.code, d.span)
        assert d.source_line, (path.name, d.code)
        assert d.code in CODES


@pytest.mark.parametrize("path,d", _rule_params())
def test_rule_diagnostic_cites_its_source(path: Path, d: Diagnostic) -> None:
    assert any(SOURCE.search(n) for n in d.notes), d.notes
    assert not any(UNREACHABLE.search(n) for n in d.notes + [d.help or ""]), d.notes
    if d.severity == "mistake":
        assert d.help and d.help.startswith("penalty (ruling 1)"), d.help
        m = re.match(r"(?:renege: )?(\w+)", d.message)
        assert m is not None, d.message
        name = m.group(1)
        assert name in d.help  # the offender named in the penalty
        assert "picks up" in d.help or "picked up" in d.help


def test_syntax_diagnostics_cite_the_notation() -> None:
    syntax = [d for _, d in CORPUS_DIAGNOSTICS if d.code.startswith("S")]
    assert syntax
    for d in syntax:
        assert any("notation" in n for n in d.notes), (d.code, d.message)


# ---- explain ------------------------------------------------------------------------------------


def _produced_codes() -> list[str]:
    return sorted({d.code for _, d in CORPUS_DIAGNOSTICS})


@pytest.mark.parametrize("code", _produced_codes())
def test_explain_every_produced_code(code: str) -> None:
    result = CliRunner().invoke(app, ["explain", code])
    assert result.exit_code == 0, result.output
    assert code in result.output
    assert CODES[code].title in result.output


def test_explain_from_the_command_line() -> None:
    proc = run_cli("explain", "m201")
    assert proc.returncode == 0
    assert "M201" in proc.stdout and "renege" in proc.stdout
    bad = run_cli("explain", "X999")
    assert bad.returncode == 2


# ---- record errors that must not cascade, and the penalty applied when a trick is over ----------

FULL_DEAL = (
    "deal\n"
    "North 2♠ 3♥ 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ A♥\n"
    "East 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ 2♥ 2♦\n"
    "South 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣ J♣ Q♣ K♣ A♣\n"
    "West A♠ 3♦ 4♦ 5♦ 6♦ 7♦ 8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦\n"
)


def test_a_seat_cannot_take_its_own_hand_and_nothing_moves() -> None:
    text = ('%gwy 1\n%game\n[Seats "N E S W"]\nposition\nN 2\nE out\nS 5\nW 4\nwaste rest\nlead S\ntrick 9\n'
            "N takes N\nN takes S\n")
    res = judge_text(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["R108"]
    assert "own hand" in res.diagnostics[0].message
    e = engine_of(res)
    # The second take is the legal one (S is the next player holding cards): N holds 2 + 5.
    assert e.size(0) == 7 and 2 in e.view().out_order and 0 not in e.view().out_order


def test_a_take_inside_a_trick_is_one_diagnostic_and_the_replay_goes_on() -> None:
    text = HEADER + SIZES13 + "1. West A♠, North J♠\nEast takes South\n1. East A♥, South 10♠\n2. West 5♥, North 9♥, East Q♥\n"
    res = judge_text(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["R109"]
    assert res.stopped is None
    e = engine_of(res)
    # Followed as if written after trick 1: East's 12 cards and South's 12, less Q♥.
    assert 2 in e.view().out_order and e.size(1) == 12 + 12 - 1


def test_first_trick_renege_penalised_when_the_trick_is_over() -> None:
    """Ruling 2: the first trick is played in any order, so a table may apply the penalty
    once every card is down. North reneged (holds 2♠) and leads trick 2 with the trick's
    four cards in hand: one diagnostic, saying the penalty was applied."""
    text = HEADER + FULL_DEAL + "1. West A♠, North 3♥, East 3♠, South 2♣\n2. North 4♥, East 2♥\n"
    res = judge_text(text, keep_engine=True)
    assert [d.code for d in res.diagnostics] == ["M201"]
    notes = " ".join(res.diagnostics[0].notes)
    assert "applied when the trick was over" in notes and "not applied" not in notes
    assert engine_of(res).size(0) == 13 - 1 + 4 - 1


def test_donkey_position_states_the_trumps_already_set() -> None:
    body = ("position\nNorth 5♣ 9♣\nEast 2♦ 4♥\nSouth 7♣ 3♠\nWest 8♣ 4♠\nwaste rest\nlead North\ntrick 5\n"
            "trumps hearts\n5. North 5♣, East 2♦\n")
    donkey = '%gwy 1\n%game\n[Rules "donkey"]\n[Seats "North East South West"]\n' + body
    res = judge_text(donkey)
    assert [d.code for d in res.diagnostics] == ["M201"]
    assert "trump 4♥" in res.diagnostics[0].message
    getaway = '%gwy 1\n%game\n[Rules "pagat"]\n[Seats "North East South West"]\n' + body
    assert [d.code for d in judge_text(getaway).diagnostics] == ["R113"]
    from referee.notation.format import format_file
    from referee.notation.reader import parse_file_text

    pre, games = parse_file_text(donkey)
    text2 = format_file(pre, games)
    assert "trumps ♥" in text2
    assert parse_file_text(text2)[1] == games


def test_a_misspelt_seat_in_the_deal_is_one_diagnostic() -> None:
    text = HEADER + "deal\nNorth 13\nEast 13\nSouth 13\nWset 13\n"
    games = parse(text)
    assert [d.code for d in games[0].errors] == ["S003"]


def test_an_empty_file_lacks_its_version_line(tmp_path: Path) -> None:
    p = tmp_path / "empty.gwy"
    p.write_text("", encoding="utf-8")
    r = run_cli("check", str(p))
    assert r.returncode == 1 and "S005" in r.stdout
