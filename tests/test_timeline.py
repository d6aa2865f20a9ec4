"""docs/rulings.md, ruling 10 (the record is the timeline) and the choices after an
unnoticed mistake, as a user meets them: the shipped records of issue 21, each checked with
the command and its output read as the user reads it."""

from __future__ import annotations

import re

from conftest import RECORDS, run_cli


def games(stdout: str) -> list[str]:
    """The text output cut at each game's summary line: the diagnostics of game N, then its
    line, are block N-1."""
    blocks, cur = [], []
    for line in stdout.splitlines():
        cur.append(line)
        if re.search(r"\.gwy:\d+: game \d+ — ", line):
            blocks.append("\n".join(cur))
            cur = []
    return blocks


def codes(block: str) -> list[str]:
    return re.findall(r"^(?:error|mistake|note)\[(\w+)\]", block, flags=re.M)


def test_a_follower_before_its_turn_is_out_of_turn_and_the_penalty_the_table_applied_counts():
    # Three players, sizes only: South follows before East in trick 2; the table makes South
    # pick up and lead. One M203, penalty applied, and the counts after it are true (once,
    # R116 excused the play and cascaded into a false M203 and a false R111).
    r = run_cli("check", "--show-games", str(RECORDS / "out-of-turn-before-the-second-seat-penalised-illegal.gwy"))
    assert r.returncode == 1
    g1, g2 = games(r.stdout)
    for g in (g1, g2):
        assert codes(g) == ["M203"]
        assert "it was East's turn" in g
        assert "the penalty was applied when the trick was over: South picked up every card of it" in g
    # South picked up the three cards: 17 - 1 (trick 1) - 1 + 3 = 18, then leads trick 3.
    assert "hands: North 15, East 14, South 17 — 1 mistake" in g1
    # The off-suit K♣ played early is South's own mistake, not a tochoo that East's turn
    # would have given to East: South picks it up and leads it again.
    assert "South played K♣ out of turn" in g2 and "hands: North 15, East 14, South 17" in g2


def test_a_whole_trick_played_on_after_a_play_out_of_turn_is_m203_not_applied():
    r = run_cli("check", "--show-games", str(RECORDS / "out-of-turn-in-a-whole-trick-played-on-illegal.gwy"))
    assert r.returncode == 1
    g1, g2, g3 = games(r.stdout)
    assert codes(g1) == ["M203"] and "South played A♦ out of turn: it was East's turn" in g1
    # first_trick=in_turn (Denexa): the first trick is played in turn too.
    assert codes(g2) == ["M203"] and "South played 10♠ out of turn: it was North's turn" in g2
    # Two packs: South's 9♥, played before East's equal 9♥, came first and wins the trick
    # (Pagat, Variations: double pack), so South's lead of trick 3 is in turn. Read in turn
    # order, East's 9♥ would have won and South's lead would be a second mistake.
    assert codes(g3) == ["M203"] and "South played 9♥ out of turn: it was East's turn" in g3
    assert "3 tricks — not finished — hands: North 32, East 32, South 31 — 1 mistake" in g3
    for g in (g1, g2, g3):
        assert "the penalty was not applied" in g and "R116" not in g


def test_r116_is_retired_and_says_why():
    r = run_cli("explain", "R116")
    assert r.returncode == 0
    assert "retired" in r.stdout and "ruling 10" in r.stdout and "M203" in r.stdout
    listing = run_cli("explain").stdout
    assert re.search(r"^R116 .*retired", listing, flags=re.M)


def test_trick_lines_with_each_others_numbers_keep_the_written_order_when_it_explains_the_record():
    # Each of the two lines is led by the winner of the line written before it: the written
    # order is the order of play; the order of the numbers would need two leads out of turn.
    r = run_cli("check", "--show-games", str(RECORDS / "trick-lines-swapped-written-order-stands-illegal.gwy"))
    assert r.returncode == 1
    assert set(codes(r.stdout)) == {"S008"}
    assert "expected trick 2, found trick 3" in r.stdout
    # And R117's own promise: number order only when it explains more.
    text = run_cli("explain", "R117").stdout
    assert "explain the record" in text and "S008" in text


def test_after_an_unnoticed_play_after_a_tochoo_the_record_decides_where_the_card_went():
    r = run_cli("check", "--show-games", str(RECORDS / "after-tochoo-card-back-unless-the-record-shows-otherwise-illegal.gwy"))
    assert r.returncode == 1
    kept, unseen, joined = games(r.stdout)
    # (a) The count after the next, clean trick fits South keeping 4♥: after trick 4 South
    # holds 10, North 9 + 3 = 12; after trick 5 each has one card less.
    assert codes(kept) == ["M202"] and "South keeps the card" in kept
    assert "hands: North 11, East 8, South 9, West 8" in kept
    # (b) Nothing shows where the card went: docs/rulings.md, ruling 1, it goes back to South.
    assert codes(unseen) == ["M202"] and "South keeps the card" in unseen
    assert "hands: North 11, East 8, South 9, West 8" in unseen
    # (c) The count shows it went with the trick: North picked up four cards.
    assert codes(joined) == ["M202"] and "as if nobody noticed" in joined
    assert "hands: North 12, East 8, South 8, West 8" in joined


def test_legal_while_a_trick_is_played_on_after_a_mistake_follows_the_ordinary_rules():
    r = run_cli("legal", str(RECORDS / "played-on-after-out-of-turn-west-must-follow-illegal.gwy"))
    assert r.returncode == 0  # the record was replayed to its end: legal answers
    out = r.stdout
    assert "any card it holds" not in out
    assert "West: must follow ♦" in out
    # West's hand is known: its diamonds are listed, and nothing else may be played.
    assert "may play: 10♦ 4♦" in out
    assert "a card of another suit is a tochoo: it ends the trick" in out


def test_every_shipped_record_is_in_canonical_form():
    # A club that copies the records with the pre-commit format hook gets a clean first commit.
    r = run_cli("fmt", "--check", str(RECORDS))
    assert r.returncode == 0, r.stdout + r.stderr


def test_live_legal_while_a_trick_is_played_on_after_a_mistake(tmp_path):
    # The same question asked in live: the ordinary rules, West's diamonds listed.
    from test_live import run_live

    f = tmp_path / "on.gwy"
    text = (RECORDS / "played-on-after-out-of-turn-west-must-follow-illegal.gwy").read_text(encoding="utf-8")
    f.write_text(text, encoding="utf-8")
    r = run_live(str(f), input="legal\nwho leads\n")
    answers = [line for line in r.stdout.splitlines() if line.startswith("Trick 2 goes on")]
    assert answers, r.stdout
    legal = answers[0]
    assert "West to play, and must follow ♦" in legal
    assert "West may play 10♦ 4♦" in legal
