"""The pure rules core: standard library only, no I/O, deterministic given a seed."""
