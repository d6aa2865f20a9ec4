"""``getaway-ref puzzles`` (issue 41, item 4), as a user runs it on a small simulated archive:
every puzzle written checks clean, opens where one card of at least three keeps the mover
safe (re-checked here by a solver of our own, not the command's), appears once, and is
tagged as its position is; the "my mistakes" deck holds only that seat's blunders as
``review`` reports them; an archive that is not one is a one-line diagnostic and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli
from test_page import _data, _errors, _open, _page, desktop  # noqa: F401 (the fixture)

from referee.engine.cards import card_str
from referee.engine.events import DrawCard, LegalReason, PlayCard, TakeHand
from referee.engine.state import Engine, Phase
from referee.judging.replay import replay
from referee.notation.reader import read
from referee.players.solver import SeatClass, Solver

GAMES = 60  # four players: some twenty puzzles, a few seconds


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("archive") / "games.gwy"
    r = run_cli("simulate", "-g", str(GAMES), "-s", "3", "-o", str(out))
    assert r.returncode == 0, r.stderr
    return out


@pytest.fixture(scope="module")
def deck(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("deck") / "deck"
    r = run_cli("puzzles", str(archive), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"to {out}" in r.stdout
    return out


def _index(deck: Path) -> dict:
    return json.loads((deck / "index.json").read_text(encoding="utf-8"))


def _end(path: Path) -> tuple[object, Engine]:
    """The puzzle's record as the referee replays it: the game, and the position it opens at."""
    [game] = list(read(path))
    walk = replay(game, snapshots=True)
    steps = list(walk)
    e = steps[-1].after if steps else walk.result.engine
    assert e is not None and not walk.result.stopped
    return game, e


def _classes(e: Engine, seat: int) -> dict[int, SeatClass]:
    """Each legal card's class for the mover, from a fresh solver of this test."""
    solver = Solver()
    out = {}
    for c in e.playable(seat):
        child = e.fork()
        child.apply(PlayCard(seat, c))
        out[c] = SeatClass.SAFE if seat not in child.in_game() else solver.classify(child, seat)
    return out


def test_every_puzzle_checks_clean_and_has_one_safe_card_of_three_or_more(deck: Path) -> None:
    doc = _index(deck)
    puzzles = doc["puzzles"]
    assert doc["games"] == GAMES and len(puzzles) >= 3
    files = [deck / p["file"] for p in puzzles]
    r = run_cli("check", *map(str, files), str(deck / "deck.gwy"))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no errors" in r.stdout.splitlines()[-1]
    for p, path in zip(puzzles, files):
        game, e = _end(path)
        seat = game.seats.index(p["to_play"])
        assert e.all_known() and e.to_act() == seat and game.tag("ToPlay") == p["to_play"]
        classes = _classes(e, seat)
        assert len(classes) >= 3 and len(classes) == len(p["legal"])
        safe = [c for c, k in classes.items() if k is SeatClass.SAFE]
        assert len(safe) == 1, (path, classes)
        assert [card_str(safe[0])] == p["solution"] == game.tag("Solution").split()
        # the refutations: every other card, with the class the solver gives it, each line
        # starting with the card's own play
        assert {a["card"]: a["class"] for a in p["answers"]} == {card_str(c): k.value for c, k in classes.items()}
        for a in p["answers"]:
            assert a["line"][0] == f"{p['to_play']} {a['card']}"
        # the lines are sentences in the record too (comments), one a card
        text = path.read_text(encoding="utf-8")
        for a in p["answers"]:
            assert ("# " + a["card"] + " ") in text


def test_no_position_appears_twice(deck: Path) -> None:
    puzzles = _index(deck)["puzzles"]
    assert len({p["id"] for p in puzzles}) == len(puzzles)
    seen = set()
    for p in puzzles:
        _, e = _end(deck / p["file"])
        v = e.view()
        key = (v.phase, v.trick, v.to_act, v.known, tuple(sorted(v.out_order)), v.waste, v.trumps,
               v.leader)
        assert key not in seen, p["file"]
        seen.add(key)


def test_the_tags_say_what_the_position_is(deck: Path) -> None:
    puzzles = _index(deck)["puzzles"]
    themes_seen = set()
    for p in puzzles:
        game, e = _end(deck / p["file"])
        seat = game.seats.index(p["to_play"])
        players = len(e.in_game())
        held = sum(e.size(s) for s in e.in_game())
        assert p["players"] == players == int(game.tag("Players"))
        assert p["held"] == held == int(game.tag("Held")) and held <= 10
        themes = game.tag("Themes").split()
        assert themes == p["themes"]
        themes_seen.update(themes)
        assert ("two_players" in themes) == (players == 2)
        void = e.view().phase == Phase.IN_TRICK and e.legal(seat).reason in (LegalReason.OFF_SUIT, LegalReason.TRUMP)
        assert ("void" in themes) == void
        # take: a take in the solution's line, or by another seat in a refutation's; waste_draw:
        # a draw from the waste pile in any line (each line replayed here through the engine)
        took = drew = False
        for a in p["answers"]:
            takers, draws = _replay_line(e, a["line"], game.seats)
            took |= any(t != seat for t in takers) or (a["class"] == "safe" and bool(takers))
            drew |= draws
        assert ("take" in themes) == took
        assert ("waste_draw" in themes) == drew
    assert {"two_players", "void", "waste_draw"} <= themes_seen


