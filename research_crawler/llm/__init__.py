"""Model clients, token and cost accounting, and the simulated model."""
