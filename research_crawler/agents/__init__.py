"""The LLM agents of the group chat, one module each, and the speaker-selection state machine."""
