"""The ``thulla-masters`` is the game log the Thulla Masters mobile game (the public repository
TayyabIkram92/ThullaMasters, a Unity app with bots and online rooms kept in Firestore) writes on
the host's device when a game ends: ``game_log.txt`` in the app's persistent data folder, the
last game only. The room's Firestore document keeps only the live state (the hands as they
stand, the cards on the table, who got away, the loser), so this text is the one place the app
keeps a game that can be replayed. Its lines, as the app's code writes them (in our words):

* a title line, then ``[INITIAL HANDS]`` and one line a seat, in the order the players sit:
  the app's label for the seat (``Player`` for the host, ``Player2``, ``Player3``... for other
  people, ``Bot1``, ``Bot2``... for its bots), a colon, and its cards, comma-separated; a card
  is a rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` and a suit letter ``S``, ``H``, ``D``,
  ``C``. These are the hands after the app's own swaps at the deal (see the departures);
* a blank line, then a line a trick, ``[ROUND n]``: each play as ``card (label)``, the card
  that broke the suit marked ``<- THULLA`` (an arrow), then after an arrow either ``label leads
  next`` (a clean trick, the label being the highest card of the suit led) or ``label PICKS UP
  n cards (hand now m)`` (a tochoo); the round number goes up after a clean trick only;
* an end line. The log keeps no take (the app calls it a steal): the reader finds each one
  where the next trick's plays show it (the leader's neighbours missing from the turn order),
  and one that ends the game where the log ends with more than one player holding cards.

The app's engine plays the first trick in turn from the A♠ holder (everyone plays; it goes to
the waste pile; the A♠ holder leads), ends a later trick at a card of another suit, and lets a
player whose last card wins a clean trick get away, the lead passing on (Pagat's third
variation), so its record is judged by ``pagat last_card=pass_lead first_trick=in_turn``.
Where it departs from the texts (``THULLA_MASTERS_DEPARTURES``) the record says so in
comments; the reader keeps the app's own bookkeeping beside the engine's, and where they part
(a leader, a card a seat does not hold, the order of getting away) it names the trick. The
app's loser is the record's ``[Result]``, which ``check`` holds against the replay.
"""

from __future__ import annotations

import re
from typing import Any

from referee.archive.imports.common import SUIT_LETTERS, Following, Imported, ImportProblem, reads_text, seat_names
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine.language import gettext as _
from referee.engine.language import ngettext

# The rule set its engine implies: the first trick in turn from the A♠ holder, and a last card
# that wins a clean trick gets away with the lead passing on (Pagat, Getaway: Variations, 3).
THULLA_MASTERS_RULES = "pagat last_card=pass_lead first_trick=in_turn"
THULLA_MASTERS_DEPARTURES = (
    "with bots at the table the app swaps cards between the hands after the deal, so that a "
    "person holds no 2 or 3 (nor a king or ace when alone with bots) and two cards of each suit; "
    "the record's deal is the hands after the swaps; the texts deal the shuffled pack (Pagat, "
    "Getaway: Deal)",
    "a player whose last card wins a clean trick gets away and the lead goes to the player of the "
    "second-highest card of the suit led (or the first seat holding cards); the texts give it to "
    "the next player holding cards (Pagat, Getaway: Variations, 3)",
    "with two players left, the app lets a last card that wins a clean trick get away like any "
    "other; the texts have its player draw from the waste pile and lead (Pagat, Getaway: Two "
    "players; Variations, 3)",
    "only the leader may take, before leading; when a person takes a bot's hand the app first "
    "swaps that hand's low cards for higher ones from the other bots and logs neither the take "
    "nor the swaps; the texts let any player take before any trick, the hand as it is (Pagat, "
    "Getaway: Taking cards)",
)
_RANKS = {"10": "T", **{r: r for r in "23456789JQKA"}}
_HAND = re.compile(r"\s+(\S+)\s*:\s*(.*)")
_ROUND = re.compile(r"\[ROUND\s+(\d+)\]\s+(.*?)\s+→\s+(.*)")
_PLAY = re.compile(r"(\S+) \((\S+)\)( ← THULLA)?")
_LEADS = re.compile(r"(\S+) leads next")
_PICKS = re.compile(r"(\S+) PICKS UP (\d+) cards?(?: \(hand now \d+\))?")


