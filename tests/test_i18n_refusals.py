"""Issue 40, the last English a user could read: the importers' names of where in the log and
the reasons they pass on, `query`'s listing and its refusal of bad SQL, `serve`'s refusals at
the door, and the offline site's own load errors. Each sentence is compared with the
catalogue's (through the language layer), never with a translation written here, so a test
fails when a command says something in English that the catalogue has in Hindi. What stays as
written is checked too: the log's field names, the SQL names, DuckDB's own words, the status.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
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


# ---- 5. every refusal of the command line is a sentence of the catalogue --------------------------
#
# A usage refusal (``UsageError``, printed ``error: ...``, exit 2) is the sentence a user reads
# when a command will not run: its words must come from the wording layer. The source of
# ``referee/`` is read with ``ast`` (nothing imported) and every ``UsageError(...)`` whose message
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
# A file not ours to change in this branch, whose refusals another helper is putting into the
# catalogue (issue 40): listed with whose it is, and held to it (see the test after the guard).
PENDING = {"referee/selfplay/simulate.py": "helper h2's part (self-play's refusals)"}


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
    if isinstance(node, ast.Subscript):
        return _english(node.value) + ([] if isinstance(node.slice, ast.Constant) else _english(node.slice))
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        bare = PLACEHOLDER.sub("", node.value)
        return [node.value] if LETTER.search(bare) and not OPTION_NAME.fullmatch(bare) else []
    found: list[str] = []
    for child in ast.iter_child_nodes(node):
        found += _english(child)
    return found


def english_refusals(source: str, filename: str = "<source>") -> list[tuple[int, str]]:
    """Each ``UsageError(...)`` of ``source`` whose message holds English not from the
    wording layer: its line and the words."""
    out = []
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Call) and _name(node.func) == "UsageError":
            message = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in (None, "message")), None)
            if message is not None:
                out += [(node.lineno, words) for words in _english(message)]
    return out


def _refusals_in_english() -> dict[str, list[tuple[int, str]]]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        said = english_refusals(path.read_text(encoding="utf-8"), str(path))
        if said:
            found[path.relative_to(ROOT).as_posix()] = said
    return found


def test_every_usage_refusal_is_a_sentence_of_the_catalogue() -> None:
    found = {f: said for f, said in _refusals_in_english().items() if f not in PENDING}
    assert not found, "\n".join(f"{f}:{line}: UsageError says {words!r} outside the wording layer (_(), ngettext)"
                                for f, said in found.items() for line, words in said)


def test_a_pending_file_still_needs_it() -> None:
    # Once its refusals are in the catalogue the exemption is dropped here: a file may not stay
    # exempt after it is clean, so the guard covers it from then on.
    found = _refusals_in_english()
    assert [f for f in PENDING if f not in found] == [], "now clean: remove it from PENDING"


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
])
def test_the_guard_lets_the_catalogues_sentences_pass(source: str) -> None:
    assert english_refusals(f"def f():\n    {source}\n") == []
