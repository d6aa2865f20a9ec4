"""The self-play simulator: reproducible files, games the referee accepts, the command.

Every simulated game is replayed by the referee: a game of legal actions must give no
diagnostic and end with the loser the simulator saw; a game with injected mistakes must give
exactly those mistakes, each pointing at its card. Bugs found in the engine are kept as
strict xfail tests that state the correct behaviour (see the BUG reasons).
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from conftest import RECORDS, run_cli

from referee.engine import cards as C
from referee.engine.codes import Code
from referee.engine.deal import deal, pack
from referee.engine.events import MistakeMade, Penalise
from referee.engine.rules import OPTIONS, PRESETS, coerce, option_values, parse_spec
from referee.engine.state import Engine, Phase, check_invariant, order_of_play, pack_masks
from referee.judging.referee import Referee
from referee.notation.format import format_file
from referee.notation.reader import parse, parse_file_text
from referee.notation.record import Comment, Draw, Take, Trick
from referee.players.bots import MISTAKE_KINDS, SimStats, play_game, seat_names
from referee.selfplay.simulate import parse_bots, simulate, simulate_text

BUG_LEAD = ("BUG: the engine's penalty (follow.penalise) treats a lead out of turn (phase BETWEEN) as a play after the previous "
            "trick: the offender gets that trick's cards (copied out of the waste pile, or taken from the tochoo's winner)")


def judge_text(text: str):
    """Parse and judge every game of a text: [(game, result)]."""
    games = parse(text)
    return [(g, Referee().judge(g)) for g in games]


def assert_clean(sim):
    """A simulated game without mistakes: read without error, judged without a diagnostic,
    finished with the loser (and legs) the simulator saw."""
    [game] = parse(sim.text)
    assert game.errors == [], [d.message for d in game.errors]
    res = Referee().judge(game)
    assert [(d.code, d.message) for d in res.diagnostics if d.is_error] == [], sim.seed
    assert res.finished, sim.seed
    assert res.loser == sim.loser and res.legs == sim.legs
    assert game == dataclasses.replace(sim.game, number=game.number)  # the text says what was recorded


def play_spans(game):
    """(trick number, seat, card) of every play, keyed by where its card is in the text."""
    out = {}
    for a in game.actions:
        if isinstance(a, Trick):
            for p in a.plays:
                out[(p.card_span.line, p.card_span.start)] = (a.number, p.seat, p.card)
    return out


def assert_found_exactly(sim):
    """The referee reports exactly the injected mistakes: code, trick, and the card's span."""
    [game] = parse(sim.text)
    res = Referee().judge(game)
    spans = play_spans(game)
    got = sorted((d.code, d.trick) + spans.get((d.span.line, d.span.start), (None, None, None))[1:]
                 for d in res.diagnostics if d.is_error)
    want = sorted((m.code, m.trick, m.seat, m.card) for m in sim.mistakes)
    assert got == want, (sim.seed, [(d.code, d.trick, d.message) for d in res.diagnostics if d.is_error])
    for d in res.diagnostics:
        assert spans[(d.span.line, d.span.start)][0] == d.trick
    assert res.finished and res.loser == sim.loser


# ---- reproducible ----------------------------------------------------------------------------


def test_same_seed_same_bytes():
    rules = parse_spec("donkey direction=anticlockwise")
    a = simulate_text(5, 6, 42, rules, mistakes=0.05)
    b = simulate_text(5, 6, 42, rules, mistakes=0.05)
    assert a == b
    assert a.startswith("%gwy 1\n")
    assert simulate_text(5, 6, 43, rules, mistakes=0.05) != a


def test_a_game_of_a_series_replays_alone():
    series = list(simulate(4, 5, 9))
    alone = list(simulate(4, 1, 9, first=4))
    assert alone[0].text == series[3].text
    assert [g.number for g in series] == [1, 2, 3, 4, 5]


def test_file_is_canonical_and_round_trips():
    text = simulate_text(4, 5, 3, PRESETS["donkey"], ["random", "sensible"] * 2, mistakes=0.05, annotate=True)
    prelude, games = parse_file_text(text)
    assert all(g.errors == [] for g in games)
    canon = format_file(prelude, games)
    assert canon == text  # fmt leaves a simulated file as it is
    assert parse(canon) == parse(text)


# ---- every game is legal ------------------------------------------------------------------------

