"""Reliability tests: hostile repositories, damaged caches, signals and file-system faults."""
