"""Translation: prompts, the runner, the engine and its request cache, the backends, post-processing
and extraction."""