SPECS = [
    ("pagat", 4), ("pagat", 2), ("pagat", 3), ("pagat", 8),
    ("denexa", 4), ("denexa", 3), ("donkey", 4), ("donkey", 6),
    ("pagat direction=anticlockwise", 5), ("donkey direction=anticlockwise", 4),
    ("pagat taking=no", 4), ("pagat deal=piles", 5), ("denexa deal=piles", 3),
    ("pagat last_card=draw_hand", 4), ("pagat last_card=draw_hand draw_from=any", 5),
    ("pagat last_card=pass_lead", 6), ("pagat first_trick=in_turn", 4), ("pagat two_players=denexa", 3),
]


@pytest.mark.parametrize("spec,players", SPECS)
@pytest.mark.parametrize("bot", ["sensible", "random"])
def test_simulated_games_pass_the_referee(spec, players, bot):
    rules = parse_spec(spec)
    for sim in simulate(players, 8, 1, rules, [bot] * players):
        assert_clean(sim)
        assert sim.mistakes == []


def _random_rules(rng: random.Random, packs: int = 1):
    preset = rng.choice(sorted(PRESETS))
    opts = {}
    for o in OPTIONS:
        if o != "packs" and rng.random() < 0.5:
            opts[o] = coerce(o, rng.choice(option_values(o)))
    opts["packs"] = packs
    return PRESETS[preset].with_options(**opts)


@pytest.mark.parametrize("k", range(12))
def test_random_option_combinations_pass_the_referee(k):
    rng = random.Random(k)
    rules = _random_rules(rng)
    players = rng.randint(2, 8)
    bots = [rng.choice(["random", "sensible"]) for _ in range(players)]
    for sim in simulate(players, 4, k, rules, bots):
        assert_clean(sim)


def test_double_pack_deal_is_104_cards_with_one_marked_ace():
    rules = parse_spec("pagat packs=2")
    cards = pack(rules)
    assert len(cards) == 104
    counts = Counter(cards)
    assert counts[C.ACE_OF_SPADES] == 1 and counts[C.MARKED_ACE] == 1
    assert all(counts[c] == 2 for c in range(52) if c != C.ACE_OF_SPADES)
    hands = deal(random.Random(1), rules, 10, dealer=0)
    assert sorted(len(h) for h in hands) == [10] * 6 + [11] * 4


def test_double_pack_games_play_to_the_end():
    """The simulator side of a double pack: 10 and 16 seats, the marked ace leads."""
    rules = parse_spec("pagat packs=2")
    for players in (10, 16):
        for sim in simulate(players, 3, 2, rules, ["random"] * players):
            first = next(a for a in sim.game.actions if isinstance(a, Trick))
            assert first.plays[0].card == C.MARKED_ACE
            assert sim.loser >= 0


@pytest.mark.parametrize("spec", ["pagat packs=2", "donkey packs=2", "denexa packs=2 deal=piles"])
def test_double_pack_games_pass_the_referee(spec):
    rules = parse_spec(spec)
    for sim in simulate(10, 3, 5, rules, ["random", "sensible"] * 5):
        assert_clean(sim)


def test_engine_double_pack_is_104_cards():
    """The engine's pack agrees with the simulator's (it was 105 cards before bce7789)."""
    once, twice = pack_masks(parse_spec("pagat packs=2"))
    assert once.bit_count() + twice.bit_count() == 104
    assert not twice & C.BIT[C.ACE_OF_SPADES]
    assert sorted(pack(parse_spec("pagat packs=2"))) == sorted(
        C.cards_of(once) + C.cards_of(twice))


# ---- the deal ------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["pagat", "pagat direction=anticlockwise"])
def test_extra_cards_go_to_the_players_after_the_dealer(spec):
    rules = parse_spec(spec)
    order = order_of_play(rules, 5)
    for dealer in range(5):
        hands = deal(random.Random(dealer), rules, 5, dealer)
        i = order.index(dealer)
        after = [order[(i + k) % 5] for k in range(1, 6)]
        assert [len(hands[s]) for s in after] == [11, 11, 10, 10, 10]
        assert sorted(c for h in hands for c in h) == list(range(52))


def test_piles_are_uneven_and_whole():
    rules = parse_spec("pagat deal=piles")
    for seed in range(20):
        hands = deal(random.Random(seed), rules, 4, 3)
        sizes = [len(h) for h in hands]
        assert sum(sizes) == 52 and min(sizes) >= 1
        assert max(sizes) - min(sizes) >= 2


def test_dealer_tag_follows_the_deal():
    for sim in simulate(3, 3, 4):
        dealer = sim.game.tag("Dealer")
        assert dealer in seat_names(3)
    assert [g.game.tag("Dealer") for g in simulate(3, 3, 4)] == ["Chetan", "Anil", "Bina"]


# ---- takes, draws, options ----------------------------------------------------------------------


def _stats(games):
    total = SimStats()
    for g in games:
        total.add(g.stats)
    return total


