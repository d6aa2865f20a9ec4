"""Rule sets: every documented variant of Getaway as an option, and named presets.

The engine reads nothing but a :class:`RuleSet`, so a variant is a flag here and never a
second copy of the engine. Each option cites its sources (referee.engine.citations).

A rule set is a plain frozen dataclass: every ``check`` reads one from each game's
``[Rules]`` tag, and a plain text check must not pay for importing pydantic (issue 16). A
house-rules file, whose values come from TOML or JSON typed by the user, is validated by
pydantic in :func:`load_file`, imported there.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Literal, NamedTuple

from referee.engine import citations as R
from referee.engine import language as L


class OptionInfo(NamedTuple):
    """What ``getaway-ref rules`` shows of an option (the names pydantic's FieldInfo uses, so
    code written against the former model keeps working); the description in English, marked
    for the catalogue and said in the chosen language where it is shown."""

    annotation: Any
    default: object
    description: str
    json_schema_extra: dict[str, str]


def _option(default: object, annotation: Any, description: str, source: str) -> Any:
    return field(default=default, metadata={"info": OptionInfo(annotation, default, description, {"source": source})})


class RulesError(ValueError):
    """A rule set that cannot be read; ``offset`` is where in the spec text it went wrong."""

    def __init__(self, message: str, offset: int = 0, length: int = 0):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.length = length


@dataclass(frozen=True, slots=True)
class RuleSet:
    """The rules one table plays. Frozen: a game is judged by one rule set throughout."""

    name: str = _option("pagat", str, L.N_("the preset this rule set starts from"), "")
    direction: Literal["clockwise", "anticlockwise"] = _option(
        "clockwise", Literal["clockwise", "anticlockwise"],
        L.N_("direction of play; the seats tag lists the seats clockwise"),
        R.cites(R.PLAYERS, R.ANTICLOCKWISE),
    )
    last_card: Literal["draw_waste", "draw_hand", "pass_lead"] = _option(
        "draw_waste", Literal["draw_waste", "draw_hand", "pass_lead"],
        L.N_("a player whose last card wins a clean trick: draws from the waste pile and leads "
             "it; draws from a player's hand and leads it; or gets away and the lead passes on "
             "(with two players left, draws from the waste pile)"),
        R.cites(R.GETTING_AWAY, R.LAST_CARD, R.DENEXA_GETTING_AWAY, R.ruling(9)),
    )
    draw_from: Literal["next", "any"] = _option(
        "next", Literal["next", "any"],
        L.N_("with last_card=draw_hand: the next player holding cards, or any player"),
        str(R.DRAW_FROM_HAND),
    )
    taking: bool = _option(
        True, bool, L.N_("a player may take the whole hand of the next player holding cards"),
        R.cites(R.TAKING, R.ruling(3)),
    )
    deal: Literal["even", "piles"] = _option(
        "even", Literal["even", "piles"],
        L.N_("dealt as equally as possible, or split into piles by eye (any sizes)"),
        R.cites(R.DEAL, R.PILES, R.ruling(7)),
    )
    packs: Literal[1, 2] = _option(
        1, Literal[1, 2], L.N_("one 52-card pack, or two with one ace of spades marked"),
        str(R.DOUBLE_PACK),
    )
    trumps: bool = _option(
        False, bool, L.N_("Donkey: the first card that cannot follow suit sets the trump suit"),
        R.cites(R.DONKEY, R.ruling(6)),
    )
    first_trick: Literal["any_order", "in_turn"] = _option(
        "any_order", Literal["any_order", "in_turn"],
        L.N_("the first trick may be played in any order, or in turn like the others"),
        R.cites(R.FIRST_TRICK, R.DENEXA_PLAY, R.ruling(2)),
    )
    two_players: Literal["pagat", "denexa"] = _option(
        "pagat", Literal["pagat", "denexa"],
        L.N_("the ending with two players left: Pagat's three outcomes, or Denexa's shootout, "
             "where the player with cards must answer a drawn lead with a lower card if able"),
        R.cites(R.TWO_PLAYERS, R.DENEXA_ENDING, R.ruling(8)),
    )

    # The options' descriptions and sources, by name (filled in below the class).
    model_fields: ClassVar[dict[str, OptionInfo]]

    def __post_init__(self) -> None:
        # A wrong value is refused here, whoever builds the rule set: the engine trusts it.
        if not isinstance(self.name, str):
            raise RulesError(L.gettext("a rule set's name is a word, not {name}").format(name=repr(self.name)))
        for k in OPTIONS:
            v = getattr(self, k)
            if not _valid(k, v):
                raise RulesError(takes(k, repr(v)))

    # ---- names --------------------------------------------------------------------

    def model_dump(self) -> dict[str, object]:
        """Every field by name, the preset's name first (as JSON writes a rule set)."""
        return {k: getattr(self, k) for k in FIELDS}

    def overrides(self) -> dict[str, object]:
        """The options that differ from this rule set's preset."""
        base = PRESETS.get(self.name, PRESETS["pagat"])
        return {k: getattr(self, k) for k in OPTIONS if getattr(base, k) != getattr(self, k)}

    def spec(self) -> str:
        """The rule set as a record's ``[Rules]`` tag writes it: ``pagat taking=no``."""
        parts = [self.name]
        for k, v in self.overrides().items():
            parts.append(f"{k}={format_value(v)}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"rule_set({self.spec()!r})"

    def with_options(self, **options: object) -> RuleSet:
        return dataclasses.replace(self, **options)  # type: ignore[arg-type]

    # ---- the rule set's facts, for the stages outside the engine ----------------------
    # What an option means is said here once: the reader, the table, self-play and the
    # reports ask these facts and never read an option themselves (tests/test_one_truth.py).
    # What an option means for a position (the duty, who plays next, any order, how the game
    # ended) is on the engine's values: View, Duty, the events.

    @property
    def donkey(self) -> bool:
        """The Kerala game (Pagat, Donkey): a trump suit, and the loser's legs counted."""
        return self.trumps

    @property
    def pack_size(self) -> int:
        """How many cards the pack holds: 52, or 104 with a double pack."""
        return 52 * self.packs

    @property
    def marked_ace(self) -> bool:
        """The pack has a marked ace of spades (a double pack: Pagat, Variations)."""
        return self.packs == 2

    @property
    def most_seats(self) -> int:
        """The most players the pack serves (Pagat, Players and Cards; a double pack 16)."""
        return 16 if self.packs == 2 else 8

    @property
    def may_take(self) -> bool:
        """A player may take the next player's hand between tricks (Pagat, Taking cards)."""
        return self.taking

    @property
    def even_deal(self) -> bool:
        """The deal gives the hands sizes that differ by one at most (not piles by eye)."""
        return self.deal == "even"


FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet))
RuleSet.model_fields = {f.name: f.metadata["info"] for f in dataclasses.fields(RuleSet)}
OPTIONS = [k for k in FIELDS if k != "name"]


