"""``show``, ``legal`` and ``tally``: on records/, on the dispute positions, on simulated games.

The engine decides what is legal; these tests check that the commands report its state and
its answers faithfully, and that what they say agrees with the rules texts' own examples
(Pagat's worked example, section "Second and subsequent tricks").
"""

from __future__ import annotations

import random
import re

import pytest
from conftest import DATA, RECORDS, run_cli

from referee import parse
from referee.engine.cards import card_str
from referee.notation.record import Draw, Take, Trick
from referee.table.views import LegalModel, StateModel, judge_game, legal_model, state_model
from referee.tally import TallyModel, tally

PAGAT = RECORDS / "pagat-example.gwy"
DISPUTES = sorted(RECORDS.glob("dispute-*.gwy"))


def show_json(path, *args) -> StateModel:
    r = run_cli("show", str(path), "--format", "json", *args)
    assert r.returncode == 0, r.stderr
    return StateModel.model_validate_json(r.stdout)


def legal_json(path, *args) -> LegalModel:
    r = run_cli("legal", str(path), "--format", "json", *args)
    assert r.returncode == 0, r.stderr
    return LegalModel.model_validate_json(r.stdout)


def hand(m: StateModel, seat: str):
    return next(h for h in m.hands if h.seat == seat)


def legal_of(text: str, path: str = "<test>") -> LegalModel:
    g = parse(text, path)[-1]
    assert not g.errors, [d.message for d in g.errors]
    return legal_model(g, judge_game(g))


# ---- show ----------------------------------------------------------------------------------------


def test_show_pagat_example_matches_the_page():
    # Pagat, "Second and subsequent tricks": after trick 6, South 10, West 7, North 11, East 8.
    m = show_json(PAGAT)
    assert {h.seat: h.cards for h in m.hands} == {"North": 11, "East": 8, "South": 10, "West": 7}
    assert m.power == "South" and m.to_act == "South" and m.phase == "between" and m.trick == 7
    east = hand(m, "East")
    assert [(v.suit, v.since_trick) for v in east.voids] == [("♠", 1), ("♥", 4)]
    assert east.voids[1].shown_by == "K♣ in trick 4"
    assert [(v.suit, v.since_trick) for v in hand(m, "West").voids] == [("♦", 6)]
    # North picked up the tochoo trick of trick 4: those cards are known to be North's.
    assert hand(m, "North").known == ["6♥", "2♥", "K♣"] and hand(m, "North").unseen == 8
    assert hand(m, "South").known == ["K♠", "5♦"]
    # every card played to a clean trick is in the waste pile, and known
    assert m.waste.size == 16 and m.waste.full and "A♠" in m.waste.known
    assert not m.over and m.out_order == [] and m.rules == "pagat"


def test_show_after_trick_4_matches_the_page():
    m = show_json(PAGAT, "--after", "4")
    assert {h.seat: h.cards for h in m.hands} == {"North": 12, "East": 9, "South": 10, "West": 9}
    assert m.power == "North" and m.after == 4 and m.trick == 5


def test_show_after_0_is_the_deal():
    m = show_json(PAGAT, "--after", "0")
    assert m.phase == "before_first" and all(h.cards == 13 for h in m.hands)
    assert m.to_act is None  # nobody knows who holds A♠


def test_show_text_is_a_table():
    r = run_cli("show", str(PAGAT))
    assert r.returncode == 0, r.stderr
    assert re.search(r"East\s+8\s+\+8 unseen\s+♠ \(1\), ♥ \(4\)", r.stdout)
    assert "South leads trick 7" in r.stdout


def test_show_after_ignores_the_result_of_the_whole_game(tmp_path):
    # The [Result] tag speaks of the end of the game: no "the record does not finish" error
    # for a state in the middle of it.
    p = tmp_path / "r.gwy"
    p.write_text(PAGAT.read_text(encoding="utf-8").replace('[Rules "pagat"]', '[Rules "pagat"]\n[Result "South"]'),
                 encoding="utf-8")
    m = show_json(p, "--after", "3")
    assert not any(d.code == "R112" for d in m.diagnostics)


