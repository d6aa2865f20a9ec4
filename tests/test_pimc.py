"""The pimc bot (issue 41, item 1) and the hint built on it (item 3): legal play in every preset
from 3 to 8 players, the same game for a seed, the solver's best inside its window; the hint
as ``ask --hint`` (a subprocess) and ``live``'s ``hint`` (a pseudo-terminal) give it."""

from __future__ import annotations

import os
import random
import re
import signal
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from referee import parse
from referee.engine.cards import card_str, parse_card, sort_cards
from referee.engine.events import PlayCard, TakeHand
from referee.engine.rules import PRESETS
from referee.engine.state import Engine
from referee.judging.referee import Referee
from referee.judging.replay import replay
from referee.players.bots import play_game
from referee.players.pimc import best, weigh
from referee.players.solver import SeatClass, Solver
from referee.review.hint import hint_at
from referee.selfplay.simulate import parse_bots

TIMEOUT = 120

# Two seats left, every card placed (the waste pile written out), so North knows every card:
# the solver settles it. North's A♠ and 8♣ are safe, 4♦ is not, taking South's hand loses.
ENDING = """%gwy 1

%game
[Seats "North East South West"]
[Rules "pagat"]
position
North A♠ 4♦ 8♣
East out
South 9♠ A♦ 4♣
West out
waste {waste}
lead North
trick 9
"""


def ending(extra: str = "") -> str:
    held = {parse_card(w) for w in ["A♠", "4♦", "8♣", "9♠", "A♦", "4♣"]}
    waste = " ".join(card_str(c) for c in sort_cards(c for c in range(52) if c not in held))
    return ENDING.format(waste=waste) + extra


def solver_classes(text: str, seat: int = 0) -> dict[str, str]:
    """Each of the seat's actions at the end of the record, in words, with the solver's class."""
    walk = replay(parse(text, "t.gwy")[-1])
    list(walk)
    e = walk.result.engine
    assert e is not None and e.all_known()
    names = ("North", "East", "South", "West")
    return {(f"takes {names[a.target]}" if isinstance(a, TakeHand) else card_str(a.card)): c.value
            for a, c in Solver().choices(e, seat)}


def hint_parts(said: str) -> tuple[str, dict[str, int]]:
    """The hinted choice and each choice's chance (percent) from a hint sentence."""
    m = re.search(r"Hint for \w+ [^:]*: (.+?) \(chance of losing (\d+)%\)\. Each choice, from what \w+ knows "
                  r"\([^)]*\): (.+?)\.(?:\s|$)", " ".join(said.split()))
    assert m, said
    chances = {}
    for part in m.group(3).split(", "):
        words, pct = part.rsplit(" ", 1)
        chances[words] = int(pct.rstrip("%"))
    return m.group(1), chances


def assert_hint_is_the_solvers(said: str, classes: dict[str, str]) -> None:
    choice, chances = hint_parts(said)
    assert set(chances) == set(classes)  # every legal choice, and nothing else
    assert choice in classes  # a legal card (or take)
    top = max(SeatClass(c).rank for c in classes.values())
    assert SeatClass(classes[choice]).rank == top  # inside the window: the solver's best
    for words, cls in classes.items():  # proved safe: never lost; proved lost: always lost
        if cls == "safe":
            assert chances[words] == 0, (words, said)
        elif cls == "lost":
            assert chances[words] == 100, (words, said)


