"""getaway-ref import --from thulla-ai (issue 42, item 4): the completed games the Thulla AI
web app keeps (the public repository ahmedpervaiz31/thulla-ai: a JSON file per finished game
with the players, the opening hands, every trick's plays in order, the takes asked for and
the finishing order) become records the referee judges.

The sample logs in tests/data/imports/thulla-ai*.json were written in that format by the
helper below, out of simulated games played under the rule set the app's engine implies, so
each imported game can be judged against the game it came from."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from referee.archive.imports.thulla_ai import THULLA_AI_RULES, read_thulla_ai
from referee.engine import cards as C
from referee.notation.reader import read
from referee.notation.record import Draw, Take, Trick
from tests.conftest import DATA, import_changed, judged, run_cli

SAMPLES = DATA / "imports"


def code(c: int) -> str:
    """A card as the app writes it: rank (10 for ten), then the suit's letter."""
    return ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"][C.RANK[c]] + "SHDC"[C.SUIT[c]]


def as_app_game(g, verdict: dict) -> dict:
    """A game of ours as the app's completed-game JSON; its result is the one ``check`` gave
    (the app writes the result its own engine reached)."""
    names = list(g.seats)
    tricks, takes, number = [], [], 0
    for it in g.actions:
        if isinstance(it, Trick):
            number += 1
            tricks.append({"n": number, "leader": names[it.plays[0].seat], "leader_seat": it.plays[0].seat,
                           "first_trick": number == 1,
                           "plays": [{"seat": p.seat, "name": names[p.seat], "card": code(p.card), "kind": "follow"}
                                     for p in it.plays]})
        elif isinstance(it, Take):
            takes.append({"after_trick": number, "asker": names[it.taker], "asker_seat": it.taker,
                          "target": names[it.target], "target_seat": it.target, "n_cards": 0, "given": True})
        elif isinstance(it, Draw):
            raise ValueError("the app's format has no draws")
    seat = {name: i for i, name in enumerate(names)}
    loser = verdict["loser"]
    return {"version": 2, "id": "g", "mode": "ai", "players": names,
            "result": {"finishing_order": [{"place": k + 1, "seat": seat[s], "name": s}
                                           for k, s in enumerate(verdict["out_order"])],
                       "loser": None if loser is None else {"seat": seat[loser], "name": loser}},
            "opening_hands": [[code(c) for c in h.cards] for h in g.setup.hands],
            "tricks": tricks, "takes": takes, "advice_requests": []}


