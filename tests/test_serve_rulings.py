"""Issue 35, items 1-2, at the table as it is used: ``serve`` as a real server on 127.0.0.1,
the recorder's phone and a watcher's laptop as two headless Chromium windows. The entries
of the issue are typed on the recorder's phone; South leads out of turn where East has the
power. The Ruling box, the felt (its trick's fate and its lead line) and "Who leads?" must
name one leader on both screens: the mistake ended trick 3 (docs/rulings.md, ruling 1), so
South picks up 7♥ and leads trick 4. Then, mid-trick, all of them say who plays next.

The helpers that start the server and wait on a page are test_serve.py's.
"""

from __future__ import annotations

import re

import pytest
from conftest import DEAL, run_cli
from test_serve import Server, _answer, _moves, _wait, phones  # noqa: F401 (phones: the two windows)

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

ENTRIES = ["west as", "n js", "e ah", "s 10s", "W 5h", "N 9h", "E qh", "S jh"]
SHOWN = ["West A♠", "North J♠", "East A♥", "South 10♠", "West 5♥", "North 9♥", "East Q♥", "South J♥"]


def _leaders(text: str, trick: int) -> set[str]:
    """The seats a text says lead trick ``trick``."""
    return set(re.findall(rf"\b(North|East|South|West)\b[^.;]*? leads trick {trick}\b", text))


def _felt(drv) -> str:
    return drv.execute_script("return document.getElementById('fate').textContent + ' | ' + "
                              "document.getElementById('lead').textContent")


def _who(drv) -> str:
    before = drv.find_element("id", "reply").text
    drv.find_element("css selector", '#questions button[data-q="who"]').click()
    _wait(drv, lambda d: d.find_element("id", "reply").text not in ("", before), "who leads, answered")
    return drv.find_element("id", "reply").text


def _type(recorder, watcher, entry: str, shown: str, count: int) -> None:
    """The recorder types an entry; both windows show the play (``count`` times in the list)."""
    before = _answer(recorder)
    box = recorder.find_element("id", "entry")
    box.send_keys(entry + "\n")
    _wait(recorder, lambda d: _answer(d) != before, f"the ruling on {entry}")
    for drv in (recorder, watcher):
        _wait(drv, lambda d: _moves(d).count(shown) == count, f"{shown} in the trick list")


def test_a_lead_out_of_turn_has_one_leader_on_every_screen(tmp_path, phones):  # noqa: F811
    recorder, watcher = phones
    rec = tmp_path / "table.gwy"
    rec.write_text(DEAL, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        recorder.get(srv.record)
        watcher.get(srv.watch)
        _wait(recorder, lambda d: d.find_element("id", "recorder").is_displayed(), "the recorder's panel")
        for entry, shown in zip(ENTRIES, SHOWN):
            _type(recorder, watcher, entry, shown, 1)
        _type(recorder, watcher, "south 7h", "South 7♥", 1)
        assert "3. South 7♥" in rec.read_text(encoding="utf-8")
        # the Ruling box: the mistake, and the penalty that ended the trick
        ruling = _answer(recorder)
        assert ruling == ("Trick 3: South led 7♥, but East has the power and leads trick 3 (M203); "
                          "penalty applied: South picks up 1 card and leads trick 4.")
        _wait(watcher, lambda d: _answer(d) == ruling, "the ruling on the watcher's screen")
        for drv in (recorder, watcher):
            felt = _felt(drv)
            assert "not over" not in felt and "to play" not in felt, felt
            who = _who(drv)
            # one leader of trick 4 on every screen, and nobody still to play to trick 3
            assert _leaders(ruling, 4) == _leaders(felt, 4) == _leaders(who, 4) == {"South"}, (ruling, felt, who)
        # check on the file agrees
        r = run_cli("check", "--format", "json", str(rec))
        assert r.returncode == 1 and '"code":"M203"' in r.stdout
        # South leads trick 4 with the card it picked up: mid-trick, who plays next
        _type(recorder, watcher, "s 7h", "South 7♥", 2)
        ruling = _answer(recorder)
        assert ruling == "Trick 4: South led 7♥; West to play, following ♥ if able."
        for drv in (recorder, watcher):
            felt, who = _felt(drv), _who(drv)
            assert "West to play to trick 4, following ♥ if able" in felt, felt
            assert who == "West to play to trick 4, following ♥ if able."
    finally:
        srv.stop()
