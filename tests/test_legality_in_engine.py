"""No module outside ``engine/`` decides whether a card may be played: the duty to follow
(follow suit, else in Donkey trump, else any card; the first trick's spade) is the engine's
(``Engine.legal``, ``legal_cards``, ``duty``, ``shows_void``, the verdicts), and everything
else asks it.

What is checked, precisely: in every module of the package outside ``engine/``, no
comparison ``==``/``!=`` has on one side the suit of a card (``SUIT[...]``, ``C.SUIT[...]``)
and on the other the suit led or the trump suit (a name or attribute with ``led`` or
``trump`` in it, or ``SUIT[<trick>[0][1]]``): that comparison is how a rule of following is
re-derived. The few places listed in ALLOWED compare suits for another purpose than
legality, each with its reason; a new one fails the test until it asks the engine instead
(or is listed here with a reason a reviewer accepts).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "referee"

# (module, function): why its suit comparison is not a decision of legality.
ALLOWED = {
    ("archive/imports/card_game_thulla.py", "read_card_game_thulla"): "finds where the app ended each trick (its log has no trick "
                                                       "boundaries) by the app's own rule; the referee judges the record after",
    ("archive/imports/bhabi_thulla_game.py", "play"): "the app's own bookkeeping of where its trick ended and who "
                                                       "picked up (its moves keep no trick boundaries); the referee judges the record after",
    ("players/pimc.py", "play_shows_lacking"): "what a legal play shows the other seats (the lowest of its suit)",
    ("players/bots.py", "card"): "a bot's choice among the cards the engine gave as legal",
    ("players/bots.py", "_apply"): "what every player sees a play the engine accepted show (a suit lacked)",
    ("table/answers.py", "highest_clause"): "the words for the card that won a trick",
    ("table/views.py", "_seat_legal"): "lists the unseen cards of the suit led, beside the engine's duty",
}


def _suit_of_card(n: ast.AST) -> bool:
    if isinstance(n, ast.Subscript):
        v = n.value
        return (isinstance(v, ast.Name) and v.id == "SUIT") or (isinstance(v, ast.Attribute) and v.attr == "SUIT")
    return False


def _led_or_trump(n: ast.AST) -> bool:
    for x in ast.walk(n):
        name = x.id if isinstance(x, ast.Name) else x.attr if isinstance(x, ast.Attribute) else ""
        if "led" in name.lower() or "trump" in name.lower():
            return True
        if _suit_of_card(x) and isinstance(x, ast.Subscript) and isinstance(x.slice, ast.Subscript):
            return True  # SUIT[trick[0][1]]: the suit of the card led
    return False


def _decisions(path: Path) -> list[tuple[str, int, str]]:
    """The suit-led comparisons of a module: (enclosing function, line, source)."""
    out: list[tuple[str, int, str]] = []

    def visit(node: ast.AST, func: str) -> None:
        for child in ast.iter_child_nodes(node):
            f = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else func
            if isinstance(child, ast.Compare) and len(child.ops) == 1 and isinstance(child.ops[0], ast.Eq | ast.NotEq):
                a, b = child.left, child.comparators[0]
                if (_suit_of_card(a) and _led_or_trump(b)) or (_suit_of_card(b) and _led_or_trump(a)):
                    out.append((f, child.lineno, ast.unparse(child)))
            visit(child, f)

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


def test_no_module_outside_the_engine_decides_legality() -> None:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("engine/"):
            continue
        found += [f"{rel}:{line} in {func}(): {src}" for func, line, src in _decisions(path)
                  if (rel, func) not in ALLOWED]
    assert not found, "a rule of following re-derived outside engine/ (ask Engine.legal/duty instead):\n" + \
        "\n".join(found)


def test_the_check_sees_a_re_derived_rule(tmp_path: Path) -> None:
    p = tmp_path / "probe.py"
    p.write_text("def may_play(c, t):\n    return C.SUIT[c] == C.SUIT[t.trick[0][1]] or not held\n", encoding="utf-8")
    assert [f for f, _, _ in _decisions(p)] == ["may_play"]


def test_every_allowed_place_still_exists() -> None:
    # A stale entry would let a new comparison in under an old name.
    seen = {(path.relative_to(ROOT).as_posix(), f) for path in ROOT.rglob("*.py")
            for f, _, _ in _decisions(path)}
    assert set(ALLOWED) <= seen, set(ALLOWED) - seen
