"""Getaway for researchers (issue 41, item 5): the PettingZoo environment passes PettingZoo's
own API test and the OpenSpiel game OpenSpiel's random-simulation test for every preset at
3, 4, 6 and 8 players; random episodes under every option write records that the referee
judges clean; the resampler keeps what the seat saw; a missing extra is a one-line hint.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from referee.engine.cards import SUIT
from referee.engine.rules import OPTIONS, coerce, option_values
from referee.research import MISSING_HINT, available

pytestmark = pytest.mark.skipif(not available(), reason=MISSING_HINT)

ROOT = Path(__file__).resolve().parent.parent
PRESET_NAMES = ("pagat", "denexa", "donkey")
SIZES = (3, 4, 6, 8)
# What PettingZoo's API test says of every environment whose observation is a dict with an
# action mask (its own classic games are exempted by name): nothing else may be said.
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
}


def _judged(text: str) -> tuple[list[str], object, object]:
    """The errors of a record (reading and judging), whether it finished, and its loser."""
    from referee.judging.referee import Referee
    from referee.notation.reader import parse

    [game] = parse(text)
    result = Referee().judge(game)
    errors = [d.message for d in game.errors] + [f"{d.code} {d.message}" for d in result.diagnostics if d.is_error]
    return errors, result.finished, result.loser


def _play(e, rng: random.Random) -> dict[str, float]:
    """Play one episode with random legal actions; the rewards each agent collected."""
    total: dict[str, float] = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] = total.get(agent, 0.0) + reward
        if terminated or truncated:
            e.step(None)
            continue
        legal = [a for a, ok in enumerate(obs["action_mask"]) if ok]
        e.step(_random_action(legal, rng))
    return total


def _random_action(legal: list[int], rng: random.Random) -> int:
    """A random legal action, but a take one time in twenty when there is another choice
    (half the time, a game ends in a few takes and shows little else)."""
    from referee.research.table import TAKE

    if TAKE in legal and len(legal) > 1:
        return TAKE if rng.random() < 0.05 else rng.choice([a for a in legal if a != TAKE])
    return rng.choice(legal)


# ---- PettingZoo ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_pettingzoo_api_test(preset: str, players: int) -> None:
    from pettingzoo.test import api_test

    from referee.research.pettingzoo_env import env

    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        api_test(env(preset=preset, players=players), num_cycles=50)
    assert {str(w.message) for w in said} <= DICT_OBSERVATION_WARNINGS


def _option_settings() -> list[dict[str, object]]:
    """Every value of every option other than a preset's, one setting at a time."""
    out: list[dict[str, object]] = []
    for o in OPTIONS:
        for word in option_values(o):
            out.append({o: coerce(o, word)})
    return out


def test_random_episodes_under_every_option_export_clean_records() -> None:
    """200 random episodes: every preset, every option value, 3 to 8 players (more with two
    packs); each record reads and judges without an error, finishes, and names the loser
    the environment rewarded -1."""
    from referee.research.pettingzoo_env import env

    rng = random.Random(41)
    settings = _option_settings()
    takes = draws = hand_draws = 0
    for k in range(200):
        preset = PRESET_NAMES[k % 3]
        options = dict(settings[k % len(settings)])
        players = rng.choice((3, 4, 5, 6, 7, 8) + ((10, 12) if options.get("packs") == 2 else ()))
        e = env(preset=preset, players=players, **options)
        e.reset(seed=k)
        rewards = _play(e, rng)
        text = e.unwrapped.record()
        errors, finished, loser = _judged(text)
        assert errors == [], (preset, options, players, k, errors)
        assert finished
        assert rewards == {f"player_{s}": (-1.0 if s == loser else 0.0) for s in range(players)}
        takes += text.count(" takes ")
        draws += text.count("draws")
        hand_draws += sum(1 for line in text.splitlines() if " draws " in line and " from " in line)
    assert takes > 0 and draws > 0 and hand_draws > 0  # takes, waste draws and draws from a hand were all made


