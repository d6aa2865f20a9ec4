"""Who plays: the exact endgame solver and the bundled bots, below both ``review/`` and ``selfplay/``."""
