"""Statistics and tables shared by the benchmarks."""
