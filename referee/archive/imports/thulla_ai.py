"""The ``thulla-ai`` is the completed game the Thulla AI web app (the public repository
ahmedpervaiz31/thulla-ai, a Python engine with a browser table and bots) writes for every
finished game. The fields read, as its code writes them (in our words):

* one JSON object, ``version`` 2; ``players``, the names by seat number (0, 1, ...,
  clockwise: the app's next player is the next number);
* ``opening_hands``: each seat's cards as dealt (null when the app kept no deal);
* ``tricks``: in order, each with its number ``n``, the ``leader_seat`` and the ``plays``
  (``seat``, ``card``) as played; the app's own notes on each play (the hand before, the
  legal cards, advice) are not read;
* ``takes``: each offer of the next player's hand, ``after_trick`` (the number of tricks
  played), ``asker_seat``, ``target_seat`` and ``given`` (false: not asked, or refused);
* ``result``: ``finishing_order`` (the seats in the order they got away) and the ``loser``;
* a card is a rank ``2``-``10``, ``J``, ``Q``, ``K``, ``A`` and a suit letter ``D``, ``H``,
  ``S``, ``C``.

The app's engine plays the first trick in turn from the A♠ holder, and lets a last card that
wins a clean trick get away, the lead passing on (Pagat's third variation), so its record is
judged by ``pagat last_card=pass_lead first_trick=in_turn``. Where it departs from the texts
(``THULLA_AI_DEPARTURES``) the record says so in comments; where judging by the texts parts
from what the app recorded (its two-player ending, a leader, the order of getting away), the
reader names the trick, and the app's loser is the record's ``[Result]``, which ``check``
holds against the replay.
"""

from __future__ import annotations

from typing import Any

from referee.archive.imports.common import SUIT_LETTERS, Following, Imported, ImportProblem, field_of, seat_names
from referee.engine import cards as C
from referee.engine import events as EV
from referee.engine.language import gettext as _
from referee.engine.language import ngettext

# ---- thulla-ai: the completed game of the Thulla AI web app ------------------------------

# The rule set its engine implies: the first trick in turn from the A♠ holder, and a last card
# that wins a clean trick gets away with the lead passing on (Pagat, Getaway: Variations, 3).
THULLA_AI_RULES = "pagat last_card=pass_lead first_trick=in_turn"
THULLA_AI_DEPARTURES = (
    "the app lets the player whose hand is asked for refuse it (a take with \"given\": false); "
    "the texts give the taker the hand (Pagat, Getaway: Taking cards)",
    "the app offers takes only in one round from the leader before each trick after the first, "
    "and none with two players left; the texts allow a take before any trick",
    "with two players left, the app lets a last card that wins a clean trick get away like any "
    "other; the texts have its player draw from the waste pile and lead (Pagat, Getaway: Two "
    "players; Variations, 3)",
)
_AI_RANKS = {"10": "T", **{r: r for r in "23456789JQKA"}}


def _ai_card(value: Any, where: str) -> int:
    """A card as thulla-ai writes it: a rank 2-10, J, Q, K or A, then D, H, S or C."""
    if isinstance(value, str) and len(value) in (2, 3) and value[:-1] in _AI_RANKS and value[-1] in SUIT_LETTERS:
        card = C.parse_card(_AI_RANKS[value[:-1]] + value[-1])
        if card is not None:
            return card
    raise ImportProblem(_("{where}: {value!r} is not a card (a rank 2-10, J, Q, K or A and a suit D, H, S or C)")
                        .format(where=where, value=value))


def _ai_seat(value: Any, n: int, where: str) -> int:
    if not (isinstance(value, int) and not isinstance(value, bool) and 0 <= value < n):
        raise ImportProblem(_("{where}: {value!r} is not a seat (0 to {last})").format(where=where, value=value, last=n - 1))
    return value


def _ai_list(obj: Any, key: str, where: str | None) -> list[Any]:
    """``obj[key]``, a list; ``where`` None for the game's own fields (named "the game")."""
    got = field_of(obj, key, _("the game") if where is None else where)
    if not isinstance(got, list):
        raise ImportProblem(_("{where}: not a list").format(where=key if where is None else f"{where}.{key}"))
    return got



