"""Archives: checking many files and games, streaming, in worker processes."""