def test_show_game_and_errors(tmp_path):
    two = tmp_path / "two.gwy"
    text = PAGAT.read_text(encoding="utf-8")
    second = re.sub(r"(?m)^6\. .*\n", "", text[text.index("%game"):])
    two.write_text(text + "\n" + second.replace("counts South 10, West 7, North 11, East 8\n", ""), encoding="utf-8")
    assert show_json(two, "--game", "1").trick == 7
    assert show_json(two).game == 2 and show_json(two).trick == 6  # the last game by default
    r = run_cli("show", str(two), "--game", "3")
    assert r.returncode == 2 and "no game 3" in r.stderr
    r = run_cli("show", str(tmp_path / "missing.gwy"))
    assert r.returncode == 2 and "no such file" in r.stderr
    bad = tmp_path / "bad.gwy"
    bad.write_text(text.replace("North J♠", "North QX"), encoding="utf-8")
    r = run_cli("show", str(bad))
    assert r.returncode == 1 and "QX" in r.stderr


def test_show_known_hands_void_since_deal_and_trick():
    m = show_json(RECORDS / "dispute-donkey.gwy")
    assert m.start == "position" and m.trump == "♦" and m.donkey
    east = hand(m, "East")
    assert east.full and east.known == ["7♠", "4♥"]
    # East held 2♦ in the position and played it in trick 3; never held a club.
    assert {v.suit: v.since_trick for v in east.voids} == {"♦": 3, "♣": 0}
    assert m.trick_on_table.plays[1].card == "2♦" and m.to_act == "South"


def test_show_draw_due_and_the_trick_not_yet_on_the_pile():
    m = show_json(RECORDS / "dispute-draw.gwy")
    assert m.phase == "draw_due" and m.to_act == "West"
    assert [p.card for p in m.waste.pending] == ["A♦", "7♦", "9♦", "5♦"]
    # every hand is known, so the waste pile is known by elimination
    assert m.waste.full and m.waste.size == 44 and "A♦" not in m.waste.known


def test_show_game_over():
    m = show_json(RECORDS / "dispute-two-players.gwy")
    assert m.over and m.loser == "West" and m.legs == 2 and m.phase == "over"
    assert m.out_order == ["North", "South", "East"]
    assert [h.out_position for h in m.hands] == [1, 3, 2, None]


# ---- legal ---------------------------------------------------------------------------------------


def test_legal_pagat_example():
    m = legal_json(PAGAT)
    assert m.to_act == "South" and m.phase == "between"
    assert [(t.taker, t.target) for t in m.takes] == [("North", "East"), ("East", "South"), ("South", "West"),
                                                      ("West", "North")]
    (lead,) = m.plays
    assert lead.action == "lead" and lead.any_card and not lead.exact and lead.cards == ["K♠", "5♦"]


def test_legal_text():
    r = run_cli("legal", str(RECORDS / "dispute-donkey.gwy"))
    assert r.returncode == 0, r.stderr
    assert "South: holds no ♣: must play a trump ♦" in r.stdout
    assert "may play: 8♦" in r.stdout
    assert "Pagat, Getaway: Donkey" in r.stdout


def _replayed(path):
    """Every game of the record is replayed (a record whose numbers are what is wrong, S008,
    shows that its game is not: show and legal refuse it with exit 1)."""
    from referee import parse
    from referee.judging.referee import Referee

    return all(Referee().judge(g).judged for g in parse(path.read_text(encoding="utf-8"), str(path)))


