"""Model clients, token and cost accounting, and the simulated model. Import the module you need: this package
imports nothing, so that a command that needs no model never loads the OpenAI SDK or AG2."""
