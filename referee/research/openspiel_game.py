"""Getaway as an OpenSpiel Python game, ``python_getaway`` (docs/research.md)::

    import pyspiel
    import referee.research.openspiel_game  # registers the game

    game = pyspiel.load_game("python_getaway", {"preset": "donkey", "players": 5, "taking": "no"})
    state = game.new_initial_state()

Parameters: ``preset`` (pagat, denexa, donkey), ``players``, ``max_game_length``, and each
option of the rule set by its name, its value a word as a record's ``[Rules]`` tag writes it
(``"taking": "no"``, ``"deal": "piles"``; "" keeps the preset's), ``packs`` a number (0 keeps
the preset's).

Chance deals the pack one card at a time (after the piles' sizes, with ``deal=piles``) and
picks each card drawn at random (Pagat, Getaway: Getting away; Variations); the players'
actions are those of :mod:`referee.research.table`. Returns: -1 to the loser, 0 to every
other seat (constant sum -1). A game that reaches ``max_game_length`` decisions (none of
20,000 random games came near 300) ends undecided: the seats still holding cards share the
loss evenly, so the returns still add up to -1.

The information state of a seat is everything it saw, in order (its string; its tensor: the
observation with every card each seat played and picked up); the observation is the seat's
knowledge now (:meth:`Table.observation`). :meth:`GetawayState.resample_from_infostate`
deals the cards a seat has not seen with the review's sampler
(:func:`referee.review.review.sample_position`): the seat's own hand as it is, never a card
into a suit a seat has shown it lacks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from referee.engine.cards import CARD_COUNT, card_str
from referee.engine.deal import play_order
from referee.engine.rules import OPTIONS, PRESETS, RuleSet, coerce
from referee.engine.state import Engine
from referee.research import MissingExtra
from referee.research.table import Table, action_count, action_words, layout
from referee.review.review import sample_position, view_steps

try:
    import numpy as np
    import pyspiel
except ImportError as ex:  # the research extra: a one-line hint, not a traceback
    raise MissingExtra(ex.name or "pyspiel") from None

__all__ = ["GAME_TYPE", "GetawayGame", "GetawayObserver", "GetawayState"]

MAX_GAME_LENGTH = 5_000
MOST_PLAYERS = 16  # with two packs

GAME_TYPE = pyspiel.GameType(
    short_name="python_getaway",
    long_name="Python Getaway",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MOST_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    # Each option of the rule set is a parameter of its own (OpenSpiel's game strings hold no
    # "=" inside a value): a word as a record's [Rules] tag writes it, "" for the preset's; a
    # number of packs as a number, 0 for the preset's (a game string reads "2" back as one).
    parameter_specification={"preset": "pagat", "players": 4, "max_game_length": MAX_GAME_LENGTH,
                             **{o: 0 if o == "packs" else "" for o in OPTIONS}},
)


def _rules(params: dict[str, Any]) -> RuleSet:
    preset = str(params.get("preset", "pagat"))
    if preset not in PRESETS:
        raise ValueError(f"unknown preset '{preset}' (presets are {', '.join(PRESETS)})")
    options = {o: coerce(o, str(params[o])) for o in OPTIONS if params.get(o) not in (None, "", 0)}
    return PRESETS[preset].with_options(**options) if options else PRESETS[preset]


def _pile_range(total: int, players: int) -> tuple[int, int]:
    """The sizes a pile dealt by eye may have: within about a fifth of an even share, as the
    simulator's piles (referee.engine.deal.pile_sizes)."""
    base = total // players
    slack = max(1, base // 5)
    return max(1, base - slack), base + slack + 1


class GetawayGame(pyspiel.Game):  # type: ignore[misc]  # OpenSpiel's class, Any to mypy
    """The game: a rule set and a table size."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**GAME_TYPE.parameter_specification, **(params or {})}
        rules = _rules(p)
        players = int(p["players"])
        most = rules.most_seats
        if not 2 <= players <= most:
            raise ValueError(f"{rules.spec()} is played by 2 to {most} players, not {players}")
        pack = rules.pack_size
        outcomes = CARD_COUNT
        if not rules.even_deal:
            outcomes = max(outcomes, _pile_range(pack, players)[1] + 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(players),
            max_chance_outcomes=outcomes,
            num_players=players,
            min_utility=-1.0,
            max_utility=0.0,
            utility_sum=-1.0,
            max_game_length=int(p["max_game_length"]),
        )
        # OpenSpiel's object first, then ours (pybind11 keeps no attribute set before it)
        super().__init__(GAME_TYPE, info, p)
        self.rules, self.players, self.pack = rules, players, pack
        self.max_length = int(p["max_game_length"])

    def new_initial_state(self) -> GetawayState:
        return GetawayState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: dict[str, Any] | None = None) -> GetawayObserver:
        return GetawayObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.players, params)


class GetawayState(pyspiel.State):  # type: ignore[misc]  # OpenSpiel's class, Any to mypy
    """A position: the deal under way (chance), then the table (:class:`Table`)."""

    def __init__(self, game: GetawayGame) -> None:
        super().__init__(game)
        # Plain values only: OpenSpiel clones and serialises a Python state by pickling its
        # attributes, and a pickled game comes back without ours.
        self._rules, self._players, self._pack, self._max_length = game.rules, game.players, game.pack, game.max_length
        n = game.players
        order = play_order(game.rules, n)  # seat 0 first, then the direction of play
        self._dealer = order[-1]  # the seat before seat 0 in the order of play: seat 0 is dealt first
        self._deal_order = order
        self._left = dict.fromkeys(range(52), 1)  # the pack still to deal
        if game.rules.marked_ace:
            self._left = dict.fromkeys(range(52), 2)
            self._left[12] = 1  # one of the two aces of spades is the marked one (card 52)
            self._left[CARD_COUNT - 1] = 1
        self._sizes: list[int] = []  # the piles' sizes, in deal order (deal=piles)
        self._hands: list[list[int]] = [[] for _ in range(n)]
        self._dealt = 0
        self.table: Table | None = None
        self._undecided = False
        self._resampled = False

    # ---- the deal, by chance ----------------------------------------------------------------

    def _pile_outcomes(self) -> list[int]:
        lo, hi = _pile_range(self._pack, self._players)
        rest = self._pack - sum(self._sizes)
        after = self._players - len(self._sizes) - 1  # piles still to size after this one
        if after == 0:
            return [rest]
        return [x for x in range(lo, hi + 1) if after * lo <= rest - x <= after * hi]

    def _sizing(self) -> bool:
        return not self._rules.even_deal and len(self._sizes) < self._players

    def current_player(self) -> int:
        if self.table is None or self.table.pending_draw is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.table.over or self._undecided:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.table.current

    def is_terminal(self) -> bool:
        return self.table is not None and (self.table.over or self._undecided)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.table is not None:
            return self.table.draw_outcomes()
        if self._sizing():
            sizes = self._pile_outcomes()
            return [(x, 1.0 / len(sizes)) for x in sizes]
        total = sum(self._left.values())
        return [(c, k / total) for c, k in sorted(self._left.items()) if k]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.table is not None
        return self.table.legal(player)

    def _apply_action(self, action: int) -> None:
        if self.table is None:
            self._deal(action)
        elif self.table.pending_draw is not None:
            self.table.draw(action)
        else:
            self.table.step(action)
            if not self.table.over and self.table.decisions >= self._max_length:
                self._undecided = True

    def _deal(self, action: int) -> None:
        if self._sizing():
            self._sizes.append(action)
            return
        self._left[action] -= 1
        k = self._dealt
        if not self._rules.even_deal:
            i, edge = 0, self._sizes[0]
            while k >= edge:
                i += 1
                edge += self._sizes[i]
            seat = self._deal_order[i]
        else:
            seat = self._deal_order[k % self._players]
        self._hands[seat].append(action)
        self._dealt += 1
        if self._dealt == self._pack:
            self.table = Table(self._rules, self._hands, self._dealer,
                               header=["a game of referee.research.openspiel_game (python_getaway)"])

    def _action_to_string(self, player: int, action: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            if self.table is None and self._sizing():
                return f"a pile of {action}"
            return f"{'draw' if self.table is not None else 'deal'} {card_str(action)}"
        names = self.table.names if self.table is not None else tuple(str(s) for s in range(self._players))
        return f"{names[player]}: {action_words(action, names)}"

    def returns(self) -> list[float]:
        if self.table is None:
            return [0.0] * self._players
        if self._undecided:
            return self.table.end_undecided()
        return self.table.returns()

    def __str__(self) -> str:
        if self.table is None:
            return f"dealing: {self._dealt} of {self._pack} cards dealt"
        t = self.table
        hands = " | ".join(f"{t.names[s]}: " + " ".join(card_str(c) for c in t.engine.view().known[s])
                           for s in range(t.n))
        return f"{t.engine.describe(t.names)} | {hands}"

    def record(self) -> str:
        """The game so far as a ``.gwy`` record (``getaway-ref check`` judges it)."""
        if self.table is None:
            raise ValueError("the deal is not over: nothing to record yet")
        if self._resampled:
            raise ValueError("a resampled state is a position another seat might be in, not a game that was played")
        return self.table.record()

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> GetawayState:
        """A state the seat ``player_id`` cannot tell from this one: its own hand and
        everything it saw kept, the cards it has not seen dealt at random to the hands that
        hold unseen cards (the review's sampler), never into a suit a seat has shown it lacks."""
        if self.table is None or self.table.pending_draw is not None:
            raise ValueError("resample a state where a seat decides, not a chance node")
        rng = random.Random(int(probability_sampler() * 2**32))
        view = self._seat_view(player_id)
        for _ in range(20):
            sampled = sample_position(view, self.table.engine, player_id, None, rng)
            if sampled is not None:
                out: GetawayState = self.clone()
                assert out.table is not None
                out.table.engine = sampled
                out._resampled = True
                return out
        raise RuntimeError("no deal of the unseen cards fits what the seat saw")

    def _seat_view(self, seat: int) -> Engine:
        """The position as ``seat`` knows it: the referee's replay of the record with every
        other hand of the deal face down (the review's seat view)."""
        assert self.table is not None
        game = self.table.game()
        steps = view_steps(game, seat, self.table.rules, len(game.actions) + 1)
        if steps:
            return steps[-1].after
        hands: list[list[int] | int] = [list(h) if s == seat else len(h) for s, h in enumerate(self.table.hands)]
        return Engine.from_deal(self.table.rules, hands)


class GetawayObserver:
    """What a seat observes (OpenSpiel's Python observer): with ``perfect_recall`` its
    information state, else its observation now."""

    def __init__(self, iig_obs_type: Any, players: int, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, not {params}")
        self.recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        n = players
        pieces = [("observation", layout(n).size)]
        if self.recall:
            pieces += [("played", n * CARD_COUNT), ("picked", n * CARD_COUNT)]
        self.tensor = np.zeros(sum(w for _, w in pieces), np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, width in pieces:
            self.dict[name] = self.tensor[at:at + width]
            at += width

    def set_from(self, state: GetawayState, player: int) -> None:
        self.tensor.fill(0)
        t = state.table
        if t is None:
            return
        obs = t.observation(player)
        if not self.private:
            obs[t.layout.parts["hand"][0]:t.layout.parts["hand"][1]] = 0
        self.dict["observation"][:] = obs
        if self.recall:
            rel = t.relative(player)
            self.dict["played"][:] = t.played[rel].reshape(-1)
            self.dict["picked"][:] = t.picked[rel].reshape(-1)

    def string_from(self, state: GetawayState, player: int) -> str:
        t = state.table
        if t is None:
            return f"seat {player}: dealing"
        if self.recall:
            return "\n".join(t.history_words(player))
        return t.observation_words(player)


pyspiel.register_game(GAME_TYPE, GetawayGame)