def test_a_sample_game_imports_and_checks_clean(tmp_path):
    out = tmp_path / "game.gwy"
    r = run_cli("import", "--from", "thulla-ai", str(SAMPLES / "thulla-ai.json"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"wrote {out}: 1 game, ") and f"rules {THULLA_AI_RULES}" in r.stdout
    assert "the texts part from the app" not in r.stdout
    text = out.read_text(encoding="utf-8")
    assert f'[Rules "{THULLA_AI_RULES}"]' in text and text.count("# where the app departs from the texts:") == 3
    data = json.loads((SAMPLES / "thulla-ai.json").read_text(encoding="utf-8"))
    [g] = judged(out)
    assert g["finished"] and g["diagnostics"] == [] and g["seats"] == data["players"]
    assert g["loser"] == data["result"]["loser"]["name"]
    assert g["out_order"] == [w["name"] for w in data["result"]["finishing_order"]]
    assert g["tricks"] == len(data["tricks"])
    assert run_cli("check", str(out)).returncode == 0
    # standard output when no file is named, the same record
    assert run_cli("import", "--from", "thulla-ai", str(SAMPLES / "thulla-ai.json")).stdout == text


def test_imported_games_rejudge_as_the_app_recorded(tmp_path):
    """Simulated games under the app's rules, with takes, through the app's format and back:
    the same loser, order of getting away and tricks, and nothing where the texts part."""
    src = tmp_path / "sim.gwy"
    assert run_cli("simulate", "-n", "4", "-g", "10", "--seed", "7", "--rules", THULLA_AI_RULES,
                   "-o", str(src)).returncode == 0
    verdicts = judged(src)
    records, compared, took = [], 0, 0
    for g, v in zip(read(src), verdicts):
        if any(isinstance(it, Draw) for it in g.actions):
            continue  # a draw: the app has none (the two-player departure, tested below)
        got = read_thulla_ai(json.loads(json.dumps(as_app_game(g, v))))
        assert got.differs == []
        took += sum(isinstance(it, Take) for it in g.actions)
        records.append(got.text if not records else got.text.split("\n", 1)[1])
        compared += 1
    assert compared >= 5 and took >= 1
    back = tmp_path / "back.gwy"
    back.write_text("".join(records), encoding="utf-8")
    after = judged(back)
    before = [v for g, v in zip(read(src), verdicts) if not any(isinstance(it, Draw) for it in g.actions)]
    assert len(after) == len(before) == compared
    for o, g in zip(before, after):
        assert (g["loser"], g["out_order"], g["tricks"], g["diagnostics"]) == (o["loser"], o["out_order"], o["tricks"], [])


def test_the_two_player_ending_the_app_allows_is_named(tmp_path):
    """The app lets a last card that wins a clean trick get away with one other player left;
    the texts have its player draw. The importer names the trick, check reports the result."""
    data = json.loads((SAMPLES / "thulla-ai-two-players.json").read_text(encoding="utf-8"))
    last = data["tricks"][-1]["n"]
    two_player_ending_named("thulla-ai", SAMPLES / "thulla-ai-two-players.json", last, tmp_path / "two.gwy")


def two_player_ending_named(fmt: str, log: Path, last: int, out: Path) -> None:
    """An app's log whose game went on where the texts' two-player ending has a draw: the
    import names the last trick, in its output and in the record, and check reports that the
    app's loser is not the replay's (R112)."""
    r = run_cli("import", "--from", fmt, str(log), "-o", str(out))
    assert r.returncode == 0, r.stderr
    [said] = [ln for ln in r.stdout.splitlines() if ln.startswith("the texts part from the app")]
    assert f"at trick {last} (" in said and "draw from the waste pile" in said
    assert f"# where the texts part from the app: trick {last} (" in out.read_text(encoding="utf-8")
    [g] = judged(out)
    assert not g["finished"] and g["tricks"] == last
    assert [d["code"] for d in g["diagnostics"]] == ["R112"]  # the app's loser contradicts the replay
    assert run_cli("check", str(out)).returncode == 1


def test_a_hand_edited_renege_is_named_and_judged(tmp_path):
    """The app refuses a card its rules do not allow, so its games hold no table mistakes; a
    log edited by hand is imported as written, and the trick where it breaks is named."""
    data = json.loads((SAMPLES / "thulla-ai.json").read_text(encoding="utf-8"))
    hands = {s: list(h) for s, h in enumerate(data["opening_hands"])}
    # the first trick's second player drops its spade for another card it holds
    play = data["tricks"][0]["plays"][1]
    other = next(c for c in hands[play["seat"]] if not c.endswith("S"))
    play["card"] = other
    log = tmp_path / "edited.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "edited.gwy"
    r = run_cli("import", "--from", "thulla-ai", str(log), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"the texts part from the app at trick 1 ({data['players'][play['seat']]} " in r.stdout
    [g] = judged(out)
    assert g["diagnostics"] and g["diagnostics"][0]["trick"] == 1
    assert run_cli("check", str(out)).returncode == 1


def test_names_that_are_not_seats_become_seat_numbers(tmp_path):
    data = json.loads((SAMPLES / "thulla-ai.json").read_text(encoding="utf-8"))
    data["players"][0] = "You (human)"
    log = tmp_path / "names.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    r = run_cli("import", "--from", "thulla-ai", str(log))
    assert r.returncode == 0, r.stderr
    n = len(data["players"])
    assert f'[Seats "{" ".join(f"seat{i + 1}" for i in range(n))}"]' in r.stdout
    assert "# seat1 is the app's 'You (human)'" in r.stdout


@pytest.mark.parametrize("change, said", [
    (lambda d: d["tricks"][2]["plays"][1].update(card="1H"), "tricks[2].plays[1].card: '1H' is not a card"),
    (lambda d: d["tricks"][3]["plays"][0].update(seat=9), "tricks[3].plays[0].seat: 9 is not a seat"),
    (lambda d: d["tricks"][4].update(n=7), "tricks[4].n: 7 where trick 5 was due"),
    (lambda d: d.update(opening_hands=None), "opening_hands: null (the app kept no deal"),
    (lambda d: d["opening_hands"][1].append(d["opening_hands"][0][0]), "opening_hands: the deal cannot be"),
    (lambda d: d.update(version=1), "not a completed game of version 2"),
    (lambda d: d["takes"].append({"after_trick": 99, "asker_seat": 0, "target_seat": 1, "given": True}),
     "after_trick: no such trick"),
    (lambda d: d["result"].pop("loser"), "result: no 'loser'"),
])
def test_a_malformed_log_is_one_line_exit_2(tmp_path, change, said):
    r = import_changed(tmp_path, "thulla-ai", SAMPLES / "thulla-ai.json", change)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and said in r.stderr and "bad.json" in r.stderr


if __name__ == "__main__":  # write a sample log: python -m tests.test_archive_import_thulla_ai RECORD GAME [TRICKS]
    game = list(read(sys.argv[1]))[int(sys.argv[2]) - 1]
    [verdict] = [v for k, v in enumerate(judged(Path(sys.argv[1]))) if k == int(sys.argv[2]) - 1]
    print(json.dumps(as_app_game(game, verdict), indent=1))
