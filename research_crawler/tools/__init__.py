"""What an LLM calls: each agent's tools, and the exploration state they act on (with stuck detection)."""
