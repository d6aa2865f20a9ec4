"""Issue 40 in the terminal: what ``simulate`` says when it is done or refuses, the hint of
``serve``'s missing extra and the note of a record put back after a kill, in the language
chosen (``--lang``), and English when none is chosen (``serve``'s own lines:
test_i18n_serve_terminal.py).

Each command runs as the user runs it, as a subprocess. Every sentence expected is the
catalogue's, asked of the language layer in Hindi (test_i18n_refusals.py's ``hi``), never a
translation written here; what stays as written inside them (paths, codes, seat names,
options) is checked too.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, run_cli
from test_i18n_refusals import HINDI, hi, hi_n
from test_torn_records import gwy, torn  # noqa: F401 (torn: a record a kill -9 left half written)

from referee.engine.language import speaking
from referee.engine.rules import PRESETS
from referee.players.bots import SimStats, seat_names
from referee.selfplay.simulate import parse_bots, write_file

# ---- serve without its extra ----------------------------------------------------------------------


def test_without_the_serve_extra_the_hint_is_in_hindi(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['uvicorn'] = None; "
            "sys.argv = ['getaway-ref', '--lang', 'hi', 'serve', sys.argv[1]]; from referee.cli import main; main()")
    r = subprocess.run([sys.executable, "-c", code, str(tmp_path / "t.gwy")], capture_output=True, text=True,
                       cwd=str(ROOT), timeout=120)
    assert r.returncode == 2
    assert r.stderr == "error: " + hi("{what} needs the serve extra: pip install 'getaway-ref[serve]'",
                                      what="serve") + "\n"
    assert not (tmp_path / "t.gwy").exists()


# ---- simulate ------------------------------------------------------------------------------------


SIM = ["simulate", "--players", "3", "--games", "3", "--seed", "5", "--mistakes", "0.2"]


def _stats() -> SimStats:
    """The same games played here: their counts, for the summary expected."""
    return write_file(io.StringIO(), 3, 3, 5, PRESETS["pagat"], parse_bots((), 3), 0.2)


def test_simulate_says_its_summary_and_its_refusal_in_hindi(tmp_path: Path) -> None:
    out = tmp_path / "sim.gwy"
    r = run_cli(*SIM, "-o", str(out), "--lang", HINDI)
    assert r.returncode == 0, r.stderr
    stats = _stats()
    with speaking(HINDI):
        summary = stats.summary(seat_names(3))
    lines = r.stderr.splitlines()
    assert lines == [*summary.split("\n"), hi("wrote {file}", file=out)]
    # the counts, each counted in Hindi, in the catalogue's sentence; the seats as named
    assert lines[0].startswith(hi(
        "simulated {games}, {plays}, {tricks}, {takes}, {draws} ({waste} from the waste pile, {hand} from a hand), "
        "{mistakes}", games="\x00", plays="", tricks="", takes="", draws="", waste="", hand="",
        mistakes="").split("\x00")[0])
    assert hi_n("{n} game", "{n} games", 3) in lines[0] and stats.mistakes
    assert hi_n("{n} mistake", "{n} mistakes", sum(stats.mistakes.values())) in lines[0]
    assert all(code in lines[0] for code in stats.mistakes)
    assert lines[1].startswith(hi("losers: {seats}", seats="")) and all(s in lines[1] for s in seat_names(3))
    for english in ("simulated", "games", "plays", "losers", "wrote"):
        assert english not in r.stderr
    # asked again: the record is there, kept, and the refusal is in Hindi (exit 2)
    before = out.read_bytes()
    again = run_cli(*SIM, "-o", str(out), "--lang", HINDI)
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr == "error: " + hi("{file} exists; give --force to replace it", file=out) + "\n"
    assert out.read_bytes() == before


def test_simulate_says_english_when_no_language_is_chosen(tmp_path: Path) -> None:
    out = tmp_path / "sim.gwy"
    r = run_cli(*SIM, "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stderr.splitlines() == [*_stats().summary(seat_names(3)).split("\n"), f"wrote {out}"]
    assert r.stderr.startswith("simulated 3 games, ") and "\nlosers: Anil " in r.stderr
    again = run_cli(*SIM, "-o", str(out))
    assert again.returncode == 2 and again.stderr == f"error: {out} exists; give --force to replace it\n"


# ---- a record put back after a kill --------------------------------------------------------------


def test_the_note_of_a_record_put_back_is_in_hindi(torn: Path) -> None:  # noqa: F811 (the fixture)
    # (a report for people: with --format json the whole run speaks English, notes included)
    got = gwy("check", "rec.gwy", "--lang", HINDI, cwd=torn)
    notes = [line for line in got.stderr.splitlines() if line.startswith("note: ")]
    assert notes == ["note: " + hi("{file}: a rewrite cut short had left it half written; restored as it was "
                                   "before", file=(torn / "rec.gwy").resolve())], got.stderr
    assert got.returncode in (0, 1), got.stderr  # the record, put back, was checked
    assert not (torn / ".rec.gwy.getaway-ref-journal").exists()




def test_a_file_that_cannot_be_written_is_said_in_hindi(tmp_path: Path) -> None:
    out = tmp_path / "missing" / "sim.gwy"
    r = run_cli(*SIM, "-o", str(out), "--lang", HINDI)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"error: {out}: " + hi("no such directory: {dir}", dir=out.parent) + "\n"
    assert not out.parent.exists()


def test_simulate_refuses_a_bot_and_a_table_it_cannot_seat_in_hindi() -> None:
    from referee.players.bots import BOTS, SEARCH_BOTS

    r = run_cli("simulate", "--bot", "North=nobody", "--lang", HINDI)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == "error: " + hi("{option}: the bots are {bots} ({form}: N samples a choice)",
                                      option="--bot North=nobody", bots=", ".join(BOTS + SEARCH_BOTS),
                                      form="pimc:N") + "\n"
    r = run_cli("simulate", "--bot", "Zed=random", "--lang", HINDI)
    assert r.returncode == 2
    assert r.stderr == "error: " + hi("{option}: no seat '{seat}' (the seats are {seats})", option="--bot Zed=random",
                                      seat="Zed", seats=", ".join(seat_names(4))) + "\n"
    most = PRESETS["pagat"].most_seats
    r = run_cli("simulate", "--players", str(most + 1), "--lang", HINDI)
    assert r.returncode == 2
    assert r.stderr == "error: " + hi("a game has 2 to {most} players with 1 pack, not {players} (more than {most} "
                                      "need a double pack: {option})", most=most, players=most + 1,
                                      option="packs=2") + "\n"


def test_simulates_bar_on_a_terminal_is_labelled_in_hindi(tmp_path: Path) -> None:
    from test_shell import ENV, with_terminal_stderr

    with open(tmp_path / "s.gwy", "wb") as f:  # the bar shows for more than 200 games, on a terminal
        code, _out, screen = with_terminal_stderr(["simulate", "--games", "201", "--seed", "3", "--lang", HINDI], f,
                                                  ENV)
    assert code == 0
    shown = screen.decode("utf-8", "replace")
    assert hi("simulating") in shown and "simulating" not in shown
