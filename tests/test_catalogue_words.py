"""Each mistake's and record error's words are written once, in the code catalogue
(engine/codes.py, ruff's ``Violation``: the rule owns its message).

The check: every fixed piece of text of a catalogue template (a message, a label, a rule
note's words after its citation, a further note, a related label) at least ``MIN`` characters
long, cut at the template's ``{fields}``, appears in no string literal (plain or the fixed
parts of an f-string; docstrings, which show examples of output, are left out) of any module
outside ``engine/``. A copy of a code's sentence elsewhere (a per-code branch in the
referee, a second wording in the table) fails it. Inside ``engine/`` the verdicts' short
reasons (the library's ``Verdict.reason``, docs/library.md) and the rulings' titles
(citations.py) are the engine's own and may share words with a message.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from referee.engine.codes import CODES, PENALTY_NOTE, Code, say

ROOT = Path(__file__).resolve().parent.parent / "referee"
CATALOGUE = ROOT / "engine" / "codes.py"
MIN = 17  # shorter pieces ("the game is over", 16) are the game's common words, not a code's sentence


def _templates() -> list[str]:
    out: list[str] = [PENALTY_NOTE]
    for info in CODES.values():
        w = info.words
        if w is None:
            continue
        out += list(w.messages.values()) + list(w.labels.values()) + list(w.notes.values())
        out += list(w.related.values()) + [m for ms in w.more.values() for m in ms]
    return out


def _pieces(template: str) -> set[str]:
    text = template.split(" — ", 1)[-1]  # a rule note: its words, not the citation
    return {p.strip() for p in re.split(r"\{[^}]*\}", text) if len(p.strip()) >= MIN}


def _literals(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_the_catalogue_has_words_for_every_code() -> None:
    # Every code in use, M, R and S alike, is said in the catalogue's words; S007's message is
    # the rule-set reader's own (engine/rules.py, RulesError: where in the spec it went wrong).
    in_use = [c for c in Code if not CODES[c].retired and c != Code.BAD_RULES]
    assert {c[0] for c in in_use} == {"M", "R", "S"}
    assert [c for c in in_use if CODES[c].words is None] == []


def test_a_reading_error_is_said_in_the_catalogue_s_words(tmp_path: Path) -> None:
    # The reader fills the catalogue's template: the words a user reads are the entry's.
    from referee.notation.reader import parse

    games = parse("%gwy 1\n%game\n[Seats \"North South\"]\n[Seats \"North South\"]\n", str(tmp_path / "x.gwy"))
    said = [d.message for g in games for d in g.errors]
    assert say(Code.BAD_TAG, "twice", name="Seats").message in said


def test_no_code_words_outside_the_catalogue() -> None:
    pieces = set().union(*(_pieces(t) for t in _templates()))
    assert len(pieces) > 30  # the check has something to check
    found: list[str] = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.parent == CATALOGUE.parent:
            continue
        for lit in _literals(path):
            found += [f"{path.relative_to(ROOT)}: {p!r}" for p in pieces if p in lit]
    assert not found, "a code's words written outside engine/codes.py:\n" + "\n".join(found)


def test_a_copy_would_be_found() -> None:
    # The check reads f-strings' fixed parts too: the old per-code branch would fail it.
    src = 'x = f"renege: {a} played {b} without trumping, holding the trump {c}"'
    lits = [n.value for n in ast.walk(ast.parse(src)) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    pieces = _pieces(CODES[Code.RENEGE].words.messages["trump"])  # type: ignore[union-attr]
    assert any(p in lit for p in pieces for lit in lits)


def test_say_fills_the_facts_and_adds_ruling_1() -> None:
    w = say(Code.SECOND_CARD, seat="North", card="9♠", trick=1)
    assert w.message == "North played a second card, 9♠, to trick 1"
    assert w.notes[1] == PENALTY_NOTE and "ruling 2" in w.notes[0]
    proved = say(Code.RENEGE, "proved", "first", seat="East", card="5♥", led="spade", proof="3♠", proof_trick=4)
    assert PENALTY_NOTE not in proved.notes and proved.label == "a spade was due"
    assert proved.related == "East plays a spade from the hand that had none"
