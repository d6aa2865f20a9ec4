"""Start-up (issue 16): what a plain `check` imports, check's one parser either way in,
the parser's cache, and `--jobs auto`. Behaviour only: the benchmark times things."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.archive.jobs import AUTO_MIN_BYTES, SLICE_BYTES, choose_jobs, parse_jobs
from referee.notation.grammar import cache_file, grammar_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = "records/pagat-example.gwy"


def run(args: list[str], **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, **env})


def modules_after(args: list[str], **env: str) -> set[str]:
    """The top-level packages imported by the time `getaway-ref ARGS` exits (its output
    into a pipe)."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted({m.split('.')[0] for m in sys.modules}))))\n"
            f"sys.argv = ['getaway-ref', *{args!r}]\n"
            "from referee._start import main\nmain()\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                       env={**os.environ, **env})
    return set(r.stderr.rsplit("MODULES ", 1)[1].split())


def test_a_text_check_imports_neither_pydantic_nor_typer():
    mods = modules_after(["check", EXAMPLE])
    assert "referee" in mods and "lark" in mods
    assert "pydantic" not in mods and "typer" not in mods and "jsonschema" not in mods


def test_a_text_check_does_without_rich_in_colour_or_not():
    # One renderer (reports/console.py): the layout's lines, coloured by hand on a terminal.
    assert "rich" not in modules_after(["check", EXAMPLE])
    assert "rich" not in modules_after(["check", "records/dispute-renege-illegal.gwy"])  # diagnostics too
    assert "rich" not in modules_after(["check", "records/dispute-renege-illegal.gwy"], FORCE_COLOR="1")
    assert "rich" not in modules_after(["check", "no-such-file.gwy"], FORCE_COLOR="1")  # an error said in colour


def test_typer_commands_load_only_the_modules_they_use():
    # cli.py imports each command's module when the command runs (its one deferred place):
    # --version meets typer, and neither the table's modules (prompt-toolkit) nor pydantic.
    mods = modules_after(["--version"])
    assert "typer" in mods and "referee" in mods
    assert "prompt_toolkit" not in mods and "pydantic" not in mods
    assert "prompt_toolkit" not in modules_after(["check", EXAMPLE])


def test_a_house_rules_file_still_meets_pydantic(tmp_path):
    # The one place a rule set is validated by pydantic: values typed by the user.
    house = tmp_path / "house.json"
    house.write_text('{"preset": "pagat", "taking": false}', encoding="utf-8")
    assert "pydantic" in modules_after(["check", "--rules-file", str(house), EXAMPLE])


def test_every_public_name_is_still_importable_from_the_package():
    code = "import referee\nfor n in referee.__all__: getattr(referee, n)\nfrom referee import parse, judge, RuleSet, Engine\nprint('ok')"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "ok", r.stderr


@pytest.mark.parametrize("args", [
    ["check", EXAMPLE],
    ["check", "-q", "--jobs", "1", EXAMPLE, "records/denexa.gwy"],
    ["check", "--format", "json", "tests/data/invalid/M201-renege.gwy"],
    ["check", "--format=json", "--rules=donkey", "--force-rules", EXAMPLE],
    ["check", "--set", "taking=no", "--set", "direction=anticlockwise", EXAMPLE],
    ["check", "records"],
    ["check", "--help"],
    ["check"],
    ["check", "--format", "xml", EXAMPLE],
    ["check", "--rules", "thulla", EXAMPLE],
    ["check", "--set", "taking=maybe", EXAMPLE],
    ["check", "--jobs", "0", EXAMPLE],
    ["check", "--jobs", "many", EXAMPLE],
    ["check", "--quiet", "--quiet", EXAMPLE],
    ["check", "-qj1", EXAMPLE],
    ["check", "--bogus", EXAMPLE],
    ["check", "no-such-file.gwy"],
    ["check", "--", EXAMPLE],
    ["check", "tests/data"],
])
def test_check_answers_the_same_through_typers_app(args):
    # check has one parser (referee/commands/options.py): the typer app's `check` hands its
    # words to it, so the same line gives the same output and exit code either way in.
    fast = run(args)
    typer = subprocess.run([sys.executable, "-m", "referee.cli", *args], cwd=ROOT, capture_output=True, text=True,
                           timeout=300)
    assert (fast.returncode, fast.stdout, fast.stderr) == (typer.returncode, typer.stdout, typer.stderr)
    assert "Traceback" not in fast.stderr


