"""List prices of hosted models (input, cached input, output per million tokens), kept as data in `prices.toml`.

`ModelPrice` is one model's row; `list_prices()` the packaged table that `models.prices_per_million` starts from.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from research_crawler.errors import ConfigError

__all__ = ["ModelPrice", "list_prices"]


class ModelPrice(BaseModel):
    """USD per million tokens of one model. Also written as a list: ``[input, output]`` or
    ``[input, cached_input, output]``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    input: float = Field(ge=0, description="USD per million input tokens.")
    cached_input: float | None = Field(
        None, ge=0, description="USD per million input tokens served from the provider's prompt cache (None: input)."
    )
    output: float = Field(ge=0, description="USD per million output tokens.")

    @model_validator(mode="before")
    @classmethod
    def _from_list(cls, value: Any) -> Any:
        if isinstance(value, Sequence) and not isinstance(value, str | bytes):
            numbers = list(value)
            if len(numbers) == 2:
                return {"input": numbers[0], "output": numbers[1]}
            if len(numbers) == 3:
                return {"input": numbers[0], "cached_input": numbers[1], "output": numbers[2]}
            raise ValueError(f"a price is [input, output] or [input, cached_input, output], not {numbers!r}")
        return value

    @property
    def cached_input_price(self) -> float:
        """USD per million cached input tokens (the input price when the model has no cached-input price)."""
        return self.input if self.cached_input is None else self.cached_input

    def cost(self, *, input_tokens: int, output_tokens: int, cached_input_tokens: int = 0) -> float:
        """USD for one call; `cached_input_tokens` are part of `input_tokens`, priced at the cached rate."""
        if min(input_tokens, output_tokens, cached_input_tokens) < 0:
            raise ValueError(f"token counts must be >= 0, got {input_tokens}, {output_tokens}, {cached_input_tokens}")
        cached = min(cached_input_tokens, input_tokens)
        fresh = input_tokens - cached
        return (fresh * self.input + cached * self.cached_input_price + output_tokens * self.output) / 1_000_000

    def describe(self) -> str:
        """'$2.50 in, $1.25 cached, $10.00 out per 1M tokens'."""
        return f"{_usd(self.input)} in, {_usd(self.cached_input_price)} cached, {_usd(self.output)} out per 1M tokens"


def _usd(amount: float) -> str:
    """$2.50, $0.075, $0.005: cents always, fractions of a cent when the price has them."""
    text = f"{amount:.4f}".rstrip("0")
    return f"${text}{'0' * max(0, 2 - len(text.split('.')[1]))}"


@cache
def _packaged() -> dict[str, ModelPrice]:
    text = resources.files("research_crawler.config").joinpath("prices.toml").read_text(encoding="utf-8")
    try:
        return {name: ModelPrice.model_validate(row) for name, row in tomllib.loads(text).items()}
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        raise ConfigError(f"research_crawler/config/prices.toml is not a valid price table: {exc}") from exc


def list_prices() -> dict[str, ModelPrice]:
    """The packaged list prices, by model name (a new dict each call)."""
    return dict(_packaged())