@pytest.mark.parametrize("path", [p for p in sorted(RECORDS.glob("*.gwy")) if _replayed(p)], ids=lambda p: p.name)
def test_every_record_shows_and_has_a_legal_next_step(path):
    from referee.engine.rules import parse_spec

    games = len(re.findall(r"(?m)^%game", path.read_text(encoding="utf-8")))
    for number in range(1, games + 1):
        s = show_json(path, "--game", str(number))
        m = legal_json(path, "--game", str(number))
        assert m.summary and s.game == m.game == number
        assert s.phase == m.phase or m.then is not None
        # hand sizes add up with the waste pile and the table to the pack
        on_table = len(s.trick_on_table.plays) if s.trick_on_table else 0
        pack = 52 * parse_spec(s.rules).packs
        assert sum(h.cards for h in s.hands) + s.waste.size + len(s.waste.pending) + on_table == pack
        assert (s.to_act is not None) == (m.to_act is not None) or m.then is not None


def test_dispute_renege():
    m = legal_json(RECORDS / "dispute-renege-illegal.gwy")
    assert [d.code for d in m.diagnostics] == ["M201"]
    assert "East picks up the 3 cards of trick 5 and leads trick 6" in m.diagnostics[0].help
    assert m.to_act == "East" and m.trick == 6
    (p,) = m.plays
    assert p.exact and sorted(p.cards) == sorted(["3♠", "9♥", "6♥", "4♥", "J♦", "K♣"])


def test_dispute_after_tochoo():
    m = legal_json(RECORDS / "dispute-after-tochoo-illegal.gwy")
    assert [d.code for d in m.diagnostics] == ["M202"]
    assert m.to_act == "South" and m.trick == 5
    assert m.plays[0].cards == ["6♥", "4♥", "2♥", "K♣"]  # the trick South picked up


def test_dispute_unnoticed_trick_goes_on():
    m = legal_json(RECORDS / "dispute-unnoticed-illegal.gwy")
    assert m.phase == "in_trick" and [p.seat for p in m.plays] == ["West"]
    assert any("penalty was not applied" in n for n in m.diagnostics[0].notes)
    assert m.then is not None and m.then.to_act == "South" and m.then.trick == 6


def test_a_first_trick_played_on_after_a_wrong_opening_is_led_from_by_its_winner():
    # North opened with J♠ although West held A♠ (M205) and nobody noticed: the trick ends as
    # played, and West's A♠, the highest spade, takes the power for trick 2 (Pagat, Getaway:
    # First trick). West leads it because it won trick 1, not because it held the opening ace.
    m = legal_json(DATA / "invalid" / "M205-first-not-ace.gwy", "--game", "2")
    assert [d.code for d in m.diagnostics] == ["M205"] and m.then is not None
    assert m.then.to_act == "West" and m.then.trick == 2
    assert m.then.summary.startswith("West has the power and leads trick 2")


def test_dispute_take_past_a_seat_that_is_out():
    m = legal_json(RECORDS / "dispute-take.gwy")
    # North took South's hand; South had the power, so the lead passes on (ruling 3).
    assert m.to_act == "West" and m.trick == 9
    assert [(t.taker, t.target) for t in m.takes] == [("North", "West"), ("West", "North")]
    s = show_json(RECORDS / "dispute-take.gwy")
    assert hand(s, "North").cards == 7 and s.out_order == ["East", "South"]


def test_dispute_draw():
    m = legal_json(RECORDS / "dispute-draw.gwy")
    d = m.draw
    assert m.phase == "draw_due" and d.seat == "West" and d.source == "waste" and d.unseen == 0
    assert d.not_from == ["A♦", "7♦", "9♦", "5♦"] and len(d.cards) == 44
    assert not set(d.not_from) & set(d.cards)
    assert not m.takes


def test_dispute_donkey_must_trump():
    m = legal_json(RECORDS / "dispute-donkey.gwy")
    (p,) = m.plays
    assert p.seat == "South" and p.exact and p.cards == ["8♦"] and p.must_trump == "♦"


