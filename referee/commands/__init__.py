"""The command layer's shared part: what every command takes (``options.py``: the usage
error, the rules options, the files given, and ``check``'s options declared once) and the one
ending of a closed pipe (``pipes.py``).

One level of the command layer, below the commands that use it: ``archive/``, ``table/``,
``selfplay/`` and ``review/`` take the shared options from here, and the commands' bodies
(``referee/check.py``, ``referee/tally.py``, ``referee/tools.py``) sit above them;
``referee/cli.py`` and ``referee/_start.py`` read the command line and call them. This
package's root imports only ``options.py`` (docs/architecture.md, "What each stage may
import").
"""

from referee.commands.options import UsageError, expand, rules_options

__all__ = ["UsageError", "expand", "rules_options"]