# ---- the bot ----------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_pimc_plays_only_legal_actions_in_every_preset_3_to_8_players(preset):
    rules = PRESETS[preset]
    for players in range(3, 9):
        bots = ["sensible"] * players
        bots[players // 2] = "pimc:2"  # few samples: legality, not strength, is tested here
        bots[0] = "pimc:1"
        g = play_game(rules, players, random.Random(f"pimc/{preset}/{players}"), bots=bots)
        # The engine judged every action as it was made; the referee, reading the record, agrees.
        [game] = parse(g.text, "sim.gwy")
        res = Referee().judge(game)
        assert [d.code for d in res.diagnostics if d.is_error] == []
        assert res.finished and res.loser == g.loser


def test_pimc_is_the_same_game_for_a_seed():
    rules = PRESETS["pagat"]
    bots = ["pimc:3", "sensible", "pimc:2", "sensible"]
    a = play_game(rules, 4, random.Random("same"), bots=bots).text
    b = play_game(rules, 4, random.Random("same"), bots=bots).text
    c = play_game(rules, 4, random.Random("other"), bots=bots).text
    assert a == b
    assert a != c


def _endings(count: int):
    """Two seats left with three or four cards each (inside the window), every card known (random deals)."""
    rules = PRESETS["pagat"]
    for seed in range(count):
        rng = random.Random(seed)
        cards = list(range(52))
        rng.shuffle(cards)
        k = 3 + seed % 2
        yield Engine.from_position(rules, [cards[:k], None, cards[k:2 * k], None], [1, 3], cards[2 * k:], 0, 9)


def test_inside_the_window_pimc_never_picks_a_proved_loss_when_a_safe_choice_exists():
    checked = 0
    for e in _endings(40):
        classes = dict(Solver().choices(e, 0))
        if SeatClass.SAFE not in classes.values() or SeatClass.LOST not in classes.values():
            continue
        pick = best(weigh(e, 0, list(classes), samples=3, seed=1)).action
        assert pick is not None and classes[pick] is SeatClass.SAFE, (e.describe(("North", "East", "South", "West")),
                                                                       pick)
        checked += 1
    assert checked >= 5  # the deals give enough positions with both a safe and a lost choice


def test_simulate_seats_pimc_and_reads_its_strength():
    assert parse_bots(["North=pimc", "3=pimc:8"], 4) == ["pimc", "sensible", "pimc:8", "sensible"]
    with pytest.raises(ValueError, match="pimc"):
        parse_bots(["pimc:x"], 4)
    r = run_cli("simulate", "--players", "3", "--games", "1", "--seed", "5", "--bot", "2=pimc:2")
    assert r.returncode == 0, r.stderr
    assert "--bot Bina=pimc:2" in r.stdout  # the file says how to make it again
    [game] = parse(r.stdout, "sim.gwy")
    assert Referee().judge(game).finished
    bad = run_cli("simulate", "--bot", "pimc:0")
    assert bad.returncode == 2 and "the bots are" in bad.stderr and "Traceback" not in bad.stderr


# ---- the hint ---------------------------------------------------------------------------------


def test_ask_hint_gives_the_solvers_best_where_the_seat_knows_every_card(tmp_path):
    # The record goes on with North's 4♦ (not safe): the hint before it says what was best.
    text = ending("9. North 4♦, South A♦\n")
    f = tmp_path / "ending.gwy"
    f.write_text(text, encoding="utf-8")
    r = run_cli("ask", str(f), "--trick", "9", "--seat", "North", "--hint")
    assert r.returncode == 0, r.stderr
    said = r.stdout.strip().splitlines()[-1]
    assert said.startswith("Hint for North before its play to trick 9:")
    assert_hint_is_the_solvers(said, solver_classes(ending()))
    assert "every card known" in said


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
def test_live_hint_at_a_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    f = tmp_path / "ending.gwy"
    f.write_text(ending(), encoding="utf-8")
    child = pexpect.spawn(sys.executable, ["-m", "referee", "live", str(f)], cwd=str(tmp_path), encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(50, 400),
                          env=dict(os.environ, TERM="xterm", COLUMNS="400", LINES="50", PROMPT_TOOLKIT_NO_CPR="1",
                                   XDG_DATA_HOME=str(tmp_path / "data")))
    try:
        child.expect("gwy>")
        child.sendline("hint")
        child.expect(r"Each choice[^\r\n]*%\.")
        shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", (child.before or "") + child.after)
        child.expect("gwy>")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        if child.isalive():
            child.kill(signal.SIGKILL)
    said = shown[shown.index("Hint for North now:"):]
    assert_hint_is_the_solvers(said, solver_classes(ending()))
    assert Path(f).read_text(encoding="utf-8") == ending()  # a question records nothing


def test_hint_before_a_play_is_from_the_seats_view_only():
    # Mid-game, West cannot see the others' hands: its choices are weighed on sampled deals,
    # and every one of its legal cards is weighed.
    g = play_game(PRESETS["pagat"], 4, random.Random("hint-view")).game
    h = hint_at(g, trick=4)
    assert h.seat is not None and not h.exact
    steps = list(replay(g, snapshots=True))
    k = next(i for i, st in enumerate(steps) if st.trick == 4)
    legal = set(steps[k].before.playable(h.seat))
    weighed = {w.action.card for w in h.weighed if isinstance(w.action, PlayCard)}
    assert weighed == legal
    assert isinstance(h.choice, PlayCard) and h.choice.card in legal
    assert all(0.0 <= w.chance <= 1.0 and w.samples > 0 for w in h.weighed)
