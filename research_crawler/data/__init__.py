"""Data files shipped with the package (the default site pool)."""
