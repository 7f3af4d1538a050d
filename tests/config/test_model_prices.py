"""The list prices: the packaged table (input, cached input, output per million tokens), written as a table or a
list, and changed or extended by the settings without losing the rest of the table."""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest
from pydantic import ValidationError

from research_crawler.config.model_prices import ModelPrice, list_prices
from research_crawler.config.settings import ModelSettings, Settings


def test_the_packaged_table_prices_the_default_models_with_their_cached_input() -> None:
    prices = list_prices()
    defaults = ModelSettings()
    for model in (defaults.strong_model, defaults.cheap_model):
        price = prices[model]
        assert 0 < price.cached_input_price < price.input < price.output, model
    assert prices["gpt-4o"] == ModelPrice(input=2.5, cached_input=1.25, output=10.0)
    raw = tomllib.loads(resources.files("research_crawler.config").joinpath("prices.toml").read_text("utf-8"))
    assert set(raw) == set(prices), "every row of prices.toml is a model's price"
    assert ModelSettings().prices_per_million == prices


def test_a_price_is_a_table_or_a_list_and_a_model_without_a_cached_price_pays_its_input_price() -> None:
    assert ModelPrice.model_validate([1.0, 2.0]) == ModelPrice(input=1.0, output=2.0)
    assert ModelPrice.model_validate((1.0, 0.25, 2.0)).cached_input_price == 0.25
    assert ModelPrice(input=3.0, output=4.0).cached_input_price == 3.0
    for bad in ([1.0], [1.0, 2.0, 3.0, 4.0], [-1.0, 2.0], {"input": 1.0}):
        with pytest.raises(ValidationError):
            ModelPrice.model_validate(bad)


def test_cost_counts_cached_input_at_its_price_and_never_more_than_the_input() -> None:
    price = ModelPrice(input=2.5, cached_input=1.25, output=10.0)
    assert price.cost(input_tokens=4000, output_tokens=100, cached_input_tokens=1024) == pytest.approx(
        (2976 * 2.5 + 1024 * 1.25 + 100 * 10.0) / 1e6
    )
    assert price.cost(input_tokens=100, output_tokens=0, cached_input_tokens=500) == pytest.approx(100 * 1.25 / 1e6)
    with pytest.raises(ValueError, match=">= 0"):
        price.cost(input_tokens=1, output_tokens=1, cached_input_tokens=-1)
    assert price.describe() == "$2.50 in, $1.25 cached, $10.00 out per 1M tokens"
    assert ModelPrice(input=0.15, cached_input=0.075, output=0.6).describe() == (
        "$0.15 in, $0.075 cached, $0.60 out per 1M tokens"
    )


def test_settings_change_or_add_a_model_and_keep_the_other_list_prices(monkeypatch: pytest.MonkeyPatch) -> None:
    changed = {"my-model": [1.0, 0.1, 2.0], "gpt-4o": {"input": 3, "output": 9}}
    settings = Settings(models={"prices_per_million": changed})
    prices = settings.models.prices_per_million
    assert prices["my-model"] == ModelPrice(input=1.0, cached_input=0.1, output=2.0)
    assert prices["gpt-4o"] == ModelPrice(input=3.0, output=9.0)
    assert prices["gpt-4o-mini"] == list_prices()["gpt-4o-mini"]
    monkeypatch.setenv("RESEARCH_CRAWLER_MODELS__PRICES_PER_MILLION", '{"local-llama": [0, 0]}')
    from_environment = Settings().models.prices_per_million
    assert from_environment["local-llama"].input == 0 and "gpt-4o" in from_environment
