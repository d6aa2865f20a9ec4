"""Issue 40: the sentences of `html`'s closing line and of the importers' refusals follow
`--lang`; the words are compared with the catalogue's own (through the language layer), so
a test fails when the command says something the catalogue does not."""

from __future__ import annotations

from pathlib import Path

from conftest import RECORDS, run_cli

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