def _card(value: str, where: str) -> int:
    """A card as the app writes it: a rank 2-10, J, Q, K or A, then S, H, D or C."""
    if len(value) in (2, 3) and value[:-1] in _RANKS and value[-1] in SUIT_LETTERS:
        card = C.parse_card(_RANKS[value[:-1]] + value[-1])
        if card is not None:
            return card
    raise ImportProblem(_("{where}: {value!r} is not a card (a rank 2-10, J, Q, K or A and a suit S, H, D or C)")
                        .format(where=where, value=value))


class _AppTable:
    """The app's own bookkeeping of a game, as its code keeps it: how many cards each seat holds
    (which cards, the log cannot always say: the app swaps some without logging it), the cards
    still in the hands, the seats still playing (in seat order), who got away when, the round
    number, the leader and the loser."""

    def __init__(self, hands: list[list[int]]) -> None:
        self.count = [len(h) for h in hands]
        self.held = {c for h in hands for c in h}
        self.active = list(range(len(hands)))
        self.out: list[list[int]] = []  # the seats that got away, a group at a time
        self.round = 1
        self.leader = next(s for s, h in enumerate(hands) if C.ACE_OF_SPADES in h)
        self.loser: int | None = None
        self.over = False

    def after(self, seat: int) -> int:
        """The next seat still playing after ``seat``."""
        k = self.active.index(seat)
        return self.active[(k + 1) % len(self.active)]

    def take(self, taker: int, target: int) -> None:
        self.count[taker] += self.count[target]
        self.count[target] = 0
        self.active.remove(target)
        self.out.append([target])
        self._end_if_one_left()

    def play(self, seat: int, card: int) -> bool:
        """A card played; False when no hand holds it (it was played before and not picked up)."""
        if card not in self.held:
            return False
        self.held.discard(card)
        self.count[seat] -= 1
        return True

    def _end_if_one_left(self) -> None:
        if len(self.active) <= 1:
            self.over = True
            self.loser = self.active[0] if self.active else self.loser

    def trick(self, plays: list[tuple[int, int]], pickup: int | None, highest: int) -> None:
        """A trick resolved: ``pickup`` picks the cards up (a tochoo), or none does."""
        if pickup is not None:
            self.count[pickup] += len(plays)
            self.held |= {c for _, c in plays}
        else:
            self.round += 1
        gone = [s for s in self.active if not self.count[s]]
        self.active = [s for s in self.active if self.count[s]]
        if gone:
            self.out.append(gone)
        if not self.active:  # everyone played their last card: the app makes the winner its loser
            self.over, self.loser = True, highest
            return
        if pickup is not None:
            self.leader = pickup
        elif highest in self.active:
            self.leader = highest
        else:  # the player of the next highest card of the suit led, or the first seat holding cards
            suit = C.SUIT[plays[0][1]]
            rest = [(C.RANK[c], s) for s, c in plays if s != highest and C.SUIT[c] == suit]
            best = max(rest)[1] if rest else None
            self.leader = best if best in self.active else self.active[0]
        self._end_if_one_left()


