"""The rules engine: cards as small ints, rule sets, and the state of a game with what may happen next."""