def test_takes_and_waste_draws_happen():
    for bot in ("sensible", "random"):
        stats = _stats(simulate(4, 200, 7, PRESETS["pagat"], [bot] * 4))
        assert stats.games == 200
        assert stats.takes > 0, bot
        assert stats.draws_waste > 0, bot
        assert sum(stats.losers.values()) == 200


def test_draws_from_a_hand_happen_under_draw_hand():
    for spec in ("pagat last_card=draw_hand", "pagat last_card=draw_hand draw_from=any"):
        games = list(simulate(4, 100, 3, parse_spec(spec), ["random"] * 4))
        stats = _stats(games)
        assert stats.draws_hand > 0 and stats.draws_waste == 0
        draws = [a for g in games for a in g.game.actions if isinstance(a, Draw)]
        assert draws and all(d.source is not None for d in draws)
        for g in games:
            assert_clean(g)


def test_taking_no_never_takes():
    games = list(simulate(4, 60, 3, parse_spec("pagat taking=no"), ["random"] * 4))
    assert not any(isinstance(a, Take) for g in games for a in g.game.actions)
    assert _stats(games).takes == 0


def test_records_hold_what_the_stats_count():
    for g in simulate(5, 20, 8, PRESETS["pagat"], ["random"] * 5, mistakes=0.05):
        acts = g.game.actions
        assert g.stats.plays == sum(len(a.plays) for a in acts if isinstance(a, Trick))
        assert g.stats.takes == sum(isinstance(a, Take) for a in acts)
        assert g.stats.draws == sum(isinstance(a, Draw) for a in acts)
        assert sum(g.stats.mistakes.values()) == len(g.mistakes)
        assert g.game.tag("Result") == seat_names(5)[g.loser]


def test_donkey_result_gives_legs():
    for g in simulate(4, 10, 1, PRESETS["donkey"]):
        loser, legs = g.game.tag("Result").split()
        assert loser == seat_names(4)[g.loser] and int(legs) == g.legs


def test_bot_names():
    assert parse_bots([], 4) == ["sensible"] * 4
    assert parse_bots(["random"], 3) == ["random"] * 3
    assert parse_bots(["East=random", "4=random"], 4) == ["sensible", "random", "sensible", "random"]
    with pytest.raises(ValueError):
        parse_bots(["Nobody=random"], 4)
    with pytest.raises(ValueError):
        parse_bots(["North=clever"], 4)
    with pytest.raises(ValueError):
        next(simulate(9, 1, 1))  # nine players need a double pack


# ---- mistakes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec,players", [
    ("pagat", 4), ("donkey", 4), ("denexa", 5), ("pagat first_trick=in_turn", 3),
    ("pagat direction=anticlockwise last_card=draw_hand", 5), ("donkey deal=piles taking=no", 6),
])
def test_the_referee_finds_exactly_the_injected_mistakes(spec, players):
    rules = parse_spec(spec)
    kinds = Counter()
    for sim in simulate(players, 25, 11, rules, (["random", "sensible"] * 4)[:players], mistakes=0.08):
        assert_found_exactly(sim)
        kinds.update(m.code for m in sim.mistakes)
    assert set(kinds) == set(MISTAKE_KINDS), kinds


def test_each_mistake_kind_on_its_own():
    for code in MISTAKE_KINDS:
        found = 0
        for seed in range(30):
            sim = play_game(PRESETS["pagat"], 4, random.Random(seed), inject=(code, 10 + seed))
            assert [m.code for m in sim.mistakes] in ([], [code])
            found += len(sim.mistakes)
            assert_found_exactly(sim)
        assert found > 20, code


def test_no_mistakes_at_rate_zero():
    assert all(g.mistakes == [] for g in simulate(4, 30, 5, PRESETS["pagat"], ["random"] * 4))


def test_mistakes_are_said_in_the_header():
    for g in simulate(4, 10, 2, PRESETS["pagat"], mistakes=0.1):
        said = [c.text for c in g.game.header if not hasattr(c, "name")]
        if g.mistakes:
            assert any(m.code in " ".join(said) for m in g.mistakes)


def _moment(rules, seed, tochoo: bool) -> Engine | None:
    """A copy of a simulated game's engine just after trick 3 or later ended in a tochoo (or
    went clean to the waste pile), between tricks; None if the game has no such moment."""
    found = []

    def watch(e, kind, args):
        v = e.view() if not found and kind == "play" else None
        if (v is not None and v.phase == Phase.BETWEEN and v.trick_no > 3 and v.leader >= 0
                and (v.picked_up_by is not None) == tochoo and len(e.holding()) >= 3):
            found.append(e.copy())

    play_game(rules, 4, random.Random(seed), bots=["random"] * 4, observer=watch)
    return found[0] if found else None


