"""getaway-ref import --from bhabhi-live-solver (issue 42, item 4): the Getaway Live Solver's
archives (the format its repository declares: a game-created event, then card-played,
waste-card-drawn, player-card-drawn and hand-taken events) become records the referee judges.

The sample logs in tests/data/imports/ were written from that format by the helper below,
out of simulated games: so each imported game can be judged against the game it came from."""

from __future__ import annotations

import json
import sys

import pytest

from referee.engine import cards as C
from referee.notation.reader import read
from referee.notation.record import Draw, Take, Trick
from tests.conftest import DATA, import_changed, judged, run_cli

SAMPLES = DATA / "imports"
SEATS = ("user", "p2", "p3")


def code(c: int) -> str:
    """A card as the app writes it: rank (T for ten), then the suit's letter."""
    return "23456789TJQKA"[C.RANK[c]] + "SHDC"[C.SUIT[c]]


def as_app_archive(g, take_mode: str = "next-active") -> dict:
    """A three-player game of ours as the app's archive: the user's hand seen, the others' counts."""
    hands = {h.seat: h.cards for h in g.setup.hands}
    ace = next(s for s, cs in hands.items() if C.ACE_OF_SPADES in cs)
    created = {"type": "game-created", "schemaVersion": 1,
               "rules": {"schemaVersion": 1, "direction": "clockwise",
                         "takeHand": {"mode": take_mode, "configuredTargets": []},
                         "zeroCardsWithPower": {"mode": "waste-draw", "drawFromTarget": "next-active",
                                                "configuredTarget": None},
                         "openingOffSuit": "any", "twoPlayer": "pagat-shootout"},
               "userHand": [code(c) for c in hands[0]],
               "startingCounts": {SEATS[s]: len(hands[s]) for s in range(3)}, "aceSpadesHolder": SEATS[ace]}
    events = [created]
    for it in g.actions:
        if isinstance(it, Trick):
            events += [{"type": "card-played", "schemaVersion": 1, "seat": SEATS[p.seat], "card": code(p.card)}
                       for p in it.plays]
        elif isinstance(it, Take):
            events.append({"type": "hand-taken", "schemaVersion": 1, "actor": SEATS[it.taker],
                           "target": SEATS[it.target], "revealedCards": []})
        elif isinstance(it, Draw):
            events.append({"type": "waste-card-drawn", "schemaVersion": 1, "seat": SEATS[it.seat], "card": code(it.card)})
    return {"schemaVersion": 1, "timeline": {"schemaVersion": 1, "events": events, "cursor": len(events),
                                             "orphanedEvents": []},
            "semanticHash": "h", "documentHash": "h"}


def test_a_sample_log_imports_and_checks_clean(tmp_path):
    out = tmp_path / "game.gwy"
    r = run_cli("import", "--from", "bhabhi-live-solver", str(SAMPLES / "live-solver.json"), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"wrote {out}: 1 game, ") and "rules pagat taking=no" in r.stdout
    text = out.read_text(encoding="utf-8")
    assert '[Rules "pagat taking=no"]' in text and "\np2 18\n" in text and "\np3 17\n" in text
    [g] = judged(out)
    assert g["finished"] and g["diagnostics"] == [] and g["seats"] == list(SEATS)
    # standard output when no file is named, the same record
    assert run_cli("import", "--from", "bhabhi-live-solver", str(SAMPLES / "live-solver.json")).stdout == text


def test_imported_games_rejudge_as_the_games_they_came_from(tmp_path):
    """Twelve simulated games with takes and table mistakes, through the app's format and back:
    the same loser, order of getting away, tricks and findings at the same tricks."""
    src = tmp_path / "sim.gwy"
    assert run_cli("simulate", "-n", "3", "-g", "12", "--seed", "4", "--mistakes", "0.03", "-o", str(src)).returncode == 0
    from referee.archive.imports import read_live_solver

    records = []
    for g in read(src):
        text = read_live_solver(json.loads(json.dumps(as_app_archive(g)))).text
        records.append(text if not records else text.split("\n", 1)[1])
    back = tmp_path / "back.gwy"
    back.write_text("".join(records), encoding="utf-8")
    before, after = judged(src), judged(back)
    assert len(after) == len(before) == 12
    assert sum(len(g["diagnostics"]) for g in before) >= 3  # the mistakes came through
    for o, g in zip(before, after):
        name = dict(zip(o["seats"], SEATS))
        assert (g["loser"], g["out_order"], g["tricks"]) == (name[o["loser"]], [name[s] for s in o["out_order"]], o["tricks"])
        assert sorted((d["code"], d["trick"]) for d in g["diagnostics"]) == sorted((d["code"], d["trick"]) for d in o["diagnostics"])


