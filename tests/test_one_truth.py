"""The rule options are read by the engine alone (issue 37, item 6): what an option means is
decided once, in ``engine/``, and the other stages read the meaning, never the option.

What is checked: in every module of the package outside ``engine/``, no attribute of a rule
set named after one of its options (``trumps``, ``packs``, ``first_trick``, ``two_players``,
...) is read from an expression that is a rule set by its name (``rules``, ``self.rules``,
``e.rules``, ``res.rules``, ...). The table, self-play, the reader and the reports read the
rule set's facts instead (``RuleSet.donkey``, ``pack_size``, ``marked_ace``, ``most_seats``,
``even_deal``, ``may_take``) or the position's (``View.any_order``, ``View.ended_cite``, ``View.shootout``,
``Engine.duty_of``'s citation). Naming, printing and changing a rule set (``spec()``,
``name``, ``with_options``, ``overrides()``) is not reading what an option means.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

from referee.engine import citations as R
from referee.engine.deal import deal
from referee.engine.rules import OPTIONS, RuleSet, rule_set
from referee.engine.state import Engine, View
from referee.judging.referee import judge
from referee.notation.reader import read

ROOT = Path(__file__).resolve().parent.parent / "referee"

# (module, function): why it reads an option itself.
ALLOWED: dict[tuple[str, str], str] = {}


def _is_rules(n: ast.AST) -> bool:
    name = n.id if isinstance(n, ast.Name) else n.attr if isinstance(n, ast.Attribute) else ""
    return name == "rules" or name.endswith("_rules")


def _option_reads(path: Path) -> list[tuple[str, int, str]]:
    """The reads of a rule option in a module: (enclosing function, line, source)."""
    out: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            f = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else func
            if isinstance(child, ast.Attribute) and child.attr in OPTIONS and _is_rules(child.value) \
                    and isinstance(child.ctx, ast.Load):
                out.append((f, child.lineno, ast.unparse(child)))
            visit(child, f)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


def test_no_rule_option_is_read_outside_the_engine() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("engine/"):
            continue
        found += [f"{rel}:{line} in {func}(): {src}" for func, line, src in _option_reads(path)
                  if (rel, func) not in ALLOWED]
    assert not found, ("a rule option read outside engine/ (ask the rule set's fact, the View or "
                       "Engine.duty_of instead):\n" + "\n".join(found))


def test_the_check_sees_an_option_read(tmp_path: Path) -> None:
    p = tmp_path / "probe.py"
    p.write_text("def legs(e, res):\n    return e.rules.trumps or res.rules.packs == 2\n", encoding="utf-8")
    assert [f for f, _, _ in _option_reads(p)] == ["legs", "legs"]


def test_the_facts_follow_the_options() -> None:
    # Each fact the other stages read is the option's meaning, for every preset.
    one, two = rule_set("pagat"), rule_set("pagat packs=2")
    assert (one.pack_size, one.marked_ace, one.most_seats) == (52, False, 8)
    assert (two.pack_size, two.marked_ace, two.most_seats) == (104, True, 16)
    assert rule_set("donkey").donkey and not one.donkey
    assert one.even_deal and not rule_set("pagat deal=piles").even_deal
    assert one.may_take and not rule_set("pagat taking=no").may_take
    assert isinstance(one, RuleSet)


RECORDS = Path(__file__).resolve().parent.parent / "records"


def _end_view(name: str, **overrides: object) -> View:
    (game,) = list(read(RECORDS / name))
    engine = judge(game, overrides=overrides, keep_engine=True).engine
    assert engine is not None
    return engine.view()


def test_the_view_says_which_rule_ended_the_game() -> None:
    # The two-player ending's source follows the rule set's two_players option, which the
    # table no longer reads: Pagat's outcome, or Denexa's ending under two_players=denexa.
    pagat = _end_view("dispute-two-players.gwy")
    denexa = _end_view("dispute-two-players.gwy", two_players="denexa")
    assert (pagat.ended_by, pagat.ended_cite) == ("two_players", R.TWO_PLAYERS)
    assert denexa.ended_cite == R.DENEXA_ENDING
    assert _end_view("full-game.gwy").ended_cite == R.END


def test_the_view_says_whether_the_first_trick_is_in_any_order() -> None:
    for spec, free in (("pagat", True), ("pagat first_trick=in_turn", False)):
        rules = rule_set(spec)
        v = Engine.from_deal(rules, deal(random.Random(1), rules, 4, None)).view()
        assert v.first_trick and v.any_order is free
