"""Scoring translations: sacrebleu metrics on CPU, COMET in its own GPU job."""
