"""getaway-ref import --from card-game-thulla (issue 42, item 4): a match of the Bhabhi Thulla
table built on boardgame.io (the public repository samiUllah1526/card-game-thulla) as its
storage keeps it (the SQLite row's initial_state and log, or boardgame.io's fetch of a match:
initialState, log, state) becomes a record the referee judges.

The sample logs in tests/data/imports/card-game-thulla*.json were written in that format by
the helper below, out of simulated games played under the rule set the app's engine implies."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from referee.archive.imports.card_game_thulla import CGT_RULES, ImportProblem, read_card_game_thulla
from referee.engine import cards as C
from referee.notation.reader import read
from referee.notation.record import Draw, Take, Trick
from tests.conftest import DATA, import_changed, judged, run_cli

SAMPLES = DATA / "imports"


def card(c: int) -> dict:
    suit, rank = "SHDC"[C.SUIT[c]], C.RANK[c] + 2
    return {"id": f"{suit}-{rank}", "suit": suit, "rank": rank}


def move(seat: int, name: str, *args) -> dict:
    return {"action": {"type": "MAKE_MOVE", "payload": {"type": name, "args": list(args), "playerID": str(seat)}},
            "_stateID": 0, "turn": 1, "phase": "default"}


def as_match(g, verdict: dict) -> dict:
    """A game of ours as the app's match; the result the app kept is the one check gave."""
    seat = {name: i for i, name in enumerate(g.seats)}
    log = [move(0, "startGame"), {"action": {"type": "GAME_EVENT", "payload": {"type": "endTurn"}}}]
    for it in g.actions:
        if isinstance(it, Trick):
            log += [move(p.seat, "playCard", card(p.card)["id"]) for p in it.plays]
        elif isinstance(it, Take):
            log.append(move(it.taker, "takeLeftHand"))
        elif isinstance(it, Draw):
            raise ValueError("the app's format has no draws")
    history = [{"deal": 1, "bhabhi": str(seat[verdict["loser"]]), "gotAway": [str(seat[s]) for s in verdict["out_order"]]}]
    return {"initialState": {"G": {"hands": {str(h.seat): [card(c) for c in h.cards] for h in g.setup.hands},
                                   "takeRequiresPermission": False}, "ctx": {"numPlayers": len(g.seats)}},
            "log": log, "state": {"G": {"dealHistory": history}}, "metadata": None}


def app_ended(match: dict) -> dict:
    """The match as the app logs it: no move after it has ended the deal."""
    try:
        read_card_game_thulla(match)
    except ImportProblem as e:
        if "after the deal was over" not in str(e):
            raise
        k = int(str(e).split("]")[0].removeprefix("log["))
        match["log"] = match["log"][:k]
    return match


def plain(g) -> bool:
    """No draw, and a first trick of spades only (the app ends it at another suit)."""
    first = next(it for it in g.actions if isinstance(it, Trick))
    return not any(isinstance(it, Draw) for it in g.actions) and all(C.SUIT[p.card] == C.SUIT[C.ACE_OF_SPADES] for p in first.plays)


