"""One scorecard across benchmarks: every system's headline bias figures, side by side.

The scorecard reads each benchmark's own result tables (it recomputes no metric), picks the
benchmark's baseline / zero-shot run, and lays the figures out one row per system:
:mod:`.figures` (what is read from where), :mod:`.gap` (bootstrap CIs of FairTranslate's
gender gaps, from the per-item scores), :mod:`.build` (the scorecard), :mod:`.write`
(CSV, Markdown, LaTeX, JSON), :mod:`.heatmap` (the figure), :mod:`.cli` (``gendermt
scorecard``).
"""
