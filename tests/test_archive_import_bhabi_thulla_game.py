"""getaway-ref import --from bhabi-thulla-game (issue 42, item 4): an online game of the Bhabi
Thulla phone app (the public repository AllianceTech-Live/bhabi-thulla-game), as its Supabase
tables keep it (the games row, the game_players rows and the game_moves rows, one a card
played), becomes a record the referee judges. The app keeps no deal; the reader works it out
from the moves.

The sample logs in tests/data/imports/bhabi-thulla-game*.json were written in that format by
the helper below, out of simulated games played under the rule set the app's engine implies."""

from __future__ import annotations

import json
import sys

import pytest

from referee.archive.imports.bhabi_thulla_game import BTG_RULES, ImportProblem, read_bhabi_thulla_game
from referee.engine import cards as C
from referee.notation.reader import read
from referee.notation.record import Draw, Take, Trick
from tests.conftest import DATA, import_changed, judged, run_cli

SAMPLES = DATA / "imports"
NAMES = ("Ayesha", "Bilal", "Sana", "Danish")
GAME_ID = "5d0c7a52-3f0e-4c1b-9d7e-2a61f0b84c10"


def card_id(c: int) -> str:
    """A card as the app names it: the suit's name, a dash, the rank."""
    return f"{('spades', 'hearts', 'diamonds', 'clubs')[C.SUIT[c]]}-{C.RANK_NAMES[C.RANK[c]]}"


def player_id(seat: int) -> str:
    return f"00000000-0000-4000-8000-{seat + 1:012d}"


