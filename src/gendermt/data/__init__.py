"""Data in and out: public data sets and their sources, subsets, the files the tools read and the
results they write (never half-written), the JSON the commands print and progress lines."""
