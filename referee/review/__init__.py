"""Game review: the exact endgame solver, a verdict on every play, each seat's chances."""
