"""One subpackage per benchmark: its loader, prompts and analyses."""
