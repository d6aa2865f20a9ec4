"""Rule sets: presets, the spec a [Rules] tag or --rules writes, house-rules files, repr.

Sources: shared/rules/README.md (the rulings), pagat-getaway.txt, denexa-getaway.txt.
"""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import referee
from referee.engine.rules import OPTIONS, PRESETS, RulesError, RuleSet, load_file, option_values, parse_spec, rule_set

ALL_OPTIONS = ["direction", "last_card", "draw_from", "taking", "deal", "packs", "trumps", "first_trick", "two_players"]


# ---- presets ------------------------------------------------------------------------------------


def test_the_options_are_the_documented_variants():
    assert sorted(OPTIONS) == sorted(ALL_OPTIONS)


def test_pagat_preset_is_the_main_rules():
    r = PRESETS["pagat"]
    assert r.name == "pagat"
    assert r.direction == "clockwise"
    assert r.last_card == "draw_waste"  # Pagat, Getting away: draws from the waste pile
    assert r.taking is True  # Pagat, Taking cards
    assert r.deal == "even"
    assert r.packs == 1
    assert r.trumps is False
    assert r.first_trick == "any_order"  # ruling 2
    assert r.two_players == "pagat"
    assert r.overrides() == {}
    assert r.spec() == "pagat"


def test_denexa_preset_differs_from_pagat_where_denexa_does():
    r = PRESETS["denexa"]
    assert r.name == "denexa"
    # Denexa: a player out of cards while due to lead gets away, the next player leads
    assert r.last_card == "pass_lead"
    # Denexa: the first trick is played in turn; the two-player "shootout"
    assert r.first_trick == "in_turn"
    assert r.two_players == "denexa"
    assert r.trumps is False and r.packs == 1 and r.taking is True
    # overrides() and spec() are relative to the rule set's own preset
    assert r.overrides() == {}
    assert r.spec() == "denexa"
    differs = {k for k in ALL_OPTIONS if getattr(r, k) != getattr(PRESETS["pagat"], k)}
    assert differs == {"last_card", "first_trick", "two_players"}


def test_donkey_preset_has_trumps():
    r = PRESETS["donkey"]
    assert r.trumps is True
    assert r.spec() == "donkey"
    # otherwise Pagat's game
    for k in ALL_OPTIONS:
        if k != "trumps":
            assert getattr(r, k) == getattr(PRESETS["pagat"], k), k


def test_public_api_exports_presets():
    assert set(referee.PRESETS) == {"pagat", "denexa", "donkey"}
    assert referee.rule_set("donkey") == PRESETS["donkey"]


def test_rule_sets_are_frozen():
    r = PRESETS["pagat"]
    with pytest.raises(FrozenInstanceError):
        r.taking = False  # type: ignore[misc]
    assert PRESETS["pagat"].taking is True


def test_unknown_fields_are_refused():
    with pytest.raises(TypeError):
        RuleSet(name="pagat", trump=True)  # type: ignore[call-arg]


@pytest.mark.parametrize("option, value", [("taking", "no"), ("packs", 3), ("packs", True), ("direction", "widdershins")])
def test_wrong_values_are_refused_whoever_builds_the_rule_set(option, value):
    with pytest.raises(RulesError) as info:
        RuleSet(**{option: value})
    assert option in info.value.message and " or ".join(option_values(option)) in info.value.message
    with pytest.raises(RulesError):
        PRESETS["pagat"].with_options(**{option: value})


def test_rule_sets_are_values():
    # Equal rule sets are one key: the judge caches engines and reports by rule set.
    assert parse_spec("pagat taking=no") == parse_spec("pagat  taking=off")
    assert len({parse_spec("pagat"), PRESETS["pagat"], rule_set("pagat")}) == 1
    assert PRESETS["pagat"].model_dump()["taking"] is True


# ---- specs -------------------------------------------------------------------------------------