def test_dispute_first_trick_any_order():
    m = legal_json(RECORDS / "dispute-first-trick.gwy")
    assert m.any_order and m.to_act is None
    (p,) = m.plays
    assert p.seat == "East" and p.must_follow == "♠" and not p.exact and p.unseen == 13
    assert "K♠" in p.unseen_may_follow and not {"A♠", "J♠", "10♠"} & set(p.unseen_may_follow)
    assert "does not end the first trick" in p.ends_trick


def test_dispute_unseen_void():
    m = legal_json(RECORDS / "dispute-unseen-void.gwy")
    (p,) = m.plays
    assert p.seat == "East" and p.shown_void is not None and p.shown_void.since_trick == 4
    assert p.may_not is None and p.unseen_may_follow == []


def test_dispute_two_players():
    m = legal_json(RECORDS / "dispute-two-players.gwy")
    assert m.over and m.loser == "West" and m.legs == 2 and not m.plays


def test_legal_unseen_hand_must_follow():
    # Trick 7 of Pagat's example, North to play after a diamond lead: North holds no
    # known diamond, so the duty is conditional.
    text = PAGAT.read_text(encoding="utf-8") + "7. South 5♦\n"
    m = legal_of(text)
    (p,) = m.plays
    assert p.seat == "West" and p.shown_void.since_trick == 6  # West showed no diamond in trick 6
    m = legal_of(text.replace("7. South 5♦", "7. South K♠"))
    (p,) = m.plays
    assert p.seat == "West" and p.must_follow == "♠" and "A♠" not in p.unseen_may_follow
    assert p.may_not == "another suit while holding a spade"


def test_legal_known_cards_of_the_suit_led_must_be_followed():
    # North picked up 6♥ and 2♥ in trick 4: on a heart lead North must follow.
    text = PAGAT.read_text(encoding="utf-8") + "7. South 4♥, West 10♥\n"
    (p,) = legal_of(text).plays
    assert p.seat == "North" and p.cards == ["6♥", "2♥"] and p.may_not == "another suit"


def test_legal_takes_are_not_offered_when_the_rules_forbid_them(tmp_path):
    p = tmp_path / "nt.gwy"
    p.write_text(PAGAT.read_text(encoding="utf-8").replace('[Rules "pagat"]', '[Rules "pagat taking=no"]'),
                 encoding="utf-8")
    m = legal_json(p)
    assert m.takes == [] and any("taking=no" in n for n in m.notes)


# ---- tally ---------------------------------------------------------------------------------------


TALLY = """%gwy 1

%game
[Seats "Asha Bilal Chen"]
[Rules "donkey"]
[Result "Chen 3"]
deal
Asha 18
Bilal 17
Chen 17

%game
[Seats "Asha Bilal Chen"]
[Rules "pagat"]
[Result "Asha"]
deal
Asha 18
Bilal 17
Chen 17

%game
[Seats "Asha Bilal Chen"]
[Rules "pagat"]
[Result "*"]
deal
Asha 18
Bilal 17
Chen 17
"""


def test_tally_by_result_tags_and_by_replay(tmp_path):
    p = tmp_path / "t.gwy"
    p.write_text(TALLY, encoding="utf-8")
    r = run_cli("tally", str(p), *map(str, DISPUTES), "--format", "json")
    assert r.returncode == 0, r.stderr
    m = TallyModel.model_validate_json(r.stdout)
    by = {x.player: x for x in m.players}
    assert by["Chen"].lost == 1 and by["Chen"].donkey_lost == 1 and by["Chen"].legs == 3
    assert by["Asha"].lost == 1 and by["Asha"].games == 2 and by["Asha"].rate == 0.5
    # The two-player dispute has no [Result] tag: its loser comes from the replay.
    two = next(g for g in m.game_results if g.path.endswith("dispute-two-players.gwy"))
    assert two.by == "replay" and two.loser == "West"
    assert by["West"].lost == 1
    assert m.finished == 3 and m.unfinished == m.games - 3
    r = run_cli("tally", str(p))
    assert r.returncode == 0 and re.search(r"Chen\s+2\s+1\s+50%\s+1\s+1\s+3\s+3", r.stdout), r.stdout


