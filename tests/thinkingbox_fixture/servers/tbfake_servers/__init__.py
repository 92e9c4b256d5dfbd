"""A stand-in for ThinkingBox's servers package, for tests (same module layout and reserved tools)."""
