"""The engine's typed API is the boundary (issue 23): every module outside ``referee/engine/``
reads no field of an ``Engine`` and calls none of its internal methods; it asks ``view()``,
``turn()``, ``legal()``, ``legal_actions()`` and the read-only questions, and changes a game
only through ``apply()`` (or ``play_card()``, its form for a plain play with no events) and
``apply_mistake()``.

Like tests/test_architecture.py, every module is parsed with ``ast`` (nothing is imported).
A small inference finds the expressions that are engines: a parameter or a variable annotated
``Engine``, an attribute annotated so in a class of the module, what ``Engine.from_deal``,
``Engine.from_position``, an engine's ``fork()`` or ``copy()`` or a function of the module
annotated to return an ``Engine`` gives, and any name or attribute assigned one of these.
Every attribute of such an expression must be one of ``TYPED_API``.
"""

from __future__ import annotations

import ast
from pathlib import Path

from referee.engine.state import Engine

PACKAGE = Path(__file__).resolve().parent.parent / "referee"

# Where the engine's ints and masks may be read: the engine itself (the solver's search included).
INSIDE = PACKAGE / "engine"

# What a caller may use of an Engine: building one, copying it, the typed questions and the one
# mutator, the events, a line for an error message, and the rule set it was built with.
TYPED_API = frozenset({
    "from_deal", "from_position", "fork", "copy", "view", "turn", "legal", "playable", "legal_actions", "legal_takes", "apply", "apply_mistake",
    "play_card",  # apply(PlayCard(s, c), events=False) with the ints alone: the replay's plain plays
    "event_count", "events_since", "events", "describe", "rules",
    "logged",  # the events as the engine logs them, (class, fields...), unmade: the Parquet export's reading
    # questions that change nothing and answer in plain values (seats, cards, counts, words)
    "size", "known", "may_hold", "waste_size", "hidden_size", "holds_cards", "in_game", "in_game_count", "holding",
    "to_act", "ace_holder", "first_card", "takes", "where",
    # show and legal: a copy with the cards known by elimination placed, and the rule's duty for a seat in order
    "resolved", "duty",
    "duty_of",  # issue 37: what the rule asks of a seat now, as one value (Duty: the rule, its source, the cards)
    # seamjudge: the judge's questions (what an action would break, whether a play is plain,
    # what a card from unseen cards shows or could have been), plain values only
    "verdict", "holds_known", "plain_phase", "trick_number", "current_phase", "played_on", "waiting",
    "could_have_followed", "shows_void", "unseen_void", "lower_card_instead", "shootout", "outcome", "in_trick", "ended_trick", "hands_seen",
    "sample_unseen",  # solver branch: a copy with the unseen hands dealt at random (the review's samples)
    "all_known",  # whether every card of the position is known (the solver answers only then)
})

# Everything an Engine has, over the chain of classes it is made of (engine/state.py: each
# layer in its own module): the state's fields (the slots of the bottom layer) and the methods.
LAYERS = [k for k in Engine.__mro__ if k is not object]
SLOTS = frozenset(n for k in LAYERS for n in vars(k).get("__slots__", ()))
MEMBERS = frozenset(SLOTS | {n for k in LAYERS for n in vars(k) if not n.startswith("__")})
# Everything else an Engine has: its state fields and its internal methods.
INTERNAL = MEMBERS - TYPED_API

MAKERS = frozenset({"from_deal", "from_position"})  # Engine.from_deal(...): an engine
COPIES = frozenset({"fork", "copy", "sample_unseen"})  # engine.fork(): an engine


def _is_engine_type(node: ast.expr | None) -> bool:
    if node is None:
        return False
    if isinstance(node, ast.Name):
        return node.id == "Engine"
    if isinstance(node, ast.Attribute):
        return node.attr == "Engine"
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace(" ", "") in ("Engine", "Engine|None")
    if isinstance(node, ast.BinOp):  # Engine | None
        return _is_engine_type(node.left) or _is_engine_type(node.right)
    return False