@pytest.mark.parametrize("after", ["clean trick", "tochoo"])
def test_penalty_for_a_lead_out_of_turn_keeps_the_previous_trick(after):
    """Ruling 1: a lead out of turn ends that trick at once; the offender picks up the one
    card played to it (their own) and leads next. The trick before is not touched."""
    rules = PRESETS["pagat"].with_options(taking=False)
    for seed in range(40):
        e = _moment(rules, seed, tochoo=(after == "tochoo"))
        if e is None:
            continue
        before = e.view()
        offender = next(s for s in e.holding() if s != before.leader)
        card = e.known(offender)[0]
        events = e.apply_mistake(Penalise(offender, card))
        assert isinstance(events[0], MistakeMade) and events[0].code == Code.OUT_OF_TURN
        after = e.view()
        assert check_invariant(e) is None
        assert after.sizes == before.sizes
        assert after.waste_size == before.waste_size  # the trick before stays where it went
        assert after.leader == offender and after.phase == Phase.BETWEEN
        return
    pytest.skip("no game reached the moment")


# One deal with every hand known, for the penalty tests below.
KNOWN_DEAL = """%gwy 1
%game
[Seats "North East South West"]
[Rules "pagat"]
deal
North A♠ 10♠ 8♠ 6♥ K♦ Q♦ 9♦ 8♦ 6♦ 5♦ 8♣ 7♣ 5♣
East K♠ 7♠ 4♠ 3♠ K♥ Q♥ 10♥ 9♥ 5♥ 7♦ Q♣ J♣ 6♣
South Q♠ 6♠ 2♠ A♥ 8♥ 4♥ 2♥ 10♦ 2♦ A♣ K♣ 10♣ 9♣
West J♠ 9♠ 5♠ J♥ 7♥ 3♥ A♦ J♦ 4♦ 3♦ 4♣ 3♣ 2♣
"""

LEAD_OUT_OF_TURN = KNOWN_DEAL + """1. North A♠, West J♠, South Q♠, East K♠
2. North 5♦, East 7♦, South 2♦, West 3♦
3. South 2♥
counts North 11, East 11, South 11, West 11
4. South 4♥, West 7♥, North 6♥, East K♥
counts North 10, East 10, South 10, West 10
"""


def test_referee_on_a_lead_out_of_turn():
    """East has the power after trick 2; South leads instead: one M203, and South keeps the
    card (the counts agree), the clean trick 2 stays on the waste pile."""
    [(game, res)] = judge_text(LEAD_OUT_OF_TURN)
    assert [(d.code, d.trick) for d in res.diagnostics if d.is_error] == [("M203", 3)]


# ---- the command ------------------------------------------------------------------------------------


def test_cli_writes_the_same_bytes_to_stdout():
    r = run_cli("simulate", "--players", "4", "--games", "3", "--seed", "5", "--rules", "donkey",
                "--bot", "North=random", "--mistakes", "0.05")
    assert r.returncode == 0, r.stderr
    want = simulate_text(4, 3, 5, PRESETS["donkey"], ["random", "sensible", "sensible", "sensible"], mistakes=0.05)
    assert r.stdout == want
    assert "3 games" in r.stderr and "losers: North" in r.stderr and "mistake" in r.stderr
    assert "takes" in r.stderr or "take" in r.stderr
    assert "\x1b[" not in r.stderr  # no progress bar or colour when stderr is not a terminal


