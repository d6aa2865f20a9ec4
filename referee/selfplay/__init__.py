"""Self-play: bots that play whole games through the engine."""