def test_parse_spec_preset_with_overrides():
    r = parse_spec("pagat taking=no direction=anticlockwise")
    assert r.name == "pagat"
    assert r.taking is False
    assert r.direction == "anticlockwise"
    # everything else stays Pagat's
    for k in ALL_OPTIONS:
        if k not in ("taking", "direction"):
            assert getattr(r, k) == getattr(PRESETS["pagat"], k), k
    assert r.overrides() == {"direction": "anticlockwise", "taking": False}
    # the spec is written in option order, and reads back to the same rule set
    assert r.spec() == "pagat direction=anticlockwise taking=no"
    assert parse_spec(r.spec()) == r


def test_parse_spec_is_case_insensitive_and_accepts_hyphens():
    r = parse_spec("Donkey Taking=NO last-card=pass_lead packs=2")
    assert r.name == "donkey" and r.trumps is True
    assert r.taking is False and r.last_card == "pass_lead" and r.packs == 2


@pytest.mark.parametrize("word, value", [("yes", True), ("true", True), ("on", True), ("no", False), ("false", False), ("off", False)])
def test_boolean_words(word, value):
    assert parse_spec(f"pagat trumps={word}").trumps is value


def test_overrides_alone_apply_to_a_base():
    r = parse_spec("taking=no", base=PRESETS["donkey"])
    assert r.name == "donkey" and r.trumps is True and r.taking is False
    # a later word wins
    assert parse_spec("pagat taking=no taking=yes").taking is True


def test_preset_then_overrides_changes_the_preset_only_in_the_named_options():
    r = parse_spec("denexa first_trick=any_order")
    assert r.name == "denexa"
    assert r.first_trick == "any_order"
    assert r.last_card == "pass_lead" and r.two_players == "denexa"
    assert r.overrides() == {"first_trick": "any_order"}
    assert r.spec() == "denexa first_trick=any_order"


def _error(spec: str) -> RulesError:
    with pytest.raises(RulesError) as info:
        parse_spec(spec)
    return info.value


def test_unknown_option_names_every_option_and_points_at_it():
    spec = "pagat tacking=no"
    e = _error(spec)
    assert "unknown option 'tacking'" in e.message
    for k in ALL_OPTIONS:
        assert k in e.message
    assert spec[e.offset:e.offset + e.length] == "tacking"


def test_unknown_value_names_the_valid_values_and_points_at_the_value():
    spec = "pagat  direction=widdershins taking=no"
    e = _error(spec)
    assert "clockwise" in e.message and "anticlockwise" in e.message
    assert "widdershins" in e.message
    assert spec[e.offset:e.offset + e.length] == "widdershins"

    spec = "donkey packs=3"
    e = _error(spec)
    assert "1 or 2" in e.message
    assert spec[e.offset:e.offset + e.length] == "3"

    spec = "pagat taking=maybe"
    e = _error(spec)
    assert "yes or no" in e.message
    assert spec[e.offset:e.offset + e.length] == "maybe"


def test_unknown_preset_names_the_presets():
    e = _error("  thulla taking=no")
    assert "unknown rule set 'thulla'" in e.message
    for p in ("pagat", "denexa", "donkey"):
        assert p in e.message
    assert (e.offset, e.length) == (2, len("thulla"))


def test_a_bare_word_after_the_preset_is_not_a_setting():
    spec = "pagat taking"
    e = _error(spec)
    assert "option=value" in e.message
    assert spec[e.offset:e.offset + e.length] == "taking"


def test_empty_spec_needs_a_preset():
    e = _error("   ")
    for p in ("pagat", "denexa", "donkey"):
        assert p in e.message


def test_option_values_are_what_the_spec_accepts():
    for k in ALL_OPTIONS:
        vals = option_values(k)
        assert vals
        for v in vals:
            parse_spec(f"pagat {k}={v}")  # every listed value is accepted


def test_a_rules_tag_error_points_into_the_file():
    text = '%gwy 1\n%game\n[Seats "A B"]\n[Rules "pagat taking=maybe"]\ndeal\nA 26\nB 26\n'
    (game,) = referee.parse(text)
    assert [e.code for e in game.errors] == ["S007"]
    err = game.errors[0]
    assert "yes or no" in err.message
    assert text[err.span.start:err.span.end] == "maybe"
    assert err.span.line == 4
    assert err.span.col == text.split("\n")[3].index("maybe") + 1


