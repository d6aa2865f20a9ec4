"""``getaway-ref site -o DIR``: the static site written (see ``referee/site/__init__.py`` and
docs/offline.md): the page, the pinned Pyodide runtime copied from the npm package, the zip
of the package with lark and rich, the catalogues beside it, and the service worker that
caches what a visit's language needs.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import zipfile
from importlib import metadata, resources
from pathlib import Path, PurePosixPath

from referee.commands.options import UsageError, cannot_write
from referee.engine import language as L
from referee.notation.grammar import grammar_path
from referee.reports.docs import doc_text
from referee.site import INSTALL_HINT, PYODIDE_ENV, PYODIDE_VERSION
from referee.table.page import page_strings, plural_table, render, script_counts, script_words, template

# The runtime's files a page needs (the rest of the npm package is for node and for types).
RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
# The page's own files (static/), copied as they are, and the zip of the package.
STATIC = ("app.js", "worker.mjs", "site.css", "icon.svg", "table-site.js", "qr.js", "lang.js")
MANIFEST = "manifest.webmanifest"  # the web app manifest, one a language (manifest_text)
WORKER = "worker.mjs"
LANG_SCRIPT = "lang.js"  # the pages' language: the site's languages written into it
INDEX_PAGE = "index.html"  # the first page (templates/index.html.j2), one a language
TABLE_PAGE = "table.html"  # serve's page, rendered here, its script talking to the Worker (table-site.js)
ZIP = "getaway-ref.zip"
SERVICE_WORKER = "sw.js"
# A file of at least this size whose gzip copy is at most GZIP_SHARE of it ships a NAME.gz beside
# it, which the service worker fetches instead and unpacks (the runtime's WebAssembly: 9.6 MB
# as it is, 3.5 MB gzipped); the zips are compressed already and ship once.
GZIP_FROM = 16_000
GZIP_SHARE = 0.8
MARK = ".getaway-ref-site"  # written into the folder: a folder with it may be written over
# Distributions the page imports besides the package: lark (the reader), rich (legal and ask print with it).
BESIDE = ("lark", "rich")
# Modules of the package the page never imports: each imports a package the browser has not.
NOT_IN_BROWSER = (("cli.py",), ("archive", "parquet.py"), ("archive", "query.py"))


class SiteError(Exception):
    """The site cannot be built: the message says why (exit 2)."""


def find_runtime(given: Path | None) -> Path:
    """The folder of the ``pyodide`` npm package: --pyodide, else $GETAWAY_PYODIDE, else
    ./node_modules/pyodide; its version must be the pinned one."""
    candidates = [given] if given is not None else (
        [Path(os.environ[PYODIDE_ENV])] if os.environ.get(PYODIDE_ENV) else [Path("node_modules/pyodide")])
    for c in candidates:
        folder = c / "node_modules" / "pyodide" if (c / "node_modules" / "pyodide").is_dir() else c
        if not (folder / "package.json").is_file():
            break
        try:
            version = json.loads((folder / "package.json").read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError):
            version = None
        if version != PYODIDE_VERSION:
            raise SiteError(L.gettext("{folder} holds pyodide {version}, the site is built with {pinned}: run "
                                      "`{command}`").format(folder=folder, version=version, pinned=PYODIDE_VERSION,
                                                            command=INSTALL_HINT))
        missing = [f for f in RUNTIME if not (folder / f).is_file()]
        if missing:
            raise SiteError(L.gettext("{folder} lacks {files}: run `{command}`").format(
                folder=folder, files=", ".join(missing), command=INSTALL_HINT))
        return folder
    where = str(candidates[0])
    raise SiteError(L.gettext("the Pyodide runtime is not in {folder}: run `{command}` (or give {option})").format(
        folder=where, command=INSTALL_HINT, option="--pyodide PATH"))


def _entries() -> list[tuple[str, bytes]]:
    """The zip's files: the package's sources (no compiled modules, no page files), the
    grammar and documents where a wheel puts them, the browser's pydantic, and the
    distributions beside it, each as installed."""
    package = Path(__file__).resolve().parent.parent
    out: list[tuple[str, bytes]] = []
    for p in sorted(package.rglob("*")):
        rel = p.relative_to(package.parent)
        if (not p.is_file() or "__pycache__" in rel.parts or p.suffix in (".so", ".pyd", ".pyc")
                or rel.parts[:3] in (("referee", "site", "static"), ("referee", "site", "templates"))
                or rel.parts[1] in ("grammar", "docs")
                # the editor server and the research environments need packages a browser has not
                # (pygls, PettingZoo, OpenSpiel): nothing in the page imports them
                or rel.parts[1] in ("lsp", "research")
                # nor can it import these, for the same reason: serve's server (starlette, uvicorn),
                # typer's commands (cli.py), the archive's Parquet and its queries (pyarrow, duckdb)
                or rel.parts[1] == "web" or rel.parts[1:] in NOT_IN_BROWSER
                # the catalogues' sources and their tool are for translators: the page reads the .mo,
                # and those are files of the site beside the zip (catalogue_files), one language's
                # fetched when a page asks in it, not all of them on every visit
                or p.suffix in (".po", ".pot", ".mo") or rel.parts[1:] == ("locale", "catalogues.py")):
            continue
        out.append((rel.as_posix(), p.read_bytes()))
    out.append(("referee/grammar/gwy.lark", grammar_path().read_bytes()))
    for doc in ("rulings.md", "notation.md"):
        out.append((f"referee/docs/{doc}", doc_text(doc).encode("utf-8")))
    out.append(("pydantic/__init__.py", (Path(__file__).parent / "pydantic_lite.py").read_bytes()))
    for name in BESIDE:
        dist = metadata.distribution(name)
        for f in sorted(dist.files or [], key=str):
            parts = PurePosixPath(str(f)).parts
            if parts[0] == name or parts[0].endswith(".dist-info"):  # the code, and its licence and metadata
                if f.suffix == ".pyc" or "__pycache__" in parts or parts[-1] == "RECORD":
                    continue
                out.append((str(f), Path(str(dist.locate_file(f))).read_bytes()))
    return out


def catalogue_files(lang: str) -> list[str]:
    """A language's compiled catalogues (the referee's words, the rulings' text), by their
    path in the package, which is also their path in the site: the worker writes each where
    the package reads it (none for English)."""
    folder = L.LOCALE_DIR / lang / "LC_MESSAGES"
    if lang == L.ENGLISH or not folder.is_dir():
        return []
    return sorted(p.relative_to(L.LOCALE_DIR.parent.parent).as_posix() for p in folder.glob("*.mo"))


def write_zip(path: Path) -> None:
    """The package and its companions as one zip, the same bytes for the same sources."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in _entries():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            z.writestr(info, data)


