"""Named configurations shipped as TOML files (`Settings.from_preset`): ``paper`` and ``default``."""