def _engine_places(node: ast.expr | None) -> set[int]:
    """``tuple[Engine | None, GameResult]``: the places of a tuple annotation that hold an engine."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return set()
    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "tuple"
            and isinstance(node.slice, ast.Tuple)):
        return set()
    return {i for i, elt in enumerate(node.slice.elts) if _is_engine_type(elt)}


def engine_fields(root: Path = PACKAGE) -> frozenset[str]:
    """The attributes that hold an engine in the package's classes: a field annotated
    ``Engine`` (``Step.after``, ``Session.engine``) or a property that returns one."""
    found: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            for item in node.body:
                if (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                        and _is_engine_type(item.annotation)):
                    found.add(item.target.id)
                elif (isinstance(item, ast.FunctionDef) and _is_engine_type(item.returns)
                      and any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)):
                    found.add(item.name)
    return frozenset(found)


class _Module:
    """The engine expressions of one module, and the reads of their internals."""

    def __init__(self, tree: ast.Module, fields: frozenset[str] = frozenset()) -> None:
        self.tree = tree
        # attributes that hold an engine (self.engine, table.engine, step.after)
        self.attrs: set[str] = set(fields)
        self.makers: set[str] = set()  # functions of the module that return an engine
        # functions of the module that return a tuple with engines in it: the places of those
        self.tuple_makers: dict[str, set[int]] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_engine_type(node.returns):
                self.makers.add(node.name)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (places := _engine_places(node.returns)):
                self.tuple_makers[node.name] = places
            elif isinstance(node, ast.AnnAssign) and _is_engine_type(node.annotation):
                if isinstance(node.target, ast.Attribute):
                    self.attrs.add(node.target.attr)
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if (isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                            and _is_engine_type(item.annotation)):
                        self.attrs.add(item.target.id)
        self.names: dict[ast.AST, set[str]] = {}
        for _ in range(3):  # assignments feed each other: a few rounds reach the fixpoint
            for fn in [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]:
                self._function(fn)

    def _function(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        names = self.names.setdefault(fn, set())
        args = fn.args
        for a in args.posonlyargs + args.args + args.kwonlyargs:
            if _is_engine_type(a.annotation):
                names.add(a.arg)
        for node in ast.walk(fn):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and _is_engine_type(node.annotation):
                names.add(node.target.id)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) \
                    and isinstance(node.value.func, ast.Name) and node.value.func.id in self.tuple_makers:
                # e, result = position_before(...): the names at the engines' places
                places = self.tuple_makers[node.value.func.id]
                for t in node.targets:
                    if isinstance(t, ast.Tuple):
                        names.update(x.id for i, x in enumerate(t.elts) if i in places and isinstance(x, ast.Name))
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                    and self.is_engine(node.value, names):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        names.add(t.id)
                    elif isinstance(t, ast.Attribute):
                        self.attrs.add(t.attr)

    def is_engine(self, node: ast.expr, names: set[str]) -> bool:
        if isinstance(node, ast.Name):
            return node.id in names
        if isinstance(node, ast.Attribute):
            return node.attr in self.attrs
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute):
                return f.attr in MAKERS or (f.attr in COPIES and self.is_engine(f.value, names))
            if isinstance(f, ast.Name):
                return f.id in self.makers
        return False

    def reads(self) -> list[tuple[int, str]]:
        """(line, name) of every internal of an engine the module touches."""
        found = []
        for fn, names in self.names.items():
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and node.attr in INTERNAL and self.is_engine(node.value, names):
                    found.append((node.lineno, node.attr))
        return sorted(set(found))


def internal_reads(source: str, fields: frozenset[str] = frozenset()) -> list[tuple[int, str]]:
    return _Module(ast.parse(source), fields).reads()


def test_no_module_outside_the_engine_reads_a_field_or_calls_an_internal_method() -> None:
    offences = []
    fields = engine_fields()
    assert {"after", "before"} <= fields  # judging's Step: the engine around a record's item
    outside = [p for p in sorted(PACKAGE.rglob("*.py")) if INSIDE not in p.parents]
    assert len(outside) > 50 and any(p.parent.name == "judging" for p in outside)
    for path in outside:
        for line, name in internal_reads(path.read_text(encoding="utf-8"), fields):
            offences.append(f"{path.relative_to(PACKAGE.parent)}:{line}: engine.{name}")
    assert offences == [], "read the position from view() and act through apply():\n" + "\n".join(offences)


def test_the_check_finds_a_field_read_a_judging_call_and_an_engine_kept_on_an_object() -> None:
    source = '''
class Table:
    def __init__(self, rules, hands) -> None:
        self.engine = Engine.from_deal(rules, hands)
        self.view = self.engine.view()

    def move(self, s: int, c: int) -> None:
        t = self.engine.fork()
        if t._next_to_play() == s:
            t._play(s, c)
        self.view.trick          # a View's field: allowed
        self.engine.apply(PlayCard(s, c))

def lead(e: Engine) -> int:
    return e._power

def rollout(e: "Engine") -> Engine:
    return e.fork()

def after(x: int) -> int:
    return rollout(x)._phase

def before(x: int) -> tuple[Engine | None, int]:
    return None, x

def hover(x: int) -> bool:
    e, n = before(x)
    return e._lenient
'''
    assert [name for _, name in internal_reads(source)] == ["_next_to_play", "_play", "_power", "_phase", "_lenient"]


def test_the_typed_api_names_what_an_engine_has() -> None:
    # A name of TYPED_API that the engine lost would let a read through unnoticed.
    assert all(hasattr(Engine, name) for name in TYPED_API - {"rules"})
    assert "rules" in SLOTS
    assert {"_once", "_power", "_trick", "_phase", "_play", "_take", "_draw"} <= INTERNAL
    # the state fields are private names: nothing outside the engine can mistake them for its API
    assert all(f.startswith("_") for f in SLOTS if f != "rules")


def test_public_means_public_on_the_engine() -> None:
    """Issue 37, item 5: every name of ``Engine`` without a leading underscore is its typed
    API, and every other name has one; so the list above is the class's own surface, not a
    second list of what callers must not touch. The engine's own workings (judging, what a
    play does, the record followed, the samples, the solver's moves) are the private methods
    of its layers (engine/judge.py, play.py, follow.py, sample.py, moves.py), read through
    ``self``."""
    public = {n for n in MEMBERS if not n.startswith("_")}
    assert public == TYPED_API
    assert {n for n in INTERNAL if not n.startswith("_")} == set()
