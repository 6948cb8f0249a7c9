"""One folder per benchmark: its code, rule file, job scripts, report captions, prompt templates and
config schema."""
