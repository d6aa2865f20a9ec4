"""Issue 40: the sentences of `html`'s closing line and of the importers' refusals follow
`--lang`; the words are compared with the catalogue's own (through the language layer), so
a test fails when the command says something the catalogue does not."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, RECORDS, run_cli

from referee.engine import language as L


def test_html_says_what_it_wrote_in_urdu(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    r = run_cli("html", str(RECORDS / "double-pack.gwy"), "-o", str(out), "--lang", "ur")
    assert r.returncode == 0, r.stderr
    assert out.exists()
    with L.speaking("ur"):
        head = L.ngettext("wrote {file}: game {game}, {steps} step", "wrote {file}: game {game}, {steps} steps", 2)
    assert head != "wrote {file}: game {game}, {steps} steps"  # the catalogue has it in Urdu
    first = head.split("{game}")[0].format(file=out)
    assert r.stdout.startswith(first), r.stdout
    said = r.stdout.replace(str(out), "")
    assert "wrote" not in said and "steps" not in said  # no English left around the file name


SAMPLES = DATA / "imports"


def _said(lang: str, msgid: str, **fields: object) -> str:
    """The catalogue's sentence for ``msgid`` in ``lang``, its places filled."""
    with L.speaking(lang):
        return L.gettext(msgid).format(**fields)


def _drop(key: str) -> Callable[[Any], object]:
    return lambda d: d.pop(key)


# For each format the importer reads: the sample, a change that spoils it, and the
# refusal (msgid and places) the importer gives for it.
CASES = [
    ("bhabhi-live-solver", "live-solver.json", lambda d: d.update(schemaVersion=2),
     "not an archive of schema version 1 (no {field} at the top)", {"field": '"schemaVersion": 1'}),
    ("thulla-ai", "thulla-ai.json", lambda d: d.update(version=1),
     "not a completed game of version 2 (no {version} and {tricks} at the top)",
     {"version": '"version": 2', "tricks": '"tricks"'}),
    ("thulla-ai", "thulla-ai.json", lambda d: d["result"].pop("loser"), "{where}: no {key!r}", {"where": "result", "key": "loser"}),
    ("bhabhi-live-solver", "live-solver.json", lambda d: d["timeline"].update(cursor=0),
     "{where}: {value!r} is not between 1 and the {n} events", {"where": "timeline.cursor", "value": 0, "n": None}),
    ("thulla-ai", "thulla-ai.json", lambda d: d.update(opening_hands=None),
     "{where}: null (the app kept no deal for this game, so it cannot be replayed)", {"where": "opening_hands"}),
    ("bhabi-thulla-game", "bhabi-thulla-game.json", _drop("game_moves"),
     "not an export of the app's tables (a JSON object with {game}, {players} and {moves})",
     {"game": '"game"', "players": '"game_players"', "moves": '"game_moves"'}),
    ("bhabi-thulla-game", "bhabi-thulla-game.json", lambda d: d["game"].update(game_type="rummy"),
     "{where}: {value!r}, not a game of Thulla", {"where": "game.game_type", "value": "rummy"}),
    ("card-game-thulla", "card-game-thulla.json", lambda d: d["log"][4]["action"]["payload"].update(args=["X-3"]),
     "{where}: {value!r} is not a card (a suit S, H, D or C, a dash and a rank 2 to 14)",
     {"where": "log[4].action.payload.args[0]", "value": "X-3"}),
    ("card-game-thulla", "card-game-thulla.json", lambda d: d.update(log={}),
     "{where}: not a list of entries", {"where": "log"}),
]


@pytest.mark.parametrize("fmt, sample, change, msgid, fields", CASES)
def test_an_importer_refuses_a_log_in_hindi(tmp_path: Path, fmt, sample, change, msgid, fields) -> None:
    data = json.loads((SAMPLES / sample).read_text(encoding="utf-8"))
    if fields.get("n", 0) is None:  # the number of events of the sample as read
        fields = {**fields, "n": len(data["timeline"]["events"])}
    change(data)
    log = tmp_path / "bad.json"
    log.write_text(json.dumps(data), encoding="utf-8")
    hindi = _said("hi", msgid, **fields)
    assert hindi != msgid.format(**fields)  # the catalogue has it in Hindi
    r = run_cli("import", "--from", fmt, str(log), "--lang", "hi")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and hindi in r.stderr and str(log) in r.stderr, r.stderr
    en = run_cli("import", "--from", fmt, str(log))  # without --lang: the English, as before
    assert en.returncode == 2 and msgid.format(**fields) in en.stderr, en.stderr


@pytest.mark.parametrize("text, msgid, fields", [
    ("just some notes\n", "not a Thulla Masters game log (no {line} line)", {"line": "[INITIAL HANDS]"}),
])
def test_thulla_masters_refuses_a_log_in_hindi(tmp_path: Path, text, msgid, fields) -> None:
    log = tmp_path / "bad.txt"
    log.write_text(text, encoding="utf-8")
    r = run_cli("import", "--from", "thulla-masters", str(log), "--lang", "hi")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and _said("hi", msgid, **fields) in r.stderr and str(log) in r.stderr, r.stderr


def test_thulla_masters_names_the_line_in_hindi(tmp_path: Path) -> None:
    # Player's hand written twice under [INITIAL HANDS]: the second is on line 4 of the log.
    lines = (SAMPLES / "thulla-masters.txt").read_text(encoding="utf-8").split("\n")
    at = next(k for k, ln in enumerate(lines) if ln.strip().startswith("Player"))
    lines.insert(at + 1, lines[at])
    log = tmp_path / "bad.txt"
    log.write_text("\n".join(lines), encoding="utf-8")
    with L.speaking("hi"):
        said = L.gettext("{where}: {seat} has a second hand").format(where=L.gettext("line {line}").format(line=at + 2),
                                                                       seat="Player")
    r = run_cli("import", "--from", "thulla-masters", str(log), "--lang", "hi")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and said in r.stderr and "line" not in r.stderr.replace(str(log), ""), r.stderr
