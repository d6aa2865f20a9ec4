"""Getaway as a PettingZoo AEC environment, with action masks (docs/research.md)::

    from referee.research.pettingzoo_env import env

    e = env(preset="donkey", players=6, taking=False)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)
    print(e.unwrapped.record())  # the episode as a .gwy record

The agents are ``player_0`` ... ``player_{n-1}``, the seats of the record in clockwise order.
Each observation is a dict: ``observation``, the seat's own knowledge as a float32 vector
(:class:`referee.research.table.Layout`), and ``action_mask``, 1 for each action it may take
now (:mod:`referee.research.table`: the 53 cards, take, pass, and the draws). The rules are a
preset and any options of :class:`referee.engine.rules.RuleSet` as keywords.

Rewards: -1 to the loser (the last seat holding cards) when the game ends, 0 otherwise; every
agent terminates then. An episode longer than ``max_steps`` decisions (none of 20,000 random
games came near 300) is truncated for every agent with no reward. A card drawn at random
(Pagat, Getaway: Getting away) is drawn by the environment's generator, seeded by ``reset``.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from referee.engine.deal import deal
from referee.engine.rules import PRESETS, RuleSet
from referee.research import MissingExtra
from referee.research.table import Table, action_count, layout, players_allowed

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as ex:  # the research extra: a one-line hint, not a traceback
    raise MissingExtra(ex.name or "pettingzoo") from None

__all__ = ["GetawayEnv", "env", "raw_env"]

MAX_STEPS = 10_000
RENDER_MODES = ("ansi",)


def rules_of(preset: str, options: dict[str, Any]) -> RuleSet:
    """The rule set of a preset and option keywords (``taking=False``, ``packs=2``)."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset '{preset}' (presets are {', '.join(PRESETS)})")
    return PRESETS[preset].with_options(**options) if options else PRESETS[preset]


class GetawayEnv(AECEnv):  # type: ignore[misc]  # PettingZoo's class, Any to mypy
    """The environment itself (:func:`env` wraps it in PettingZoo's checks of order and bounds)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "getaway_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(self, preset: str = "pagat", players: int = 4, *, max_steps: int = MAX_STEPS,
                 render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self.rules = rules_of(preset, options)
        if players not in players_allowed(self.rules):
            allowed = players_allowed(self.rules)
            raise ValueError(f"{self.rules.spec()} is played by {allowed.start} to {allowed.stop - 1} players, not {players}")
        if render_mode not in (None, *RENDER_MODES):
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)}, not {render_mode!r}")
        self.render_mode = render_mode
        self.players = players
        self.max_steps = max_steps
        self.possible_agents = [f"player_{s}" for s in range(players)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = layout(players).size
        obs = spaces.Dict({
            "observation": spaces.Box(0.0, 104.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (action_count(players),), np.int8),
        })
        act = spaces.Discrete(action_count(players))
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self._rng = random.Random()
        self._games = 0
        self.table: Table | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self._games += 1
        n = self.players
        # The players take turns to deal, in the direction of play (Pagat, Getaway: Deal).
        dealer = self._rng.randrange(n)
        hands = deal(self._rng, self.rules, n, dealer)
        self.table = Table(self.rules, hands, dealer,
                           header=[f"an episode of referee.research.pettingzoo_env (seed {seed})" if seed is not None
                                   else "an episode of referee.research.pettingzoo_env"])
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.table.current]

    def observe(self, agent: str) -> dict[str, Any]:
        t = self._table()
        s = self._seat[agent]
        return {"observation": t.observation(s), "action_mask": t.mask(s)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        t = self._table()
        if action is None:
            raise ValueError(f"{agent} is to act: None is the action of an agent whose game is over")
        self._cumulative_rewards[agent] = 0.0
        t.step(int(action))
        while t.pending_draw is not None:
            t.draw_at_random(self._rng)
        self._clear_rewards()
        if t.over:
            loser = t.loser()
            for a in self.agents:
                self.rewards[a] = -1.0 if self._seat[a] == loser else 0.0
            self.terminations = dict.fromkeys(self.agents, True)
        elif t.decisions >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        if t.current >= 0:
            self.agent_selection = self.possible_agents[t.current]
        self._accumulate_rewards()

    def record(self) -> str:
        """The episode so far as a ``.gwy`` record (``getaway-ref check`` judges it)."""
        return self._table().record()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        t = self._table()
        return t.observation_words(t.current) if t.current >= 0 else t.engine.describe(t.names)

    def close(self) -> None:
        pass

    def _table(self) -> Table:
        if self.table is None:
            raise RuntimeError("call reset() before using the environment")
        return self.table


def raw_env(preset: str = "pagat", players: int = 4, **options: Any) -> GetawayEnv:
    """The environment without PettingZoo's wrappers."""
    return GetawayEnv(preset, players, **options)


def env(preset: str = "pagat", players: int = 4, **options: Any) -> Any:
    """The environment as PettingZoo's classic games come: its order of calls enforced (an
    action outside the mask is refused by the environment itself). ``options``: any option of the rule set
    (``taking=False``, ``packs=2``, ``last_card="draw_hand"``), ``max_steps``, ``render_mode``."""
    # Only the order is enforced by a wrapper: the environment refuses an action outside its
    # mask itself, in one line (PettingZoo's bounds check would be a second, slower look).
    return wrappers.OrderEnforcingWrapper(raw_env(preset, players, **options))
