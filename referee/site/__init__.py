"""``getaway-ref site`` and ``getaway-ref link``: the referee as a static site that runs in the
browser with no server and no network (issue 39), and a game as a link to it.

The site is a folder: the page (``static/``), the Pyodide runtime copied from the ``pyodide``
npm package (CPython compiled to WebAssembly, pinned to :data:`PYODIDE_VERSION`; never fetched
at run time), and one zip of the pure-Python package, ``lark`` and ``rich`` as installed here
(the ``referee`` sources without compiled modules, the grammar and the documents the
package reads). A Web Worker runs the command line's own commands on it
(``referee/site/browser.py``); a service worker caches every file, so that after the first
visit the page works offline. docs/offline.md is its user's page.

This module holds only what the pieces share, so that the page's Python (``browser.py``)
imports nothing of the builder: ``build.py`` writes the site, ``link.py`` makes a game's link.
"""

from __future__ import annotations

PYODIDE_VERSION = "314.0.7"  # the runtime the site is built and tested with
INSTALL_HINT = f"npm install pyodide@{PYODIDE_VERSION}"
PYODIDE_ENV = "GETAWAY_PYODIDE"  # the folder of the pyodide npm package, when not given by --pyodide
FRAGMENT = "g="  # a link's fragment: g=<the game, deflated (zlib) and base64url>
