"""Package list for setuptools: the root folders `adapters/` and `tasks/` ship as
`tb_env.adapters` and `tb_env.tasks` (mapped by `package-dir` in pyproject.toml)."""

from setuptools import find_packages, setup

packages = find_packages(include=["tb_env", "tb_env.*"])
for root in ("adapters", "tasks"):
    packages.append(f"tb_env.{root}")
    packages += [f"tb_env.{root}.{sub}" for sub in find_packages(root)]

setup(
    packages=packages,
    package_dir={"tb_env": "tb_env", "tb_env.adapters": "adapters", "tb_env.tasks": "tasks"},
)