@reads_text
def read_thulla_masters(data: Any) -> Imported:
    """The game log of Thulla Masters as a record (see the module's docstring)."""
    if not isinstance(data, str):
        raise ImportProblem(_("not a Thulla Masters game log (a text file)"))
    lines = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = next((k for k, ln in enumerate(lines) if ln.strip() == "[INITIAL HANDS]"), None)
    if start is None:
        raise ImportProblem(_("not a Thulla Masters game log (no {line} line)").format(line="[INITIAL HANDS]"))
    labels: list[str] = []
    hands: list[list[int]] = []
    k = start + 1
    while k < len(lines) and _HAND.fullmatch(lines[k]):
        m = _HAND.fullmatch(lines[k])
        assert m is not None
        if m.group(1) in labels:
            raise ImportProblem(_("{where}: {seat} has a second hand").format(where=_("line {line}").format(line=k + 1),
                                                                                   seat=m.group(1)))
        labels.append(m.group(1))
        hands.append([_card(c.strip(), f"line {k + 1}") for c in m.group(2).split(",") if c.strip()])
        k += 1
    if not 2 <= len(labels) <= 8:
        raise ImportProblem(ngettext("{where}: {n} hand under {head} (a game has 2 to 8 players)",
                                     "{where}: {n} hands under {head} (a game has 2 to 8 players)", len(labels)).format(
            where=_("line {line}").format(line=start + 2), n=len(labels), head="[INITIAL HANDS]"))
    first_round = k
    seats = seat_names(labels)
    seat_of = {label: s for s, label in enumerate(labels)}
    texts = Following.dealt(THULLA_MASTERS_RULES, hands, seats, _("line {line}").format(line=start + 2))
    app = _AppTable(hands)

    out = ["deal"] + [f"{seats[s]} {' '.join(C.card_str(c) for c in C.sort_cards(h))}" for s, h in enumerate(hands)]
    plays_read = 0
    texts_groups: list[set[int]] = []
    ended = False
    number = 0

    def take(taker: int, target: int, when: str) -> None:
        out.append(f"{seats[taker]} takes {seats[target]}")
        before = len(texts.out)
        texts.follow(EV.TakeHand(taker, target), f"{when} ({seats[taker]} takes {seats[target]}, not in the app's log)")
        texts_groups.append(set(texts.out[before:]))
        app.take(taker, target)

    for k in range(first_round, len(lines)):
        line, where = lines[k], _("line {line}").format(line=k + 1)
        if not line.strip():
            continue
        if "END" in line and line.strip().strip("═ ") == "END":
            ended = True
            break
        m = _ROUND.fullmatch(line.strip())
        if m is None:
            raise ImportProblem(_("{where}: {value!r} is not a round line ({form})").format(
                where=where, value=line.strip()[:40], form="[ROUND n] card (seat) ... → ..."))
        if app.over:
            raise ImportProblem(_("{where}: a trick after the app's game was over").format(where=where))
        number += 1
        if int(m.group(1)) != app.round:
            raise ImportProblem(_("{where}: {value} where the app's round {round} was due").format(
                where=where, value=f"[ROUND {m.group(1)}]", round=app.round))
        plays: list[tuple[int, int]] = []
        pos = 0
        body = m.group(2)
        for p in _PLAY.finditer(body):
            if body[pos:p.start()].strip():
                break
            label = p.group(2)
            if label not in seat_of:
                raise ImportProblem(_("{where}: {value!r} is not one of the seats ({seats})").format(where=where, value=label,
                                                                                                  seats=", ".join(labels)))
            s = seat_of[label]
            if s in [q for q, _ in plays]:
                raise ImportProblem(_("{where}: {seat} plays twice in one trick").format(where=where, seat=label))
            plays.append((s, _card(p.group(1), where)))
            pos = p.end()
        if not plays or body[pos:].strip():
            raise ImportProblem(_("{where}: {value!r} is not a play ({form})").format(where=where, value=body[pos:].strip()[:30],
                                                                                   form="card (seat)"))
        leader = plays[0][0]
        if leader != app.leader:
            raise ImportProblem(_("{where}: {seat} leads where the app's leader was {leader}").format(
                where=where, seat=labels[leader], leader=labels[app.leader]))
        # a take is not logged: the seats the turn skips after the leader were taken by it
        if len(plays) > 1:
            if plays[1][0] not in app.active:
                raise ImportProblem(_("{where}: {seat} plays after getting away").format(where=where, seat=labels[plays[1][0]]))
            while app.after(leader) != plays[1][0]:
                take(leader, app.after(leader), f"before trick {number}")
        if texts.engine is not None and texts.engine.to_act() not in (leader, -1):
            texts.stop(f"trick {number}: the app has {seats[leader]} lead, the texts {seats[texts.engine.to_act()]}")
        suit = C.SUIT[plays[0][1]]
        broke = app.round > 1 and len(plays) > 1 and C.SUIT[plays[-1][1]] != suit
        for s, c in plays[1:-1] if broke else []:
            if C.SUIT[c] != suit:
                raise ImportProblem(_("{where}: the trick goes on after {card} of {seat} broke the suit").format(
                    where=where, seat=labels[s], card=C.card_str(c)))
        if not broke and len(plays) != len(app.active):
            raise ImportProblem(_("{where}: {n} plays where the app's {players} players each play once").format(
                where=where, n=len(plays), players=len(app.active)))
        highest = max((C.RANK[c], s) for s, c in plays if C.SUIT[c] == suit)[1]
        tail = m.group(3)
        said = _PICKS.fullmatch(tail) if broke else _LEADS.fullmatch(tail)
        if said is None or said.group(1) != labels[highest] or (broke and int(said.group(2)) != len(plays)):
            want = f"{labels[highest]} PICKS UP {len(plays)} cards" if broke else f"{labels[highest]} leads next"
            raise ImportProblem(_("{where}: {value!r} where the app writes {want!r}").format(where=where, value=tail[:40], want=want))
        before = len(texts.out)
        for s, c in plays:
            # a card in another hand than the record's is no problem here: the app's unlogged swaps
            # move cards (see the departures); the engine names the trick
            if not app.play(s, c):
                raise ImportProblem(_("{where}: {seat} plays {card}, which was played before").format(where=where, seat=labels[s],
                                                                                                       card=C.card_str(c)))
            if app.count[s] < 0:
                raise ImportProblem(_("{where}: {seat} plays a card with none left").format(where=where, seat=labels[s]))
            plays_read += 1
            texts.follow(EV.PlayCard(s, c), f"trick {number} ({seats[s]} {C.card_str(c)})")
        texts_groups.append(set(texts.out[before:]))
        out.append(f"{number}. " + ", ".join(f"{seats[s]} {C.card_str(c)}" for s, c in plays))
        app.trick(plays, highest if broke else None, highest)
    if not ended:
        raise ImportProblem(_("the log stops before its end line (the app writes the whole log when a game ends)"))
    if number == 0:
        raise ImportProblem(_("{where}: no round lines (the app writes one a trick)").format(
            where=_("line {line}").format(line=start + len(labels) + 2)))
    while not app.over:  # the game ended by a take the log does not show: the leader took the rest
        take(app.leader, app.after(app.leader), "the end")

    order = [s for group in app.out for s in group if s != app.loser]
    if texts.engine is not None and not texts.differs:
        left = [s for s in range(len(labels)) if s not in texts.out]
        texts_loser = left[0] if len(left) == 1 else None
        app_groups = [set(g) - {app.loser} for g in app.out]
        if [g for g in texts_groups if g] != [g for g in app_groups if g] or texts_loser != app.loser:
            texts.differs.append(f"the end, the order of getting away: the app's {' '.join(seats[s] for s in order) or 'none'}, "
                                 f"the texts' {' '.join(seats[s] for s in texts.out) or 'none'}")

    names = [] if seats[0] != "seat1" else [f"# seat{i + 1} is the app's {p!r}" for i, p in enumerate(labels)]
    head = [f'[Seats "{" ".join(seats)}"]', f'[Rules "{THULLA_MASTERS_RULES}"]', '[Source "thulla-masters"]']
    if app.loser is not None:
        head.append(f'[Result "{seats[app.loser]}"]')
    notes = names + [f"# where the app departs from the texts: {d}" for d in THULLA_MASTERS_DEPARTURES]
    notes += [f"# the app's order of getting away: {' '.join(seats[s] for s in order) or 'none'}"]
    notes += [f"# where the texts part from the app: {d}" for d in texts.differs]
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + out) + "\n"
    return Imported(text, THULLA_MASTERS_RULES, list(THULLA_MASTERS_DEPARTURES), plays_read, texts.differs)
