"""The serve table's Hint button (issue 41, item 3): off unless the table was started with
``--hints``; then its JSON answer holds the pimc bot's choice for the seat to act and each
choice's chance of losing, the solver's best where the seat knows every card; in a browser the
button shows the same words."""

from __future__ import annotations

import json
import urllib.request

import pytest
from conftest import DESKTOP, start_chrome
from test_pimc import assert_hint_is_the_solvers, ending, hint_parts, solver_classes
from test_serve import WAIT, Server, _state, _wait

pytest.importorskip("starlette")


def _ask(srv: Server, body: dict) -> dict:
    url = srv.watch.replace("/?", "/ask?") if "?" in srv.watch else srv.watch + "ask"
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=WAIT * 6) as r:
        return json.loads(r.read())


def test_the_hint_button_answers_with_the_solvers_best(tmp_path):
    rec = tmp_path / "ending.gwy"
    rec.write_text(ending(), encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1", "--hints")
    try:
        assert _state(srv)["live"]["hints"] is True  # the page shows the button
        got = _ask(srv, {"q": "hint"})
    finally:
        srv.stop()
    classes = solver_classes(ending())
    assert_hint_is_the_solvers(got["answer"], classes)
    data = got["hint"]
    assert data["seat"] == "North" and data["exact"] is True
    assert data["choice"] == hint_parts(got["answer"])[0]  # the data and the words agree
    assert {c["choice"] for c in data["chances"]} == set(classes)
    for c in data["chances"]:
        assert c["chance"] == {"safe": 0.0, "lost": 1.0}.get(classes[c["choice"]], c["chance"])
    assert rec.read_text(encoding="utf-8") == ending()  # asking records nothing


def test_without_hints_the_button_is_off(tmp_path):
    rec = tmp_path / "ending.gwy"
    rec.write_text(ending(), encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1")
    try:
        assert _state(srv)["live"]["hints"] is False
        got = _ask(srv, {"q": "hint"})
    finally:
        srv.stop()
    assert got["hint"] is None and "--hints" in got["answer"]


def test_the_hint_button_in_a_browser(tmp_path):
    # A phone of a table started with --hints shows the button; a tap puts the hint (the
    # solver's best here) in the answer box. Without --hints the button is not shown.
    rec = tmp_path / "ending.gwy"
    rec.write_text(ending(), encoding="utf-8")
    drv = start_chrome()
    drv.set_window_size(*DESKTOP)
    srv = Server(rec, "--host", "127.0.0.1", "--hints")
    try:
        drv.get(srv.watch)
        _wait(drv, lambda d: d.find_element("id", "hint").is_displayed(), "the Hint button")
        drv.find_element("id", "hint").click()
        said = _wait(drv, lambda d: d.find_element("id", "reply").text if "Each choice" in
                     d.find_element("id", "reply").text else False, "the hint in the answer box")
    finally:
        srv.stop()
    try:
        assert_hint_is_the_solvers(said, solver_classes(ending()))
        off = Server(rec, "--host", "127.0.0.1")
        try:
            drv.get(off.watch)
            _wait(drv, lambda d: d.find_element("id", "questions").is_displayed(), "the questions")
            assert not drv.find_element("id", "hint").is_displayed()
        finally:
            off.stop()
    finally:
        drv.quit()
