"""Issue 40, the last English a user could read: the importers' names of where in the log and
the reasons they pass on, `query`'s listing and its refusal of bad SQL, `serve`'s refusals at
the door, and the offline site's own load errors. Each sentence is compared with the
catalogue's (through the language layer), never with a translation written here, so a test
fails when a command says something in English that the catalogue has in Hindi. What stays as
written is checked too: the log's field names, the SQL names, DuckDB's own words, the status.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, ROOT, run_cli

from referee.engine import language as L

HINDI = "hi"
DEVANAGARI = re.compile("[\u0900-\u097f]")
SAMPLES = DATA / "imports"


def hi(msgid: str, **fields: object) -> str:
    """The catalogue's Hindi for ``msgid``, its places filled; it must differ from the English."""
    with L.speaking(HINDI):
        said = L.gettext(msgid)
    assert said != msgid, msgid  # the catalogue has it in Hindi
    return said.format(**fields) if fields else said


def hi_n(one: str, many: str, n: int, **fields: object) -> str:
    with L.speaking(HINDI):
        said = L.ngettext(one, many, n)
    assert said not in (one, many)
    return said.format(n=n, **fields)


# ---- 1. the importers ---------------------------------------------------------------------------


def _refusal(tmp_path: Path, fmt: str, data: Any) -> str:
    log = tmp_path / "bad.json"
    log.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    r = run_cli("import", "--from", fmt, str(log), "--lang", HINDI)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    return r.stderr.replace(str(log), "")


def _sample(name: str) -> Any:
    return json.loads((SAMPLES / name).read_text(encoding="utf-8"))


def _without(key: str) -> Callable[[dict[str, Any]], object]:
    return lambda d: d.pop(key)


# A log missing a field at its top: the refusal names the log by our word for it, in Hindi,
# and the field by its own name.
@pytest.mark.parametrize("fmt, sample, key, name", [
    ("bhabhi-live-solver", "live-solver.json", "timeline", "the archive"),
    ("card-game-thulla", "card-game-thulla.json", "log", "the match"),
    ("thulla-ai", "thulla-ai.json", "opening_hands", "the game"),
    ("thulla-ai", "thulla-ai.json", "result", "the game"),
])
def test_an_importer_names_the_log_in_hindi(tmp_path: Path, fmt: str, sample: str, key: str, name: str) -> None:
    data = _sample(sample)
    data.pop(key)
    said = _refusal(tmp_path, fmt, data)
    assert hi("{where}: no {key!r}", where=hi(name), key=key) in said, said
    assert name not in said and repr(key) in said


def test_a_field_that_is_not_json_is_refused_in_hindi_with_the_parsers_reason_in_hindi(tmp_path: Path) -> None:
    data = _sample("card-game-thulla.json")
    data["initialState"] = '{"G": oops}'  # boardgame.io's SQLite row keeps the state as JSON text
    said = _refusal(tmp_path, "card-game-thulla", data)
    # the parser's reason, one it often gives, said in Hindi too; the field by its own name
    assert hi("{where}: not JSON: {why}", where="initialState", why=hi("Expecting value")) in said, said
    assert "Expecting" not in said and "the match" not in said


def test_an_impossible_deal_is_refused_in_our_words_with_the_engines_reason_after(tmp_path: Path) -> None:
    data = _sample("thulla-ai.json")
    data["opening_hands"][1][0] = data["opening_hands"][0][0]  # one card dealt to two players
    said = _refusal(tmp_path, "thulla-ai", data)
    ours = hi("{where}: the deal cannot be ({why})", where="opening_hands", why="\0").split("\0")
    assert said.startswith("error: : " + ours[0]) and said.rstrip("\n").endswith(ours[1]), said
    # the engine's own reason, a technical detail, inside the brackets (it names the card)
    detail = said[len("error: : " + ours[0]):len(said.rstrip("\n")) - len(ours[1])]
    assert "♠" in detail or "♥" in detail or "♦" in detail or "♣" in detail, said
    assert "cannot be" not in said.replace(detail, "")


