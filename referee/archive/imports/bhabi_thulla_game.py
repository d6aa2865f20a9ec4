"""The ``bhabi-thulla-game`` is an online game of the Bhabi Thulla app (the public repository
AllianceTech-Live/bhabi-thulla-game, an Expo phone app whose online tables run on Supabase),
as its Postgres tables keep it. Its server writes, for each game (in our words):

* ``games``: one row, with the ``game_type`` (``thulla``; the same tables also hold games of
  Bluff), the ``status`` (``completed`` at the end) and the loser's id, ``bhabhi_id``; the
  row's ``game_state`` is the table as it stands (the hands as they are now, not as dealt);
* ``game_players``: a row a player, with the ``player_id``, the ``seat_number`` (1 to 4, the
  next seat being the next number) and the ``display_name``;
* ``game_moves``: a row for every card played, with the ``player_id``, the ``card_id`` (the
  suit's name, a dash and the rank: ``spades-A``, ``hearts-10``), the ``move_number`` (1, 2,
  ...) and the ``move_type`` (``play``, or ``thulla`` for a card of another suit).

The reader takes one game's rows exported as a JSON object: ``game`` (the ``games`` row),
``game_players`` and ``game_moves`` (lists of rows, as Supabase's API or Postgres's
``json_agg`` gives them). The app keeps no deal, but it deals the whole pack, one card at a
time from the first seat, and nothing but a pickup moves a card from one hand to another, so
the deal is what each player played first, and the cards never played belong to the one
player the deal leaves short (or, while a game is still on, to the hand ``game_state`` shows
holding them). The moves keep no trick boundaries; the reader ends a trick where the app does.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from referee.archive.imports.common import Following, Imported, ImportProblem, field_of, seat_names
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine import language as L

# Its engine plays the first trick in turn from the A♠ holder, has no take, and lets a player
# who plays their last card out at once, the lead passing on (Pagat, Getaway: Variations, 3).
BTG_RULES = "pagat last_card=pass_lead first_trick=in_turn taking=no"
BTG_DEPARTURES = (
    "the app has no take; the texts let a player take the hand of the next player holding cards "
    "before any trick (Pagat, Getaway: Taking cards), so the record is judged with taking=no",
    "in the first trick the app ends the trick at the first card of another suit, and the player of "
    "the highest spade (the A♠'s holder) picks it up; the texts have everyone play to the first trick "
    "and throw it on the waste pile (Pagat, Getaway: First trick)",
    "the app lets a last card get away at once: with one other player left it ends the game in the "
    "middle of the trick, and a player whose last card is the highest of a trick that then ends in a "
    "tochoo stays out; the texts play the trick out, the highest card of the suit led picks the trick "
    "up, and a last card that wins a clean trick against one other player draws from the waste pile "
    "(Pagat, Getaway: Second and subsequent tricks; Getting away; Two players)",
)
SOURCE = "bhabi-thulla-game"

_SUITS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
_RANKS = {"10": "T", **{r: r for r in ("2", "3", "4", "5", "6", "7", "8", "9", "J", "Q", "K", "A")}}


def _card(value: Any, where: str) -> int:
    """A card as the app names it: the suit's name, a dash, the rank (2-10, J, Q, K, A)."""
    if isinstance(value, str):
        suit, _, rank = value.partition("-")
        if suit in _SUITS and rank in _RANKS:
            card = C.parse_card(_RANKS[rank] + _SUITS[suit])
            if card is not None:
                return card
    raise ImportProblem(L.gettext("{where}: {value!r} is not a card (a suit spades, hearts, diamonds or clubs, a dash "
                                  "and a rank 2 to 10, J, Q, K or A)").format(where=where, value=value))


def _rows(data: dict[str, Any], key: str) -> list[Any]:
    got = field_of(data, key, L.gettext("the export"))
    if not isinstance(got, list):
        raise ImportProblem(L.gettext("{where}: not a list of rows").format(where=key))
    return got


def _number(row: Any, key: str, where: str) -> int:
    got = field_of(row, key, where)
    if not isinstance(got, int) or isinstance(got, bool):
        raise ImportProblem(L.gettext("{where}: {value!r} is not a number").format(where=f"{where}.{key}", value=got))
    return got