def test_a_sample_match_imports_and_checks(tmp_path):
    out = tmp_path / "m.gwy"
    r = run_cli("import", "--from", "card-game-thulla", str(SAMPLES / "card-game-thulla.json"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"rules {CGT_RULES}" in r.stdout and "the texts part from the app" not in r.stdout
    text = out.read_text(encoding="utf-8")
    data = json.loads((SAMPLES / "card-game-thulla.json").read_text(encoding="utf-8"))
    [g] = judged(out)
    assert g["finished"] and g["diagnostics"] == [] and g["seats"] == ["P1", "P2", "P3", "P4"]
    h = data["state"]["G"]["dealHistory"][0]
    assert g["loser"] == f"P{int(h['bhabhi']) + 1}" and g["out_order"] == [f"P{int(s) + 1}" for s in h["gotAway"]]
    assert '[Result "' in text and run_cli("check", str(out)).returncode == 0
    # the SQLite row's form: the same fields as JSON text
    row = {"initial_state": json.dumps(data["initialState"]), "log": json.dumps(data["log"]),
           "state": json.dumps(data["state"]), "metadata": None}
    log = tmp_path / "row.json"
    log.write_text(json.dumps(row), encoding="utf-8")
    assert run_cli("import", "--from", "card-game-thulla", str(log)).stdout == text


def test_imported_matches_rejudge_or_name_the_end(tmp_path):
    """Simulated games with takes through the app's log and back: where the app's deal ends
    with the replay's, the same loser and order of getting away; where the app stops in the
    middle of the last trick, the importer names that trick."""
    src = tmp_path / "sim.gwy"
    assert run_cli("simulate", "-n", "4", "-g", "16", "--seed", "3", "--rules", CGT_RULES, "-o", str(src)).returncode == 0
    same = named = took = 0
    for g, v in zip(read(src), judged(src)):
        if not plain(g):
            continue
        got = read_card_game_thulla(app_ended(as_match(g, v)))
        took += sum(isinstance(it, Take) for it in g.actions)
        back = tmp_path / "back.gwy"
        back.write_text(got.text, encoding="utf-8")
        [b] = judged(back)
        if got.differs:
            assert len(got.differs) == 1 and got.differs[0].startswith(f"the end (trick {b['tricks']}")
            assert not b["finished"] and b["diagnostics"] == []
            named += 1
        else:
            name = {s: f"P{i + 1}" for i, s in enumerate(g.seats)}
            assert (b["loser"], b["out_order"], b["diagnostics"]) == (name[v["loser"]], [name[s] for s in v["out_order"]], [])
            same += 1
    assert same >= 2 and named >= 1 and took >= 1


def test_a_hand_edited_renege_is_named(tmp_path):
    """The app refuses a card its rules do not allow, so its logs hold no table mistakes; a
    log edited by hand is imported as written, and the trick where the texts part is named."""
    data = json.loads((SAMPLES / "card-game-thulla.json").read_text(encoding="utf-8"))
    hands = data["initialState"]["G"]["hands"]
    # the second card of the first trick: a heart from a hand that holds spades
    entry = data["log"][3]
    s = entry["action"]["payload"]["playerID"]
    heart = next(c["id"] for c in hands[s] if c["suit"] == "H")
    entry["action"]["payload"]["args"] = [heart]
    data["log"] = data["log"][:4]
    del data["state"]
    log = tmp_path / "e.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "e.gwy"
    r = run_cli("import", "--from", "card-game-thulla", str(log), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"the texts part from the app at trick 1 (P{int(s) + 1} " in r.stdout
    # the app ends its first trick at the heart: the lines say so, and check reports the renege
    assert "\n1. P" in out.read_text(encoding="utf-8")
    [g] = judged(out)
    assert g["diagnostics"] and g["diagnostics"][0]["trick"] == 1
    assert run_cli("check", str(out)).returncode == 1


def test_a_take_asked_and_answered_and_a_new_deal(tmp_path):
    """With takeRequiresPermission the take waits for the answer: given, it is the take; the
    record stops where the host deals again (the next deal's hands are not in the log)."""
    data = json.loads((SAMPLES / "card-game-thulla.json").read_text(encoding="utf-8"))
    data["initialState"]["G"]["takeRequiresPermission"] = True
    log = data["log"]
    k = next(i for i, e in enumerate(log) if e["action"]["payload"].get("type") == "takeLeftHand")
    plain_run = run_cli("import", "--from", "card-game-thulla", str(SAMPLES / "card-game-thulla.json")).stdout
    [take_line] = [ln for ln in plain_run.splitlines() if " takes " in ln]
    victim = int(take_line.split()[-1][1:]) - 1
    log.insert(k + 1, move(victim, "respondTake", True))
    log.append(move(0, "playAgain"))
    path = tmp_path / "asked.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    r = run_cli("import", "--from", "card-game-thulla", str(path))
    assert r.returncode == 0, r.stderr
    assert take_line in r.stdout.splitlines() and "# a new deal begins at log[" in r.stdout
    assert r.stdout.splitlines()[-1] == plain_run.splitlines()[-1]  # every trick of the first deal
    # refused: no take, a comment, and the hands the app kept decide the rest
    log[k + 1] = move(victim, "respondTake", False)
    del log[k + 2:]
    path.write_text(json.dumps(data), encoding="utf-8")
    r = run_cli("import", "--from", "card-game-thulla", str(path))
    assert r.returncode == 0, r.stderr
    assert " takes " not in r.stdout and f"# P{victim + 1} refused to give " in r.stdout


@pytest.mark.parametrize("change, said", [
    (lambda d: d["log"][4]["action"]["payload"].update(args=["X-3"]), "log[4].action.payload.args[0]: 'X-3' is not a card"),
    (lambda d: d["log"][5]["action"]["payload"].update(playerID="7"), "log[5].action.payload.playerID: '7' is not a seat"),
    (lambda d: d["log"][6]["action"]["payload"].update(type="cheat"), "log[6].action.payload.type: 'cheat' is not a move"),
    (lambda d: d.pop("initialState"), "the match: no 'initialState'"),
    (lambda d: d["log"].insert(2, move(1, "respondTake", True)), "log[2]: an answer to a take nobody asked for"),
    (lambda d: d["log"].append(move(0, "playCard", "S-2")), "after the deal was over"),
])
def test_a_malformed_log_is_one_line_exit_2(tmp_path, change, said):
    r = import_changed(tmp_path, "card-game-thulla", SAMPLES / "card-game-thulla.json", change)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and said in r.stderr and "bad.json" in r.stderr


if __name__ == "__main__":  # write a sample: python -m tests.test_archive_import_card_game_thulla RECORD GAME
    game = list(read(sys.argv[1]))[int(sys.argv[2]) - 1]
    verdict = judged(Path(sys.argv[1]))[int(sys.argv[2]) - 1]
    print(json.dumps(app_ended(as_match(game, verdict)), indent=1))
