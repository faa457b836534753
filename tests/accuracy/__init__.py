"""Package marker: lets ``accuracy.test_owners`` coexist with ``tests/extract/test_owners.py``."""