def test_help_lists_every_command():
    out = run(["--help"]).stdout
    for command in ("check", "fmt", "export", "schema", "explain", "rules", "simulate", "show", "legal", "tally", "live"):
        assert command in out


# ---- the parser's cache -------------------------------------------------------------------------


def test_the_parser_is_cached_in_the_users_cache_directory(tmp_path):
    want = run(["check", EXAMPLE], GETAWAY_CACHE_DIR="").stdout
    r = run(["check", EXAMPLE], XDG_CACHE_HOME=str(tmp_path))
    assert r.returncode == 0 and r.stdout == want
    cached = list((tmp_path / "getaway-ref").glob("gwy-*.lark"))
    assert len(cached) == 1
    again = run(["check", EXAMPLE], XDG_CACHE_HOME=str(tmp_path))
    assert again.stdout == want and list((tmp_path / "getaway-ref").glob("gwy-*.lark")) == cached


def test_a_changed_grammar_gets_another_cache_file():
    text = grammar_text()
    assert cache_file(text) != cache_file(text + "\n// a changed grammar\n")
    assert cache_file(text) == cache_file(text)


def test_a_damaged_cache_is_rebuilt(tmp_path):
    want = run(["check", "--format", "json", "tests/data/invalid/M201-renege.gwy"]).stdout
    run(["check", EXAMPLE], GETAWAY_CACHE_DIR=str(tmp_path))
    (cached,) = tmp_path.glob("gwy-*.lark")
    cached.write_bytes(b"not a parser at all\n")
    r = run(["check", "--format", "json", "tests/data/invalid/M201-renege.gwy"], GETAWAY_CACHE_DIR=str(tmp_path))
    assert r.returncode == 1 and r.stdout == want and "Traceback" not in r.stderr
    assert cached.read_bytes() != b"not a parser at all\n"


@pytest.mark.parametrize("where", ["/proc", "file"])
def test_a_read_only_or_impossible_cache_directory_is_harmless(tmp_path, where):
    # /proc refuses new directories even to root; a file cannot hold a directory.
    if where == "file":
        blocker = tmp_path / "a-file"
        blocker.write_text("x", encoding="utf-8")
        where = str(blocker)
    want = run(["check", EXAMPLE]).stdout
    r = run(["check", EXAMPLE], XDG_CACHE_HOME=where)
    assert r.returncode == 0 and r.stdout == want and r.stderr == ""


# ---- --jobs auto ----------------------------------------------------------------------------------------


def test_auto_is_one_process_for_a_small_input():
    assert choose_jobs(0, "auto", cores=8) == 1
    assert choose_jobs(AUTO_MIN_BYTES - 1, "auto", cores=8) == 1


def test_auto_uses_the_cores_for_a_large_input_but_no_more_than_its_slices():
    assert choose_jobs(100 * AUTO_MIN_BYTES, "auto", cores=2) == 2
    assert choose_jobs(100 * AUTO_MIN_BYTES, "auto", cores=1) == 1
    slices = -(-AUTO_MIN_BYTES // SLICE_BYTES)
    assert choose_jobs(AUTO_MIN_BYTES, "auto", cores=64) == slices
    assert 1 <= choose_jobs(100 * AUTO_MIN_BYTES, "auto") <= len(os.sched_getaffinity(0))


def test_a_number_of_jobs_is_taken_as_given():
    assert choose_jobs(10, "3") == 3
    assert choose_jobs(100 * AUTO_MIN_BYTES, 1) == 1
    assert parse_jobs(" AUTO ") is None


@pytest.mark.parametrize("word", ["0", "-1", "two", "", "1.5", "²"])
def test_a_wrong_number_of_jobs_is_refused(word):
    with pytest.raises(ValueError) as info:
        choose_jobs(10, word)
    assert "'auto'" in str(info.value)


def test_check_refuses_a_wrong_number_of_jobs_in_words():
    r = run(["check", "--jobs", "two", EXAMPLE])
    assert r.returncode == 2
    assert "--jobs takes a number of processes (1 or more) or 'auto', not 'two'" in r.stderr