# ---- 2. query's listing and its refusal of bad SQL ----------------------------------------------


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    cache = tmp_path_factory.mktemp("cache")
    env = {**os.environ, "GETAWAY_CACHE_DIR": str(cache)}
    path = tmp_path_factory.mktemp("club") / "club.gwy"
    r = subprocess.run([sys.executable, "-m", "referee", "simulate", "-n", "4", "-g", "3", "--seed", "5", "-o", str(path)],
                       capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert r.returncode == 0, r.stderr
    return path, env


def _query(club: tuple[Path, dict[str, str]], *args: str) -> subprocess.CompletedProcess:
    path, env = club
    return subprocess.run([sys.executable, "-m", "referee", "query", str(path), *args, "--lang", HINDI],
                          capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)


def test_query_lists_its_tables_and_views_in_hindi(club) -> None:
    from referee.archive.parquet import TABLES
    from referee.archive.query import VIEWS

    r = _query(club)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == hi("tables (docs/archives.md):")
    assert hi("views:") in lines
    listed = {line.split()[0]: line.split(None, 1)[1] for line in lines if line.startswith("  ")}
    for t in TABLES:  # the table's SQL name as it is, its count of rows in Hindi
        count = int(re.search(r"\d+", listed[t]).group())
        assert listed[t] == hi_n("{n} row", "{n} rows", count), listed[t]
    for v in VIEWS:  # the view's SQL name as it is, what it holds in Hindi
        assert listed[v.name] == hi(v.about), v.name
    assert not re.search(r"\b(rows|views|tables|the loss rate)\b", r.stdout.replace("docs/archives.md", ""))


def test_query_answers_with_english_column_names_and_a_hindi_count(club) -> None:
    r = _query(club, "SELECT game, players FROM games ORDER BY game")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["game", "players"]  # the columns' SQL names, as written
    assert lines[-1] == "(" + hi_n("{n} row", "{n} rows", 3) + ")"


def test_bad_sql_is_refused_in_hindi_with_duckdbs_own_words_after(club) -> None:
    r = _query(club, "SELECT nope FROM games")
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, r.stderr
    ours = hi("query: DuckDB cannot run it: {why}", why="\0").split("\0")
    assert r.stderr.startswith("error: " + ours[0]), r.stderr
    assert "nope" in r.stderr  # DuckDB's own text (naming the column), untranslated, after ours


# ---- 3. serve's door ----------------------------------------------------------------------------


def test_serve_refuses_at_the_door_in_its_own_language(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("uvicorn")
    from test_serve import POSITION, Server, _query
    from test_serve_guard import _addr, request

    from referee.web.app import FOREIGN_HOST, FOREIGN_ORIGIN, NOT_JSON, TOO_BIG, TWICE

    rec = tmp_path / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1", "--lang", HINDI)
    try:
        host, port = _addr(srv)
        q = _query(srv.record)

        def refused(why: str, **fields: object) -> bytes:
            return (hi("refused: {why}", why=hi(why, **fields)) + "\n").encode("utf-8")

        # the status and the header names as HTTP has them; the sentence in serve's language
        status, body = request(srv, "GET", f"/?{q}", headers={"Host": f"rebound.example:{port}"})
        assert (status, body) == (403, refused(FOREIGN_HOST)), body
        status, body = request(srv, "POST", f"/ask?{q}", b"{}",
                               headers={"Content-Type": "application/json", "Origin": "http://elsewhere.example"})
        assert (status, body) == (403, refused(FOREIGN_ORIGIN)), body
        status, body = request(srv, "POST", f"/ask?{q}", b"{}", headers={"Content-Type": "text/plain"})
        assert (status, body) == (415, refused(NOT_JSON)), body
        status, body = request(srv, "POST", f"/ask?{q}", b"{}",
                               headers={"Content-Type": "application/json", "Content-Length": "400000000"})
        from referee.web.app import MAX_BODY
        assert (status, body) == (413, refused(TOO_BIG, bytes=MAX_BODY)), body
        raw = (f"GET /?{q} HTTP/1.1\r\nHost: {host}:{port}\r\nOrigin: http://{host}:{port}\r\n"
               f"Origin: http://{host}:{port}\r\nConnection: close\r\n\r\n")
        from test_serve_guard import _connect, _read_response
        with _connect(srv) as s:
            s.sendall(raw.encode("latin-1"))
            status, _, body = _read_response(s)
        assert (status, body) == (400, refused(TWICE, header="origin")), body
        assert DEVANAGARI.search(body.decode("utf-8")) and "twice" not in body.decode("utf-8")
    finally:
        srv.stop()


# ---- 4. the offline site's own load errors ------------------------------------------------------

SITE_STATIC = ROOT / "referee" / "site" / "static"
SHARED = "lang.js"  # every page of the site loads it before its own script: what both pages say


def _faults() -> dict[str, str]:
    """The table of the engine's faults (lang.js's told): each key and the sentence it says through _()."""
    script = (SITE_STATIC / SHARED).read_text(encoding="utf-8")
    block = re.search(r"const FAULTS = \{(.*?)\};", script, re.S)
    assert block, SHARED
    return dict(re.findall(r'(\w+): _\("((?:[^"\\]|\\.)*)"\)', block.group(1)))


def test_every_fault_the_engine_sends_is_said_by_each_page_in_its_language() -> None:
    from referee.site.build import index_page, table_page

    worker = (SITE_STATIC / "worker.mjs").read_text(encoding="utf-8")
    sent = set(re.findall(r'\bfault\("(\w+)"', worker))
    assert {"zip", "runtime"} <= sent  # the zip and the runtime failing to load
    # the worker's own errors carry a fault (a key and the network's or runtime's words), no sentence
    code = re.sub(r"(^|\s)//[^\n]*", r"\1", worker)
    for made in re.findall(r"new Error\(([^;]*)\)", code):
        assert not re.search(r"[A-Za-z]{2,} [A-Za-z]{2,}", re.sub(r"\$\{[^}]*\}", "", made)), made
    faults = _faults()
    assert set(faults) == sent
    # each sentence written once, in lang.js: no page's script says it again
    scripts = {p.name: p.read_text(encoding="utf-8") for p in SITE_STATIC.iterdir() if p.suffix in (".js", ".mjs")}
    for msgid in faults.values():
        assert [name for name, text in scripts.items() if f'_("{msgid}")' in text] == [SHARED], msgid
    for script, built in (("app.js", index_page), ("table-site.js", table_page)):
        # a worker's error goes through lang.js's told, and the page loads lang.js before its script
        assert "told(event.data)" in scripts[script] and "FAULTS" not in scripts[script], script
        page = built(HINDI)
        assert page.index('<script src="lang.js">') < page.index(f'<script src="{script}">'), script
        # the page's catalogue block (its script's words and lang.js's) says each in Hindi
        block = re.search(r'<script type="application/json" id="i18n">(.*?)</script>', page, re.S)
        assert block, script
        words = json.loads(block.group(1))
        for msgid in faults.values():
            assert words[msgid] == hi(msgid), (script, msgid)


@pytest.mark.skipif(not Path("/proc/self/syscall").exists(), reason="sees the read through /proc (Linux)")
def test_ctrl_c_is_said_in_the_language_chosen() -> None:
    # check waiting for a record on standard input, stopped by Ctrl-C: one line, exit 130
    p = subprocess.Popen([sys.executable, "-m", "referee", "check", "--lang", HINDI, "-"], cwd=ROOT,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):  # until it is blocked reading its standard input (read(0, ...))
            with contextlib.suppress(OSError):
                if Path(f"/proc/{p.pid}/syscall").read_text().split()[:2] == ["0", "0x0"]:
                    break
            time.sleep(0.05)
        else:
            pytest.fail("check never read its standard input")
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert (p.returncode, out, err) == (130, "", hi("interrupted") + "\n")


# ---- 5. every refusal of the command line is a sentence of the catalogue --------------------------
#
# A refusal (``UsageError``, printed ``error: ...``, exit 2) is the sentence a user reads when a
# command will not run; so is the message of every exception a command prints as it comes (a
# settings file's ``ConfigError``, the table's ``TableError``, a worker's ``WorkerFailed``, the
# reader's ``ReadError``, a ``WriteError``, ...: ``REFUSALS``). Their words must come from the
# wording layer. The source of ``referee/`` is read with ``ast`` (nothing imported) and every
# ``Class(...)`` of those, or ``super().__init__(...)`` in a class made from one, whose message
# holds English of its own is named by file and line: a string literal, an f-string, or a
# literal concatenated or ``.format``-ed, outside a call of the wording layer (``_``,
# ``gettext``, ``ngettext``). What may stand outside it: punctuation between placeholders
# (``f"{path}: {why}"``, the file before a reason said elsewhere) and an option's name as it is
# typed (``.format(option="--jobs")``).

import ast  # noqa: E402 (the guard's own tools, beside it)

PACKAGE = ROOT / "referee"
WORDING = {"_", "gettext", "ngettext"}  # the wording layer's calls, as named or as L.gettext
# an option as typed, with its value or metavar (--jobs, -o DIR, --format parquet, --rules-file:)
OPTION_NAME = re.compile(r"\s*-{1,2}[A-Za-z][\w-]*(?:[ =][\w.]+)?[\s:;,]*")
# names a program reads, not sentences: getattr(e, "strerror"), m.get("schema_version")
KEYED = {"getattr": 1, "hasattr": 1, "get": 0}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
LETTER = re.compile(r"[^\W\d_]")


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _english(node: ast.AST) -> list[str]:
    """The literals of ``node`` with words in them, outside the wording layer's calls."""
    if isinstance(node, ast.Call) and _name(node.func) in WORDING:
        return []  # the catalogue's sentence; its .format(...) arguments are looked at by the caller
    if isinstance(node, ast.Call) and _name(node.func) in KEYED and len(node.args) > KEYED[_name(node.func) or ""]:
        key = node.args[KEYED[_name(node.func) or ""]]
        return [w for child in (node.func, *node.args, *node.keywords) if child is not key for w in _english(child)]
    if isinstance(node, ast.FormattedValue):
        return _english(node.value)  # its format spec ({n:,}, {x:02x}) is no word
    if isinstance(node, ast.Subscript):
        return _english(node.value) + ([] if isinstance(node.slice, ast.Constant) else _english(node.slice))
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        bare = PLACEHOLDER.sub("", node.value)
        return [node.value] if LETTER.search(bare) and not OPTION_NAME.fullmatch(bare) else []
    found: list[str] = []
    for child in ast.iter_child_nodes(node):
        found += _english(child)
    return found


# The exceptions whose message a user reads as it is (printed after ``error:``, or as a file's
# problem): each with the place of its message among its arguments (ReadError and WriteError
# take the path first) and the keywords that may name it.
REFUSALS = {
    "UsageError": 0,  # the command line's refusals (commands/options.py)
    "ConfigError": 0,  # a settings file that cannot be used (config.py)
    "TableError": 0,  # one game of a file for show, legal, ask, html, review (archive/games.py)
    "WorkerFailed": 0,  # a worker process or the Dask cluster failing (archive/slices.py)
    "ReadError": 1,  # a file the reader cannot read (notation/reader.py), path first
    "LineTooLong": 1,  # its kind, the line's number second
    "WriteError": 1,  # a user's file not written (files.py), path first
    "SelectError": 0,  # --select / --ignore (reports/select.py)
    "RulesError": 0,  # a rules file or a --rules spec (engine/rules.py)
    "SiteError": 0,  # the offline site not built (site/build.py)
    "LiveError": 0,  # live and serve refusing a record or a setting (table/live.py)
    "SeatError": 0,  # a phone's entry that is not its seat's (table/session.py), sent to the phone
    "DocNotFound": 0,  # a shipped document missing (reports/docs.py)
    "GrammarNotFound": 0,  # the notation's grammar missing (notation/grammar.py)
    "SimulationError": 0,  # simulate's bots and the engine disagreeing (players/bots.py)
}
MESSAGE_KEYWORDS = (None, "message", "reason")


def _message(node: ast.Call, at: int) -> ast.expr | None:
    if len(node.args) > at:
        return node.args[at]
    return next((k.value for k in node.keywords if k.arg in MESSAGE_KEYWORDS), None)


def _is_super_init(node: ast.Call) -> bool:
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr == "__init__" and isinstance(f.value, ast.Call)
            and _name(f.value.func) == "super")


def english_refusals(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """Each raise of a ``REFUSALS`` class in ``source`` (or ``super().__init__`` of a class made
    from one) whose message holds English not from the wording layer: its line and the words."""
    out: list[tuple[int, str]] = []

    def look(node: ast.AST, base: str | None) -> None:
        if isinstance(node, ast.ClassDef):
            bases = [_name(b) for b in node.bases]
            base = next((b for b in bases if b in REFUSALS), None)
        if isinstance(node, ast.Call):
            kind = _name(node.func)
            at = REFUSALS.get(kind or "") if kind in REFUSALS else (REFUSALS[base] if base and _is_super_init(node) else None)
            message = _message(node, at) if at is not None else None
            if message is not None:
                out.extend((node.lineno, words) for words in _english(message))
        for child in ast.iter_child_nodes(node):
            look(child, base)

    look(ast.parse(source, filename), None)
    return sorted(out)


def _refusals_in_english() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        said = english_refusals(path.read_text(encoding="utf-8"), str(path))
        if said:
            found[path.relative_to(ROOT).as_posix()] = said
    return found


def test_every_refusal_is_a_sentence_of_the_catalogue() -> None:
    found = _refusals_in_english()
    assert not found, "\n".join(f"{f}:{line}: a refusal says {words!r} outside the wording layer (_(), ngettext)"
                                for f, said in found.items() for line, words in said)


def test_the_guard_knows_every_refusal_by_its_name_in_the_source() -> None:
    # a class renamed or gone would leave the guard looking for nothing: each is defined in referee/
    defined = {node.name for path in PACKAGE.rglob("*.py")
               for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(node, ast.ClassDef)}
    assert set(REFUSALS) <= defined, set(REFUSALS) - defined


@pytest.mark.parametrize("source", [
    'raise UsageError("no records here")',
    'raise UsageError(f"{path}: no such file")',
    'raise UsageError("no .gwy records found in " + ", ".join(map(str, paths)))',
    'raise UsageError("{file}: not UTF-8 text".format(file=f))',
    'raise UsageError("%s: not UTF-8 text" % f)',
    'raise commands.UsageError(f"{output or \'standard output\'}: cannot write")',
    # the sentence from the catalogue, an English word glued in through its placeholder
    'raise UsageError(_("{file}: {why}").format(file=f, why="is a directory"))',
    'raise UsageError(L.gettext("{option} goes alone").format(option=f"{x} or the other"))',
    'raise UsageError(message=f"--at takes END, not {at}")',
    'raise UsageError(_("{why}").format(why=getattr(e, "strerror", "no reason given")))',
    'raise UsageError(_("{why}").format(why=reasons["missing"] + " and more"))',
    # the other exceptions a user reads, each with its message where it takes it
    'raise ConfigError(f"{where}: unknown key \'{key}\'")',
    'raise TableError(f"{path}: there is no game {number}", 2)',
    'raise WorkerFailed("a worker process died")',
    'raise WriteError(path, "cannot write: " + why)',
    'raise WriteError(path, reason=f"{why}; the file is unchanged")',
    'raise ReadError(name, "no such file")',
    'raise SiteError(L.gettext("{folder} is a file").format(folder=f"{out} (the output)"))',
    'raise dask.WorkerFailed(message=f"lost the Dask scheduler at {address}")',
])
def test_the_guard_names_a_refusal_in_english(source: str) -> None:
    said = english_refusals(f"def f():\n    {source}\n")
    assert said and said[0][0] == 2, said  # found, on its line


@pytest.mark.parametrize("source", [
    'raise UsageError(_("{file}: no such file").format(file=f))',
    'raise UsageError(L.gettext("{option} takes a number, not {value}").format(option="--jobs", value=v))',
    'raise UsageError(ngettext("{option}: {file} has {n} game", "{option}: {file} has {n} games", n).format('
    'option=f"--game {number}", file=f, n=n))',
    'raise UsageError(str(e)) from None',
    'raise UsageError(f"{e.path}: {e.message}") from None',
    'raise UsageError(no_records(paths))',
    'raise UsageError(_("{paths}").format(paths=", ".join(map(str, paths))))',
    'raise UsageError(_("{at} or {after}").format(at="--at END", after="-o DIR"))',
    'raise UsageError(_("cannot write {file}: {why}").format(file=f, why=getattr(e, "strerror", None) or e))',
    'raise UsageError(_("version {found}").format(found=m.get("schema_version")))',
    'raise WriteError(shown, L.gettext("not a regular file: not written"))',
    'raise WriteError("notes.gwy", L.gettext("cannot write: {why}").format(why=why))',  # the path as written
    'raise ReadError(path, e.strerror or str(e))',
    'raise TableError(game_has_syntax_errors(file, number), 1, errors)',
    'raise WorkerFailed(L.gettext("a worker failed: {why}").format(why=f"{type(e).__name__}: {e}"))',
    'raise OSError("not one of ours: Python\'s own words")',
])
def test_the_guard_lets_the_catalogues_sentences_pass(source: str) -> None:
    assert english_refusals(f"def f():\n    {source}\n") == []


def test_the_guard_reads_the_message_a_subclass_makes_for_itself() -> None:
    made = ("class LineTooLong(ReadError):\n"
            "    def __init__(self, path, line):\n"
            "        super().__init__(path, f\"line {line}: the line is too long\")\n")
    said = english_refusals(made)
    assert said and {line for line, _ in said} == {3} and ": the line is too long" in {words for _, words in said}, said
    translated = made.replace('f\"line {line}: the line is too long\"', '_(\"line {line}: too long\").format(line=line)')
    assert english_refusals(translated) == []
    # a class of someone else's (not a refusal) is not ours to read
    assert english_refusals(made.replace("(ReadError)", "(ValueError)")) == []


# ---- 6. the refusals as a user meets them, in Hindi ---------------------------------------------
#
# One refusal (or more) of each command family, run as a user runs it (``--lang hi``, or the
# environment's LANGUAGE), compared with the catalogue's Hindi, its places filled: the exit
# code stays 2, the head ``error:`` and the names (paths, options, values) stay as written.

RECORD = ROOT / "records" / "dispute-renege-illegal.gwy"  # one game, four seats


def _refused_in_hindi(*args: str, env: dict[str, str] | None = None) -> str:
    """The one line a refused command prints on standard error, its head taken off."""
    lang = () if env else ("--lang", HINDI)
    r = subprocess.run([sys.executable, "-m", "referee", *args, *lang], capture_output=True, text=True, cwd=ROOT,
                       timeout=300, env={**os.environ, **(env or {})})
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, (r.returncode, r.stderr)
    assert r.stderr.startswith("error: ") and DEVANAGARI.search(r.stderr), r.stderr
    return r.stderr.removeprefix("error: ").rstrip("\n")


def test_check_given_no_records_refuses_in_the_environments_language(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    said = _refused_in_hindi("check", str(empty), env={"LANGUAGE": HINDI, "GETAWAY_LANG": ""})
    assert said == hi("no .gwy records found in {paths}", paths=empty)


@pytest.mark.parametrize("command", [("check",), ("tally",), ("fmt",), ("export", "--format", "parquet", "-o", "OUT")])
def test_every_command_says_no_records_found_in_the_same_words(tmp_path: Path, command: tuple[str, ...]) -> None:
    if "parquet" in command:
        pytest.importorskip("pyarrow")
    empty = tmp_path / "empty"
    empty.mkdir()
    args = [str(tmp_path / "out") if a == "OUT" else a for a in command]
    # --lang after the names too: the language is taken wherever it stands
    assert _refused_in_hindi(*args, str(empty)) == hi("no .gwy records found in {paths}", paths=empty)


def test_check_refuses_a_bad_number_of_jobs_and_a_missing_rules_file_in_hindi(tmp_path: Path) -> None:
    said = _refused_in_hindi("check", "--jobs", "two", str(RECORD))
    assert said == hi("{option} takes a number of processes (1 or more) or 'auto', not '{value}'", option="--jobs",
                      value="two")
    missing = tmp_path / "house.toml"
    said = _refused_in_hindi("check", "--rules-file", str(missing), str(RECORD))
    assert said == hi("--rules-file {file}: no such rules file", file=missing)
    said = _refused_in_hindi("check", "--config", str(missing), "--isolated", str(RECORD))
    assert said == hi("{config} and {isolated} do not go together: one names the settings, the other refuses them",
                      config="--config", isolated="--isolated")
    said = _refused_in_hindi("check", "--fix", "-")
    assert said == hi("{option} rewrites files, not standard input", option="--fix")


def test_a_bad_rules_file_and_a_bad_spec_are_refused_in_hindi(tmp_path: Path) -> None:
    from referee.engine.rules import PRESETS

    house = tmp_path / "house.toml"
    house.write_text('preset = "bhabhi"\n', encoding="utf-8")
    said = _refused_in_hindi("check", "--rules-file", str(house), str(RECORD))
    # where the rules came from as typed, the file, then the reason in Hindi
    assert said == "--rules-file: " + hi("{file}: unknown preset '{name}' (presets are {presets})", file=house,
                                         name="bhabhi", presets=", ".join(PRESETS))
    said = _refused_in_hindi("check", "--rules", "pagat taking=maybe", str(RECORD))
    assert said == "--rules: " + hi("option '{option}' takes {values}, not {value}", option="taking",
                                    values=hi("{one} or {other}", one="yes", other="no"), value="'maybe'")


def test_a_file_that_is_no_regular_file_is_refused_in_hindi(tmp_path: Path) -> None:
    pytest.importorskip("duckdb")
    pytest.importorskip("pyarrow")
    pipe = tmp_path / "pipe.gwy"
    os.mkfifo(pipe)  # read for ever if it were read: refused before
    said = _refused_in_hindi("query", str(pipe))
    assert said == f"{pipe}: " + hi("not a regular file (a device, a pipe or a socket); give a .gwy record")


def test_fmt_explain_and_rules_refuse_in_hindi() -> None:
    said = _refused_in_hindi("fmt", "--write", "--check", str(RECORD))
    assert said == hi("{write} does not go with {check} or {diff}", write="--write", check="--check", diff="--diff")
    said = _refused_in_hindi("fmt", "--write", "-")
    assert said == hi("{option} rewrites files; standard input has none", option="--write")
    from referee.reports.diagnostics import CODES

    said = _refused_in_hindi("explain", "Z999")
    assert said == hi("unknown code '{code}' (codes are {codes})", code="Z999", codes=", ".join(CODES))
    from referee.engine.rules import PRESETS

    said = _refused_in_hindi("rules", "nope")
    assert said == hi("unknown rule set '{name}' (presets are {presets})", name="nope", presets=", ".join(PRESETS))


def test_review_refuses_in_hindi() -> None:
    from referee.review.command import FORMATS

    said = _refused_in_hindi("review", str(RECORD), "--format", "xml")
    assert said == hi("{option} is one of {formats}, not '{value}'", option="--format", formats=", ".join(FORMATS),
                      value="xml")
    said = _refused_in_hindi("review", str(RECORD), "--at", "start")
    assert said == hi("{at} takes END (the end of the record), not '{value}'; for a trick, {after}", at="--at",
                      value="start", after="--after TRICK")
    said = _refused_in_hindi("review", str(RECORD), "--jobs", "0")
    assert said == hi("{option} takes a number of processes (1 or more) or 'auto', not '{value}'", option="--jobs",
                      value="0")


def test_link_refuses_a_game_the_file_does_not_hold_in_hindi() -> None:
    said = _refused_in_hindi("link", str(RECORD), "--game", "5")
    assert said == hi_n("{option}: {file} has {n} game", "{option}: {file} has {n} games", 1,
                        option="--game 5", file=RECORD)


def test_import_refuses_a_log_that_is_not_text_in_hindi(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    log.write_bytes(b'{"log": "\xff\xfe"}')
    said = _refused_in_hindi("import", "--from", "thulla-ai", str(log))
    assert said == hi("{file}: not UTF-8 text", file=log)


def test_export_parquet_refuses_in_hindi(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    said = _refused_in_hindi("export", "--format", "parquet", str(RECORD))
    assert said == hi("{option} writes a directory of tables: name it with {output}", option="--format parquet",
                      output="-o DIR")
    taken = tmp_path / "notes.txt"
    taken.write_text("mine\n", encoding="utf-8")  # a file of the user's: never replaced by the tables
    said = _refused_in_hindi("export", "--format", "parquet", str(RECORD), "-o", str(taken))
    assert said == hi("{folder} exists and is not a directory; give a directory for the tables", folder=taken)
    assert taken.read_text(encoding="utf-8") == "mine\n"
    said = _refused_in_hindi("export", "--format", "parquet", str(RECORD), "-o", str(tmp_path / "t"), "--jobs", "x")
    assert said == hi("{option} takes a number of processes (1 or more) or 'auto', not '{value}'", option="--jobs",
                      value="x")


def test_a_record_that_cannot_be_read_is_refused_in_hindi(tmp_path: Path) -> None:
    gone = tmp_path / "gone.gwy"
    # read whole (review) and sought game by game (puzzles): the same reader's words
    assert _refused_in_hindi("review", str(gone)) == f"{gone}: " + hi("no such file")
    assert _refused_in_hindi("puzzles", str(gone), "-o", str(tmp_path / "deck")) == f"{gone}: " + hi("no such file")
    assert _refused_in_hindi("review", str(tmp_path)) == f"{tmp_path}: " + hi("is a directory")
    bad = tmp_path / "bad.gwy"
    bad.write_bytes(RECORD.read_bytes().replace(b"East", b"E\xe1st", 1))
    line = RECORD.read_bytes()[:RECORD.read_bytes().index(b"East")].count(b"\n") + 1
    offset = RECORD.read_bytes().index(b"East") + 1
    assert _refused_in_hindi("review", str(bad)) == f"{bad}: " + hi(
        "not UTF-8 text: byte {byte} at byte offset {offset} (line {line}) cannot be decoded",
        byte="0xe1", offset=offset, line=line)


# What the commands print besides their refusals, in the same language.


def test_tally_says_its_columns_and_totals_in_hindi() -> None:
    r = run_cli("tally", str(RECORD), "--lang", HINDI)
    assert r.returncode in (0, 1), r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == [w for h in ("player", "games", "lost", "rate") for w in hi(h).split()]
    # the one game of the record is not finished: counted, and its problem said, in Hindi
    assert hi_n("{n} game: {finished} finished, {unfinished} not", "{n} games: {finished} finished, {unfinished} not",
                1, finished=0, unfinished=1) in lines
    assert "  " + hi("{file} game {number}: {problem}", file=RECORD, number=1, problem=hi("not finished")) in lines
    assert not re.search(r"\b(games?|finished|player)\b", r.stdout.replace(str(RECORD), ""))


def test_check_verbose_and_fix_say_their_lines_in_hindi(tmp_path: Path) -> None:
    rec = tmp_path / "short.gwy"
    # the version line missing: a safe fix (S-code) that --fix writes in
    rec.write_text(RECORD.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    r = run_cli("check", "--verbose", "--fix", str(rec), "--lang", HINDI)
    assert hi("settings: none (defaults)") in r.stderr.splitlines(), r.stderr
    lines = r.stderr.splitlines()
    assert hi_n("fixed {n} problem", "fixed {n} problems", 1) in lines, r.stderr
    # the fix made, by file, line and code (as written), its title the reader's own words
    fixed = hi("{file}:{line}: fixed {code}: {title}", file=rec, line=1, code="S005", title="\0").split("\0")[0]
    assert any(line.startswith(fixed) for line in lines), r.stderr
    assert rec.read_text(encoding="utf-8").startswith("%gwy 1")


def test_rules_lists_the_options_in_hindi_their_names_and_values_as_written() -> None:
    from referee.engine.rules import OPTIONS, RuleSet

    r = run_cli("rules", "--lang", HINDI)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == hi("presets")
    for k in OPTIONS:  # the option's name and values as typed, its description in Hindi
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  {k} = "))
        assert lines[at + 1] == "      " + hi(RuleSet.model_fields[k].description), k
        assert lines[at + 2].startswith("      " + hi("source: {source}", source="\0").split("\0")[0]), k


def test_export_parquet_says_what_it_wrote_in_hindi(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "tables"
    r = run_cli("export", "--format", "parquet", str(RECORD), "-o", str(out), "--lang", HINDI)
    assert r.returncode == 0, r.stderr
    rows = {t: pq.read_metadata(out / f"{t}.parquet").num_rows for t in ("games", "seats", "tricks", "plays", "diagnostics")}
    counted = {t: hi_n(f"{{n}} {t[:-1]}", f"{{n}} {t}", n) for t, n in rows.items()}  # each count with its plural
    assert r.stdout == hi("wrote {folder}: {games}, {seats}, {tricks}, {plays}, {diagnostics}", folder=out, **counted) + "\n"


# ---- 7. the refusals from below the command line, in Hindi --------------------------------------
#
# A settings file's problem, a game the file does not hold or cannot show, a worker or a cluster
# failing, the site not built: each said in the chosen language, the names (path, key, value,
# option, address, command) as written, with the exit code as before.


def _settings_refused(tmp_path: Path, name: str, text: str, env: dict[str, str] | None = None) -> str:
    (tmp_path / name).write_text(text, encoding="utf-8")
    record = tmp_path / "game.gwy"  # the settings nearest the record govern it
    record.write_bytes(RECORD.read_bytes())
    return _refused_in_hindi("check", str(record), env=env)


def test_a_bad_settings_file_is_refused_in_hindi_its_key_and_values_as_written(tmp_path: Path) -> None:
    from referee.config import KEYS, TOOL_KEY

    own = tmp_path / "getaway-ref.toml"
    said = _settings_refused(tmp_path, own.name, 'colour = "red"\n')
    assert said == hi("{where}: unknown key '{key}'; valid keys are {keys}", where=own, key="colour",
                      keys=", ".join(KEYS))
    own.unlink()
    # a pyproject.toml's table named as it is written, the key as typed; the environment's language
    py = tmp_path / "pyproject.toml"
    said = _settings_refused(tmp_path, py.name, f'[tool.{TOOL_KEY}]\nquiet = "yes"\n',
                             env={"LANGUAGE": HINDI, "GETAWAY_LANG": ""})
    assert said == hi("{where}: '{key}' is true or false", where=f"{py}: [tool.{TOOL_KEY}]", key="quiet")
    # TOML's own reason, as the parser words it, after ours
    said = _settings_refused(tmp_path, py.name, f"[tool.{TOOL_KEY}\n")
    ours = hi("{file}: not valid TOML: {why}", file=py, why="\0").split("\0")[0]
    assert said.startswith(ours) and len(said) > len(ours), said


def _last_error(r: subprocess.CompletedProcess) -> str:
    lines = r.stderr.splitlines()
    assert lines and lines[-1].startswith("error: "), r.stderr
    return lines[-1].removeprefix("error: ")


@pytest.mark.parametrize("command", [("show",), ("html", "-o", "OUT")])
def test_show_and_html_refuse_a_game_the_file_does_not_hold_in_hindi(tmp_path: Path, command: tuple[str, ...]) -> None:
    args = [str(tmp_path / "page.html") if a == "OUT" else a for a in command]
    said = _refused_in_hindi(*args, str(RECORD), "--game", "3")
    assert said == hi_n("{file}: there is no game {number} (the file holds {n} game)",
                        "{file}: there is no game {number} (the file holds {n} games)", 1, file=RECORD, number=3)
    assert not (tmp_path / "page.html").exists()


@pytest.mark.parametrize("command", [("show",), ("html", "-o", "OUT")])
def test_show_and_html_refuse_a_game_with_syntax_errors_in_hindi(tmp_path: Path, command: tuple[str, ...]) -> None:
    bad = tmp_path / "bad.gwy"
    bad.write_text("%gwy 1\n%game 1\n[Seats \"N E S W\"]\nfoo bar ((\n", encoding="utf-8")
    args = [str(tmp_path / "page.html") if a == "OUT" else a for a in command]
    r = run_cli(*args, str(bad), "--game", "1", "--lang", HINDI)
    assert r.returncode == 1 and r.stdout == "", r.stderr  # a record that cannot be shown: 1, as before
    assert _last_error(r) == hi("{file}: game {number} has syntax errors (run getaway-ref check {file})", file=bad,
                                number=1)
    assert not (tmp_path / "page.html").exists()


def test_check_with_a_dask_address_it_cannot_reach_refuses_in_hindi() -> None:
    pytest.importorskip("distributed", reason="the dask extra is part of the test extra")
    from referee.archive.dask import EXAMPLE

    said = _refused_in_hindi("check", "--dask", "inproc://x", str(RECORD))
    assert said == hi("{option} cannot reach '{address}': an {scheme} scheduler is inside the process that started "
                      "it; give a scheduler's network address, such as {example}", option="--dask",
                      address="inproc://x", scheme="inproc://", example=EXAMPLE)


def test_site_without_its_runtime_refuses_in_hindi(tmp_path: Path) -> None:
    from referee.site import INSTALL_HINT

    nowhere = tmp_path / "nowhere"
    said = _refused_in_hindi("site", "-o", str(tmp_path / "site"), "--pyodide", str(nowhere))
    assert said == hi("the Pyodide runtime is not in {folder}: run `{command}` (or give {option})", folder=nowhere,
                      command=INSTALL_HINT, option="--pyodide PATH")
    assert not (tmp_path / "site").exists()  # nothing written
