"""The reader's fast lane: trick and hand lines, found by one regex made of the grammar's terminals.

Trick lines and a deal's hands are most of a record (over nine tenths of its tokens), and Lark
lexes and parses them a token at a time in Python. This lane finds every well-formed such
line of a game with one regular expression assembled, when the parser is built, from the
terminals Lark itself uses for them (TRICK_NO, SEAT, CARD, COMMENT and the ignored separators
of gwy.lark), each matched atomically as Lark's lexer matches it: greedy, never given back.
The lines it finds are blanked (spaces, newlines kept, so every line, column and offset stays
where it was) and Lark parses the rest of the game as usual; then the builder's own code
makes the tricks and hands, and they are put back in text order.

So the grammar stays the one authority on syntax: a line the lane does not take whole goes
to Lark, which accepts it or reports it; the lane is switched off if the grammar's trick or
hand rule is ever not the shape it mirrors; and tests/test_lane.py checks that both ways read
every record, and mutated lines, into the same games and the same diagnostics.
``GETAWAY_LARK_ONLY=1`` switches the lane off (the benchmark measures both).
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark

# The shapes of gwy.lark's rules this lane mirrors:
#   trick: TRICK_NO (SEAT CARD)+ _eol        hand: SEAT (SIZE | CARD+ | SUITS) _eol
#   tag: TAG _eol                            _eol: COMMENT? _NL
_SHAPES = {
    ("tag", ("TAG", "_eol")),
    ("game_open", ("GAME_OPEN", "_eol")),
    ("deal_open", ("DEAL", "_eol")),
    ("take", ("SEAT", "_TAKES", "SEAT", "_eol")),
    ("draw", ("SEAT", "_DRAWS", "CARD", "_FROM", "SEAT", "_eol")),
    ("draw", ("SEAT", "_DRAWS", "CARD", "_eol")),
    ("remark", ("COMMENT", "_NL")),
    ("trick", ("TRICK_NO", "+", "_eol")),
    ("+", ("SEAT", "CARD")),
    ("+", ("+", "SEAT", "CARD")),
    ("hand", ("SEAT", "SIZE", "_eol")),
    ("hand", ("SEAT", "+", "_eol")),
    ("hand", ("SEAT", "SUITS", "_eol")),
    ("+", ("CARD",)),
    ("+", ("+", "CARD")),
    ("_eol", ("COMMENT", "_NL")),
    ("_eol", ("_NL",)),
}


def _shapes(lark: Lark) -> set[tuple[str, tuple[str, ...]]]:
    """The trick, hand and _eol rules, with Lark's helper rules for a repetition named '+'."""
    helpers = {r.origin.name for r in lark.rules if r.origin.name.startswith(("__trick_plus", "__hand_plus"))}

    def name(s: str) -> str:
        return "+" if s in helpers else s

    return {
        (name(r.origin.name), tuple(name(s.name) for s in r.expansion))
        for r in lark.rules
        if r.origin.name in ("trick", "hand", "tag", "_eol", "game_open", "deal_open", "take", "draw", "remark")
        or r.origin.name in helpers
    }


