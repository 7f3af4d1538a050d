"""The serve section of `Settings`: where the web app (`research-crawler serve`) listens and what it allows.

Binding anything but a loopback address needs `token`; the server refuses to start without one.
"""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator

from research_crawler.config.settings_section import SettingsSection

__all__ = ["ServeSettings"]


class ServeSettings(SettingsSection):
    """The web app's address, access token and limits."""

    host: str = Field("127.0.0.1", min_length=1, description="Address the web app binds (loopback by default).")
    port: int = Field(8765, ge=0, le=65535, description="Port the web app listens on (0: any free port).")
    token: SecretStr | None = Field(
        None,
        description="Access token checked on every request (required to bind a non-loopback address); the page is "
        "opened once as /?token=TOKEN, which sets a cookie. Environment: RESEARCH_CRAWLER_SERVE__TOKEN.",
    )
    max_concurrent_runs: int = Field(
        2, ge=1, le=64, description="Runs the web app lets work at once; one more is refused with 429."
    )
    max_body_bytes: int = Field(
        64 * 1024, ge=1024, le=16 * 1024 * 1024, description="Largest request body accepted (413 beyond)."
    )
    max_listed_runs: int = Field(200, ge=1, le=10_000, description="Past runs listed from runs_dir, newest first.")

    @field_validator("token")
    @classmethod
    def _empty_token_is_none(cls, value: SecretStr | None) -> SecretStr | None:
        return value if value is not None and value.get_secret_value().strip() else None