def test_the_same_seed_gives_the_same_episode() -> None:
    from referee.research.pettingzoo_env import env

    records = []
    for _ in range(2):
        e = env(preset="donkey", players=5)
        e.reset(seed=7)
        _play(e, random.Random(3))
        records.append(e.unwrapped.record())
    assert records[0] == records[1]


def test_an_action_the_mask_forbids_is_refused_in_one_line_and_changes_nothing() -> None:
    from referee.research.pettingzoo_env import raw_env

    e = raw_env(preset="pagat", players=4)
    e.reset(seed=1)
    obs = e.observe(e.agent_selection)
    before = e.record()
    illegal = next(a for a, ok in enumerate(obs["action_mask"]) if not ok and a < 52)
    with pytest.raises(ValueError) as ex:
        e.step(illegal)
    assert "\n" not in str(ex.value) and "may take now" in str(ex.value)
    assert e.record() == before


def test_the_observation_is_the_seats_own_knowledge() -> None:
    """The hand part is the seat's hand and nobody else's cards are in it; the sizes are
    every seat's, counted from the observer in the order of play."""
    from referee.research.pettingzoo_env import raw_env
    from referee.research.table import layout

    e = raw_env(preset="pagat", players=4)
    e.reset(seed=2)
    t = e.table
    lay = layout(4).parts
    for s in range(4):
        obs = e.observe(f"player_{s}")["observation"]
        hand = obs[lay["hand"][0]:lay["hand"][1]]
        assert sorted(c for c in range(53) if hand[c]) == sorted(t.hands[s])
        sizes = obs[lay["sizes"][0]:lay["sizes"][1]]
        assert list(sizes) == [len(t.hands[x]) for x in t.relative(s)]


# ---- OpenSpiel ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_openspiel_random_simulation_test(preset: str, players: int) -> None:
    import pyspiel

    import referee.research.openspiel_game  # noqa: F401  (registers python_getaway)

    game = pyspiel.load_game("python_getaway", {"preset": preset, "players": players})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_openspiel_options_piles_and_two_packs() -> None:
    """Options are parameters of their own, and survive OpenSpiel's serialisation (a state
    rebuilt from the game's string and its history)."""
    import pyspiel

    import referee.research.openspiel_game  # noqa: F401

    game = pyspiel.load_game("python_getaway", {"preset": "pagat", "players": 10, "packs": 2, "deal": "piles",
                                                "last_card": "draw_hand", "draw_from": "any", "trumps": "yes"})
    assert game.num_players() == 10
    assert game.rules.spec() == "pagat last_card=draw_hand draw_from=any deal=piles packs=2 trumps=yes"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def _to_end(state, rng: random.Random) -> None:
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(_random_action(state.legal_actions(), rng))


def test_openspiel_episodes_export_clean_records() -> None:
    import pyspiel

    import referee.research.openspiel_game  # noqa: F401

    rng = random.Random(5)
    for k in range(12):
        game = pyspiel.load_game("python_getaway", {"preset": PRESET_NAMES[k % 3], "players": SIZES[k % 4]})
        state = game.new_initial_state()
        _to_end(state, rng)
        errors, finished, loser = _judged(state.record())
        assert errors == [] and finished
        assert state.returns() == [-1.0 if s == loser else 0.0 for s in range(game.num_players())]


def test_the_resampler_keeps_what_the_seat_saw_and_deals_the_rest() -> None:
    """At decision points of random games: the resampled state has the seat's information
    state, observation and legal actions; the seat's hand and every size are as they are;
    no seat holds a card of a suit it was seen to lack; the other hands differ in some
    samples; and a sample plays on to its end."""
    import pyspiel

    import referee.research.openspiel_game  # noqa: F401

    rng = random.Random(9)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differs = checked = 0
    for preset in PRESET_NAMES:
        game = pyspiel.load_game("python_getaway", {"preset": preset, "players": 4, "taking": "no"})
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            p = state.current_player()
            if step % 9 == 4:
                r = state.resample_from_infostate(p, sampler)
                assert r.information_state_string(p) == state.information_state_string(p)
                assert r.information_state_tensor(p) == state.information_state_tensor(p)
                assert r.observation_tensor(p) == state.observation_tensor(p)
                assert r.legal_actions() == state.legal_actions()
                true, sampled = state.table.engine.view(), r.table.engine.view()
                assert sampled.known[p] == true.known[p] and sampled.sizes == true.sizes
                for s in range(4):
                    assert not any(state.table.voids[s] >> SUIT[c] & 1 for c in sampled.known[s])
                differs += sampled.known != true.known
                checked += 1
                _to_end(r, rng)
                with pytest.raises(ValueError):
                    r.record()  # a resampled state is not a game that was played
            state.apply_action(_random_action(state.legal_actions(), rng))
            step += 1
    assert checked >= 6 and differs > 0


