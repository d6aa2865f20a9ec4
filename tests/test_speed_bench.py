"""bench/speed.py's corpus for python-chess is what its figures claim: random legal games,
the same for the same seed, every move read back by python-chess (the `bench` extra)."""

from __future__ import annotations

import sys
from pathlib import Path

import chess.pgn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import speed  # noqa: E402


def test_the_chess_corpus_is_legal_games_made_from_the_seed(tmp_path):
    a, b, c = tmp_path / "a.pgn", tmp_path / "b.pgn", tmp_path / "c.pgn"
    moves = speed.chess_corpus(a, 4, seed=3)
    assert speed.chess_corpus(b, 4, seed=3) == moves and a.read_text() == b.read_text()
    speed.chess_corpus(c, 4, seed=4)
    assert c.read_text() != a.read_text()
    read_back = 0
    with open(a, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            assert not game.errors  # python-chess validated every move
            read_back += len(list(game.mainline_moves()))
    assert read_back == moves > 0


def test_medians_are_taken_over_alternating_rounds():
    order: list[str] = []

    def run(name: str, secs: float):
        return lambda: order.append(name) or secs

    med = speed.alternate(3, a=run("a", 1.0), b=run("b", 2.0))
    assert med == {"a": 1.0, "b": 2.0}
    assert order == ["a", "b"] * 3