def test_cli_output_file_and_force(tmp_path):
    out = tmp_path / "sim.gwy"
    args = ["simulate", "-n", "10", "-g", "4", "-s", "2", "--set", "packs=2", "--set", "direction=anticlockwise"]
    r = run_cli(*args, "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert text == simulate_text(10, 4, 2, parse_spec("pagat packs=2 direction=anticlockwise"))
    assert "[Rules \"pagat direction=anticlockwise packs=2\"]" in text
    assert r.stdout == ""
    out.write_text("keep me")
    r = run_cli(*args, "-o", str(out))
    assert r.returncode == 2 and "exists" in r.stderr
    assert out.read_text() == "keep me"
    r = run_cli(*args, "-o", str(out), "--force")
    assert r.returncode == 0 and out.read_text(encoding="utf-8") == text


def test_cli_output_passes_check(tmp_path):
    out = tmp_path / "sim.gwy"
    r = run_cli("simulate", "-n", "5", "-g", "10", "-s", "8", "--rules", "pagat deal=piles", "--bot", "random",
                "--comments", "-o", str(out))
    assert r.returncode == 0, r.stderr
    r = run_cli("check", str(out))
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("args,message", [
    (["-n", "9"], "packs=2"),
    (["-n", "17", "--set", "packs=2"], "2 to 16"),
    (["--bot", "Nobody=random"], "no seat"),
    (["--rules", "nosuch"], "unknown rule set"),
    (["--set", "taking=maybe"], "taking"),
    (["--mistakes", "2"], ""),
])
def test_cli_usage_errors(args, message):
    r = run_cli("simulate", *args)
    assert r.returncode == 2
    assert message in r.stderr
    assert r.stdout == ""


def test_cli_help_lists_simulate():
    r = run_cli("--help")
    assert "simulate" in r.stdout


# ---- the records ------------------------------------------------------------------------------------

MY_RECORDS = [
    "full-game.gwy", "take-and-draw.gwy", "series.gwy", "donkey.gwy", "double-pack.gwy", "denexa.gwy",
    "anticlockwise.gwy", "no-taking.gwy", "piles.gwy", "draw-from-hand.gwy", "simulated-mistakes-illegal.gwy",
]


def _record(name):
    text = (RECORDS / name).read_text(encoding="utf-8")
    prelude, games = parse_file_text(text, str(RECORDS / name))
    return text, prelude, games


@pytest.mark.parametrize("name", [n for n in MY_RECORDS if "mistakes" not in n])
def test_record_is_clean(name):
    text, prelude, games = _record(name)
    assert games
    assert format_file(prelude, games) == text  # canonical form
    for g in games:
        assert g.errors == []
        res = Referee().judge(g)
        assert [d for d in res.diagnostics if d.is_error] == [], (name, g.number, [d.message for d in res.diagnostics])
        assert res.finished


def test_mistakes_record_reports_what_its_headers_say():
    text, prelude, games = _record("simulated-mistakes-illegal.gwy")
    assert any("mistake" in c.text for c in prelude.items)
    total = 0
    for g in games:
        said = " ".join(c.text for c in g.header if isinstance(c, Comment))
        res = Referee().judge(g)
        assert res.finished
        for d in res.diagnostics:
            assert d.code in MISTAKE_KINDS and d.code in said
            assert f"trick {d.trick}:" in said
        total += len(res.diagnostics)
    assert total >= 3


def test_take_and_draw_record_has_both():
    text, prelude, games = _record("take-and-draw.gwy")
    acts = [a for g in games for a in g.actions]
    assert any(isinstance(a, Take) for a in acts)
    assert any(isinstance(a, Draw) and a.source is None for a in acts)


def test_draw_from_hand_record_draws_from_a_hand():
    text, prelude, games = _record("draw-from-hand.gwy")
    assert any(isinstance(a, Draw) and a.source is not None for g in games for a in g.actions)


@pytest.mark.parametrize("name,spec", [
    ("donkey.gwy", "donkey"), ("denexa.gwy", "denexa"), ("anticlockwise.gwy", "direction=anticlockwise"),
    ("no-taking.gwy", "taking=no"), ("piles.gwy", "deal=piles"), ("draw-from-hand.gwy", "last_card=draw_hand"),
    ("double-pack.gwy", "packs=2"),
])
def test_records_play_their_variant(name, spec):
    text, prelude, games = _record(name)
    for g in games:
        assert spec in g.tag("Rules")
    if name == "piles.gwy":
        sizes = [h.size for h in games[0].setup.hands]
        assert max(sizes) - min(sizes) >= 2
    if name == "double-pack.gwy":
        assert len(games[0].seats) == 10


def test_write_file_to_a_path(tmp_path):
    from referee.selfplay.simulate import write_file

    out = tmp_path / "w.gwy"
    stats = write_file(out, 3, 4, 6, PRESETS["denexa"], mistakes=0.05)
    assert out.read_text(encoding="utf-8") == simulate_text(3, 4, 6, PRESETS["denexa"], mistakes=0.05)
    assert stats.games == 4 and sum(stats.losers.values()) == 4
    assert "4 games" in stats.summary(seat_names(3)) and "losers: Anil" in stats.summary(seat_names(3))


WRONG_FIRST_LEAD = KNOWN_DEAL + """1. East 5♥
counts North 13, East 13, South 13, West 13
2. East K♠, South Q♠, West J♠, North A♠
"""


def test_penalty_for_a_wrong_first_lead_counts_the_trick():
    [(game, res)] = judge_text(WRONG_FIRST_LEAD)
    assert [(d.code, d.trick) for d in res.diagnostics if d.is_error] == [("M205", 1)]
    assert res.tricks == 2