class Lane:
    """Finds the trick lines and the hands written card by card in a game text.

    ``line`` matches one whole, well-formed line: a trick (groups ``no``, ``plays``) or a hand
    (``seat``, ``cards``), and its ``comment``; ``play`` and ``card`` then take it apart.
    Where Lark's contextual lexer would read a word otherwise, the lane leaves the line to
    Lark: a hand's first card must not be a word a stronger terminal takes there (a size,
    a PBN hand, 'out', 'takes', 'draws'), and its seat must not be a keyword ('waste 5♠'),
    which Lark's lexer retypes when the whole word is one.
    """

    def __init__(self, lark: Lark) -> None:
        terminal = lark.get_terminal

        def pattern(name: str) -> str:
            return terminal(name).pattern.to_regexp()

        ign = "(?:" + "|".join(pattern(n) for n in lark.lexer_conf.ignore) + ")?+"
        seat, card = f"(?>{pattern('SEAT')})", f"(?>{pattern('CARD')})"
        stronger = "|".join(
            f"(?:{t.pattern.to_regexp()})" for t in lark.terminals if t.priority > terminal("CARD").priority
        )
        self.keywords = frozenset(
            t.pattern.value for t in lark.terminals
            if t.pattern.type == "str" and re.fullmatch(pattern("SEAT"), t.pattern.value)
        )
        flags = lark.options.g_regex_flags
        self.line = re.compile(
            rf"^{ign}(?:(?P<no>(?>{pattern('TRICK_NO')}))(?P<plays>(?:{ign}{seat}{ign}{card})++)"
            rf"|(?P<seat>{seat})(?P<cards>{ign}(?!{stronger}){card}(?:{ign}{card})*+))"
            rf"{ign}(?P<comment>(?>{pattern('COMMENT')}))?+(?=\r?\n)",
            flags | re.M,
        )
        # A header tag, on one of the lines right after the %game line (see head()).
        self.tag = re.compile(
            rf"{ign}(?P<tag>(?>{pattern('TAG')})){ign}(?P<comment>(?>{pattern('COMMENT')}))?+(?=\r?\n)", flags
        )
        # The lines the lane leaves (see rest()): each one of these shapes, or Lark reads
        # the game. A line here is the text between two newlines, its \r included.
        sep = "(?:" + "|".join(pattern(n) for n in lark.lexer_conf.ignore) + ")*+"
        comment = rf"(?P<comment>(?>{pattern('COMMENT')}))?+\r?"
        self.blank = re.compile(rf"^(?!{sep}\r?$).*$", flags | re.M)  # finds the lines that are not blank
        self.game_open = re.compile(rf"(?P<kw>{pattern('GAME_OPEN')}){sep}{comment}", flags)
        self.deal_open = re.compile(rf"{sep}(?P<kw>{pattern('DEAL')}){sep}{comment}", flags)
        self.take = re.compile(
            rf"{sep}(?P<a>{seat}){sep}{pattern('_TAKES')}{sep}(?P<b>{seat}){sep}{comment}", flags
        )
        self.draw = re.compile(
            rf"{sep}(?P<a>{seat}){sep}{pattern('_DRAWS')}{sep}(?P<card>{card})"
            rf"(?:{sep}{pattern('_FROM')}{sep}(?P<b>{seat}))?+{sep}{comment}", flags
        )
        self.remark = re.compile(rf"{sep}(?P<comment>(?>{pattern('COMMENT')}))\r?", flags)
        self.play = re.compile(rf"{ign}({seat}){ign}({card})", flags)
        self.card = re.compile(rf"{ign}({card})", flags)

    @classmethod
    def for_parser(cls, lark: Lark) -> Lane | None:
        """The lane for this parser, or None when it is switched off or the grammar's rules
        are not the shapes the lane mirrors."""
        if os.environ.get("GETAWAY_LARK_ONLY"):
            return None
        if _shapes(lark) != _SHAPES:
            return None
        return cls(lark)

    def head(self, text: str) -> list[re.Match[str]]:
        """The tag lines that follow a game's %game line, one after another: the header
        of nearly every game. Only these: they come before anything else of the game, so
        the reader can interpret them (the seats, the rule set) before Lark reads the rest
        and still do so in the order of the text. The first other line ends the run."""
        if not text.startswith("%game"):
            return []
        out = []
        pos = text.find("\n") + 1
        match = self.tag.match
        while pos:
            m = match(text, pos)
            if m is None:
                break
            out.append(m)
            pos = text.find("\n", m.end()) + 1
        return out

    def scan(self, text: str) -> tuple[list[re.Match[str]], str]:
        """(the lines found, the text with those lines blanked for Lark)."""
        _, found, blanked = self.scan_game(text, header=False)
        return found, blanked

    def find(self, text: str, header: bool = True) -> tuple[list[re.Match[str]], list[re.Match[str]]]:
        """(the header's tag lines, the trick and hand lines), each list in text order."""
        keywords = self.keywords
        head = self.head(text) if header else []
        return head, [m for m in self.line.finditer(text) if m.group("seat") not in keywords]

    def scan_game(self, text: str, header: bool = True) -> tuple[list[re.Match[str]], list[re.Match[str]], str]:
        """(the header's tag lines, the trick and hand lines found, the text with all of
        them blanked for Lark)."""
        head, found = self.find(text, header)
        return head, found, self.blanked(text, head + found)

    def blanked(self, text: str, lines: list[re.Match[str]]) -> str:
        """The text with these lines blanked (spaces; every newline kept): what Lark reads."""
        if not lines:
            return text
        pieces: list[str] = []
        last = 0
        for m in lines:
            start, end = m.span()
            pieces.append(text[last:start])
            pieces.append(" " * (end - start))
            last = end
        pieces.append(text[last:])
        return "".join(pieces)

    def plays(self, m: re.Match[str], line_start: int) -> list[tuple[str, int, int, int, str, int, int, int]]:
        """A trick line's plays: (seat, column, start, end, card, column, start, end), with
        offsets in the game text and 1-based columns."""
        out: list[tuple[str, int, int, int, str, int, int, int]] = []
        for p in self.play.finditer(m.string, m.start("plays"), m.end("plays")):
            s0, s1 = p.span(1)
            c0, c1 = p.span(2)
            out.append((p.group(1), s0 - line_start + 1, s0, s1, p.group(2), c0 - line_start + 1, c0, c1))
        return out

    def cards(self, m: re.Match[str]) -> list[tuple[str, int, int]]:
        """A hand line's cards: (card, start, end) with offsets in the game text."""
        return [(c.group(1), *c.span(1)) for c in self.card.finditer(m.string, m.start("cards"), m.end("cards"))]
