"""The ``card-game-thulla`` is a match of the Bhabhi Thulla table built on boardgame.io (the public
repository samiUllah1526/card-game-thulla), as its storage keeps it: the SQLite row's
``initial_state``, ``log`` and ``state`` (JSON text), or the same as boardgame.io's fetch of
a match returns them (``initialState``, ``log``, ``state``, JSON). The fields read:

* ``initialState.G.hands``: each seat's cards (``"0"``, ``"1"``, ...; the next seat is the
  next number), a card's ``id`` being its suit letter, a dash and its rank 2-14 (``S-14`` is
  the A♠); ``initialState.G.takeRequiresPermission`` (a take waits for the answer);
* ``log``: the framework's entries in order; a move is ``action.payload`` with its ``type``,
  ``args`` and ``playerID``: ``playCard`` (the card's id), ``takeLeftHand``, ``respondTake``
  (true or false), ``leaveGame`` and ``playAgain`` (where the record stops), and the table's
  housekeeping (``startGame``, ``dismissPickup``, ...), which is passed over;
* ``state.G.dealHistory[0]``: the app's result of the first deal (``gotAway``, ``bhabhi``);
* ``metadata.players``: the names, when the row keeps them.

The log keeps no trick boundaries, so the reader follows the app's own bookkeeping: a trick
ends when everyone holding cards at its start has played, or at a card of another suit, and
a player who plays their last card is out at once.
"""

from __future__ import annotations

import json
from typing import Any

from referee.archive.imports.common import Following, Imported, ImportProblem, field_of, json_reason, seat_names
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine import language as L

# ---- card-game-thulla: a boardgame.io match of the Bhabhi Thulla table -------------------

# Its engine plays the first trick in turn from the A♠ holder, and a player who plays their
# last card gets away at once, the lead passing on (Pagat, Getaway: Variations, 3).
CGT_RULES = "pagat last_card=pass_lead first_trick=in_turn"
CGT_DEPARTURES = (
    "in the first trick the app ends the trick at the first card of another suit (the cards go to "
    "the waste pile and the A♠ holder leads); the texts have everyone play to the first trick "
    "(Pagat, Getaway: First trick)",
    "the app lets a last card get away at once, also with one other player left, and ends the game "
    "as soon as one player holds cards, in the middle of a trick; the texts play the trick out and "
    "have a last card that wins a clean trick against one other player draw from the waste pile "
    "(Pagat, Getaway: Two players; Variations, 3)",
    "only the leader may take, before leading, and the app may let the player taken refuse; the "
    "texts let any player take before any trick, with no refusal (Pagat, Getaway: Taking cards)",
)
_CGT_SUITS = {"S": "S", "H": "H", "D": "D", "C": "C"}
_CGT_RANKS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}


def _cgt_card(value: Any, where: str) -> int:
    """A card as the app names it: its suit letter, a dash, its rank 2-14 (11 J ... 14 A)."""
    if isinstance(value, str) and "-" in value:
        suit, _, rank = value.partition("-")
        if suit in _CGT_SUITS and rank.isdigit() and int(rank) in _CGT_RANKS:
            card = C.parse_card(_CGT_RANKS[int(rank)] + suit)
            if card is not None:
                return card
    raise ImportProblem(L.gettext("{where}: {value!r} is not a card (a suit S, H, D or C, a dash and a rank 2 to 14)")
                        .format(where=where, value=value))


def _jsonfield_of(obj: Any, keys: tuple[str, ...], where: str) -> Any:
    """A field the storage may keep as JSON text (the SQLite row) or as JSON (boardgame.io's fetch)."""
    for key in keys:
        if isinstance(obj, dict) and key in obj:
            got = obj[key]
            if isinstance(got, str):
                try:
                    return json.loads(got)
                except json.JSONDecodeError as e:
                    raise ImportProblem(L.gettext("{where}: not JSON: {why}").format(where=key, why=json_reason(e.msg))) from None
            return got
    raise ImportProblem(L.gettext("{where}: no {key!r}").format(where=where, key=keys[0]))


