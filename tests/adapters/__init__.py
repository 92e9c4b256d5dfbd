"""Trainer adapter tests (TRL, verl, SkyRL): real framework classes, on the CPU."""
