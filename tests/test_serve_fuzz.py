"""``getaway-ref serve`` fuzzed: any request to any of its routes, any body, any header, is
answered with a status below 500, and the server goes on answering. A real server on
127.0.0.1; Hypothesis draws the requests (a bounded number: the property stays fast)."""

from __future__ import annotations

import json

import pytest
from test_serve import POSITION, Server, _query
from test_serve_guard import _addr, request, version

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

ROUTES = ["/", "/state", "/events", "/entry", "/undo", "/new", "/ask", "/nothing", "/entry/", "//", "/%00", "/..%2f"]
# header text: printable, no line breaks (a raw request could not carry them)
TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=255, blacklist_characters="\x7f"), max_size=40)
JSON_VALUE = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                          max_leaves=12)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    rec = tmp_path_factory.mktemp("fuzz") / "table.gwy"
    rec.write_text(POSITION, encoding="utf-8")
    srv = Server(rec, "--host", "127.0.0.1", "--seat-phones", "--request-timeout", "5")
    yield srv
    srv.stop()


def _body(draw_kind: str, value: object, raw: bytes) -> bytes:
    if draw_kind == "json":
        return json.dumps(value).encode("utf-8")
    if draw_kind == "huge":
        return b"{" + b" " * 5000 + b"}"
    return raw


@settings(max_examples=70, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    method=st.sampled_from(["GET", "POST", "POST", "POST", "PUT", "HEAD", "OPTIONS", "DELETE"]),
    route=st.sampled_from(ROUTES),
    who=st.sampled_from(["none", "watch", "record", "seat", "junk"]),
    junk=TEXT,
    kind=st.sampled_from(["json", "json", "entry", "raw", "huge", "none"]),
    value=JSON_VALUE,
    text=st.text(max_size=60),
    raw=st.binary(max_size=300),
    stale=st.booleans(),
    content_type=st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain",
                                  "APPLICATION/JSON", "", None]),
    host=st.sampled_from(["ours", "ours", "ours", "localhost", "other", "junk"]),
    origin=st.sampled_from([None, None, "ours", "http://evil.example", "null", "junk"]),
    extra=st.dictionaries(st.from_regex(r"X-[A-Za-z0-9-]{1,12}", fullmatch=True), TEXT, max_size=3),
)
def test_any_request_is_answered_below_500(served, method, route, who, junk, kind, value, text, raw, stale,
                                           content_type, host, origin, extra):
    srv = served
    h, port = _addr(srv)
    seat = next(line.split()[-1] for line in srv.printed if "'s own plays: " in line)
    query = {"none": "", "watch": _query(srv.watch), "record": _query(srv.record), "seat": _query(seat),
             "junk": junk.encode("utf-8").hex()}[who]
    if kind == "entry":  # an entry as the page sends it, with any text, on this version or an old one
        value = {"text": text, "version": "0-0" if stale else version(srv)}
        kind = "json"
    body = None if kind == "none" else _body(kind, value, raw)
    headers: dict[str, str | None] = {**extra, "Content-Type": content_type}
    headers["Host"] = {"ours": f"{h}:{port}", "localhost": f"localhost:{port}", "other": f"evil.example:{port}",
                       "junk": junk}[host]
    if origin is not None:
        headers["Origin"] = {"ours": f"http://{h}:{port}", "junk": junk}.get(origin, origin)
    if route == "/events" and method == "GET":
        method = "HEAD"  # an open event stream never ends: its head is enough here
    status, _ = request(srv, method, route + ("?" + query if query else ""), body, headers=headers)
    assert status < 500, (method, route, headers, body)
    assert srv.proc.poll() is None