def test_tally_missing_file(tmp_path):
    r = run_cli("tally", str(tmp_path / "nope.gwy"), str(PAGAT))
    assert r.returncode == 2


def _check_step(m: LegalModel, seats, kind, a, b, where):
    """The record's next action is one that ``legal`` allows."""
    if kind == "play":
        mine = [p for p in m.plays if p.seat == seats[a]]
        assert mine, (where, m.summary)
        p = mine[0]
        if p.exact:
            assert card_str(b) in p.cards, (where, p)
        elif p.may_not == "another suit":
            assert card_str(b).endswith(p.must_follow), (where, p)
        return p.exact
    if kind == "take":
        assert (seats[a], seats[b]) in [(t.taker, t.target) for t in m.takes], (where, m.takes)
        return True
    assert m.draw is not None and m.draw.seat == seats[a], (where, m.summary)
    assert card_str(b) in m.draw.cards or m.draw.unseen > 0, (where, m.draw)
    return not m.draw.unseen


def _head(game) -> str:
    import copy

    from referee.notation.format import format_game

    bare = copy.copy(game)
    bare.actions = []
    return "%gwy 1\n" + format_game(bare)


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.gwy")), ids=lambda p: p.name)
def test_legal_allows_every_next_action_of_the_clean_records(path):
    from referee.judging.referee import Referee

    for game in parse(path.read_text(encoding="utf-8"), str(path)):
        if game.errors or Referee().judge(game).diagnostics:
            continue  # a record with a mistake has, by definition, a step legal does not allow
        head, events = _head(game), _events(game)
        for k, (kind, a, b, line) in enumerate(events):
            m = legal_of(head + "".join(x[3] + "\n" for x in events[:k]))
            _check_step(m, game.seats, kind, a, b, (path.name, game.number, k, line))


def test_legal_before_an_unseen_first_trick_names_who_may_hold_the_ace():
    text = PAGAT.read_text(encoding="utf-8")
    m = legal_of(text[: text.index("1. West")])
    assert m.to_act is None and [p.seat for p in m.plays] == ["North", "East", "South", "West"]
    assert all(p.cards == ["A♠"] and not p.exact for p in m.plays)


# ---- simulated games -------------------------------------------------------------------------------


def _simulate():
    from referee.selfplay import simulate as sim

    return sim


def _events(game):
    """The game's actions one at a time: each play on its own line ('N. Seat Card')."""
    seats = game.seats
    out = []
    for a in game.actions:
        if isinstance(a, Trick):
            for p in a.plays:
                out.append(("play", p.seat, p.card, f"{a.number}. {seats[p.seat]} {card_str(p.card)}"))
        elif isinstance(a, Take):
            out.append(("take", a.taker, a.target, f"{seats[a.taker]} takes {seats[a.target]}"))
        elif isinstance(a, Draw):
            src = f" from {seats[a.source]}" if a.source is not None else ""
            out.append(("draw", a.seat, a.card, f"{seats[a.seat]} draws {card_str(a.card)}{src}"))
    return out


@pytest.mark.parametrize("spec,players,seed", [("pagat", 4, 1), ("pagat", 3, 2), ("donkey", 4, 3),
                                               ("denexa", 5, 4), ("pagat last_card=draw_hand", 4, 5)])