def _allowed(option: str) -> tuple[object, ...]:
    ann = RuleSet.model_fields[option].annotation
    return (True, False) if ann is bool else tuple(ann.__args__)


def _valid(option: str, value: object) -> bool:
    # By type as well as value: True == 1, yet True is not a number of packs.
    return any(type(value) is type(a) and value == a for a in _allowed(option))


def format_value(v: object) -> str:
    if v is True:
        return "yes"
    if v is False:
        return "no"
    return str(v)


PRESETS: dict[str, RuleSet] = {
    # Pagat's main rules (pagat-getaway.txt, all sections before Variations).
    "pagat": RuleSet(name="pagat"),
    # Denexa's rules as written: the first trick in turn (Game play), a player who runs out
    # while due to lead gets away and the next player leads (Getting away), the shootout
    # (Ending the hand).
    "denexa": RuleSet(name="denexa", last_card="pass_lead", first_trick="in_turn", two_players="denexa"),
    # Pagat's Donkey, the Kerala trump game (pagat-getaway.txt, Donkey).
    "donkey": RuleSet(name="donkey", trumps=True),
}

PRESET_SOURCES = {
    "pagat": f"{R.PAGAT}: the main rules",
    "denexa": f"{R.DENEXA}: Denexa Games' rules as written",
    "donkey": f"{R.DONKEY}: the Kerala trump game",
}