def _words(a: object, seats: tuple[str, ...]) -> str:
    if isinstance(a, PlayCard):
        return f"{seats[a.seat]} {card_str(a.card)}"
    if isinstance(a, TakeHand):
        return f"{seats[a.taker]} takes {seats[a.target]}"
    assert isinstance(a, DrawCard)
    return f"{seats[a.seat]} draws {card_str(a.card)}"


def _replay_line(e: Engine, line: list[str], seats: tuple[str, ...]) -> tuple[list[int], bool]:
    """Play the solver's line (words) through the engine: each word must be a legal action
    there; the seats that took a hand in it, and whether a draw from the waste pile was in it."""
    f = e.fork()
    takers: list[int] = []
    drew = False
    for w in line:
        acts = {_words(a, seats): a for a in f.legal_actions()}
        assert w in acts, (w, sorted(acts))
        a = acts[w]
        if isinstance(a, TakeHand):
            takers.append(a.taker)
        drew |= isinstance(a, DrawCard) and a.source is None
        f.apply(a)
    return takers, drew


def test_the_replay_page_plays_a_puzzle(deck: Path, tmp_path: Path, desktop) -> None:  # noqa: F811
    """``html PUZZLE.gwy``: the page opens at the puzzle's moment, offers each legal card,
    and a click says right, or gives the solver's refutation of that card."""
    from selenium.webdriver.common.by import By

    p = _index(deck)["puzzles"][0]
    page = _page(tmp_path, deck / p["file"])
    _open(desktop, page)
    box = desktop.find_element(By.ID, "puzzle-box")
    assert box.is_displayed()
    assert p["to_play"] in desktop.find_element(By.ID, "puzzle-task").text
    # the table shows the record's last position: the slider at its end
    slider = desktop.find_element(By.ID, "slider")
    assert slider.get_attribute("value") == slider.get_attribute("max")
    buttons = desktop.find_elements(By.CSS_SELECTOR, "#puzzle-cards button")
    assert [b.get_attribute("data-card") for b in buttons] == p["legal"]
    answer = desktop.find_element(By.ID, "puzzle-answer")
    wrong = next(a for a in p["answers"] if a["class"] != "safe")
    desktop.find_element(By.CSS_SELECTOR, f'#puzzle-cards button[data-card="{wrong["card"]}"]').click()
    assert answer.get_attribute("data-right") == "false"
    assert ", ".join(wrong["line"]) in answer.text and answer.text.startswith("Not this one.")
    right = p["solution"][0]
    desktop.find_element(By.CSS_SELECTOR, f'#puzzle-cards button[data-card="{right}"]').click()
    assert answer.get_attribute("data-right") == "true"
    assert answer.text.startswith("Right.") and f"{right} keeps {p['to_play']} safe" in answer.text
    assert _errors(desktop) == []


def test_a_page_of_an_ordinary_record_has_no_puzzle(archive: Path, tmp_path: Path) -> None:
    one = tmp_path / "one.gwy"
    r = run_cli("simulate", "-g", "1", "-s", "3", "-o", str(one))
    assert r.returncode == 0, r.stderr
    assert all(g["puzzle"] is None for g in _data(_page(tmp_path, one))["games"])


