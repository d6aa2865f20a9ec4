"""The commands as a Unix tool is judged (issue 24): a progress bar that never takes standard
output, one behaviour on a closed pipe for every command, help that reads as prose, counts
that are true, and settings found per file as ruff finds them (issue 22, item 6).

Terminal behaviour is tested through a real pseudo-terminal, pipes through real pipes."""

from __future__ import annotations

import json
import os
import pty
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import DATA, RECORDS, ROOT, run_cli

RENEGE = RECORDS / "dispute-renege-illegal.gwy"  # one M201, penalised
CLEAN = RECORDS / "pagat-example.gwy"
DATA_INVALID = DATA / "invalid"
ENV = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "COLUMNS")}


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Simulated games, some with table mistakes: enough for simulate's and check's bars."""
    path = tmp_path_factory.mktemp("archive") / "archive.gwy"
    r = run_cli("simulate", "--games", "300", "--mistakes", "0.02", "--seed", "7", "-o", str(path))
    assert r.returncode == 0, r.stderr
    return path


def with_terminal_stderr(args: list[str], stdout: int | object, env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """Run ``getaway-ref ARGS`` with standard error a pseudo-terminal and standard output
    ``stdout`` (a pipe, or an open file); (exit code, what stdout's pipe got, what the
    terminal showed)."""
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "referee", *args], stdin=subprocess.DEVNULL, stdout=stdout,
                         stderr=slave, cwd=ROOT, env=env)
    os.close(slave)
    screen = bytearray()

    def drain() -> None:
        while True:
            try:
                block = os.read(master, 1 << 16)
            except OSError:  # EIO: the last writer closed the terminal
                return
            if not block:
                return
            screen.extend(block)

    reader = threading.Thread(target=drain)
    reader.start()
    out = p.stdout.read() if p.stdout is not None else b""
    code = p.wait(timeout=600)
    reader.join(timeout=60)
    os.close(master)
    return code, out, bytes(screen)


# ---- 1. a progress bar never takes standard output ------------------------------------------------------


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("into", ["pipe", "file"])
def test_checks_report_goes_where_it_was_sent_while_the_bar_is_on_the_terminal(archive, tmp_path, jobs, into):
    args = ["check", "--jobs", jobs, str(archive)]
    env = {**ENV, "GETAWAY_PROGRESS_BYTES": "1000"}  # the archive is small; its bar is asked for
    want = subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, cwd=ROOT, env=env)
    assert want.returncode == 1 and b"mistake[M" in want.stdout  # the archive has mistakes to report
    if into == "pipe":
        code, got, screen = with_terminal_stderr(args, subprocess.PIPE, env)
    else:
        with open(tmp_path / "report.txt", "wb") as f:
            code, _, screen = with_terminal_stderr(args, f, env)
        got = (tmp_path / "report.txt").read_bytes()
    assert code == 1
    assert got == want.stdout  # every byte of the report, none on the screen
    assert b"checking" in screen  # the bar was shown, on the terminal
    assert b"mistake[M" not in screen and b"checked 1 file" not in screen


def test_on_one_terminal_the_report_is_shown_with_the_bar(archive):
    # Both standard output and standard error the terminal: the report is printed on it (above
    # the bar, which rich takes away at the end), every problem and the summary line.
    env = {**ENV, "GETAWAY_PROGRESS_BYTES": "1000", "COLUMNS": "200"}
    want = subprocess.run([sys.executable, "-m", "referee", "check", str(archive)], capture_output=True, text=True,
                          cwd=ROOT, env=env)
    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "referee", "check", str(archive)], stdin=subprocess.DEVNULL,
                         stdout=slave, stderr=slave, cwd=ROOT, env=env)
    os.close(slave)
    screen = bytearray()
    while True:
        try:
            block = os.read(master, 1 << 16)
        except OSError:
            break
        if not block:
            break
        screen.extend(block)
    assert p.wait(timeout=600) == 1
    os.close(master)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", screen.decode("utf-8", "replace"))
    assert want.stdout.splitlines()[-1] in shown  # the summary line
    assert shown.count("mistake[M") == want.stdout.count("mistake[M") > 0


def test_simulates_record_goes_to_its_redirect_while_the_bar_is_on_the_terminal(tmp_path):
    args = ["simulate", "--games", "250", "--seed", "3"]
    want = subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, cwd=ROOT, env=ENV)
    assert want.returncode == 0 and want.stdout.count(b"%game") == 250
    with open(tmp_path / "s.gwy", "wb") as f:
        code, _, screen = with_terminal_stderr(args, f, ENV)
    assert code == 0
    assert (tmp_path / "s.gwy").read_bytes() == want.stdout
    assert b"simulating" in screen and b"%game" not in screen


# ---- 2. a closed pipe: silence and exit 2, for every command ------------------------------------------------

CLOSED_PIPE_COMMANDS = [
    ["check", str(RENEGE)],
    ["check", "--format", "json", str(RENEGE)],
    ["check", "--format", "sarif", str(RENEGE)],
    ["export", str(CLEAN)],
    ["export", "--format", "jsonl", str(CLEAN)],
    ["tally", str(RECORDS)],
    ["tally", "--format", "json", str(RECORDS)],
    ["fmt", str(CLEAN)],
    ["simulate", "--games", "3"],
    ["rules"],
    ["rules", "--rulings"],
    ["rules", "pagat", "--format", "json"],
    ["explain"],
    ["explain", "M201"],
    ["explain", "ruling", "1"],
    ["schema"],
    ["show", str(CLEAN)],
    ["show", "--narrate", str(CLEAN)],
    ["legal", str(CLEAN)],
    ["ask", str(RENEGE), "--trick", "5"],
    ["--version"],
    ["--help"],
    ["check", "--help"],
    ["fmt", "--help"],
]


@pytest.mark.parametrize("args", CLOSED_PIPE_COMMANDS, ids=" ".join)
def test_a_closed_pipe_ends_every_command_silently_with_exit_2(args):
    # The reader is gone before the command writes (as `cmd | head -0` or a reader that
    # quit): the output cannot be delivered. Nothing on standard error, exit 2.
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "referee", *args], stdout=w, stderr=subprocess.PIPE, cwd=ROOT,
                           env=ENV, timeout=300)
    finally:
        os.close(w)
    assert (p.returncode, p.stderr.decode()) == (2, "")


def test_a_closed_pipe_after_the_first_line_of_a_large_output(archive):
    # `check --show-games archive | head -1`: the reader leaves mid-way.
    p = subprocess.Popen([sys.executable, "-m", "referee", "check", "--show-games", str(archive)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=ENV)
    assert p.stdout is not None and p.stderr is not None
    assert p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read()
    assert (p.wait(timeout=300), err) == (2, b"")


def test_html_with_its_message_into_a_closed_pipe(tmp_path):
    record = tmp_path / "game.gwy"
    shutil.copy(CLEAN, record)
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "referee", "html", str(record)], stdout=w, stderr=subprocess.PIPE,
                           cwd=ROOT, env=ENV, timeout=300)
    finally:
        os.close(w)
    assert (p.returncode, p.stderr.decode()) == (2, "")
    assert (tmp_path / "game.html").is_file()  # the page itself was written


# ---- 5. help that reads as prose ---------------------------------------------------------------------


def help_text(*args: str) -> str:
    r = subprocess.run([sys.executable, "-m", "referee", *args, "--help"], capture_output=True, text=True, cwd=ROOT,
                       env={**ENV, "COLUMNS": "80"}, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def _commands() -> list[str]:
    # every command the app registers, so a new one is held to the same help (read, not run)
    from referee.cli import app

    return [c.name or (c.callback.__name__.replace("_", "-") if c.callback else "") for c in app.registered_commands]


COMMANDS = _commands()


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_at_80_columns_reads_as_prose(command):
    text = help_text(*([command] if command else []))
    for line in text.splitlines():
        assert len(line) <= 80, line
    assert "…" not in text and "..." not in text.replace("FILES...", "").replace("COMMAND [ARGS]...", "")
    # no Python types, no typer braces, no click ranges
    for shape in (r"<[a-z\[\] |]+>", r"\{\w+\}", r"\[x[<>]=", r"list\[", r"\bbool\b", r"\bTEXT\b", r"\bINTEGER\b",
                  r"\bPATH\b"):
        assert not re.search(shape, text), (shape, text)
    # a flag has no value named after it
    assert not re.search(r"--(quiet|exit-zero|check|write|diff|narrate|force|comments|rulings)\s+[A-Z<]", text)


def test_every_command_is_listed_whole_in_the_main_help():
    text = help_text()
    for command in COMMANDS:
        assert re.search(rf"^  {command}\s", text, re.M), command
    # the summary of ask is several clauses: it is wrapped, not cut
    words = " ".join(text.split())
    assert "who picks up and who leads next;" in words and "adds the cited detail." in words


@pytest.mark.parametrize("command, usage", [
    ("check", "check [OPTIONS] FILES..."), ("fmt", "fmt [OPTIONS] FILES..."), ("tally", "tally [OPTIONS] FILES..."),
    ("export", "export [OPTIONS] FILE"), ("live", "live [OPTIONS] [FILE]"), ("explain", "explain [OPTIONS] [CODE] [N]"),
])
def test_usage_names_the_arguments_in_words(command, usage):
    assert f"Usage: getaway-ref {usage}\n" in help_text(command)


def test_check_help_names_each_value_once():
    text = help_text("check")
    assert "-f, --output-format, --format FORMAT" in text and "-j, --jobs N" in text
    assert "-q, --quiet " in text or "-q, --quiet\n" in text


def test_a_number_option_below_its_least_is_refused_in_words():
    r = run_cli("export", str(CLEAN), "--game", "0")
    assert r.returncode == 2 and "0 is less than 1; give 1 or more" in r.stderr and "x>=" not in r.stderr


# ---- 4. counts that are true ------------------------------------------------------------------------


def test_a_missing_file_is_unreadable_not_checked(tmp_path):
    r = run_cli("check", str(tmp_path / "nope.gwy"))
    assert r.returncode == 2
    assert r.stdout.splitlines()[-1] == "checked 0 files, 0 games, 0 plays: no errors, 1 unreadable"
    r = run_cli("check", str(tmp_path / "nope.gwy"), str(CLEAN))
    assert r.stdout.splitlines()[-1].startswith("checked 1 file, 1 game, 21 plays: no errors, 1 unreadable")


def test_the_plays_of_a_game_not_judged_are_not_counted(tmp_path):
    text = CLEAN.read_text(encoding="utf-8")
    assert text.count("%game") == 1 and text.count('[Rules "pagat"]') == 1
    head, game = text.split("%game", 1)
    mistyped = "%game" + game.replace('[Rules "pagat"]', '[Rules "pagta"]')
    f = tmp_path / "two.gwy"
    f.write_text(head + "%game" + game + "\n" + mistyped, encoding="utf-8")
    r = run_cli("check", "--show-games", str(f))
    assert "not judged" in r.stdout or "pagta" in r.stdout
    # 21 plays: the first game's; the second, not judged, adds none
    assert "checked 1 file, 2 games, 21 plays" in r.stdout


def test_the_json_totals_use_the_texts_words():
    text = run_cli("check", str(RENEGE)).stdout
    assert text.splitlines()[-1].endswith(": 1 mistake")
    report = json.loads(run_cli("check", "--format", "json", str(RENEGE)).stdout)
    assert report["counts"] == {"errors": 0, "mistakes": 1, "notes": 0}
    schema = json.loads((ROOT / "schema" / "getaway-ref.schema.json").read_text(encoding="utf-8"))["report"]
    assert schema["properties"]["errors"]["deprecated"] is True  # kept for the programs that read it
    assert schema["properties"]["warnings"]["deprecated"] is True


def test_tally_of_seats_that_do_not_read_says_so_and_exits_1(tmp_path):
    f = tmp_path / "seats.gwy"
    f.write_text('%gwy 1\n\n%game\n[Seats "North East North"]\ndeal\nNorth 18\nEast 17\nSouth 17\n', encoding="utf-8")
    r = run_cli("tally", str(f))
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "syntax error" in r.stdout and str(f) in r.stdout


def test_a_bad_rules_setting_names_the_file_and_key_not_a_flag(tmp_path):
    shutil.copy(CLEAN, tmp_path / "game.gwy")
    (tmp_path / "pyproject.toml").write_text('[tool.getaway-ref]\nrules = "thulla"\n', encoding="utf-8")
    r = run_cli("check", str(tmp_path / "game.gwy"))
    assert r.returncode == 2
    assert "pyproject.toml" in r.stderr and "rules" in r.stderr and "--rules" not in r.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.getaway-ref]\nset = { taking = "maybe" }\n', encoding="utf-8")
    r = run_cli("check", str(tmp_path / "game.gwy"))
    assert r.returncode == 2 and "pyproject.toml" in r.stderr and "--set" not in r.stderr


# ---- settings per file, as ruff finds them (issue 22, item 6) ----------------------------------------


@pytest.fixture
def two_clubs(tmp_path: Path) -> Path:
    """a/ ignores mistakes; b/ has no settings of its own. Each holds the same renege."""
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        shutil.copy(RENEGE, tmp_path / d / "renege.gwy")
    (tmp_path / "a" / "getaway-ref.toml").write_text('ignore = ["M"]\n', encoding="utf-8")
    return tmp_path


def test_each_file_is_judged_under_the_settings_nearest_it_whatever_the_order(two_clubs):
    a, b = str(two_clubs / "a" / "renege.gwy"), str(two_clubs / "b" / "renege.gwy")
    one = run_cli("check", a, b, "--format", "jsonl", cwd=two_clubs)
    other = run_cli("check", b, a, "--format", "jsonl", cwd=two_clubs)
    assert one.returncode == other.returncode == 1
    for r in (one, other):
        paths = [json.loads(line)["path"] for line in r.stdout.splitlines()]
        assert paths == [b]  # a's renege is ignored by a's settings, b's is reported
    assert run_cli("check", a, cwd=two_clubs).returncode == 0


def test_config_puts_one_file_in_charge_and_isolated_reads_none(two_clubs):
    a, b = str(two_clubs / "a" / "renege.gwy"), str(two_clubs / "b" / "renege.gwy")
    settings = str(two_clubs / "a" / "getaway-ref.toml")
    assert run_cli("check", a, b, "--config", settings).returncode == 0
    assert run_cli("check", a, "--isolated").returncode == 1
    r = run_cli("check", a, "--isolated", "--config", settings)
    assert r.returncode == 2 and "--isolated" in r.stderr
    r = run_cli("check", a, "--config", str(two_clubs / "none.toml"))
    assert r.returncode == 2 and "none.toml" in r.stderr and "Traceback" not in r.stderr


def test_verbose_and_the_json_report_say_which_settings_file_was_used(two_clubs):
    a, b = str(two_clubs / "a" / "renege.gwy"), str(two_clubs / "b" / "renege.gwy")
    settings = str((two_clubs / "a" / "getaway-ref.toml").resolve())
    r = run_cli("check", "-v", a, cwd=two_clubs)
    assert f"settings: {settings}" in r.stderr
    assert "renege.gwy:" in r.stdout and " — rules pagat" in r.stdout  # -v shows the line per game
    report = json.loads(run_cli("check", "--format", "json", a, b, cwd=two_clubs).stdout)
    assert report["settings"] == [settings]
    assert json.loads(run_cli("check", "--format", "json", "--isolated", a).stdout)["settings"] == []


def deep(n: int) -> str:
    return "x = " + "{ a = " * n + "1" + " }" * n + "\n"


@pytest.mark.parametrize("name, text, words", [
    ("pyproject.toml", "[tool.getaway-ref]\n" + deep(1000), ["nested"]),
    ("getaway-ref.toml", deep(1000), ["nested"]),
    ("pyproject.toml", "[tool.getaway-ref]\nselect = [\n", ["not valid TOML"]),
    ("pyproject.toml", "[tool.getaway-ref]\nselect = 5\n", ["select", "list of codes"]),
    ("pyproject.toml", "[tool.getaway-ref]\nset = { taking = [1, 2] }\n", ["set", "option = value"]),
    ("pyproject.toml", "tool = 5\n[x]\ngetaway-ref = 1\n", []),
    ("getaway-ref.toml", "tool = { getaway-ref = 5 }\n", ["expected a table"]),
    ("getaway-ref.toml", "quiet = \"yes\"\n", ["quiet", "true or false"]),
])
def test_hostile_settings_are_refused_in_one_line_naming_the_file(tmp_path, name, text, words):
    shutil.copy(CLEAN, tmp_path / "game.gwy")
    (tmp_path / name).write_text(text, encoding="utf-8")
    r = run_cli("check", str(tmp_path / "game.gwy"))
    assert "Traceback" not in r.stderr
    if not words:  # not ours to judge: another tool's file, passed over
        assert r.returncode == 0, r.stderr
        return
    assert r.returncode == 2
    (line,) = r.stderr.splitlines()
    assert line.startswith("error: ") and name in line
    for w in words:
        assert w in line


def test_a_deeply_nested_pyproject_of_another_tool_in_a_parent_is_passed_over(tmp_path):
    (tmp_path / "club").mkdir()
    shutil.copy(RENEGE, tmp_path / "club" / "game.gwy")
    (tmp_path / "pyproject.toml").write_text("[tool.other]\n" + deep(1000), encoding="utf-8")
    r = run_cli("check", str(tmp_path / "club" / "game.gwy"))
    assert r.returncode == 1 and "Traceback" not in r.stderr and "mistake[M201]" in r.stdout


def test_a_settings_file_with_a_byte_order_mark_is_read(tmp_path):
    shutil.copy(RENEGE, tmp_path / "game.gwy")
    (tmp_path / "getaway-ref.toml").write_bytes(b"\xef\xbb\xbf" + b'ignore = ["M"]\n')
    assert run_cli("check", str(tmp_path / "game.gwy")).returncode == 0
    (tmp_path / "getaway-ref.toml").unlink()
    (tmp_path / "pyproject.toml").write_bytes(b"\xef\xbb\xbf" + b'[tool.getaway-ref]\nignore = ["M"]\n')
    assert run_cli("check", str(tmp_path / "game.gwy")).returncode == 0


# ---- 6. check's options, declared once ------------------------------------------------------------------


def test_checks_table_of_options_is_what_check_command_takes():
    # One declaration: every option fills a keyword of check_command, and every keyword but
    # the paths is an option, so a new option cannot reach one and not the other.
    import inspect

    from referee.check import check_command
    from referee.commands.options import CHECK_OPTIONS

    keywords = set(inspect.signature(check_command).parameters) - {"paths"}
    assert {o.key for o in CHECK_OPTIONS} == keywords


def test_every_setting_is_an_option_of_check_by_the_same_name():
    from referee.commands.options import CHECK_OPTIONS
    from referee.config import KEYS

    names = {n for o in CHECK_OPTIONS for n in o.names}
    assert {f"--{k}" for k in KEYS} <= names


def test_the_output_formats_are_listed_once():
    from referee.commands.options import CHECK_OPTIONS
    from referee.reports.sink import FORMATS

    (fmt,) = [o for o in CHECK_OPTIONS if o.key == "output_format"]
    assert fmt.choices is FORMATS
    for name in FORMATS:
        r = run_cli("check", "--output-format", name, str(CLEAN))
        assert r.returncode == 0, (name, r.stderr)
    r = run_cli("check", "--output-format", "xml", str(CLEAN))
    assert r.returncode == 2 and "xml" in r.stderr and "sarif" in r.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_each_file_keeps_its_own_rule_set_from_its_settings(tmp_path, jobs):
    # a/ plays anticlockwise by its settings; b/ has none. Both records leave the rule set to
    # the settings (no [Rules] tag): each is judged by its own, in either order, however many
    # processes judge them.
    src = (RECORDS / "anticlockwise.gwy").read_text(encoding="utf-8")
    bare = "".join(line for line in src.splitlines(True) if not line.startswith("[Rules"))
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
    (tmp_path / "a" / "anti.gwy").write_text(bare, encoding="utf-8")
    (tmp_path / "a" / "getaway-ref.toml").write_text('set = { direction = "anticlockwise" }\n', encoding="utf-8")
    shutil.copy(CLEAN, tmp_path / "b" / "clock.gwy")
    a, b = str(tmp_path / "a" / "anti.gwy"), str(tmp_path / "b" / "clock.gwy")
    for order in ([a, b], [b, a]):
        r = run_cli("check", "--show-games", "--jobs", jobs, *order, cwd=tmp_path)
        assert r.returncode == 0, r.stdout + r.stderr
        said = {line.split(":", 1)[0]: line for line in r.stdout.splitlines() if " — rules " in line}
        assert "rules pagat direction=anticlockwise" in said[a]
        assert "rules pagat —" in said[b]


# ---- the table commands' exit codes, as their README section says (issue 21, item 9) --------------------


@pytest.mark.parametrize("args", [["show"], ["legal"], ["tally"], ["ask", "--trick", "9"], ["html", "-o", "{tmp}/p.html"],
                                  ["show", "--narrate"]])
def test_every_table_command_exits_1_when_a_record_cannot_be_replayed_to_its_end(tmp_path, args):
    # R104: a card its player cannot hold stops the replay of game 3 at trick 9.
    stops = DATA_INVALID / "R104-not-in-hand.gwy"
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    r = run_cli(*args, str(stops))
    assert r.returncode == 1, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr
    # ... and 0 on a record replayed to its end, finished or not
    assert run_cli(*[a for a in args if a != "9" and a != "--trick"] + (["--trick", "4"] if "ask" in args else []),
                   str(CLEAN)).returncode == 0


def test_live_with_its_output_closed_ends_with_exit_2(tmp_path):
    # live says on standard error which game it starts; nothing about the pipe, no traceback.
    r, w = os.pipe()
    os.close(r)
    try:
        p = subprocess.run([sys.executable, "-m", "referee", "live", str(tmp_path / "new.gwy")], stdin=subprocess.DEVNULL,
                           stdout=w, stderr=subprocess.PIPE, cwd=ROOT, env=ENV, timeout=300)
    finally:
        os.close(w)
    err = p.stderr.decode()
    assert p.returncode == 2
    assert "Traceback" not in err and "Broken pipe" not in err and "error" not in err