def test_legal_agrees_with_every_step_of_simulated_games(spec, players, seed):
    """At every point of a game played by the simulator (which asks the engine), the next
    action of the record is one that ``legal`` allows."""
    sim = _simulate()
    from referee.engine.rules import parse_spec

    g = next(sim.simulate(players, 1, seed, parse_spec(spec)))
    game = parse("%gwy 1\n\n" + g.text)[0]
    head = _head(game)
    events = _events(game)
    steps = 0
    for k, (kind, a, b, line) in enumerate(events):
        m = legal_of(head + "".join(x[3] + "\n" for x in events[:k]))
        # every hand is dealt face up in a simulated record: every answer is exact
        assert _check_step(m, game.seats, kind, a, b, (k, line)), (k, line)
        steps += 1
    final = legal_of(head + "".join(x[3] + "\n" for x in events))
    assert final.over and final.loser == game.seats[g.loser]
    assert steps > 10


def test_show_on_simulated_games_adds_up():
    sim = _simulate()
    from referee.engine.rules import parse_spec

    rng = random.Random(7)
    for g in sim.simulate(4, 3, 11, parse_spec("pagat")):
        game = parse("%gwy 1\n\n" + g.text)[0]
        last = max(a.number for a in game.actions if isinstance(a, Trick))
        for after in sorted(rng.sample(range(last + 1), 4)) + [None]:
            res = judge_game(game, after)
            m = state_model(game, res, after)
            held = sum(h.cards for h in m.hands)
            assert held + m.waste.size + len(m.waste.pending) == 52
            for h in m.hands:
                assert h.full and len(h.known) == h.cards  # a dealt game: every hand known
                for v in h.voids:
                    assert not any(c.endswith(v.suit) for c in h.known)
                    assert v.since_trick is not None and 0 <= v.since_trick <= (after if after is not None else last)
        assert m.over and m.loser == game.seats[g.loser]


def test_tally_of_simulated_games(tmp_path):
    sim = _simulate()
    from referee.engine.rules import parse_spec

    for spec in ("pagat", "donkey"):
        games = list(sim.simulate(4, 6, 3, parse_spec(spec)))
        text = "%gwy 1\n" + "".join("\n" + g.text for g in games)
        # without the [Result] tags the replay must find the same losers
        bare = re.sub(r'\[Result "[^"]*"\]\n', "", text)
        for body in (text, bare):
            p = tmp_path / f"{spec}.gwy"
            p.write_text(body, encoding="utf-8")
            m = tally([p])
            want: dict = {}
            for g in games:
                name = g.game.seats[g.loser]
                want[name] = want.get(name, 0) + 1
            assert {x.player: x.lost for x in m.players if x.lost} == want
            if spec == "donkey":
                assert sum(x.legs for x in m.players) == sum(g.legs for g in games)
            assert all(r.by == ("tag" if body is text else "replay") for r in m.game_results)


def test_show_after_outside_the_record():
    r = run_cli("show", str(PAGAT), "--after", "9")
    assert r.returncode == 2 and "ends at trick 6" in r.stderr
    r = run_cli("show", str(RECORDS / "dispute-draw.gwy"), "--after", "3")
    assert r.returncode == 2 and "starts at trick 11" in r.stderr
    assert show_json(RECORDS / "dispute-draw.gwy", "--after", "10").phase == "between"


def test_show_and_legal_follow_the_record_after_a_record_error(tmp_path):
    # A card South cannot hold (it lies in the waste pile): an error in the record (ruling 5),
    # reported, and then followed: South's unseen card and the J♠ change places, and the
    # record goes on with J♠ on the table.
    p = tmp_path / "stop.gwy"
    p.write_text(PAGAT.read_text(encoding="utf-8") + "7. South J♠\n", encoding="utf-8")
    r = run_cli("show", str(p), "--format", "json")
    assert r.returncode == 0
    m = StateModel.model_validate_json(r.stdout)
    assert m.stopped is None and [d.code for d in m.diagnostics] == ["R105"] and m.trick == 7
    assert m.phase == "in_trick" and m.trick_on_table is not None
    r = run_cli("legal", str(p))
    assert r.returncode == 0 and "replay stopped" not in r.stdout and "West to play to trick 7" in r.stdout
    assert "error[R105]" in r.stdout
