"""The foundation every other package stands on: the error type everything raises, the
benchmark contract and its registry, and what each translation backend is. It imports nothing
of the packages above it (tests/unit/test_package_layers.py)."""