def read_card_game_thulla(data: Any) -> Imported:
    """The first deal of a boardgame.io match of card-game-thulla as a record (see the
    module's docstring)."""
    initial = _jsonfield_of(data, ("initialState", "initial_state"), L.gettext("the match"))
    log = _jsonfield_of(data, ("log",), L.gettext("the match"))
    if not isinstance(log, list):
        raise ImportProblem(L.gettext("{where}: not a list of entries").format(where="log"))
    g0 = field_of(initial, "G", "initialState")
    raw_hands = field_of(g0, "hands", "initialState.G")
    if not isinstance(raw_hands, dict) or not 2 <= len(raw_hands) <= 8:
        raise ImportProblem(L.gettext("{where}: not the hands of 2 to 8 seats").format(where="initialState.G.hands"))
    ids = sorted(raw_hands, key=lambda k: int(k) if isinstance(k, str) and k.isdigit() else -1)
    if ids != [str(i) for i in range(len(ids))]:
        raise ImportProblem(L.gettext("{where}: the seats are {seats}, not 0 to {last}").format(
            where="initialState.G.hands", seats=", ".join(map(repr, ids)), last=len(ids) - 1))
    n = len(ids)
    hands = []
    for s in range(n):
        hand = raw_hands[str(s)]
        if not isinstance(hand, list):
            raise ImportProblem(L.gettext("{where}: not a list of cards").format(where=f"initialState.G.hands.{s}"))
        hands.append([_cgt_card(field_of(c, "id", f"initialState.G.hands.{s}[{k}]"), f"initialState.G.hands.{s}[{k}].id")
                      for k, c in enumerate(hand)])
    meta = data.get("metadata") if isinstance(data, dict) else None
    if isinstance(meta, str):
        try:
            meta = json.loads(meta)
        except json.JSONDecodeError:
            meta = None
    players = meta.get("players") if isinstance(meta, dict) else None
    names = [players.get(str(s), {}).get("name") if isinstance(players, dict) and isinstance(players.get(str(s)), dict)
             else None for s in range(n)]
    seats = seat_names(names) if all(names) else [f"P{s + 1}" for s in range(n)]
    permission = bool(g0.get("takeRequiresPermission", False)) if isinstance(g0, dict) else False

    texts = Following.dealt(CGT_RULES, hands, seats, "initialState.G.hands")

    held = [set(h) for h in hands]
    active = [s for s in range(n) if held[s]]
    first = True
    trick: list[tuple[int, int]] = []
    in_trick: list[int] = []
    number = 0
    lines = ["deal"] + [f"{seats[s]} {' '.join(C.card_str(c) for c in C.sort_cards(h))}" for s, h in enumerate(hands)]
    finished = False
    pending: tuple[int, int] | None = None
    stopped = ""
    plays = 0

    def take(a: int, b: int, at: str) -> None:
        nonlocal finished
        lines.append(f"{seats[a]} takes {seats[b]}")
        texts.follow(EV.TakeHand(a, b), f"the take before trick {number + 1} ({seats[a]} takes {seats[b]})")
        held[a] |= held[b]
        held[b] = set()
        if b in active:
            active.remove(b)
        finished = len(active) == 1

    for i, entry in enumerate(log):
        at = f"log[{i}]"
        action = field_of(entry, "action", at)
        if field_of(action, "type", f"{at}.action") != "MAKE_MOVE":
            continue  # the framework's own entries (a turn ended)
        payload = field_of(action, "payload", f"{at}.action")
        move = field_of(payload, "type", f"{at}.action.payload")
        who = field_of(payload, "playerID", f"{at}.action.payload")
        if move in ("startGame", "unlockPeek", "dismissPickup", "dismissTakeReject"):
            continue  # the table's housekeeping, no play
        if move == "playAgain":
            stopped = f"a new deal begins at {at}; the record keeps the first (the log does not hold the next deal's hands)"
            break
        if not (isinstance(who, str) and who.isdigit() and int(who) < n):
            raise ImportProblem(L.gettext("{where}: {value!r} is not a seat (0 to {last})").format(where=f"{at}.action.payload.playerID",
                                                                                         value=who, last=n - 1))
        s = int(who)
        if move == "leaveGame":
            stopped = f"{seats[s]} left the table at {at} (the app throws the hand away); the record stops there"
            break
        if finished:
            raise ImportProblem(L.gettext("{where}: a {move} after the deal was over").format(where=at, move=move))
        args = payload.get("args") if isinstance(payload, dict) else None
        if move == "playCard":
            if not isinstance(args, list) or not args:
                raise ImportProblem(L.gettext("{where}: no card").format(where=f"{at}.action.payload.args"))
            c = _cgt_card(args[0], f"{at}.action.payload.args[0]")
            if c not in held[s]:
                raise ImportProblem(L.gettext("{where}: {seat} plays {card}, which {seat} does not hold").format(where=at, seat=seats[s],
                                                                                                     card=C.card_str(c)))
            if not trick:
                number += 1
                in_trick = list(active)
                lines.append("")
            trick.append((s, c))
            plays += 1
            lines[-1] = f"{number}. " + ", ".join(f"{seats[p]} {C.card_str(x)}" for p, x in trick)
            texts.follow(EV.PlayCard(s, c), f"trick {number} ({seats[s]} {C.card_str(c)})")
            held[s].discard(c)
            if not held[s] and s in active:
                active.remove(s)
            led = C.SUIT[trick[0][1]]
            tochoo = len(trick) > 1 and C.SUIT[c] != led
            if len(active) == 1:
                finished = True
            elif tochoo or all(p in (q for q, _ in trick) for p in in_trick):
                if tochoo and not first:
                    high = max((x for x in trick if C.SUIT[x[1]] == led), key=lambda x: C.RANK[x[1]])[0]
                    held[high] |= {x for _, x in trick}
                    if high not in active:
                        active.append(high)
                first = False
                trick = []
        elif move == "takeLeftHand":
            later = [t for t in sorted(active) if t > s]
            b = (later or sorted(active))[0]
            if permission:
                pending = (s, b)
            else:
                take(s, b, at)
        elif move == "respondTake":
            if pending is None:
                raise ImportProblem(L.gettext("{where}: an answer to a take nobody asked for").format(where=at))
            a, b = pending
            pending = None
            if isinstance(args, list) and args and args[0] is True:
                take(a, b, at)
            else:
                lines.append(f"# {seats[b]} refused to give {seats[a]} the hand")
        else:
            raise ImportProblem(L.gettext("{where}: {value!r} is not a move of the app").format(where=f"{at}.action.payload.type", value=move))

    app: tuple[list[int], int] | None = None
    state = data.get("state") if isinstance(data, dict) else None
    if isinstance(state, str):
        state = _jsonfield_of(data, ("state",), L.gettext("the match"))
    history = state.get("G", {}).get("dealHistory") if isinstance(state, dict) and isinstance(state.get("G"), dict) else None
    if isinstance(history, list) and history and isinstance(history[0], dict):
        h = history[0]
        try:
            app = [int(x) for x in h.get("gotAway", [])], int(h["bhabhi"])
        except (KeyError, TypeError, ValueError):
            raise ImportProblem(L.gettext("{where}: not a result (gotAway, bhabhi)").format(where="state.G.dealHistory[0]")) from None
    if texts.engine is not None and not texts.differs and finished and not texts.over:
        texts.differs.append(f"the end (trick {number}): the app ends the deal there, {seats[active[0]]} being the only one "
                             f"holding cards; by the texts the trick is played out and the game goes on")
    elif texts.engine is not None and not texts.differs and app is not None and texts.over:
        left = [x for x in range(n) if x not in texts.out]
        if (texts.out, left[:1]) != (app[0], [app[1]]):
            texts.differs.append(f"the end, the order of getting away: the app's {' '.join(seats[x] for x in app[0])}, "
                                 f"the texts' {' '.join(seats[x] for x in texts.out)}")
    head = [f'[Seats "{" ".join(seats)}"]', f'[Rules "{CGT_RULES}"]', '[Source "card-game-thulla"]']
    notes = []
    if app is not None and 0 <= app[1] < n:
        if texts.over:  # the replay ends too: check holds the app's loser against it
            head.append(f'[Result "{seats[app[1]]}"]')
        else:
            notes.append(f"# the app's result: {seats[app[1]]} lost")
    notes += [f"# where the app departs from the texts: {d}" for d in CGT_DEPARTURES]
    notes += [f"# where the texts part from the app: {d}" for d in texts.differs]
    notes += [f"# {stopped}"] if stopped else []
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + [ln for ln in lines if ln]) + "\n"
    return Imported(text, CGT_RULES, list(CGT_DEPARTURES), plays, texts.differs)

