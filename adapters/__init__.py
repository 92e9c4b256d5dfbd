"""Trainer integrations (TRL, verl, SkyRL), importable as `tb_env.adapters.*`."""
