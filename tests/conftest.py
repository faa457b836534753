"""Shared test set-up: this directory is importable (``scan_helpers``)."""
