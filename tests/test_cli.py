"""The command line as a user runs it (a subprocess): exit codes 0 clean, 1 found, 2 usage or
I/O error; no Python traceback for any input; JSON that matches the published models; fmt
that changes files only when asked, and then atomically."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys

import pytest
from conftest import RECORDS, run_cli

import referee
from referee.engine.rules import OPTIONS
from referee.notation.reader import parse_file_text as _parse_file_text
from referee.reports.export import RecordFile
from referee.reports.report import Report

PAGAT = RECORDS / "pagat-example.gwy"

CLEAN = '%gwy 1\n%game\n[Seats "A B"]\ndeal\nA 26\nB 26\n1. A A♠, B 2♠\n'


def run_cli_within(seconds: float, *args: str) -> subprocess.CompletedProcess:
    """run_cli with a short time limit: a hang is a failure, and the process group we started
    (with any pool workers) is killed, not left behind."""
    from conftest import ROOT

    proc = subprocess.Popen([sys.executable, "-m", "referee", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=str(ROOT), start_new_session=True)
    try:
        out, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"getaway-ref {' '.join(args)} did not finish in {seconds} s; stderr: {err[-2000:]}")
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def output(r) -> str:
    return r.stdout + r.stderr


def assert_no_traceback(r):
    assert "Traceback" not in output(r), output(r)[-3000:]


def write(path, text: str):
    path.write_text(text, encoding="utf-8", newline="")
    return path


# ---- check ---------------------------------------------------------------------------------------


def test_check_pagat_example_is_clean():
    r = run_cli("check", str(PAGAT))
    assert r.returncode == 0, output(r)
    assert "no errors" in r.stdout
    assert_no_traceback(r)


def test_check_a_record_with_a_wrong_count_exits_1(tmp_path):
    # After trick 1 every player has played one card from 13: 12 each, not 13.
    text = PAGAT.read_text(encoding="utf-8").replace(
        "2. West 5♥", "counts North 13\n2. West 5♥", 1)
    p = write(tmp_path / "count.gwy", text)
    r = run_cli("check", str(p))
    assert r.returncode == 1, output(r)
    assert "R111" in r.stdout
    assert f"{p}:" in r.stdout
    assert_no_traceback(r)


def test_check_a_record_with_a_syntax_error_exits_1(tmp_path):
    p = write(tmp_path / "typo.gwy", CLEAN.replace("B 2♠", "B QX"))
    r = run_cli("check", str(p))
    assert r.returncode == 1
    assert "S002" in r.stdout and "'QX'" in r.stdout
    assert f"{p}:7:" in r.stdout  # path:line of the card
    assert_no_traceback(r)


def test_check_a_directory_recursively(tmp_path):
    write(tmp_path / "a.gwy", CLEAN)
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "b.gwy", CLEAN)
    write(tmp_path / "notes.txt", "not a record")
    r = run_cli("check", str(tmp_path))
    assert r.returncode == 0, output(r)
    assert "2 files, 2 games" in r.stdout


def test_check_missing_file_exits_2(tmp_path):
    r = run_cli("check", str(tmp_path / "nope.gwy"))
    assert r.returncode == 2
    assert "nope.gwy" in output(r)
    assert_no_traceback(r)


def test_check_directory_without_records_exits_2(tmp_path):
    (tmp_path / "empty").mkdir()
    write(tmp_path / "empty" / "readme.txt", "hello")
    r = run_cli("check", str(tmp_path / "empty"))
    assert r.returncode == 2
    assert "no .gwy records" in output(r)
    assert_no_traceback(r)


def _non_utf8(tmp_path):
    """A record with a Latin-1 'é' in a comment: the byte offset is that of the 0xE9 byte."""
    prefix = CLEAN.encode("utf-8") + b"# caf"
    p = tmp_path / "latin1.gwy"
    p.write_bytes(prefix + b"\xe9\n")
    return p, len(prefix)


@pytest.mark.parametrize("command", ["check", "fmt", "export"])
def test_non_utf8_file_exits_2_and_names_the_byte_offset(tmp_path, command):
    p, offset = _non_utf8(tmp_path)
    r = run_cli(command, str(p))
    assert r.returncode == 2, output(r)
    assert f"byte offset {offset}" in output(r)
    assert "UTF-8" in output(r)
    assert_no_traceback(r)


@pytest.mark.parametrize("args, words", [
    (["--set", "taking=maybe"], ["taking", "yes or no", "maybe"]),
    (["--set", "trump=yes"], ["trump=yes", *OPTIONS]),
    (["--set", "taking"], ["taking"]),
    (["--rules", "thulla"], ["thulla", "pagat", "denexa", "donkey"]),
    (["--rules", "pagat packs=3"], ["packs", "1 or 2"]),
])
def test_bad_rule_options_exit_2(args, words):
    r = run_cli("check", *args, str(PAGAT))
    assert r.returncode == 2, output(r)
    for w in words:
        assert w in output(r)
    assert_no_traceback(r)


def test_rules_file_options(tmp_path):
    good = write(tmp_path / "house.toml", 'preset = "pagat"\ntaking = false\n')
    r = run_cli("check", "--rules-file", str(good), str(PAGAT))
    assert r.returncode == 0, output(r)
    bad = write(tmp_path / "bad.toml", 'preset = "pagat"\ntacking = false\n')
    r = run_cli("check", "--rules-file", str(bad), str(PAGAT))
    assert r.returncode == 2 and "tacking" in output(r)
    assert_no_traceback(r)
    r = run_cli("check", "--rules-file", str(tmp_path / "missing.toml"), str(PAGAT))
    assert r.returncode == 2
    assert_no_traceback(r)


def test_set_overrides_the_rules_of_every_game():
    # The example has no takes, so it stays clean without taking; the summary names the
    # rule set the game was judged by.
    r = run_cli("check", "--show-games", "--set", "taking=no", str(PAGAT))
    assert r.returncode == 0, output(r)
    assert "pagat taking=no" in r.stdout


# ---- JSON report ---------------------------------------------------------------------------------------


def test_check_json_report_validates(tmp_path):
    bad = write(tmp_path / "typo.gwy", CLEAN.replace("B 2♠", "B QX"))
    r = run_cli("check", "--format", "json", str(PAGAT), str(bad))
    assert r.returncode == 1
    report = Report.model_validate_json(r.stdout)
    assert report.tool == "getaway-ref"
    assert [f.path for f in report.files] == [str(PAGAT), str(bad)]
    clean, broken = report.files
    assert clean.readable and clean.games[0].errors == 0
    assert clean.games[0].seats == ["North", "East", "South", "West"]
    assert clean.games[0].tricks == 6
    assert broken.games[0].errors == 1
    (d,) = broken.games[0].diagnostics
    assert d.code == "S002" and d.severity == "error"
    assert d.location.line == 7
    assert bad.read_text(encoding="utf-8")[d.location.offset:d.location.end] == "QX"
    assert report.counts.errors == 1 and report.counts.mistakes == 0
    assert report.games == 2
    assert_no_traceback(r)


def test_check_json_report_for_an_unreadable_file(tmp_path):
    p, offset = _non_utf8(tmp_path)
    r = run_cli("check", "-f", "json", str(p))
    assert r.returncode == 2
    report = Report.model_validate_json(r.stdout)
    (f,) = report.files
    assert f.readable is False
    assert f"byte offset {offset}" in f.problem


# ---- fmt -------------------------------------------------------------------------------------------------


ASCII = '%gwy 1\n%game\n[Seats "A B"]\ndeal\nA 26\nB 26\n1. a as b 2s  #x\n'
CANON = '%gwy 1\n\n%game\n[Seats "A B"]\ndeal\nA 26\nB 26\n1. A A♠, B 2♠  # x\n'


def test_fmt_prints_the_canonical_form_and_changes_nothing(tmp_path):
    p = write(tmp_path / "a.gwy", ASCII)
    before = os.stat(p)
    r = run_cli("fmt", str(p))
    assert r.returncode == 0, output(r)
    assert r.stdout == CANON
    assert p.read_text(encoding="utf-8") == ASCII
    assert os.stat(p).st_mtime_ns == before.st_mtime_ns


def test_fmt_check(tmp_path):
    messy = write(tmp_path / "messy.gwy", ASCII)
    tidy = write(tmp_path / "tidy.gwy", CANON)
    r = run_cli("fmt", "--check", str(messy))
    assert r.returncode == 1
    assert "messy.gwy" in output(r)
    assert messy.read_text(encoding="utf-8") == ASCII  # --check changes nothing
    r = run_cli("fmt", "--check", str(tidy))
    assert r.returncode == 0, output(r)
    r = run_cli("fmt", "--check", str(tidy), str(messy))
    assert r.returncode == 1


def test_fmt_write_rewrites_atomically(tmp_path):
    p = write(tmp_path / "a.gwy", ASCII)
    os.chmod(p, 0o640)
    inode = os.stat(p).st_ino
    r = run_cli("fmt", "--write", str(p))
    assert r.returncode == 0, output(r)
    assert p.read_text(encoding="utf-8") == CANON
    st = os.stat(p)
    assert st.st_ino != inode  # a new file renamed over the old one, not rewritten in place
    assert st.st_mode & 0o777 == 0o640
    assert sorted(x.name for x in tmp_path.iterdir()) == ["a.gwy"]  # no temporary file left
    # already canonical: not touched again
    mtime = os.stat(p).st_mtime_ns
    r = run_cli("fmt", "--write", str(p))
    assert r.returncode == 0
    assert os.stat(p).st_mtime_ns == mtime and os.stat(p).st_ino == st.st_ino


def test_fmt_write_leaves_a_record_with_syntax_errors_untouched(tmp_path):
    text = ASCII.replace("b 2s", "b QX") + "counts A\n"
    p = write(tmp_path / "broken.gwy", text)
    raw = p.read_bytes()
    r = run_cli("fmt", "--write", str(p))
    assert r.returncode == 1
    assert "not formatted" in output(r)
    assert "S002" in output(r)
    assert p.read_bytes() == raw
    assert sorted(x.name for x in tmp_path.iterdir()) == ["broken.gwy"]
    assert_no_traceback(r)


def test_fmt_check_and_write_together_is_a_usage_error(tmp_path):
    p = write(tmp_path / "a.gwy", ASCII)
    r = run_cli("fmt", "--check", "--write", str(p))
    assert r.returncode == 2
    assert p.read_text(encoding="utf-8") == ASCII


def test_fmt_missing_file_exits_2(tmp_path):
    r = run_cli("fmt", str(tmp_path / "nope.gwy"))
    assert r.returncode == 2
    assert "no such file" in output(r)
    assert_no_traceback(r)


# ---- export ----------------------------------------------------------------------------------------------


def test_export_validates_against_the_record_model():
    r = run_cli("export", str(PAGAT))
    assert r.returncode == 0, output(r)
    doc = RecordFile.model_validate_json(r.stdout)
    (g,) = doc.games
    assert g.seats == ["North", "East", "South", "West"]
    first = g.actions[0]
    assert first.kind == "trick" and [p.card for p in first.plays] == ["A♠", "J♠", "A♥", "10♠"]
    assert first.comment == "East has no spades"


def test_export_keeps_trick_lines_where_they_are_written():
    # Trick 3 is written before trick 2 (docs/rulings.md, ruling 10): the export is the record
    # as written, each line at its place in the text, not the number order the replay weighs.
    record = RECORDS / "trick-lines-swapped-written-order-stands-illegal.gwy"
    lines = record.read_text(encoding="utf-8").splitlines()
    r = run_cli("export", str(record))
    doc = RecordFile.model_validate_json(r.stdout)
    tricks = [a for a in doc.games[0].actions if a.kind == "trick"]
    assert [t.number for t in tricks] == [1, 3, 2, 4]
    assert [t.at.line for t in tricks] == sorted(t.at.line for t in tricks)
    for t in tricks:
        assert lines[t.at.line - 1].startswith(f"{t.number}. ")


def test_export_of_a_broken_record_exits_1(tmp_path):
    p = write(tmp_path / "typo.gwy", CLEAN.replace("B 2♠", "B QX"))
    r = run_cli("export", str(p))
    assert r.returncode == 1
    doc = RecordFile.model_validate_json(r.stdout)
    assert doc.games[0].errors == 1
    assert doc.games[0].actions[0].plays[1].card == "?"


# ---- explain and rules -------------------------------------------------------------------------------------


def test_explain_a_code():
    r = run_cli("explain", "M201")
    assert r.returncode == 0, output(r)
    code = referee.CODES["M201"]
    assert "M201" in r.stdout and code.title in r.stdout  # "renege"
    assert " ".join(code.explanation.split()) in " ".join(r.stdout.split())
    assert run_cli("explain", "m201").stdout == r.stdout


def test_explain_an_unknown_code_exits_2():
    r = run_cli("explain", "Z999")
    assert r.returncode == 2
    assert "unknown code 'Z999'" in output(r)
    assert "M201" in output(r)  # lists the codes there are
    assert_no_traceback(r)


def test_rules_lists_presets_and_every_option():
    r = run_cli("rules")
    assert r.returncode == 0, output(r)
    for preset in ("pagat", "denexa", "donkey"):
        assert preset in r.stdout
    for option in ["direction", "last_card", "draw_from", "taking", "deal", "packs", "trumps", "first_trick", "two_players"]:
        assert option in r.stdout


def test_rules_donkey_shows_trumps():
    r = run_cli("rules", "donkey")
    assert r.returncode == 0, output(r)
    lines = [" ".join(line.split()) for line in r.stdout.splitlines()]
    assert "trumps = yes" in lines
    assert "taking = yes" in lines
    r = run_cli("rules", "pagat")
    assert "trumps = no" in [" ".join(line.split()) for line in r.stdout.splitlines()]


def test_rules_json_and_unknown_preset():
    r = run_cli("rules", "--format", "json")
    data = json.loads(r.stdout)
    assert set(data["presets"]) == {"pagat", "denexa", "donkey"}
    assert data["presets"]["donkey"]["trumps"] is True
    assert set(data["options"]) == set(OPTIONS)
    r = run_cli("rules", "thulla")
    assert r.returncode == 2
    assert "pagat" in output(r)
    assert_no_traceback(r)


# ---- no traceback, whatever the input -------------------------------------------------------------------


def _fuzz_corpus(directory, n=120, seed=20240503):
    """Malformed records: truncations, mutations, junk bytes, binary files."""
    rnd = random.Random(seed)
    base = PAGAT.read_text(encoding="utf-8") + (
        '%game  # a position\n[Seats "A B C"]\n[Rules "pagat packs=2"]\nposition\n'
        "A AKQ.T92..J43\nB 5\nC out\nwaste rest\nlead A\ntrick 4\n4. A A♠*, B 2S\n4. C 3S\n"
        "A takes B\nB draws 7D from C\ncounts A 3, B 4\n"
    )
    pieces = ["%game", "%gwy 2", "deal", "position", "takes", "draws", "from", "out", "rest", "counts",
              "waste", "lead", "trick", '[Seats "X Y"]', '[Rules "bogus"]', '[Result "Q 9"]', '[Dealer "Z"]',
              "99999999999999999999999.", "1.", "A♠*", "♠", "#", "\r", "\t", ",", '"', "[", "]", "\\", "\x00",
              "\ufeff", "*", ".", "..", "-", "0", "10"]
    files = []
    for i in range(n):
        kind = i % 6
        if kind == 0:  # truncated
            data = base[: rnd.randrange(len(base))].encode("utf-8")
        elif kind in (1, 2, 3):  # mutated text
            s = base
            for _ in range(rnd.randint(1, 8)):
                j = rnd.randrange(len(s) + 1)
                op = rnd.random()
                if op < 0.5:
                    s = s[:j] + rnd.choice(pieces) + s[j:]
                elif op < 0.8:
                    s = s[:j] + s[j + rnd.randint(1, 12):]
                else:
                    k = rnd.randrange(len(s) + 1)
                    s = s[:j] + s[k:k + 30] + s[j:]
            data = s.encode("utf-8")
        elif kind == 4:  # junk that is valid UTF-8
            data = "".join(rnd.choice("%game\n#[]\". ,AKQJT98765432SHDC♠♥♦♣*-\t\rdealtakes") for _ in range(rnd.randint(0, 300))).encode()
        else:  # binary junk
            data = bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 300)))
            if i % 12 == 5:
                data = b"%gwy 1\n%game\n" + data
        p = directory / f"fuzz{i:03}.gwy"
        p.write_bytes(data)
        files.append(p)
    # a few fixed shapes
    extra = {
        "empty.gwy": b"",
        "bom-only.gwy": b"\xef\xbb\xbf",
        "only-game.gwy": b"%game\n",
        "nul.gwy": b"%gwy 1\n%game\x00\n",
        "long-line.gwy": b"%gwy 1\n%game\n" + b"A" * 100_000 + b"\n",
        "many-games.gwy": b"%gwy 1\n" + b"%game\n" * 500,
        "deal-no-hands.gwy": b"%gwy 1\n%game\ndeal\n",
        "huge-numbers.gwy": "%gwy 1\n%game\n[Seats \"A B\"]\ndeal\nA 99999999999999999999\nB 0\n1. A A♠\ncounts A 99999999999999999999999\n".encode(),
        "crlf.gwy": CLEAN.replace("\n", "\r\n").encode(),
        "lone-cr.gwy": CLEAN.replace("\n", "\r").encode(),
    }
    for name, data in extra.items():
        p = directory / name
        p.write_bytes(data)
        files.append(p)
    return files


# a [Seats] tag after the deal: see test_misplaced_seats_tag_does_not_crash
KNOWN_CRASH = "IndexError: tuple index out of range (in _check_setup)"


def _crash_in_process(data: bytes) -> str | None:
    """Read, judge, format and export in this process; the exception, if any, as one line."""
    from referee.archive.check import GameOutcome
    from referee.judging.referee import Referee
    from referee.notation.format import format_file
    from referee.notation.reader import parse_file_text as _parse_file_text
    from referee.reports.export import record_file
    from referee.reports.render import diagnostic_text
    from referee.reports.report import GameSummary

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None  # the command refuses it with exit 2 before reading
    try:
        pre, games = _parse_file_text(text.lstrip("\ufeff"))
        ref = Referee()
        for g in games:
            result = ref.judge(g)
            GameSummary.of(GameOutcome.of(result))
            for d in result.diagnostics:
                diagnostic_text(d)
        format_file(pre, games)
        record_file("x", pre, games).model_dump_json()
    except Exception as e:
        import traceback

        where = traceback.extract_tb(e.__traceback__)[-1].name
        return f"{type(e).__name__}: {e} (in {where})"
    return None


@pytest.fixture(scope="module")
def fuzz_corpus(tmp_path_factory):
    """The corpus, split: inputs the library handles, and inputs it raises on (each of those
    is tested on its own, so one crash does not hide the rest of the corpus)."""
    d = tmp_path_factory.mktemp("fuzz")
    crashers = tmp_path_factory.mktemp("crashers")
    for p in _fuzz_corpus(d):
        crash = _crash_in_process(p.read_bytes())
        if crash is not None:
            p.rename(crashers / p.name)
    return d, crashers


@pytest.fixture(scope="module")
def fuzz_dir(fuzz_corpus):
    return fuzz_corpus[0]


@pytest.mark.parametrize("args", [
    ["check"],
    ["check", "--format", "json"],
])
def test_check_never_shows_a_traceback(fuzz_dir, args):
    r = run_cli_within(120, *args, str(fuzz_dir))
    assert_no_traceback(r)
    assert r.returncode in (1, 2), output(r)[-2000:]
    if "json" in args:
        report = Report.model_validate_json(r.stdout)
        assert len(report.files) == len(list(fuzz_dir.glob("*.gwy")))


def test_check_in_parallel_never_shows_a_traceback(fuzz_dir, tmp_path):
    """--jobs 2 over the UTF-8 part of the corpus (a non-UTF-8 file under --jobs: see
    test_parallel_check_of_a_non_utf8_file)."""
    utf8 = tmp_path / "utf8"
    utf8.mkdir()
    for p in fuzz_dir.glob("*.gwy"):
        try:
            p.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        (utf8 / p.name).write_bytes(p.read_bytes())
    serial = run_cli_within(120, "check", "--format", "json", str(utf8))
    parallel = run_cli_within(120, "check", "--format", "json", "--jobs", "2", str(utf8))
    assert_no_traceback(parallel)
    assert parallel.returncode == serial.returncode == 1
    # the same findings, in the same order
    assert Report.model_validate_json(parallel.stdout) == Report.model_validate_json(serial.stdout)


def test_parallel_check_of_a_non_utf8_file(tmp_path):
    p, offset = _non_utf8(tmp_path)
    r = run_cli_within(8, "check", "--jobs", "2", str(p))
    assert r.returncode == 2
    assert f"byte offset {offset}" in output(r)
    assert_no_traceback(r)


def test_inputs_the_library_raises_on(fuzz_corpus):
    """Every input the library raised on must still give a diagnostic, not a traceback."""
    _, crashers = fuzz_corpus
    found = []
    for p in sorted(crashers.iterdir()):
        crash = _crash_in_process(p.read_bytes())
        r = run_cli("check", str(p))
        if "Traceback" in output(r):
            found.append((p.name, crash))
    assert found == []


def test_fmt_never_shows_a_traceback_and_never_writes_a_broken_file(fuzz_dir, tmp_path):
    import shutil

    work = tmp_path / "w"
    shutil.copytree(fuzz_dir, work)
    files = sorted(work.glob("*.gwy"))
    before = {p.name: p.read_bytes() for p in files}
    r = run_cli("fmt", "--check", *map(str, files))
    assert_no_traceback(r)
    assert r.returncode in (1, 2)
    r = run_cli("fmt", "--write", *map(str, files))
    assert_no_traceback(r)
    changed = [p for p in files if p.read_bytes() != before[p.name]]
    for p in changed:
        # only files that read without errors are rewritten, and then to canonical form
        pre, games = _parse_file_text(before[p.name].decode("utf-8").lstrip("\ufeff"))
        assert not pre.errors and not any(g.errors for g in games), p.name
        new = p.read_text(encoding="utf-8")
        pre2, games2 = _parse_file_text(new)
        assert not pre2.errors and not any(g.errors for g in games2), p.name
        assert referee.format_file(pre2, games2) == new
        # (that the rewritten games equal the originals is test_format's property; an
        # empty end-of-line comment is the one known exception, see there)
    assert sorted(x.name for x in work.iterdir()) == sorted(before)  # no temporary files left


@pytest.mark.parametrize("name", ["fuzz000.gwy", "fuzz001.gwy", "fuzz005.gwy", "many-games.gwy", "huge-numbers.gwy",
                                  "nul.gwy", "bom-only.gwy"])
def test_export_never_shows_a_traceback(fuzz_dir, name):
    if not (fuzz_dir / name).exists():
        pytest.skip("the library raises on this input: see test_inputs_the_library_raises_on")
    r = run_cli("export", str(fuzz_dir / name))
    assert_no_traceback(r)
    assert r.returncode in (0, 1, 2)
    if r.returncode in (0, 1):
        RecordFile.model_validate_json(r.stdout)


@pytest.mark.parametrize("text", [
    # a [Seats] tag after a deal that named the seats by its lines
    '%gwy 1\n%game\ndeal\nNorth 13\nSouth 13\n[Seats "North"]\n',
])
def test_misplaced_seats_tag_does_not_crash(tmp_path, text):
    p = write(tmp_path / "late-seats.gwy", text)
    r = run_cli("check", str(p))
    assert_no_traceback(r)
    assert r.returncode == 1
    assert "S009" in r.stdout  # a tag after the deal is out of place


def test_usage_errors_exit_2():
    r = run_cli("check")
    assert r.returncode == 2
    r = run_cli("frobnicate")
    assert r.returncode == 2
    assert_no_traceback(r)


def test_every_command_is_registered_and_has_help():
    """A broken command module must not break the others: --help lists them all."""
    r = run_cli("--help")
    assert r.returncode == 0, r.stderr
    for name in ("check", "fmt", "export", "schema", "explain", "rules", "simulate", "show", "legal", "tally", "live"):
        assert name in r.stdout, name
        sub = run_cli(name, "--help")
        assert sub.returncode == 0 and "Usage" in sub.stdout, (name, sub.stderr)


def test_check_progress_bar_only_on_a_terminal(tmp_path):
    """A long check shows a progress bar on stderr when stderr is a terminal, and never in
    a pipe (so logs and JSON stay clean)."""
    import pty
    import subprocess
    import sys

    big = tmp_path / "big.gwy"
    from conftest import ROOT

    big.write_text((ROOT / "records" / "series.gwy").read_text(encoding="utf-8"), encoding="utf-8")
    env = dict(os.environ, GETAWAY_PROGRESS_BYTES="1", COLUMNS="100")
    piped = subprocess.run([sys.executable, "-m", "referee", "check", "-q", str(big)], capture_output=True,
                           text=True, env=env, cwd=str(ROOT))
    assert piped.returncode == 0 and "checking" not in piped.stderr
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "referee", "check", "-q", str(big)], stdout=subprocess.PIPE,
                            stderr=slave, env=env, cwd=str(ROOT))
    os.close(slave)
    out, _ = proc.communicate(timeout=120)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    assert proc.returncode == 0
    assert b"checking" in seen
    assert b"checking" not in out and b"5 games" in out


def test_parallel_check_reports_exactly_what_the_streaming_reader_finds(tmp_path):
    """check cuts a file into slices for its worker processes: every diagnostic must keep
    its game number, line, column and offset, whatever the slicing and the job count."""
    from conftest import ROOT

    import referee

    parts = ["%gwy 1\n# résumé: accents shift characters against bytes\n"]
    sources = ["series.gwy", "simulated-mistakes-illegal.gwy", "dispute-unseen-void.gwy", "donkey.gwy"]
    for name in sources * 3:
        text = (ROOT / "records" / name).read_text(encoding="utf-8")
        parts.append("\n" + text[text.index("%game"):])
    parts.append("\n%game\n[Seats \"A B\"]\ndeal\nA 26\nB 26\n1. A QX\n")  # a syntax error at the end
    big = tmp_path / "many.gwy"
    big.write_text("".join(parts), encoding="utf-8")

    want = []
    games = referee.read(big)
    for g in games:
        for d in referee.Referee().judge(g).diagnostics:
            want.append((d.code, d.game, d.span.line, d.span.col, d.span.start))
    assert len(want) > 5

    env = dict(os.environ, GETAWAY_RANGE_BYTES="3000")
    for jobs in ("1", "2"):
        r = subprocess.run([sys.executable, "-m", "referee", "check", "--format", "json", "--jobs", jobs, str(big)],
                           capture_output=True, text=True, env=env, cwd=str(ROOT))
        assert r.returncode == 1, r.stderr
        rep = json.loads(r.stdout)
        got = [(d["code"], d["game"], d["location"]["line"], d["location"]["column"], d["location"]["offset"])
               for g in rep["files"][0]["games"] for d in g["diagnostics"]]
        assert got == want, jobs
        assert [g["game"] for g in rep["files"][0]["games"]] == list(range(1, len(rep["files"][0]["games"]) + 1))
