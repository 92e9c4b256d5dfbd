"""The built-in domain packs, one folder per domain; installed as `tb_env.tasks`."""
