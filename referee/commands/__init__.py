"""The command layer's shared part: what every command takes (``options.py``: the usage
error, the rules options, the files given, and ``check``'s options declared once).

The commands themselves sit beside it (``check.py``, ``tally.py``) and above the modules they
drive; ``referee/cli.py`` and ``referee/_start.py`` read the command line and call them. This
package's root imports only ``options.py``, so that ``table/`` and ``selfplay/`` may take the
shared options without loading a command (docs/architecture.md, "The command layer").
"""

from referee.commands.options import UsageError, expand, rules_options

__all__ = ["UsageError", "expand", "rules_options"]