_BOOL_WORDS = {"yes": True, "true": True, "on": True, "no": False, "false": False, "off": False}


def option_values(option: str) -> list[str]:
    """The values an option takes, as written in a rules spec."""
    ann = RuleSet.model_fields[option].annotation
    if ann is bool:
        return ["yes", "no"]
    return [str(v) for v in ann.__args__]


def coerce(option: str, value: str) -> object:
    """A spec's word for an option value, as the model's type; raises ValueError."""
    ann = RuleSet.model_fields[option].annotation
    word = value.strip().lower()
    if ann is bool:
        if word in _BOOL_WORDS:
            return _BOOL_WORDS[word]
    else:
        for v in ann.__args__:
            if str(v) == word:
                return v
    raise ValueError(takes(option, f"'{value}'"))


def takes(option: str, value: str) -> str:
    """An option given a value it does not take (``value`` as the user wrote it, quoted): the
    values it takes, said as a list in the chosen language."""
    return L.gettext("option '{option}' takes {values}, not {value}").format(
        option=option, values=either(option_values(option) if option in OPTIONS else []), value=value)


def either(words: list[str]) -> str:
    """``yes or no``, ``a or b or c``: the choices, joined by the language's word for or."""
    said = words[0] if words else ""
    for w in words[1:]:
        said = L.gettext("{one} or {other}").format(one=said, other=w)
    return said


def unknown_preset(name: str) -> str:
    """A rule set's name that is not a preset: the presets, in the chosen language."""
    return L.gettext("unknown rule set '{name}' (presets are {presets})").format(name=name, presets=", ".join(PRESETS))


def unknown_option(key: str) -> str:
    """An option's name we do not know: the options, in the chosen language."""
    return L.gettext("unknown option '{key}' (options are {options})").format(key=key, options=", ".join(OPTIONS))


def parse_spec(text: str, base: RuleSet | None = None) -> RuleSet:
    """Read ``pagat taking=no direction=anticlockwise``: a preset, then option overrides.

    With ``base``, a spec may be overrides alone (``taking=no``), applied to it.
    """
    words = []
    pos = 0
    for word in text.split():
        start = text.index(word, pos)
        pos = start + len(word)
        words.append((word, start))
    if not words and base is None:
        raise RulesError(L.gettext("a rule set needs a preset name: {presets}").format(presets=", ".join(PRESETS)), 0, 0)
    options: dict[str, object] = {}
    rules = base
    for i, (word, start) in enumerate(words):
        if "=" not in word:
            if i != 0:
                raise RulesError(
                    L.gettext("'{word}' is not an option setting (write option=value)").format(word=word), start, len(word)
                )
            if word.lower() not in PRESETS:
                raise RulesError(unknown_preset(word), start, len(word))
            rules = PRESETS[word.lower()]
            continue
        key, _, value = word.partition("=")
        key = key.lower().replace("-", "_")
        if key not in OPTIONS:
            raise RulesError(unknown_option(key), start, len(key))
        try:
            options[key] = coerce(key, value)
        except ValueError as e:
            vstart = start + len(key) + 1
            raise RulesError(str(e), vstart, len(value)) from None
    if rules is None:
        rules = PRESETS["pagat"]
    return rules.with_options(**options) if options else rules


@functools.lru_cache(maxsize=256)
def rule_set(spec: str = "pagat") -> RuleSet:
    """The rule set a spec names; ``repr()`` of a rule set evaluates back through this.
    Read once per spec (a RuleSet is an immutable value; an error is raised every time):
    an archive names the same rule set game after game."""
    return parse_spec(spec)