def read_thulla_ai(data: Any) -> Imported:
    """A completed game of the Thulla AI web app as a record (see the module's docstring)."""
    if not isinstance(data, dict) or data.get("version") != 2 or "tricks" not in data:
        raise ImportProblem(_("not a completed game of version 2 (no {version} and {tricks} at the top)")
                            .format(version='"version": 2', tricks='"tricks"'))
    players = _ai_list(data, "players", None)
    n = len(players)
    if not 2 <= n <= 8:
        raise ImportProblem(ngettext("{where}: {n} player (a game has 2 to 8)", "{where}: {n} players (a game has 2 to 8)", n)
                            .format(where="players", n=n))
    seats = seat_names(players)
    opening = field_of(data, "opening_hands", _("the game"))
    if opening is None:
        raise ImportProblem(_("{where}: null (the app kept no deal for this game, so it cannot be replayed)")
                            .format(where="opening_hands"))
    if not isinstance(opening, list) or len(opening) != n:
        raise ImportProblem(_("{where}: not one hand for each of the {n} players").format(where="opening_hands", n=n))
    hands: list[list[int]] = []
    for s, hand in enumerate(opening):
        if not isinstance(hand, list):
            raise ImportProblem(_("{where}: not a list of cards").format(where=f"opening_hands[{s}]"))
        hands.append([_ai_card(c, f"opening_hands[{s}][{k}]") for k, c in enumerate(hand)])
    texts = Following.dealt(THULLA_AI_RULES, hands, seats, "opening_hands")

    tricks = _ai_list(data, "tricks", None)
    takes = _ai_list(data, "takes", None)
    after: dict[int, list[tuple[int, Any]]] = {}
    for k, t in enumerate(takes):
        n_after = field_of(t, "after_trick", f"takes[{k}]")
        if not isinstance(n_after, int) or isinstance(n_after, bool):
            raise ImportProblem(_("{where}: {value!r} is not a trick number").format(where=f"takes[{k}].after_trick", value=n_after))
        after.setdefault(n_after, []).append((k, t))

    lines = ["deal"] + [f"{seats[s]} {' '.join(C.card_str(c) for c in C.sort_cards(h))}" for s, h in enumerate(hands)]
    plays = 0

    def write_takes(number: int) -> None:
        for k, t in after.pop(number, []):
            at = f"takes[{k}]"
            a = _ai_seat(field_of(t, "asker_seat", at), n, f"{at}.asker_seat")
            b = _ai_seat(field_of(t, "target_seat", at), n, f"{at}.target_seat")
            given = field_of(t, "given", at)
            if given is True:
                lines.append(f"{seats[a]} takes {seats[b]}")
                texts.follow(EV.TakeHand(a, b), f"the take after trick {number} ({seats[a]} takes {seats[b]})")
            elif given is False:
                lines.append(f"# {seats[a]} could take {seats[b]}'s hand and did not, or {seats[b]} refused it")
            else:
                raise ImportProblem(_("{where}: {value!r} is not true or false").format(where=f"{at}.given", value=given))

    write_takes(0)
    for i, trick in enumerate(tricks):
        at = f"tricks[{i}]"
        number = field_of(trick, "n", at)
        if number != i + 1:
            raise ImportProblem(_("{where}: {value!r} where trick {trick} was due").format(where=f"{at}.n", value=number, trick=i + 1))
        leader = _ai_seat(field_of(trick, "leader_seat", at), n, f"{at}.leader_seat")
        if texts.engine is not None and texts.engine.to_act() not in (leader, -1):
            texts.stop(f"trick {number}: the app has {seats[leader]} lead, the texts {seats[texts.engine.to_act()]}")
        written = []
        for k, p in enumerate(_ai_list(trick, "plays", at)):
            s = _ai_seat(field_of(p, "seat", f"{at}.plays[{k}]"), n, f"{at}.plays[{k}].seat")
            c = _ai_card(field_of(p, "card", f"{at}.plays[{k}]"), f"{at}.plays[{k}].card")
            written.append(f"{seats[s]} {C.card_str(c)}")
            plays += 1
            texts.follow(EV.PlayCard(s, c), f"trick {number} ({seats[s]} {C.card_str(c)})")
        if not written:
            raise ImportProblem(_("{where}: no plays").format(where=f"{at}.plays"))
        lines.append(f"{number}. " + ", ".join(written))
        write_takes(number)
    if after:
        k = min(k for ts in after.values() for k, _ in ts)
        raise ImportProblem(_("{where}: no such trick among the {n}").format(where=f"takes[{k}].after_trick", n=len(tricks)))

    result = field_of(data, "result", _("the game"))
    order = [_ai_seat(field_of(w, "seat", f"result.finishing_order[{k}]"), n, f"result.finishing_order[{k}].seat")
             for k, w in enumerate(_ai_list(result, "finishing_order", "result"))]
    lost = field_of(result, "loser", "result")
    app_loser = None if lost is None else _ai_seat(field_of(lost, "seat", "result.loser"), n, "result.loser.seat")
    if texts.engine is not None and not texts.differs:
        left = [s for s in range(n) if s not in texts.out]
        referee_loser = left[0] if len(left) == 1 else None
        if (texts.out, referee_loser) != (order, app_loser):
            first = next((k for k, (x, y) in enumerate(zip(texts.out, order)) if x != y), min(len(texts.out), len(order)))
            texts.differs.append(f"the end, the order of getting away: the app's {' '.join(seats[s] for s in order) or 'none'}, "
                                 f"the texts' {' '.join(seats[s] for s in texts.out) or 'none'} (from the {first + 1}. out)")

    names = [] if seats[0] != "seat1" else [f"# seat{i + 1} is the app's {p!r}" for i, p in enumerate(players)]
    head = [f'[Seats "{" ".join(seats)}"]', f'[Rules "{THULLA_AI_RULES}"]', '[Source "thulla-ai"]']
    if app_loser is not None:
        head.append(f'[Result "{seats[app_loser]}"]')
    notes = names + [f"# where the app departs from the texts: {d}" for d in THULLA_AI_DEPARTURES]
    notes += [f"# where the texts part from the app: {d}" for d in texts.differs]
    text = "%gwy 1\n\n%game\n" + "\n".join(head + notes + lines) + "\n"
    return Imported(text, THULLA_AI_RULES, list(THULLA_AI_DEPARTURES), plays, texts.differs)



# ---- card-game-thulla: a boardgame.io match of the Bhabhi Thulla table -------------------

# Its engine plays the first trick in turn from the A♠ holder, and a player who plays their
