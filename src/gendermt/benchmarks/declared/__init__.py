"""Benchmarks declared as data: one YAML file (``resources/benchmarks/<name>/benchmark.yaml``)
per benchmark of one common shape (a source per gender or one shared, a reference and/or a
gendered-word list per gender, target languages, a prompt), made into a data stage, inputs,
scoring, tables, a figure, a scorecard column and ``gendermt score <name>`` by the generic
code of this package (docs/declared-benchmarks.md)."""
