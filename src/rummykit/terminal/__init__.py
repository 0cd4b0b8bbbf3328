"""Terminal front ends (plain text in, plain text out)."""
