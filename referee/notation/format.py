"""The canonical form of a record: ``getaway-ref fmt``.

One spelling for everything: Unicode suits (``10♥``, ``A♠*``), hands in the order ♠ ♥ ♦ ♣
and high to low, plays separated by ", ", one blank line between games. Every comment and
every fact is kept, so ``parse(fmt(x)) == parse(x)`` and ``fmt(fmt(x)) == fmt(x)``.
"""

from __future__ import annotations

from referee.engine.cards import card_str
from referee.engine.cards import SUIT_SYMBOLS
from referee.notation.record import Comment, Counts, Deal, Draw, Game, Hand, Lead, NextTrick, Out, Position, Prelude, Tag, Take, Trick, Trumps, Waste


def _eol(comment: str | None) -> str:
    if comment is None:
        return ""
    return f"  # {comment}" if comment else "  #"


def _remark(c: Comment) -> str:
    return f"# {c.text}" if c.text else "#"


def _escape(v: str) -> str:
    return v.replace("\\", "\\\\").replace('"', '\\"')


def format_prelude(pre: Prelude) -> str:
    lines = [f"%gwy {pre.version or 1}{_eol(pre.version_comment)}"]
    for it in pre.items:
        if isinstance(it, Comment):
            lines.append(_remark(it))
    return "\n".join(lines) + "\n"


def format_game(g: Game) -> str:
    seats = g.seats
    name = lambda s: seats[s] if 0 <= s < len(seats) else "?"  # noqa: E731
    out = [f"%game{_eol(g.open_comment)}"]
    for it in g.header:
        if isinstance(it, Tag):
            out.append(f'[{it.name} "{_escape(it.value)}"]{_eol(it.comment)}')
        else:
            out.append(_remark(it))
    if g.setup is not None:
        out.append("deal" if isinstance(g.setup, Deal) else "position")
        for it in g.setup.items:
            if isinstance(it, Comment):
                out.append(_remark(it))
            elif isinstance(it, Hand):
                if it.cards is None:
                    body = str(it.size)
                elif it.cards:
                    body = " ".join(card_str(c) for c in it.cards)
                else:
                    body = "..."  # a known empty hand, in the suit-by-suit form
                out.append(f"{name(it.seat)} {body}{_eol(it.comment)}")
            elif isinstance(it, Out):
                out.append(f"{name(it.seat)} out{_eol(it.comment)}")
            elif isinstance(it, Waste):
                body = ("rest" if it.rest else str(it.size) if it.size is not None
                        else " ".join(card_str(c) for c in it.cards))
                out.append(f"waste {body}{_eol(it.comment)}")
            elif isinstance(it, Lead):
                out.append(f"lead {name(it.seat)}{_eol(it.comment)}")
            elif isinstance(it, NextTrick):
                out.append(f"trick {it.number}{_eol(it.comment)}")
            elif isinstance(it, Trumps):
                out.append(f"trumps {SUIT_SYMBOLS[it.suit]}{_eol(it.comment)}")
    for a in g.actions:
        if isinstance(a, Trick):
            plays = ", ".join(f"{name(p.seat)} {card_str(p.card)}" for p in a.plays)
            out.append(f"{a.number}. {plays}{_eol(a.comment)}")
        elif isinstance(a, Take):
            out.append(f"{name(a.taker)} takes {name(a.target)}{_eol(a.comment)}")
        elif isinstance(a, Draw):
            src = f" from {name(a.source)}" if a.source is not None else ""
            out.append(f"{name(a.seat)} draws {card_str(a.card)}{src}{_eol(a.comment)}")
        elif isinstance(a, Counts):
            sizes = ", ".join(f"{name(s)} {n}" for s, n in a.sizes)
            out.append(f"counts {sizes}{_eol(a.comment)}")
        elif isinstance(a, Comment):
            out.append(_remark(a))
    return "\n".join(out) + "\n"


def format_file(prelude: Prelude, games) -> str:
    """The canonical text of a whole file (games may be any iterable)."""
    parts = [format_prelude(prelude)]
    for g in games:
        parts.append("\n" + format_game(g))
    return "".join(parts)
