"""Token prices, to put a dollar figure on a campaign.

Prices are USD per million tokens (input, output). The built-in table is small and
only a convenience: published prices change, so a campaign that matters should pass
`--price-in/--price-out` or a `--prices FILE` (YAML or JSON: `{model: {in: X, out: Y}}`),
which overrides the table. Unknown models cost 0 and the report says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tb_env.errors import ConfigError

BUILTIN: dict[str, tuple[float, float]] = {
    # illustrative list prices (USD per 1M tokens, input/output); override for real figures
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "oracle": (0.0, 0.0),
    "noisy-oracle": (0.0, 0.0),
}


def load_prices(path: str | Path | None) -> dict[str, tuple[float, float]]:
    table = dict(BUILTIN)
    if path is None:
        return table
    p = Path(path)
    try:
        data = json.loads(p.read_text()) if p.suffix == ".json" else yaml.safe_load(p.read_text())
    except (OSError, ValueError, yaml.YAMLError) as exc:
        raise ConfigError(f"cannot read price file {p}: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{p}: a price file maps model names to {{in: X, out: Y}}")
    for model, entry in data.items():
        try:
            table[str(model)] = (float(entry["in"]), float(entry["out"]))
        except (TypeError, KeyError, ValueError):
            raise ConfigError(f"{p}: entry {model!r} needs numeric 'in' and 'out' (USD per 1M tokens)") from None
    return table


def price_for(
    model: str, price_in: float | None, price_out: float | None, table: dict[str, tuple[float, float]]
) -> tuple[float, float, bool]:
    """(input price, output price, known) for a model; explicit prices win over the table."""
    if price_in is not None or price_out is not None:
        return price_in or 0.0, price_out or 0.0, True
    if model in table:
        return (*table[model], True)
    return 0.0, 0.0, False


def cost_usd(tokens_in: int, tokens_out: int, price_in: float, price_out: float) -> float:
    return (tokens_in * price_in + tokens_out * price_out) / 1e6
