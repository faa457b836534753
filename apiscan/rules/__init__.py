"""The rule catalogue: each check is a documented class with an id (``apiscan rules``).

Import :mod:`apiscan.rules.registry` for the rules themselves; this package stays empty so that
the extractor's workers can import :mod:`apiscan.rules.suppression` without loading them.
"""
