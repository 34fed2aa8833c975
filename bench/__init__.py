"""Benchmarks: `make bench` (python3 tasks.py bench). Never run by the test suite."""