def app_sizes(n: int) -> list[int]:
    """The app deals the pack one card at a time from seat 1."""
    return [52 // n + (1 if i < 52 % n else 0) for i in range(n)]


def as_export(g) -> dict:
    """A game of ours as the app's rows (the seats in order are the app's seat numbers)."""
    moves = []
    for it in g.actions:
        if isinstance(it, Trick):
            led = C.SUIT[it.plays[0].card]
            for k, p in enumerate(it.plays):
                moves.append({"id": f"m{len(moves) + 1}", "game_id": GAME_ID, "player_id": player_id(p.seat),
                              "card_id": card_id(p.card), "move_number": len(moves) + 1,
                              "move_type": "thulla" if k and C.SUIT[p.card] != led else "play", "payload": None,
                              "created_at": f"2026-09-24T18:{len(moves) // 60:02d}:{len(moves) % 60:02d}Z"})
        elif isinstance(it, (Take, Draw)):
            raise ValueError("the app has no take and no draw")
    n = len(g.seats)
    players = [{"id": f"gp{s + 1}", "game_id": GAME_ID, "player_id": player_id(s), "seat_number": s + 1,
                "status": "active", "is_ready": True, "display_name": NAMES[s], "cards_remaining": 0}
               for s in range(n)]
    return {"game": {"id": GAME_ID, "room_code": "QX7K2P", "status": "completed", "game_type": "thulla",
                     "max_players": n, "host_id": player_id(0), "round_number": 1, "winner_id": None,
                     "bhabhi_id": None, "game_state": None},
            "game_players": players[::-1],  # the rows come in any order; the seat numbers say
            "game_moves": moves}


def app_ended(export: dict) -> dict:
    """The game as the app keeps it: no move after it has ended the game, and its loser."""
    try:
        got = read_bhabi_thulla_game(export)
    except ImportProblem as e:
        if "a move after the game was over" not in str(e):
            raise
        k = int(str(e).split("]")[0].removeprefix("game_moves["))
        export["game_moves"] = export["game_moves"][:k]
        got = read_bhabi_thulla_game(export)
    lost = [ln for ln in got.text.splitlines() if ln.startswith(('[Result "', "# the app's result: "))]
    if lost:
        name = lost[0].removeprefix('[Result "').removeprefix("# the app's result: ").split()[0].rstrip('"]')
        export["game"]["bhabhi_id"] = player_id(NAMES.index(name))
    return export


def cut_after(g, export: dict, number: int, index: int) -> dict:
    """The game as the app keeps it while still on, after the given play of the given trick
    (where the texts part from the app, the app's next moves are not our game's): the moves
    so far, and the hands as the app's game_state shows them then (a card of another suit
    gives the trick to the highest card of the suit led, in the first trick too)."""
    hands = [list(h.cards) for h in g.setup.hands]
    k = 0
    for it in (a for a in g.actions if isinstance(a, Trick)):
        led = C.SUIT[it.plays[0].card]
        for i, p in enumerate(it.plays):
            hands[p.seat].remove(p.card)
            k += 1
            if C.SUIT[p.card] != led:
                high = max((q for q in it.plays[:i] if C.SUIT[q.card] == led), key=lambda q: C.RANK[q.card])
                hands[high.seat] += [q.card for q in it.plays[:i + 1]]
            if (it.number, i) == (number, index):
                export["game_moves"] = export["game_moves"][:k]
                export["game"].update(status="playing", bhabhi_id=None, game_state={"phase": "playing", "players": [
                    {"id": player_id(s), "name": NAMES[s], "seat": s + 1, "type": "human",
                     "status": "active" if h else "escaped",
                     "hand": [{"id": card_id(c), "suit": card_id(c).split("-")[0], "rank": card_id(c).split("-")[1]}
                              for c in C.sort_cards(h)]} for s, h in enumerate(hands)]})
                return export
    raise ValueError(f"no play {index} in trick {number}")


def plain(g) -> bool:
    """No draw, the hands the sizes the app deals, and a first trick of spades only (the app
    ends it at another suit, and plays on as the log of our game cannot say)."""
    first = next(it for it in g.actions if isinstance(it, Trick))
    return (not any(isinstance(it, Draw) for it in g.actions)
            and [len(h.cards) for h in g.setup.hands] == app_sizes(len(g.seats))
            and all(C.SUIT[p.card] == C.SUIT[C.ACE_OF_SPADES] for p in first.plays))


def test_a_sample_game_imports_and_checks_clean(tmp_path):
    out = tmp_path / "game.gwy"
    sample = SAMPLES / "bhabi-thulla-game.json"
    r = run_cli("import", "--from", "bhabi-thulla-game", str(sample), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"wrote {out}: 1 game, ") and f"rules {BTG_RULES}" in r.stdout
    assert "the texts part from the app" not in r.stdout
    text = out.read_text(encoding="utf-8")
    assert f'[Rules "{BTG_RULES}"]' in text and text.count("# where the app departs from the texts:") == 3
    data = json.loads(sample.read_text(encoding="utf-8"))
    by_id = {p["player_id"]: p["display_name"] for p in data["game_players"]}
    [g] = judged(out)
    assert g["finished"] and g["diagnostics"] == [] and g["seats"] == list(NAMES)
    assert g["loser"] == by_id[data["game"]["bhabhi_id"]] and len(g["out_order"]) == 3
    lines = [ln for ln in text.splitlines() if ln[:1].isdigit()]
    assert g["tricks"] == len(lines) and sum(ln.count(",") + 1 for ln in lines) == len(data["game_moves"])
    assert run_cli("check", str(out)).returncode == 0
    # standard output when no file is named, the same record
    assert run_cli("import", "--from", "bhabi-thulla-game", str(sample)).stdout == text


@pytest.mark.parametrize("players", [4, 3, 2])
def test_imported_games_rejudge_as_the_app_recorded_or_name_the_trick(tmp_path, players):
    """Simulated games under the app's rules through its tables and back: the deal worked out
    from the moves is the one dealt; where the app ends the game with the replay, the same
    loser, order of getting away and tricks; elsewhere the reader names the trick."""
    src = tmp_path / "sim.gwy"
    assert run_cli("simulate", "-n", str(players), "-g", "16", "--seed", "5", "--rules", BTG_RULES,
                   "-o", str(src)).returncode == 0
    verdicts = judged(src)
    records, before, named = [], [], 0
    for g, v in zip(read(src), verdicts):
        if not plain(g):
            continue
        got = read_bhabi_thulla_game(app_ended(as_export(g)))
        deal = got.text.split("\ndeal\n", 1)[1].splitlines()[:players]
        assert deal == [f"{NAMES[h.seat]} {' '.join(C.card_str(c) for c in C.sort_cards(h.cards))}" for h in g.setup.hands]
        if got.differs:
            assert got.differs[0].startswith(("trick ", "the end (trick ")), got.differs
            named += 1
            continue
        records.append(got.text if not records else got.text.split("\n", 1)[1])
        before.append(v)
    assert len(records) >= 4 and (named >= 1 or players != 4)
    back = tmp_path / "back.gwy"
    back.write_text("".join(records), encoding="utf-8")
    after = judged(back)
    assert len(after) == len(before)
    for o, g in zip(before, after):
        name = dict(zip(o["seats"], NAMES))
        assert (g["loser"], g["out_order"], g["tricks"], g["diagnostics"]) == (
            name[o["loser"]], [name[s] for s in o["out_order"]], o["tricks"], [])


def test_the_app_ending_the_game_mid_trick_is_named(tmp_path):
    """With two players left, the app lets a led last card get away at once and ends the game
    before the other plays; the texts play the trick out. The reader names that trick and
    keeps the app's loser in a comment."""
    sample = SAMPLES / "bhabi-thulla-game-end.json"
    out = tmp_path / "end.gwy"
    r = run_cli("import", "--from", "bhabi-thulla-game", str(sample), "-o", str(out))
    assert r.returncode == 0, r.stderr
    [said] = [ln for ln in r.stdout.splitlines() if ln.startswith("the texts part from the app")]
    assert "at the end (trick 27): the app ends the game there, Ayesha being the only one holding cards" in said
    text = out.read_text(encoding="utf-8")
    assert "# the app's result: Ayesha lost" in text and "[Result" not in text
    [g] = judged(out)
    assert not g["finished"] and g["tricks"] == 27 and g["diagnostics"] == []


@pytest.mark.parametrize("sample, said", [
    ("bhabi-thulla-game-first-trick.json",
     "at trick 1 (Danish A♥): the app ends the first trick at this card of another suit and Ayesha picks it up"),
    ("bhabi-thulla-game-out.json",
     "at trick 14 (Ayesha 7♦): Sana's last card is the highest of the suit led, so by the texts Sana picks the "
     "trick up and plays on; the app keeps Sana out"),
])
def test_a_game_still_on_where_the_texts_part_is_named(tmp_path, sample, said):
    """A game the app has not finished: the cards never played are placed by the hands its
    game_state shows; where the app's rules part from the texts, the trick is named."""
    data = json.loads((SAMPLES / sample).read_text(encoding="utf-8"))
    out = tmp_path / "on.gwy"
    r = run_cli("import", "--from", "bhabi-thulla-game", str(SAMPLES / sample), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"the texts part from the app {said}" in r.stdout
    text = out.read_text(encoding="utf-8")
    assert "[Result" not in text and f"# where the texts part from the app: {said.removeprefix('at ')}" in text
    [g] = judged(out)
    lines = [ln for ln in text.splitlines() if ln[:1].isdigit()]
    assert not g["finished"] and sum(ln.count(",") + 1 for ln in lines) == len(data["game_moves"])
    # every card is dealt once, the unplayed ones where the app's hands show them
    deal = text.split("\ndeal\n", 1)[1].splitlines()[:4]
    assert sorted(w for ln in deal for w in ln.split()[1:]) == sorted(C.card_str(c) for c in range(52))
    # without those hands the deal cannot be told
    data["game"]["game_state"] = None
    log = tmp_path / "bare.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    r = run_cli("import", "--from", "bhabi-thulla-game", str(log))
    assert r.returncode == 2 and "without the hands of game.game_state the deal cannot be told" in r.stderr


def test_a_hand_edited_play_out_of_turn_is_named_and_judged(tmp_path):
    """The app's server refuses a card out of turn or against the suit, so its tables hold no
    table mistakes; a log edited by hand is imported as written, the trick is named and check
    judges it (ruling 1)."""
    data = json.loads((SAMPLES / "bhabi-thulla-game.json").read_text(encoding="utf-8"))
    text = run_cli("import", "--from", "bhabi-thulla-game", str(SAMPLES / "bhabi-thulla-game.json")).stdout
    tricks = [ln for ln in text.splitlines() if ln[:1].isdigit()]
    # a trick after the first that everyone followed: its second and third cards swapped
    k = next(i for i, ln in enumerate(tricks) if i and len({w.rstrip(",")[-1] for w in ln.split()[2::2]}) == 1 and ln.count(",") >= 2)
    first = sum(ln.count(",") + 1 for ln in tricks[:k])
    moves = data["game_moves"]
    moves[first + 1]["move_number"], moves[first + 2]["move_number"] = moves[first + 2]["move_number"], moves[first + 1]["move_number"]
    log = tmp_path / "edited.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "edited.gwy"
    r = run_cli("import", "--from", "bhabi-thulla-game", str(log), "-o", str(out))
    assert r.returncode == 0, r.stderr
    third = tricks[k].split(", ")[2]
    assert f"the texts part from the app at trick {k + 1} ({third}): the texts do not allow it" in r.stdout
    [g] = judged(out)
    assert g["diagnostics"] and g["diagnostics"][0]["trick"] == k + 1
    assert run_cli("check", str(out)).returncode == 1


def _renumber(d: dict, k: int, to: int) -> None:
    d["game_moves"][k]["move_number"] = to


@pytest.mark.parametrize("change, said", [
    (lambda d: d["game_moves"][3].update(card_id="spades-1"), "game_moves[3].card_id: 'spades-1' is not a card"),
    (lambda d: d["game_moves"][5].update(player_id="nobody"), "game_moves[5].player_id: 'nobody' is not one of game_players"),
    (lambda d: _renumber(d, 8, 7), "game_moves[8].move_number: 7 twice"),
    (lambda d: d["game_moves"][9].update(move_type="bluff_call"), "game_moves[9].move_type: 'bluff_call' is not a move of Thulla"),
    (lambda d: d["game"].update(game_type="bluff"), "game.game_type: 'bluff', not a game of Thulla"),
    (lambda d: d.pop("game_moves"), "not an export of the app's tables"),
    (lambda d: d["game_players"].pop(), "game_moves[3].player_id: '00000000-0000-4000-8000-000000000001' is not one"),
    (lambda d: d["game_moves"][3].update(player_id=player_id(1)),
     "game_moves: Bilal plays 14 cards nobody played before, more than the 13 the app deals seat 2 of 4"),
    (lambda d: d["game_moves"][61].update(player_id=player_id(1)), "game_moves[61]: Bilal plays 7♣, which Bilal does not hold"),
    (lambda d: d["game_moves"].append({**d["game_moves"][-1], "move_number": 99}), "game_moves[71]: a move after the game was over"),
    (lambda d: d["game_moves"][20].update(card_id=d["game_moves"][2]["card_id"]),
     "game_moves[20]: Sana plays K♠, which Sana does not hold"),
])
def test_a_malformed_log_is_one_line_exit_2(tmp_path, change, said):
    r = import_changed(tmp_path, "bhabi-thulla-game", SAMPLES / "bhabi-thulla-game.json", change)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and said in r.stderr and "bad.json" in r.stderr


if __name__ == "__main__":
    # write a sample: python -m tests.test_archive_import_bhabi_thulla_game RECORD GAME [TRICK PLAY]
    # (with TRICK PLAY, the game still on after that play, 0 being the trick's lead)
    game = list(read(sys.argv[1]))[int(sys.argv[2]) - 1]
    cut = [int(x) for x in sys.argv[3:5]]
    print(json.dumps(cut_after(game, as_export(game), *cut) if cut else app_ended(as_export(game)), indent=1))