# ---- without the extra ---------------------------------------------------------------------------


@pytest.mark.parametrize("module", ["referee.research.pettingzoo_env", "referee.research.openspiel_game"])
def test_a_missing_extra_is_a_one_line_hint(module: str) -> None:
    """With the extra's packages hidden, importing a module raises the hint alone (no
    chained error), and the bench says it in one line and exits 2."""
    hide = "import sys; [sys.modules.__setitem__(m, None) for m in ('pettingzoo', 'pyspiel', 'gymnasium')]; "
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", hide + f"import {module}"], capture_output=True, text=True, env=env,
                       cwd=ROOT)
    assert p.returncode == 1
    assert p.stderr.strip().splitlines()[-1].startswith("referee.research.MissingExtra: " + MISSING_HINT)
    assert "During handling" not in p.stderr
    b = subprocess.run([sys.executable, "-c", hide + "import runpy; runpy.run_path('bench/research.py', run_name='__main__')",
                        "--episodes", "1"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert b.returncode == 2
    assert b.stderr.strip().splitlines() == [b.stderr.strip()] and MISSING_HINT in b.stderr
    assert b.stdout == ""


def test_the_pages_python_examples_run() -> None:
    """docs/research.md's Python examples run as written and print a record."""
    page = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    examples = [b.split("```", 1)[0] for b in page.split("```python\n")[1:]]
    assert len(examples) == 2
    for code in examples:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                           env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 0, p.stderr
        assert "%game" in p.stdout and "[Result " in p.stdout


def test_a_game_past_its_length_ends_undecided() -> None:
    """PettingZoo truncates every agent with no reward; OpenSpiel ends the game with the loss
    shared by the seats still holding cards, so the returns still add up to -1."""
    import pyspiel

    import referee.research.openspiel_game  # noqa: F401
    from referee.research.pettingzoo_env import env

    e = env(preset="pagat", players=4, taking=False, max_steps=10)
    e.reset(seed=3)
    rewards = _play(e, random.Random(3))
    assert e.unwrapped.table.decisions == 10 and not e.unwrapped.table.over
    assert rewards == dict.fromkeys(rewards, 0.0) and len(rewards) == 4

    game = pyspiel.load_game("python_getaway", {"preset": "pagat", "players": 4, "taking": "no",
                                                "max_game_length": 10})
    state = game.new_initial_state()
    _to_end(state, random.Random(3))
    holding = [s for s, size in enumerate(state.table.engine.view().sizes) if size]
    assert state.returns() == [-1 / len(holding) if s in holding else 0.0 for s in range(4)]
    assert len(holding) > 1 and state.move_number() <= 52 + 10 + 4


def test_openspiels_information_set_search_plays_on_the_resampled_states() -> None:
    """OpenSpiel's ISMCTS (its Python bot) keys its nodes by the information-state string and
    samples worlds with the resampler: it plays legal moves for a seat to the end of a game."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import referee.research.openspiel_game  # noqa: F401

    game = pyspiel.load_game("python_getaway", {"preset": "pagat", "players": 3, "taking": "no"})
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(7)), 2.0, 8,
                           max_world_samples=4, random_state=np.random.RandomState(7))
    rng = random.Random(1)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        elif state.current_player() == 0 and moves < 6:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            moves += 1
        else:
            state.apply_action(_random_action(state.legal_actions(), rng))
    assert moves > 0 and sum(state.returns()) == -1.0