class _AppTable:
    """The app's own bookkeeping of a game, move by move: who holds what, who is still in (a
    player who plays their last card is out at once), where a trick ends (everyone still in has
    played, or a card of another suit) and who picks it up (the highest card of the suit led)."""

    def __init__(self, hands: list[list[int]]) -> None:
        self.held = [set(h) for h in hands]
        self.active = list(range(len(hands)))  # the seats in play, in seat order
        self.out: list[int] = []
        self.out_at: list[int] = []  # the trick each got out in
        self.trick: list[tuple[int, int]] = []
        self.number = 0
        self.over = False

    def _leave(self, seats: list[int]) -> None:
        for s in seats:
            if s in self.active:
                self.active.remove(s)
                self.out.append(s)
                self.out_at.append(self.number)

    def play(self, s: int, c: int) -> tuple[bool, int | None]:
        """One card; returns whether it ended the trick with a tochoo, and who picked it up."""
        if not self.trick:
            self.number += 1
        self.trick.append((s, c))
        self.held[s].discard(c)
        led = C.SUIT[self.trick[0][1]]
        if len(self.trick) > 1 and C.SUIT[c] != led:
            high = max((x for x in self.trick if C.SUIT[x[1]] == led), key=lambda x: C.RANK[x[1]])[0]
            self.held[high] |= {x for _, x in self.trick}
            self.trick = []
            # the pickup goes into the hand even of a player already out, who stays out
            self._leave([p for p in self.active if not self.held[p]])
            self.over = len(self.active) <= 1
            return True, high
        played = {p for p, _ in self.trick}
        if all(p in played for p in self.active):
            self.trick = []
            self._leave([p for p in self.active if not self.held[p]])
        elif not self.held[s]:
            self._leave([s])
        self.over = len(self.active) <= 1
        return False, None