def test_a_log_with_mistakes_is_judged_by_the_texts(tmp_path):
    out = tmp_path / "m.gwy"
    assert run_cli("import", "--from", "bhabhi-live-solver", str(SAMPLES / "live-solver-mistakes.json"),
                   "-o", str(out)).returncode == 0
    assert "# the app's seat p3 held the A♠" in out.read_text(encoding="utf-8")
    r = run_cli("check", str(out))
    assert r.returncode == 1
    [g] = judged(out)
    assert [(d["code"], d["trick"]) for d in g["diagnostics"]] == [("M201", 2), ("M203", 5)]


def test_the_apps_departures_are_said_in_the_record(tmp_path):
    data = json.loads((SAMPLES / "live-solver.json").read_text(encoding="utf-8"))
    rules = data["timeline"]["events"][0]["rules"]
    rules.update(openingOffSuit="highest", twoPlayer="normal", takeHand={"mode": "adjacent", "configuredTargets": []},
                 zeroCardsWithPower={"mode": "draw-from-player", "drawFromTarget": "next-active", "configuredTarget": None})
    data["timeline"]["cursor"] -= 4  # the last four events undone in the app
    log = tmp_path / "d.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    r = run_cli("import", "--from", "bhabhi-live-solver", str(log))
    assert r.returncode == 0, r.stderr
    assert '[Rules "pagat last_card=draw_hand draw_from=next"]' in r.stdout
    said = [ln for ln in r.stdout.splitlines() if ln.startswith("# where the app departs")]
    assert len(said) == 3 and any("highest card" in s for s in said) and any("R108" in s for s in said)
    assert "# 4 event(s) after the app's cursor were undone" in r.stdout
    plays = sum(len(ln.split(",")) for ln in r.stdout.splitlines() if ln[:1].isdigit())
    assert plays == sum(1 for e in data["timeline"]["events"][1:data["timeline"]["cursor"]] if e["type"] == "card-played")


@pytest.mark.parametrize("change, said", [
    (lambda d: d["timeline"]["events"][3].update(card="1H"), "timeline.events[3].card: '1H' is not a card"),
    (lambda d: d["timeline"]["events"][2].update(type="card-dropped"), "timeline.events[2].type: 'card-dropped' is not an event"),
    (lambda d: d["timeline"]["events"][4].update(seat="p4"), "timeline.events[4].seat: 'p4' is not a seat"),
    (lambda d: d["timeline"].update(cursor=0), "timeline.cursor: 0 is not between 1 and"),
    (lambda d: d["timeline"]["events"].insert(1, d["timeline"]["events"][0]), "a second game-created event"),
    (lambda d: d.update(schemaVersion=2), "not an archive of schema version 1"),
    (lambda d: d["timeline"]["events"][0]["startingCounts"].update(user=3), "the user's hand has 17 cards, its starting count says 3"),
])
def test_a_malformed_log_is_one_line_exit_2(tmp_path, change, said):
    r = import_changed(tmp_path, "bhabhi-live-solver", SAMPLES / "live-solver.json", change)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and said in r.stderr and "bad.json" in r.stderr


def test_not_json_a_missing_file_and_a_kept_output(tmp_path):
    log = tmp_path / "x.json"
    log.write_text('{"schemaVersion": 1,\n  "timeline": [}', encoding="utf-8")
    r = run_cli("import", "--from", "bhabhi-live-solver", str(log))
    assert r.returncode == 2 and f"{log}:2:" in r.stderr and "not JSON" in r.stderr and r.stderr.count("\n") == 1
    r = run_cli("import", "--from", "bhabhi-live-solver", str(tmp_path / "none.json"))
    assert r.returncode == 2 and "no such file" in r.stderr
    mine = tmp_path / "mine.gwy"
    mine.write_text("keep", encoding="utf-8")
    r = run_cli("import", "--from", "bhabhi-live-solver", str(SAMPLES / "live-solver.json"), "-o", str(mine))
    assert r.returncode == 2 and "--force" in r.stderr and mine.read_text(encoding="utf-8") == "keep"
    r = run_cli("import", "--from", "bga", str(SAMPLES / "live-solver.json"))
    assert r.returncode == 2 and "the formats are bhabhi-live-solver" in r.stderr


if __name__ == "__main__":  # write a sample log: python -m tests.test_archive_import RECORD GAME [TAKE-MODE]
    game = list(read(sys.argv[1]))[int(sys.argv[2]) - 1]
    print(json.dumps(as_app_archive(game, *sys.argv[3:4]), indent=1))
