"""WinoMT's tests; what they need beyond the base install."""

#: the skip reason of a test that needs spaCy, its French model, eflomal or pymorphy3
WINOMT_EXTRA = "needs the winomt extra: pip install -e '.[winomt]'"