def _deal(n: int, plays: list[tuple[str, int, int]], game: dict[str, Any], ids: list[Any],
          seats: list[str]) -> list[list[int]]:
    """The deal the moves imply: each card to the player who played it first, the cards never
    played to the one player the deal leaves short (or to the hand ``game_state`` shows)."""
    sizes = [52 // n + (1 if i < 52 % n else 0) for i in range(n)]  # one card at a time from seat 1
    first: dict[int, int] = {}
    for _, s, c in plays:
        first.setdefault(c, s)
    hands: list[list[int]] = [[] for _ in range(n)]
    for c, s in first.items():
        hands[s].append(c)
    for s in range(n):
        if len(hands[s]) > sizes[s]:
            raise ImportProblem(L.gettext("{where}: {seat} plays {played} cards nobody played before, more than the {dealt} "
                                          "the app deals seat {number} of {n}").format(
                where="game_moves", seat=seats[s], played=len(hands[s]), dealt=sizes[s], number=s + 1, n=n))
    unplayed = [c for c in range(52) if c not in first]
    short = [s for s in range(n) if len(hands[s]) < sizes[s]]
    if not unplayed:  # the loser played every card dealt, and holds only cards picked up
        return hands
    if len(short) == 1:
        hands[short[0]] += unplayed
        return hands
    state = game.get("game_state")
    now = state.get("players") if isinstance(state, dict) else None
    if not isinstance(now, list):
        raise ImportProblem(L.ngettext("{where}: {n} player holds cards never played, and without the hands of {state} "
                                       "the deal cannot be told",
                                       "{where}: {n} players hold cards never played, and without the hands of {state} "
                                       "the deal cannot be told", len(short)).format(
            where="game_moves", n=len(short), state="game.game_state"))
    where_now: dict[int, int] = {}
    for k, p in enumerate(now):
        at = f"game.game_state.players[{k}]"
        pid = field_of(p, "id", at)
        if pid not in ids:
            raise ImportProblem(L.gettext("{where}: {value!r} is not one of {players}").format(where=f"{at}.id", value=pid, players="game_players"))
        hand = field_of(p, "hand", at)
        if not isinstance(hand, list):
            raise ImportProblem(L.gettext("{where}: not a list of cards").format(where=f"{at}.hand"))
        for j, card in enumerate(hand):
            where_now[_card(field_of(card, "id", f"{at}.hand[{j}]"), f"{at}.hand[{j}].id")] = ids.index(pid)
    for c in unplayed:
        if c not in where_now:
            raise ImportProblem(L.gettext("{where}: {card} was never played and is in no hand").format(where="game.game_state",
                                                                                                        card=C.card_str(c)))
        hands[where_now[c]].append(c)
    for s in range(n):
        if len(hands[s]) != sizes[s]:
            raise ImportProblem(L.gettext("{where}: {seat} would have been dealt {got} cards; the app deals seat {number} of "
                                          "{n} {dealt}").format(
                where="game.game_state", seat=seats[s], got=len(hands[s]), number=s + 1, n=n, dealt=sizes[s]))
    return hands


def read_bhabi_thulla_game(data: Any) -> Imported:
    """One online game of the Bhabi Thulla app, from its tables' rows, as a record (see the
    module's docstring)."""
    if not isinstance(data, dict) or not {"game", "game_moves"} <= set(data):
        raise ImportProblem(L.gettext("not an export of the app's tables (a JSON object with {game}, {players} and {moves})")
                            .format(game='"game"', players='"game_players"', moves='"game_moves"'))
    game = field_of(data, "game", L.gettext("the export"))
    if not isinstance(game, dict):
        raise ImportProblem(L.gettext("{where}: not a row of games").format(where="game"))
    kind = game.get("game_type", "thulla")
    if kind != "thulla":
        raise ImportProblem(L.gettext("{where}: {value!r}, not a game of Thulla").format(where="game.game_type", value=kind))

    rows = sorted(((_number(r, "seat_number", f"game_players[{k}]"), k, r)
                   for k, r in enumerate(_rows(data, "game_players"))), key=lambda t: t[0])
    n = len(rows)
    if not 2 <= n <= 4:
        raise ImportProblem(L.ngettext("{where}: {n} player (the app seats 2 to 4)", "{where}: {n} players (the app seats 2 to 4)",
                                         n).format(where="game_players", n=n))
    numbers = [num for num, _, _ in rows]
    if len(set(numbers)) != n:
        raise ImportProblem(L.gettext("{where}: seat {seat} twice").format(
            where="game_players", seat=next(x for x in numbers if numbers.count(x) > 1)))
    ids = [field_of(r, "player_id", f"game_players[{k}]") for _, k, r in rows]
    if len(set(map(str, ids))) != n:
        raise ImportProblem(L.gettext("{where}: a {field} twice").format(where="game_players", field="player_id"))
    names = [r.get("display_name") if isinstance(r, dict) else None for _, _, r in rows]
    seats = seat_names(names)

    moves = []
    for k, r in enumerate(_rows(data, "game_moves")):
        at = f"game_moves[{k}]"
        kind = field_of(r, "move_type", at)
        if kind in ("escape", "system"):
            continue  # no card played (the app's server writes neither)
        if kind not in ("play", "thulla"):
            raise ImportProblem(L.gettext("{where}: {value!r} is not a move of Thulla (play or thulla)").format(where=f"{at}.move_type",
                                                                                                             value=kind))
        pid = field_of(r, "player_id", at)
        if pid not in ids:
            raise ImportProblem(L.gettext("{where}: {value!r} is not one of {players}").format(where=f"{at}.player_id", value=pid,
                                                                                               players="game_players"))
        moves.append((_number(r, "move_number", at), at, ids.index(pid), _card(field_of(r, "card_id", at), f"{at}.card_id")))
    moves.sort(key=lambda m: m[0])
    for a, b in pairwise(moves):
        if a[0] == b[0]:
            raise ImportProblem(L.gettext("{where}: {value} twice").format(where=f"{b[1]}.move_number", value=b[0]))
    plays = [(at, s, c) for _, at, s, c in moves]
    if not plays:
        raise ImportProblem(L.gettext("{where}: no card played, so no deal to tell").format(where="game_moves"))

    hands = _deal(n, plays, game, ids, seats)
    texts = Following.dealt(BTG_RULES, hands, seats, "game_moves")
    app = _AppTable(hands)
    lines = ["deal"] + [f"{seats[s]} {' '.join(C.card_str(c) for c in C.sort_cards(h))}" for s, h in enumerate(hands)]
    trick_line: list[str] = []
    for at, s, c in plays:
        if app.over:
            raise ImportProblem(L.gettext("{where}: a move after the game was over ({seat} held the last cards)").format(
                    where=at, seat=seats[app.active[0]]) if app.active else
                    L.gettext("{where}: a move after the game was over").format(where=at))
        if c not in app.held[s]:
            raise ImportProblem(L.gettext("{where}: {seat} plays {card}, which {seat} does not hold").format(where=at, seat=seats[s],
                                                                                                         card=C.card_str(c)))
        if not app.trick:
            trick_line = []
            lines.append("")
        out_before = s not in app.active
        said = f"trick {app.number + (0 if app.trick else 1)} ({seats[s]} {C.card_str(c)})"
        tochoo, high = app.play(s, c)
        trick_line.append(f"{seats[s]} {C.card_str(c)}")
        lines[-1] = f"{app.number}. " + ", ".join(trick_line)
        texts.follow(EV.PlayCard(s, c), said)
        if out_before and texts.engine is not None:
            texts.stop(f"{said}: {seats[s]} is out by the app, and plays")
        elif tochoo and high is not None and texts.engine is not None:
            if app.number == 1:
                texts.stop(f"{said}: the app ends the first trick at this card of another suit and {seats[high]} picks "
                           "it up; the texts have everyone play to the first trick and throw it on the waste pile "
                           "(Pagat, Getaway: First trick)")
            elif high in app.out:
                texts.stop(f"{said}: {seats[high]}'s last card is the highest of the suit led, so by the texts "
                           f"{seats[high]} picks the trick up and plays on; the app keeps {seats[high]} out "
                           "(Pagat, Getaway: Second and subsequent tricks)")

    app_loser = app.active[0] if app.over and app.active else None
    lost = game.get("bhabhi_id")
    if lost is not None:
        if lost not in ids:
            raise ImportProblem(L.gettext("{where}: {value!r} is not one of {players}").format(where="game.bhabhi_id", value=lost,
                                                                                               players="game_players"))
        app_loser = ids.index(lost)
    if texts.engine is not None and not texts.differs:
        if app.over and not texts.over:
            who = seats[app.active[0]] if app.active else "nobody"
            texts.differs.append(f"the end (trick {app.number}): the app ends the game there, {who} being the only one "
                                 "holding cards; by the texts the trick is played out and the game goes on")
        elif texts.over:
            left = [x for x in range(n) if x not in texts.out]
            if (texts.out, left[:1]) != (app.out, [app_loser]):
                first = next((k for k, (x, y) in enumerate(zip(texts.out, app.out)) if x != y), None)
                where = "the end" if first is None else f"trick {app.out_at[first]}"
                texts.differs.append(f"{where}, the order of getting away: the app's "
                                     f"{' '.join(seats[x] for x in app.out) or 'none'}, the texts' "
                                     f"{' '.join(seats[x] for x in texts.out) or 'none'}")

    head = [f'[Seats "{" ".join(seats)}"]', f'[Rules "{BTG_RULES}"]', f'[Source "{SOURCE}"]']
    notes = [] if seats[0] != "seat1" else [f"# seat{i + 1} is the app's {p!r}" for i, p in enumerate(names)]
    if app_loser is not None:
        if texts.over:  # the replay ends too: check holds the app's loser against it
            head.append(f'[Result "{seats[app_loser]}"]')
        else:
            notes.append(f"# the app's result: {seats[app_loser]} lost")
    notes += [f"# where the app departs from the texts: {d}" for d in BTG_DEPARTURES]
    notes += [f"# where the texts part from the app: {d}" for d in texts.differs]
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + lines) + "\n"
    return Imported(text, BTG_RULES, list(BTG_DEPARTURES), len(plays), texts.differs)
