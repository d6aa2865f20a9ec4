"""One game of Getaway as the research environments see it: whose decision it is, the
actions as ints, what each seat knows as numbers, and the game's record.

Both environments (:mod:`referee.research.pettingzoo_env`, :mod:`referee.research.openspiel_game`)
play through this class, and it plays through the engine's typed API alone (``turn``,
``playable``, ``legal_takes``, ``view``, ``apply``): the engine decides every rule.

The actions of a table of ``n`` seats (``56 + n`` of them):

* ``0`` to ``52``: play that card (the card ints of :mod:`referee.engine.cards`; 52 is the
  marked ace of spades of a double pack);
* ``TAKE`` (53): take the hand of the next seat holding cards (Pagat, Getaway: Taking cards);
* ``PASS`` (54): do not take now;
* ``DRAW_WASTE`` (55): draw from the waste pile, ``DRAW_SEAT + k``: draw from seat ``k``'s
  hand (Pagat, Getaway: Getting away; Variations).

Between tricks (before the first one too, docs/rulings.md, ruling 3) any seat may take, so
before each lead every other seat that may take is asked in the order of play from the
seat after the leader, TAKE or PASS; the leader is asked last, its leads and its take in one
choice. A take starts the asking again (the position changed). A draw is a decision of where
from (one choice, or several with ``draw_from=any``) followed by a chance event, the card
(at random, as the rules say); the first trick in any order (ruling 2) is played in the
order of play from the leader.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from referee.engine.cards import CARD_COUNT, SUIT, SUIT_LETTERS, card_str, sort_cards
from referee.engine.deal import play_order
from referee.engine.events import ANY_SOURCE, DrawCard, LegalReason, PlayCard, TakeHand
from referee.engine.rules import RuleSet
from referee.engine.state import Engine, Phase
from referee.notation.format import format_game
from referee.notation.record import Comment, Deal, Draw, Game, Hand, Play, Tag, Take, Trick
from referee.players.bots import seat_names
from referee.research import MissingExtra

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as ex:  # the research extra: a one-line hint, not a traceback
    raise MissingExtra(ex.name or "numpy") from None

TAKE = CARD_COUNT  # 53
PASS = CARD_COUNT + 1  # 54
DRAW_WASTE = CARD_COUNT + 2  # 55
DRAW_SEAT = CARD_COUNT + 3  # 56 + seat


def action_count(players: int) -> int:
    """The number of actions of a table of ``players`` seats."""
    return DRAW_SEAT + players


def players_allowed(rules: RuleSet) -> range:
    """The table sizes a rule set allows: 2 to 8 seats with one pack, to 16 with two."""
    return range(2, rules.most_seats + 1)


def action_words(a: int, names: Sequence[str]) -> str:
    """An action in words (the record's spelling of a card; seats by name)."""
    if a < CARD_COUNT:
        return card_str(a)
    if a == TAKE:
        return "take"
    if a == PASS:
        return "pass"
    if a == DRAW_WASTE:
        return "draw from the waste pile"
    return f"draw from {names[a - DRAW_SEAT]}"


_PHASES = tuple(Phase)


class Logged(NamedTuple):
    """One thing that happened, as the seats' information states tell it: ``kind`` is play,
    pass, take or draw; ``other`` the take's target or the draw's source (None: the waste
    pile); ``cards`` the hand a take moved (seen by its taker and its target)."""

    kind: str
    seat: int
    card: int = -1
    other: int | None = None
    cards: tuple[int, ...] = ()


@functools.lru_cache(maxsize=32)
def layout(players: int) -> Layout:
    """The observation's layout for a table of ``players`` seats, made once."""
    return Layout(players)


@dataclass(slots=True)
class Layout:
    """Where each part of a seat's observation lies in its vector. Seats are counted from the
    observer in the order of play (0: the observer, 1: the next seat to play after it, ...)."""

    players: int
    parts: dict[str, tuple[int, int]] = field(default_factory=dict)  # name: (start, end)
    size: int = 0

    def __post_init__(self) -> None:
        n = self.players
        for name, width in (
            ("hand", CARD_COUNT),  # copies of each card in the observer's hand
            ("trick", n * CARD_COUNT),  # the card each seat played to the trick on the table
            ("lead", n),  # who led the trick on the table
            ("last_trick", n * CARD_COUNT),  # the trick that ended last, by seat
            ("picked_up_by", n + 1),  # who picked it up (the last place: the waste pile)
            ("waste", CARD_COUNT),  # the cards the observer knows are in the waste pile
            ("sizes", n),  # cards held by each seat
            ("waste_size", 1),
            ("voids", n * 4),  # the suits each seat was seen to lack (and has not been seen to get since)
            ("out", n),  # the seats that got away
            ("to_act", n),  # the seat whose decision it is
            ("power", n),  # the seat with the power (that leads next, or led this trick)
            ("led", 4),  # the suit led to the trick on the table
            ("trumps", 4),  # Donkey: the trump suit once set
            ("phase", len(_PHASES)),  # before the first trick, between tricks, in a trick, draw due, over
            ("flags", 3),  # the first trick; the lead is a drawn card; the decision is take or pass
        ):
            self.parts[name] = (self.size, self.size + width)
            self.size += width


class Table:
    """One game from the deal to its end, one decision at a time (see the module's doc)."""

    def __init__(self, rules: RuleSet, hands: Sequence[Sequence[int]], dealer: int | None = None,
                 header: Sequence[str] = ()) -> None:
        n = len(hands)
        if n not in players_allowed(rules):
            raise ValueError(f"a game of {rules.spec()} has {players_allowed(rules).start} to "
                             f"{players_allowed(rules).stop - 1} players, not {n}")
        self.rules = rules
        self.n = n
        self.names = seat_names(n)
        self.hands = [list(h) for h in hands]  # the deal, for the record
        self.dealer = dealer
        self.header = list(header)
        self.engine = Engine.from_deal(rules, [list(h) for h in hands])
        self.order = tuple(play_order(rules, n))
        self.place = {s: i for i, s in enumerate(self.order)}  # a seat's place in the order of play
        self.layout = layout(n)
        self.actions: list[Trick | Take | Draw] = []  # the record's items
        self.log: list[Logged] = []  # what happened, for the seats' information states
        self.passed: set[int] = set()  # the seats that passed since the last take or lead
        self.pending_draw: tuple[int, int | None] | None = None  # (drawer, source): the card is chance's
        # A card drawn from the waste pile that its holder has not led yet: others saw a card
        # leave the pile, not which. [card, holder, the seats that know it]
        self.secrets: list[tuple[int, int, frozenset[int]]] = []
        self.played = np.zeros((n, CARD_COUNT), np.float32)  # every card each seat played
        self.picked = np.zeros((n, CARD_COUNT), np.float32)  # every card each seat picked up from a trick
        self.voids = [0] * n  # per seat, the suits (bit per suit) every seat saw it lack
        self.decisions = 0
        self.current = -1
        self.taking = False  # the current seat's choice is TAKE or PASS
        self._takes: dict[int, int] = {}
        self._legal: list[int] = []
        self._advance()

    # ---- whose decision ----------------------------------------------------------------------

    def _advance(self) -> None:
        """Find the seat to decide now, what kind of decision it is, and its actions."""
        self._whose()
        self._legal = self._actions()

    def _whose(self) -> None:
        e = self.engine
        turn = e.turn()
        self.taking = False
        self._takes = {}
        if self.pending_draw is not None or turn.phase == Phase.OVER:
            self.current = -1
            return
        if turn.phase == Phase.DRAW_DUE:
            self.current = turn.to_act
            return
        if turn.phase == Phase.IN_TRICK:
            s = turn.to_act
            if s < 0:  # the first trick in any order (ruling 2): in the order of play from the leader
                waiting = set(e.waiting())
                lead = self.place[turn.trick[0][0]]
                s = next(t for t in self.order[lead:] + self.order[:lead] if t in waiting)
            self.current = s
            return
        leader = turn.to_act
        self._takes = {t.taker: t.target for t in e.legal_takes()}
        if self._takes:
            i = self.place[leader]
            for s in self.order[i + 1:] + self.order[:i]:
                if s in self._takes and s not in self.passed:
                    self.current = s
                    self.taking = True
                    return
        self.current = leader

    @property
    def over(self) -> bool:
        return self.engine.current_phase() == Phase.OVER

    def loser(self) -> int | None:
        return self.engine.outcome().loser

    def legal(self, seat: int | None = None) -> list[int]:
        """The actions of the seat to decide, in increasing order (none for another seat)."""
        if self.current < 0 or (seat is not None and seat != self.current):
            return []
        return list(self._legal)

    def _actions(self) -> list[int]:
        s = self.current
        if s < 0:
            return []
        if self.taking:
            return [TAKE, PASS]
        e = self.engine
        phase = e.current_phase()
        if phase == Phase.DRAW_DUE:
            src = e.view().draw_source
            if src is None:
                return [DRAW_WASTE]
            if src != ANY_SOURCE:
                return [DRAW_SEAT + src]
            return sorted(DRAW_SEAT + t for t in e.holding() if t != s)
        out = sorted(set(e.playable(s)))
        if s in self._takes:
            out.append(TAKE)
        return out

    # ---- acting ------------------------------------------------------------------------------

    def step(self, a: int) -> None:
        """The seat to decide takes action ``a`` (one of :meth:`legal`); a ValueError if not."""
        s = self.current
        if a not in self._legal:
            raise ValueError(f"{action_words(a, self.names) if 0 <= a < action_count(self.n) else a} is not "
                             f"an action {self.names[s] if s >= 0 else 'anyone'} may take now")
        self.decisions += 1
        if a == PASS:
            self.passed.add(s)
            self.log.append(Logged("pass", s))
        elif a == TAKE:
            target = self._takes[s]
            cards = tuple(self.engine.view().known[target])
            self.engine.apply(TakeHand(s, target), events=False)
            self.actions.append(Take(s, target))
            self.log.append(Logged("take", s, other=target, cards=cards))
            self.passed.clear()
            self.voids[s] &= self.voids[target]
            self.voids[target] = 0
            self.secrets = [(c, s if h == target else h, k | {s} if h == target else k) for c, h, k in self.secrets]
        elif a >= DRAW_WASTE:
            self.pending_draw = (s, None if a == DRAW_WASTE else a - DRAW_SEAT)
        else:
            self._play(s, a)
        self._advance()

    def _play(self, s: int, c: int) -> None:
        e = self.engine
        before = e.turn()
        if before.phase != Phase.IN_TRICK:
            self.actions.append(Trick(before.trick_no, []))
            self.passed.clear()
        else:
            # What every seat sees the play show: the engine's duty for the seat's hand
            # before it played (no card of the suit led; in Donkey, no trump either).
            why = e.legal(s).reason
            if why in (LegalReason.TRUMP, LegalReason.OFF_SUIT):
                self.voids[s] |= 1 << SUIT[before.trick[0][1]]
            if why == LegalReason.OFF_SUIT and before.trumps is not None:
                self.voids[s] |= 1 << before.trumps
        trick = self.actions[-1]
        assert isinstance(trick, Trick)
        e.apply(PlayCard(s, c), events=False)
        trick.plays.append(Play(s, c))
        self.log.append(Logged("play", s, c))
        self.played[s, c] += 1
        self.secrets = [x for x in self.secrets if not (x[0] == c and x[1] == s)]
        if e.trick_number() != before.trick_no:  # the trick ended: picked up, or to the waste pile
            v = e.view()
            if v.picked_up_by is not None:
                for _, card in v.last_trick:
                    self.picked[v.picked_up_by, card] += 1
                    self.voids[v.picked_up_by] &= ~(1 << SUIT[card])

    def draw_outcomes(self) -> list[tuple[int, float]]:
        """The cards the due draw may bring, each with its chance (the rules draw at random)."""
        assert self.pending_draw is not None
        _, source = self.pending_draw
        v = self.engine.view()
        cards = v.waste if source is None else v.known[source]
        counts: dict[int, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        return [(c, k / len(cards)) for c, k in sorted(counts.items())]

    def draw(self, card: int) -> None:
        """The due draw brings ``card`` (one of :meth:`draw_outcomes`)."""
        assert self.pending_draw is not None
        s, source = self.pending_draw
        self.engine.apply(DrawCard(s, card, source), events=False)
        self.pending_draw = None
        self.actions.append(Draw(s, card, source))
        self.log.append(Logged("draw", s, card, source))
        self.voids[s] = 0  # a card the others have not seen yet
        if source is None:
            self.secrets.append((card, s, frozenset({s})))
        else:  # a card drawn from a hand that had drawn it from the pile goes on unseen
            for i, (c, h, knows) in enumerate(self.secrets):
                if c == card and h == source:
                    self.secrets[i] = (c, s, knows | {s})
                    break
        self._advance()

    def draw_at_random(self, rng: random.Random) -> None:
        outcomes = self.draw_outcomes()
        cards = [c for c, _ in outcomes]
        self.draw(rng.choices(cards, weights=[p for _, p in outcomes])[0])

    def end_undecided(self) -> list[float]:
        """The returns of a game stopped before its end: the seats still holding cards share
        the loss evenly, so the returns still add up to -1."""
        holding = self.engine.holding()
        return [-1.0 / len(holding) if s in holding else 0.0 for s in range(self.n)]

    def returns(self) -> list[float]:
        """-1 for the loser, 0 for every other seat; all 0 before the end."""
        loser = self.loser()
        return [-1.0 if s == loser else 0.0 for s in range(self.n)]

    # ---- what a seat knows -------------------------------------------------------------------

    def relative(self, observer: int) -> list[int]:
        """The seats in the order of play from ``observer``: index i is the i-th seat after it."""
        i = self.place[observer]
        return list(self.order[i:] + self.order[:i])

    def observation(self, observer: int) -> npt.NDArray[np.float32]:
        """What ``observer`` sees, as numbers (:class:`Layout`): its hand, the trick on the table
        and the last one, the waste pile, every seat's size and shown voids, whose turn it is."""
        lay = self.layout.parts
        v = self.engine.view()
        rel = self.relative(observer)
        at = {s: i for i, s in enumerate(rel)}
        n = self.n
        # Indices first, written into the vector at once: numpy's per-item writes cost more
        # than the rest of a step.
        ones: list[int] = []
        counts: list[int] = []  # a card held or in the pile twice (two packs) counts twice
        h0, w0 = lay["hand"][0], lay["waste"][0]
        counts += [h0 + c for c in v.known[observer]]
        counts += [w0 + c for c in v.waste]
        counts += [w0 + c for c, _, knows in self.secrets if observer not in knows]  # for all it knows, in the pile
        t0, l0 = lay["trick"][0], lay["last_trick"][0]
        ones += [t0 + at[s] * CARD_COUNT + c for s, c in v.trick]
        if v.trick:
            ones.append(lay["lead"][0] + at[v.trick[0][0]])
        ones += [l0 + at[s] * CARD_COUNT + c for s, c in v.last_trick]
        if v.last_trick:
            ones.append(lay["picked_up_by"][0] + (at[v.picked_up_by] if v.picked_up_by is not None else n))
        v0, o0 = lay["voids"][0], lay["out"][0]
        ones += [v0 + at[s] * 4 + suit for s in range(n) if self.voids[s] for suit in range(4) if self.voids[s] >> suit & 1]
        ones += [o0 + at[s] for s in v.out_order]
        if self.current >= 0:
            ones.append(lay["to_act"][0] + at[self.current])
        if v.power is not None:
            ones.append(lay["power"][0] + at[v.power])
        if v.led is not None:
            ones.append(lay["led"][0] + v.led)
        if v.trumps is not None:
            ones.append(lay["trumps"][0] + v.trumps)
        ones.append(lay["phase"][0] + int(v.phase))
        f0 = lay["flags"][0]
        ones += [f0 + i for i, flag in enumerate((v.first_trick, v.drawn_lead, self.taking)) if flag]
        out = np.zeros(self.layout.size, np.float32)
        out[ones] = 1
        if self.rules.marked_ace:
            np.add.at(out, counts, 1)
        else:
            out[counts] = 1
        s0 = lay["sizes"][0]
        out[s0:s0 + n] = [v.sizes[s] for s in rel]
        out[lay["waste_size"][0]] = v.waste_size
        return out

    def mask(self, seat: int) -> npt.NDArray[np.int8]:
        """1 for each action ``seat`` may take now (all 0 when it is not its decision)."""
        m = np.zeros(action_count(self.n), np.int8)
        if seat == self.current:
            m[self._legal] = 1
        return m

    def observation_words(self, observer: int) -> str:
        """The observation in words: the seat's hand, the trick, the sizes, the waste pile."""
        v = self.engine.view()
        names = self.names
        hand = " ".join(card_str(c) for c in v.known[observer]) or "-"
        trick = " ".join(f"{names[s]}:{card_str(c)}" for s, c in v.trick) or "-"
        sizes = " ".join(f"{names[s]}:{v.sizes[s]}" for s in self.order)
        hidden = [c for c, _, knows in self.secrets if observer not in knows]
        waste = " ".join(card_str(c) for c in sort_cards(list(v.waste) + hidden)) or "-"
        voids = " ".join(f"{names[s]}:" + "".join(SUIT_LETTERS[x] for x in range(4) if self.voids[s] >> x & 1)
                         for s in self.order if self.voids[s])
        turn = names[self.current] if self.current >= 0 else "-"
        return (f"{names[observer]} | {v.phase.name} trick {v.trick_no} | hand {hand} | trick {trick} | "
                f"sizes {sizes} | waste {waste} | voids {voids or '-'} | to act {turn}"
                + (" (take or pass)" if self.taking else ""))

    def history_words(self, observer: int) -> list[str]:
        """Everything ``observer`` saw since the deal, in order: its information state (the
        other hands' cards only where it saw them: a hand it took or that took its own; a
        card drawn from the waste pile by its drawer, or when led)."""
        names = self.names
        out = [f"{names[observer]} holds " + " ".join(card_str(c) for c in sort_cards(self.hands[observer]))
               + " | " + " ".join(f"{names[s]}:{len(self.hands[s])}" for s in self.order)]
        for x in self.log:
            who = names[x.seat]
            if x.kind == "play":
                out.append(f"{who} {card_str(x.card)}")
            elif x.kind == "pass":
                out.append(f"{who} passes")
            elif x.kind == "take":
                seen = observer in (x.seat, x.other)
                out.append(f"{who} takes {names[x.other or 0]}" + (": " + " ".join(map(card_str, x.cards)) if seen else ""))
            else:
                where = "the waste pile" if x.other is None else names[x.other]
                seen = observer in (x.seat, x.other)
                out.append(f"{who} draws {card_str(x.card) if seen else 'a card'} from {where}")
        # and the hand it holds now, which the history implies: said, so that the string alone
        # decides the seat's actions in a resampled state too (a search keys its nodes by it)
        out.append(f"{names[observer]} holds " + " ".join(card_str(c) for c in self.engine.known(observer)))
        return out

    # ---- the record --------------------------------------------------------------------------

    def game(self) -> Game:
        """The game so far as a record (:mod:`referee.notation.record`)."""
        names = self.names
        head: list[Tag | Comment] = [Tag("Seats", " ".join(names)), Tag("Rules", self.rules.spec())]
        if self.dealer is not None:
            head.append(Tag("Dealer", names[self.dealer]))
        out = self.engine.outcome()
        if out.loser is not None:
            head.append(Tag("Result", f"{names[out.loser]} {out.legs}" if self.rules.donkey else names[out.loser]))
        head.extend(Comment(line) for line in self.header)
        setup = Deal([Hand(s, tuple(sort_cards(h)), len(h)) for s, h in enumerate(self.hands)])
        actions = [Trick(a.number, list(a.plays)) if isinstance(a, Trick) else a for a in self.actions]
        return Game(number=1, header=head, seats=names, rules=self.rules.spec(), setup=setup, actions=actions)

    def record(self) -> str:
        """The game so far as ``.gwy`` text, which ``getaway-ref check`` reads."""
        return format_game(self.game())

    def copy(self) -> Table:
        """An independent copy (the engine forked, the lists copied)."""
        t = Table.__new__(Table)
        t.rules, t.n, t.names, t.hands, t.dealer, t.header = self.rules, self.n, self.names, self.hands, self.dealer, self.header
        t.engine = self.engine.fork()
        t.order, t.place, t.layout = self.order, self.place, self.layout
        t.actions = [Trick(a.number, list(a.plays)) if isinstance(a, Trick) else a for a in self.actions]
        t.log = list(self.log)
        t.passed = set(self.passed)
        t.pending_draw = self.pending_draw
        t.secrets = list(self.secrets)
        t.played, t.picked = self.played.copy(), self.picked.copy()
        t.voids = list(self.voids)
        t.decisions, t.current, t.taking, t._takes = self.decisions, self.current, self.taking, dict(self._takes)
        t._legal = list(self._legal)
        return t


