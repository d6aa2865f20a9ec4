"""Judging: the referee replays a record through the engine; penalties and the look-ahead that tells whether the table applied them."""
