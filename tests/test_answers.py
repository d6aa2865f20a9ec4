"""Questions answered in one sentence: ``ask``, ``show --narrate``, and live's ``why``,
``who leads`` and ``hands``.

The sentences must never disagree with ``check``: on every record of records/ and on
simulated games with mistakes, every diagnostic check reports is told at its trick with its
code, message and penalty; a play is called a mistake only where check reports one; a legal
tochoo is one the engine says ended the trick with nothing reported at it; and the end of
the game told is the one the referee finds.
"""

from __future__ import annotations

import json
import re

import pytest
from conftest import RECORDS, run_cli
from test_live import run_live

from referee import parse
from referee.engine import events as EV
from referee.engine.cards import card_str
from referee.engine.rules import parse_spec
from referee.notation.record import Play
from referee.selfplay.simulate import simulate
from referee.table.answers import narrate, trick_sentence, walk


def _check_json(path) -> dict:
    r = run_cli("check", str(path), "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def _agree(game, check_diags: list[dict], check_game: dict) -> None:
    """The narration of ``game`` against what check reported for it."""
    w = walk(game)
    text = "\n".join(narrate(w))
    seats = game.seats
    # every diagnostic check reports is told, with its code and its message
    for d in check_diags:
        assert f"({d['code']}): {d['message']}" in text, (game.path, game.number, d["code"], d["message"])
        if d["severity"] == "mistake" and d.get("help"):
            assert d["help"].replace("penalty (ruling 1): ", "penalty: ") in text
    told = re.findall(r"\(([SRM]\d{3})\): ", text)
    assert sorted(told) == sorted(d["code"] for d in check_diags), (game.path, game.number)
    # a play is called a mistake exactly where check points at it; a legal tochoo exactly
    # where the engine says the card ended the trick and nothing is reported
    at = {(d["location"]["line"], d["location"]["column"]) for d in check_diags if d.get("location")}
    for st in w.steps:
        if not isinstance(st.item, Play):
            continue
        p = st.item
        here = (p.card_span.line, p.card_span.col) in at or (p.seat_span.line, p.seat_span.col) in at
        sentence = trick_sentence(w, st.trick)
        mine = f"{seats[p.seat]} played {card_str(p.card)} (a mistake"
        errs = [d for d in st.diagnostics if d.is_error]
        assert (mine in sentence) == any(d.code.startswith("M") for d in errs), (game.path, st.trick)
        # an error in the record is never called a mistake
        record = f"{seats[p.seat]} played {card_str(p.card)} (an error in the record"
        assert (record in sentence) == bool(errs and not any(d.code.startswith("M") for d in errs)), (game.path, st.trick)
        if mine in sentence or record in sentence:
            assert here
        # (a mistake penalised at once is not played to the trick: no Played event)
        effect = next((ev.effect for ev in st.events if isinstance(ev, EV.Played) and ev.seat == p.seat), None)
        legal = f"{seats[p.seat]}'s {card_str(p.card)} was a legal tochoo"
        assert (legal in sentence) == (effect is EV.Effect.TOCHOO and not st.diagnostics), (game.path, st.trick)
    # the end told is the referee's
    if check_game.get("loser"):
        assert f"{check_game['loser']} is left holding cards and loses" in text or \
            f"{check_game['loser']} is the donkey" in text


def _json_diags(rep: dict) -> list[tuple[dict, list[dict]]]:
    out = []
    for f in rep["files"]:
        for g in f["games"]:
            out.append((g, g["diagnostics"]))
    return out


@pytest.mark.parametrize("record", sorted(RECORDS.glob("*.gwy")), ids=lambda p: p.name)
def test_narration_agrees_with_check_on_every_record(record):
    rep = _check_json(record)
    games = parse(record.read_text(encoding="utf-8"), str(record))
    judged = _json_diags(rep)
    assert len(judged) == len(games)
    for game, (g, diags) in zip(games, judged):
        if game.errors:
            continue
        _agree(game, diags, g)


@pytest.mark.parametrize("spec,players,seed", [("pagat", 4, 3), ("pagat", 5, 8), ("donkey", 4, 2),
                                               ("denexa", 3, 4), ("pagat last_card=draw_hand", 4, 6)])
def test_narration_agrees_with_check_on_simulated_games_with_mistakes(tmp_path, spec, players, seed):
    f = tmp_path / "sim.gwy"
    sims = list(simulate(players, 4, seed, parse_spec(spec), mistakes=0.05))
    f.write_text("%gwy 1\n\n" + "\n".join(g.text for g in sims), encoding="utf-8")
    rep = _check_json(f)
    games = parse(f.read_text(encoding="utf-8"), str(f))
    assert sum(len(g.mistakes) for g in sims) > 0  # the bots made mistakes to tell
    for game, (g, diags) in zip(games, _json_diags(rep)):
        _agree(game, diags, g)


# ---- the commands -------------------------------------------------------------------------------


def test_ask_a_renege_in_one_sentence():
    r = run_cli("ask", str(RECORDS / "dispute-renege-illegal.gwy"), "--trick", "5", "--seat", "East")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    # The verdict: who did what, the penalty, who picks up, who leads.
    assert lines[0] == ("Trick 5: renege: East played K♣ on a heart lead while holding 9♥ (M201); "
                        "penalty applied: East picks up 3 cards and leads trick 6.")
    # The cited detail on request.
    r = run_cli("ask", str(RECORDS / "dispute-renege-illegal.gwy"), "--trick", "5", "--seat", "East", "--explain")
    first, detail = r.stdout.strip().splitlines()
    assert first == lines[0]
    assert detail.startswith("Trick 5, after West led 4♥ and North followed with 6♥: East's K♣ was a mistake (M201): "
                             "renege: East played K♣ on a heart lead while holding 9♥")
    assert detail.count("M201") == 1  # told once
    assert "penalty: East picks up the 3 cards of trick 5 and leads trick 6; the table applied it" in detail
    assert "rule: " in detail


def test_ask_a_legal_tochoo_and_who_picks_up():
    r = run_cli("ask", str(RECORDS / "pagat-example.gwy"), "--trick", "4", "--explain")
    assert r.returncode == 0, r.stderr
    first, detail = r.stdout.strip().splitlines()
    assert first == "Trick 4: East's K♣ was a tochoo; North, with the highest heart (6♥), picks up 3 cards and leads trick 5."
    assert detail.startswith("Trick 4: West led 2♥, North followed with 6♥ and East's K♣ was a legal tochoo")
    assert "The trick ends; North, with the highest heart (6♥), picks up 3 cards and leads trick 5." in detail


def test_ask_a_penalty_the_table_did_not_apply():
    r = run_cli("ask", str(RECORDS / "dispute-unnoticed-illegal.gwy"), "--trick", "5", "--seat", "S", "--explain")
    assert r.returncode == 0, r.stderr
    first, detail = r.stdout.strip().splitlines()
    # mid-trick, what the table needs: who plays next and what the rule asks (issue 35, item 2)
    assert first == ("Trick 5: South played A♦ out of turn: it was East's turn (M203), not penalised; "
                     "West to play, following ♦ if able (a tochoo ends the trick).")
    assert "South's A♦ was a mistake (M203): South played A♦ out of turn: it was East's turn" in detail
    assert "; then East followed with J♦." in detail
    assert "the table did not apply it, and the referee follows the record as played" in detail


def test_ask_after_a_penalised_play_after_a_tochoo_names_one_pickup_and_one_leader():
    # Issue 21, item 6: the tochoo's winner and the offender were both said to pick up and
    # lead trick 5. The replay has the penalty: South picks up all four cards and leads.
    r = run_cli("ask", str(RECORDS / "dispute-after-tochoo-illegal.gwy"), "--trick", "4", "--explain")
    assert r.returncode == 0, r.stderr
    first, detail = r.stdout.strip().splitlines()
    assert first == ("Trick 4: South played 4♥ after East's tochoo K♣ ended trick 4 (M202); "
                     "penalty applied: South picks up 4 cards and leads trick 5.")
    for text in (first, detail):
        pickups = re.findall(r"(\w+)(?:, with [^,]+,)? picks up (?:the )?(\d+) cards", text)
        assert pickups and set(pickups) == {("South", "4")}, pickups
        assert set(re.findall(r"(\w+) (?:picks up [^;.]*? and )?leads trick 5", text)) == {"South"}


def test_ask_tells_the_renege_a_trick_proves():
    # Issue 21, item 6: the answer on the trick that proves an earlier renege says so.
    path = RECORDS.parent / "tests" / "data" / "invalid" / "M201-renege-proved.gwy"
    r = run_cli("ask", str(path), "--game", "1", "--trick", "7", "--explain")
    assert r.returncode == 0, r.stderr
    first, detail = r.stdout.strip().splitlines()
    assert first.startswith("Trick 7: East's 4♥ proves the renege of trick 4 (M201); ")
    assert first.endswith("North, with the highest club (K♣), picks up 4 cards and leads trick 8.")
    assert "East's 4♥ proves the renege of trick 4 (M201): renege: East played K♣ on a heart lead" in detail


def test_ask_usage_errors():
    rec = str(RECORDS / "pagat-example.gwy")
    r = run_cli("ask", rec, "--trick", "99")
    assert r.returncode == 2 and "tricks 1 to 6" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("ask", rec, "--trick", "2", "--seat", "Zed")
    assert r.returncode == 2 and "no seat of this game" in r.stderr
    r = run_cli("ask", str(RECORDS / "nope.gwy"), "--trick", "2")
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_show_narrate_tells_the_game_trick_by_trick():
    r = run_cli("show", str(RECORDS / "dispute-two-players.gwy"), "--narrate")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    tricks = [line for line in lines if line.startswith("Trick ")]
    assert [int(re.match(r"Trick (\d+)", t).group(1)) for t in tricks] == sorted(
        int(re.match(r"Trick (\d+)", t).group(1)) for t in tricks)
    assert "West drew 7♣ from the waste pile" in r.stdout
    assert lines[-1].endswith("the game is over: West is left holding cards and loses.")


def test_live_why_who_leads_hands(tmp_path):
    f = tmp_path / "q.gwy"
    lines = ["West A♠", "North J♠", "East A♥", "South 10♠", "who leads", "West 5♥", "North 9♥", "East Q♥", "South J♥",
             "East 3♥", "South 7♥", "West K♥", "North 8♥", "West 2♥", "North 6♥", "East K♣", "why", "more", "hands",
             "legal"]
    r = run_live(str(f), input="\n".join(lines) + "\n")
    assert r.returncode == 0, r.stdout
    out = r.stdout.splitlines()
    assert "West leads trick 2: they played the highest card, A♠, to trick 1." in out
    why, more = [line for line in out if line.startswith("Trick 4: ")]
    # why: the verdict, one sentence; more: the detail behind it, with the reason cited
    assert why == "Trick 4: East's K♣ was a tochoo; North, with the highest heart (6♥), picks up 3 cards and leads trick 5."
    assert "East's K♣ was a legal tochoo (East's hand is unseen and nothing shows a heart in it)" in more
    assert "North, with the highest heart (6♥), picks up 3 cards" in more
    hands = next(line for line in out if line.startswith("North 12 cards"))
    assert "East 9 cards" in hands and "the waste pile has 12 cards" in hands
    legal = next(line for line in out if line.startswith("North leads trick 5: they played the highest card, 6♥"))
    assert "of the cards known in North's hand, 6♥ 2♥ K♣ may be played" in legal
    assert "takes allowed now: North takes East" in legal