# ---- repr ---------------------------------------------------------------------------------------


def _eval(text: str):
    return eval(text, {"rule_set": rule_set})


@pytest.mark.parametrize("spec", ["pagat", "denexa", "donkey", "pagat taking=no direction=anticlockwise",
                                  "denexa first_trick=any_order packs=2", "donkey trumps=no"])
def test_repr_evaluates_back(spec):
    r = parse_spec(spec)
    text = repr(r)
    assert text.startswith("rule_set(") and text.endswith(")")
    assert _eval(text) == r


option_settings = st.fixed_dictionaries(
    {}, optional={k: st.sampled_from(option_values(k)) for k in ALL_OPTIONS}
)


@settings(max_examples=150, deadline=None, database=None)
@given(preset=st.sampled_from(["pagat", "denexa", "donkey"]), options=option_settings)
def test_any_rule_set_reprs_and_specs_back(preset, options):
    spec = " ".join([preset] + [f"{k}={v}" for k, v in options.items()])
    r = parse_spec(spec)
    for k, v in options.items():
        got = getattr(r, k)
        written = ("yes" if got else "no") if isinstance(got, bool) else str(got)
        assert written == v
    assert _eval(repr(r)) == r
    assert parse_spec(r.spec()) == r
    assert rule_set(r.spec()) == r


# ---- house rules files ----------------------------------------------------------------------------


def test_load_toml(tmp_path):
    p = tmp_path / "house.toml"
    p.write_text('preset = "denexa"\ntaking = false\ndirection = "anticlockwise"\npacks = 2\n', encoding="utf-8")
    r = load_file(p)
    assert r.name == "denexa"
    assert r.taking is False and r.direction == "anticlockwise" and r.packs == 2
    assert r.last_card == "pass_lead"  # the rest of the preset stays
    assert _eval(repr(r)) == r


def test_load_toml_with_words(tmp_path):
    p = tmp_path / "house.toml"
    p.write_text('preset = "pagat"\ntaking = "no"\ntrumps = "yes"\npacks = "2"\n', encoding="utf-8")
    r = load_file(p)
    assert (r.taking, r.trumps, r.packs) == (False, True, 2)


def test_load_json(tmp_path):
    p = tmp_path / "house.json"
    p.write_text(json.dumps({"preset": "donkey", "first_trick": "in_turn", "taking": False}), encoding="utf-8")
    r = load_file(p)
    assert r.name == "donkey" and r.trumps is True
    assert r.first_trick == "in_turn" and r.taking is False


def test_load_file_without_preset_starts_from_pagat(tmp_path):
    p = tmp_path / "house.toml"
    p.write_text("taking = false\n", encoding="utf-8")
    r = load_file(p)
    assert r.name == "pagat" and r.taking is False


@pytest.mark.parametrize(
    "name, content, words",
    [
        ("a.toml", 'preset = "pagat"\ntacking = false\n', ["unknown option 'tacking'", "taking"]),
        ("b.toml", 'preset = "bhabhi"\n', ["unknown preset 'bhabhi'", "pagat", "denexa", "donkey"]),
        ("c.toml", 'direction = "widdershins"\n', ["clockwise", "anticlockwise"]),
        ("d.json", '{"packs": 3}', ["packs", "1 or 2"]),
        ("e.json", '[1, 2]', ["table of options"]),
        ("f.toml", 'preset = \n', ["not a readable rules file"]),
        ("g.json", '{"taking": ', ["not a readable rules file"]),
    ],
)
def test_bad_rules_files_say_what_is_wrong(tmp_path, name, content, words):
    p = tmp_path / name
    p.write_text(content, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_file(p)
    msg = info.value.message
    assert str(p) in msg
    for w in words:
        assert w in msg