# A rules file is a few top-level options. Read with limits, so that no file (/dev/zero, a
# deep nest of brackets, a dotted key of thousands of parts, which tomllib reads in
# quadratic time) costs more than a glance: a bounded size, bounded nesting and dots.
RULES_FILE_MOST = 64 * 1024
RULES_FILE_NESTING = 32
RULES_FILE_DOTS = 64
_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')


def _read_limited(p: Path) -> bytes:
    import stat

    st = p.stat()  # FileNotFoundError and IsADirectoryError go to the caller as before
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(str(p))
    if not stat.S_ISREG(st.st_mode):
        raise RulesError(L.gettext("{file}: not a regular file (a device, a pipe or a socket)").format(file=p))
    with open(p, "rb") as f:
        raw = f.read(RULES_FILE_MOST + 1)
    if len(raw) > RULES_FILE_MOST:
        raise RulesError(L.gettext("{file}: a rules file holds a few options, not more than {kb} KB").format(
            file=p, kb=RULES_FILE_MOST // 1024))
    return raw


def _check_shape(p: Path, text: str) -> None:
    bare = _QUOTED.sub("", text)  # strings and comments may hold anything
    if bare.count("[") + bare.count("{") > RULES_FILE_NESTING:
        raise RulesError(L.gettext("{file}: a rules file is a flat table of options, not nested tables or lists").format(
            file=p))
    if bare.count(".") > RULES_FILE_DOTS:
        raise RulesError(L.gettext("{file}: a rules file is a flat table of options, not dotted keys").format(file=p))


def load_file(path: str | Path) -> RuleSet:
    """A table's house rules from a TOML or JSON file: ``preset = "pagat"`` plus options."""
    p = Path(path)
    raw = _read_limited(p)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesError(L.gettext("{file}: not a readable rules file: {why}").format(file=p, why=e)) from None
    _check_shape(p, text)
    try:
        if p.suffix.lower() == ".json":
            data = json.loads(text)
        else:
            import tomllib

            data = tomllib.loads(text)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise RulesError(L.gettext("{file}: not a readable rules file: {why}").format(file=p, why=e)) from None
    if not isinstance(data, dict):
        raise RulesError(L.gettext("{file}: a rules file is a table of options").format(file=p))
    preset = str(data.pop("preset", data.pop("name", "pagat"))).lower()
    if preset not in PRESETS:
        raise RulesError(L.gettext("{file}: unknown preset '{name}' (presets are {presets})").format(
            file=p, name=preset, presets=", ".join(PRESETS)))
    for key in list(data):
        if key not in OPTIONS:
            raise RulesError(f"{p}: {unknown_option(key)}")
        if isinstance(data[key], str):
            try:
                data[key] = coerce(key, data[key])
            except ValueError as e:
                raise RulesError(f"{p}: {e}") from None
    # Values from TOML or JSON are the user's own types: pydantic validates them (the one
    # place a rule set meets pydantic, so a plain check never imports it).
    from pydantic import ValidationError

    try:
        rules: RuleSet = _adapter().validate_python({**PRESETS[preset].model_dump(), **data})
        return rules
    except (ValidationError, RulesError) as e:
        if isinstance(e, RulesError):
            raise RulesError(f"{p}: {e.message}") from None
        err = e.errors()[0]
        key = err["loc"][0] if err["loc"] else "?"
        raise RulesError(f"{p}: {takes(str(key), repr(data.get(key)))}") from None


_ADAPTER: list[Any] = []


def _adapter() -> Any:
    """pydantic's validator of RuleSet, made once (building it costs milliseconds)."""
    if not _ADAPTER:
        from pydantic import TypeAdapter  # only a rules file needs pydantic: see load_file

        _ADAPTER.append(TypeAdapter(RuleSet))
    return _ADAPTER[0]
