"""Self-play and tournaments."""