def page_name(page: str, lang: str) -> str:
    """A page's file in a language: ``index.html`` in English, ``index.ur.html`` in Urdu
    (lang.js opens the one the phone chose by the same names; the manifests are named so too)."""
    stem, dot, ext = page.rpartition(".")
    return page if lang == L.ENGLISH else f"{stem}.{lang}{dot}{ext}"


def manifest_text(lang: str = L.ENGLISH) -> str:
    """The web app manifest of the pages in ``lang``: the name a phone's home screen shows,
    in that language, opening the first page in it."""
    with L.speaking(lang) as chosen:
        info = L.info(chosen)
        manifest = {
            "name": L.gettext("Getaway referee"), "short_name": L.gettext("Getaway ref"),
            "description": L.gettext("The rules referee for Getaway (Bhabhi, Thulla, Donkey), offline in the browser"),
            "lang": info.tag, "dir": info.dir,
            "start_url": f"./{page_name(INDEX_PAGE, chosen)}", "scope": "./", "display": "standalone",
            "background_color": "#0f5132", "theme_color": "#0f5132",
            "shortcuts": [{"name": L.gettext("The table"), "short_name": L.gettext("Table"),
                           "url": f"./{page_name(TABLE_PAGE, chosen)}"}],
            "icons": [{"src": "icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
        }
    return json.dumps(manifest, ensure_ascii=False, indent=2) + "\n"


def _script(name: str) -> str:
    return resources.files("referee.site").joinpath("static", name).read_text(encoding="utf-8")


def _script_strings(name: str, lang: str) -> dict[str, object]:
    """A site page's sentences (the ``_()`` and ``ngettext()`` of its script ``name`` and of
    lang.js, which every page of the site loads first and which says what both pages say,
    the engine's faults) in ``lang``."""
    words: dict[str, None] = {}
    counts: dict[tuple[str, str], None] = {}
    for script in (LANG_SCRIPT, name):
        text = _script(script)
        words.update(dict.fromkeys(script_words(script, text)))
        counts.update(dict.fromkeys(script_counts(script, text)))
    return page_strings(tuple(words), tuple(counts), lang)


def table_page(lang: str = L.ENGLISH) -> str:
    """serve's table page as the recorder's phone sees it, with no game yet: the Worker
    opens one (the last kept, or a new one) when the page loads. In ``lang``, with the
    sentences of the site's table script too."""
    return render({"file": "", "games": [], "live": {}, "role": "recorder", "seat": None}, serve=True, site=True,
                  lang=lang, words=_script_strings("table-site.js", lang), index_page=page_name(INDEX_PAGE, lang),
                  manifest=page_name(MANIFEST, lang))


def index_page(lang: str = L.ENGLISH) -> str:
    """The site's first page (check a record, follow a link, review) in ``lang``."""
    with L.speaking(lang) as chosen:
        page: str = template("index.html.j2", "referee.site").render(
            lang=L.info(chosen), languages=[L.LANGUAGES[c] for c in L.shipped()],
            table_page=page_name(TABLE_PAGE, chosen), manifest=page_name(MANIFEST, chosen),
            i18n=_script_strings("app.js", chosen),
            plural=plural_table(chosen))
    return page


def lang_script() -> bytes:
    """lang.js with the site's languages in it (each code and its BCP 47 tag)."""
    languages = json.dumps([[c, L.LANGUAGES[c].tag] for c in L.shipped()])
    return _script(LANG_SCRIPT).replace("__LANGUAGES__", languages).encode("utf-8")


def write_gzip_copies(out: Path, files: list[str]) -> list[str]:
    """Beside each file that compresses well, its gzip copy (the same bytes for the same
    file: no name or time in the header); the names that have one."""
    gzipped: list[str] = []
    for name in files:
        data = (out / name).read_bytes()
        if len(data) < GZIP_FROM:
            continue
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= GZIP_SHARE * len(data):
            (out / f"{name}.gz").write_bytes(packed)
            gzipped.append(name)
    return gzipped


def build_site(out: Path, pyodide: Path | None = None) -> list[str]:
    """Write the site into ``out``; the files written, relative to it."""
    runtime = find_runtime(pyodide)
    if out.exists() and not out.is_dir():
        raise SiteError(L.gettext("{folder} is a file, not a folder").format(folder=out))
    if out.is_dir() and any(out.iterdir()) and not (out / MARK).is_file():
        raise SiteError(L.gettext("{folder} is not empty and is not a site this command wrote: choose another "
                                  "folder").format(folder=out))
    (out / "pyodide").mkdir(parents=True, exist_ok=True)
    files: list[str] = []
    catalogues = {lang: catalogue_files(lang) for lang in L.shipped() if lang != L.ENGLISH}
    static = resources.files("referee.site").joinpath("static")
    for name in STATIC:
        data = static.joinpath(name).read_bytes()
        if name == WORKER:  # what it keeps between starts is named by the runtime's version too
            data = (data.replace(b"__PYODIDE__", PYODIDE_VERSION.encode())
                    .replace(b"__CATALOGUES__", json.dumps(catalogues).encode()))
        elif name == LANG_SCRIPT:
            data = lang_script()
        (out / name).write_bytes(data)
        files.append(name)
    for name in RUNTIME:
        (out / "pyodide" / name).write_bytes((runtime / name).read_bytes())
        files.append(f"pyodide/{name}")
    # Each page once a language (the site has no server to choose for the phone; lang.js does),
    # and the catalogues: the service worker caches a language's files when a page needs them.
    languages: dict[str, list[str]] = {}
    for lang in L.shipped():
        own: list[str] = []
        for page, text in ((INDEX_PAGE, index_page), (TABLE_PAGE, table_page), (MANIFEST, manifest_text)):
            (out / page_name(page, lang)).write_text(text(lang), encoding="utf-8")
            own.append(page_name(page, lang))
        for name in catalogues.get(lang, []):
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_bytes((L.LOCALE_DIR.parent.parent / name).read_bytes())
            own.append(name)
        if lang == L.ENGLISH:
            files.extend(own)  # English is every page's fallback: always cached
        else:
            languages[lang] = own
    write_zip(out / ZIP)
    files.append(ZIP)
    every = files + [name for own in languages.values() for name in own]
    # The cache's name changes with any file, so that a new build replaces the old cache.
    digest = hashlib.sha256()
    for name in every:
        digest.update(name.encode() + b"\0" + hashlib.sha256((out / name).read_bytes()).digest())
    gzipped = write_gzip_copies(out, every)
    template = static.joinpath(SERVICE_WORKER).read_text(encoding="utf-8")
    sw = (template.replace("__CACHE__", f"getaway-ref-{digest.hexdigest()[:16]}")
          .replace("__FILES__", json.dumps(files)).replace("__LANGUAGES__", json.dumps(languages))
          .replace("__GZIPPED__", json.dumps(gzipped)))
    every.extend(f"{name}.gz" for name in gzipped)
    (out / SERVICE_WORKER).write_text(sw, encoding="utf-8")
    every.append(SERVICE_WORKER)
    (out / MARK).write_text(f"written by getaway-ref site; pyodide {PYODIDE_VERSION}\n", encoding="utf-8")
    return every


def site_command(out: Path, pyodide: Path | None = None) -> int:
    """``getaway-ref site -o DIR``: the exit code (2 when the site cannot be built)."""
    try:
        files = build_site(out, pyodide)
    except (SiteError, OSError) as e:
        raise UsageError(str(e) if isinstance(e, SiteError) else cannot_write(out, e)) from None
    size = sum((out / f).stat().st_size for f in files)
    print(L.ngettext("wrote {folder}/ ({n} file, {size} MB; pyodide {version}): serve it with any web server and "
                     "open {page}", "wrote {folder}/ ({n} files, {size} MB; pyodide {version}): serve it with any web "
                     "server and open {page}", len(files)).format(folder=out, n=len(files), size=f"{size / 1e6:.1f}",
                                                                  version=PYODIDE_VERSION, page=INDEX_PAGE))
    return 0