def test_my_mistakes_deck_holds_only_that_seats_blunders(archive: Path, tmp_path: Path) -> None:
    out = tmp_path / "mine"
    r = run_cli("puzzles", str(archive), "-o", str(out), "--seat", "south")
    assert r.returncode == 0, r.stderr
    doc = _index(out)
    puzzles = doc["puzzles"]
    assert doc["deck"] == "mistakes" and puzzles
    rv = run_cli("review", str(archive), "--samples", "0", "--format", "json")
    assert rv.returncode == 0, rv.stderr
    reviews = {g["number"]: g for g in json.loads(rv.stdout)["games"]}
    for p in puzzles:
        assert p["to_play"] == "South" and p["kind"] == "mistake"
        plays = [q for q in reviews[p["game"]]["plays"] if q["line"] == p["line"] and q["seat"] == "South"]
        assert len(plays) == 1 and plays[0]["verdict"] == "blunder"
        assert p["played"] == plays[0]["action"] and p["played"] not in p["solution"]
        # the solutions are the cards that kept South safe, as the review says
        assert set(p["solution"]) <= set(plays[0]["better"])
        game, e = _end(out / p["file"])
        classes = _classes(e, game.seats.index("South"))
        assert sorted(card_str(c) for c, k in classes.items() if k is SeatClass.SAFE) == sorted(p["solution"])
    r = run_cli("check", str(out / "deck.gwy"))
    assert r.returncode == 0, r.stdout
    # a seat no game has: said in one line, exit 2, and no directory left behind
    r = run_cli("puzzles", str(archive), "-o", str(tmp_path / "nobody"), "--mine", "Nobody")
    assert r.returncode == 2 and "no game of" in r.stderr and "Nobody" in r.stderr
    assert not (tmp_path / "nobody").exists()


def test_an_archive_that_is_not_one_is_a_diagnostic_and_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "notes.gwy"
    bad.write_text("shopping list\neggs\n", encoding="utf-8")
    r = run_cli("puzzles", str(bad), "-o", str(tmp_path / "out"))
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and f"{bad}:1:1:" in r.stderr and "Traceback" not in r.stderr
    assert not (tmp_path / "out").exists()
    binary = tmp_path / "bytes.gwy"
    binary.write_bytes(b"%gwy 1\n\xff\xfe\x00junk\n")
    r = run_cli("puzzles", str(binary), "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and "not UTF-8" in r.stderr and "Traceback" not in r.stderr
    r = run_cli("puzzles", str(tmp_path / "missing.gwy"), "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and "no such file" in r.stderr


def test_a_directory_of_other_files_is_left_alone(archive: Path, deck: Path, tmp_path: Path) -> None:
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "todo.txt").write_text("keep me\n", encoding="utf-8")
    r = run_cli("puzzles", str(archive), "-o", str(mine))
    assert r.returncode == 2 and "not a deck" in r.stderr
    assert [p.name for p in mine.iterdir()] == ["todo.txt"]
    # a deck of ours is replaced, with the same puzzles (the search is deterministic); a
    # replay page made of one of its puzzles is no reason to refuse, and is kept
    r = run_cli("html", str(deck / "puzzle-0001.gwy"))
    assert r.returncode == 0, r.stderr
    before = (deck / "deck.gwy").read_text(encoding="utf-8")
    r = run_cli("puzzles", str(archive), "-o", str(deck), "--jobs", "2")
    assert r.returncode == 0, r.stderr
    assert (deck / "deck.gwy").read_text(encoding="utf-8") == before
    assert (deck / "puzzle-0001.html").exists()


def test_the_decks_page_plays_each_puzzle_picked(deck: Path, tmp_path: Path, desktop) -> None:  # noqa: F811
    """``html deck.gwy``: one page of the deck; the game picker opens each puzzle at its moment."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    puzzles = _index(deck)["puzzles"]
    page = _page(tmp_path, deck / "deck.gwy")
    _open(desktop, page)
    data = _data(page)
    assert [g["puzzle"]["seat"] for g in data["games"]] == [p["to_play"] for p in puzzles]
    k = len(puzzles) - 1
    Select(desktop.find_element(By.ID, "game")).select_by_value(str(k))
    slider = desktop.find_element(By.ID, "slider")
    assert slider.get_attribute("value") == slider.get_attribute("max")
    buttons = desktop.find_elements(By.CSS_SELECTOR, "#puzzle-cards button")
    assert [b.get_attribute("data-card") for b in buttons] == puzzles[k]["legal"]
    desktop.find_element(By.CSS_SELECTOR, f'#puzzle-cards button[data-card="{puzzles[k]["solution"][0]}"]').click()
    assert desktop.find_element(By.ID, "puzzle-answer").get_attribute("data-right") == "true"
    assert _errors(desktop) == []


def test_a_game_that_does_not_read_is_named_and_the_others_searched(archive: Path, tmp_path: Path) -> None:
    broken = "%gwy 1\n%game\n[Seats \"A B C\"]\ndeal\nA 5x\n"
    mixed = tmp_path / "mixed.gwy"
    games = archive.read_text(encoding="utf-8").split("\n%game\n", 1)[1]
    mixed.write_text(broken + "\n%game\n" + games, encoding="utf-8")
    r = run_cli("puzzles", str(mixed), "-o", str(tmp_path / "deck"))
    assert r.returncode == 1, r.stderr
    assert "not searched: game 1: syntax errors" in r.stdout
    doc = _index(tmp_path / "deck")
    assert doc["not_read"] == [1] and doc["games"] == GAMES and doc["puzzles"]
