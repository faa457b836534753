"""The extractor's interpreter in parts, one concern per module.

:class:`apiscan.extract.api_uses.Extractor` walks one module; its methods are grouped by
concern into mixin classes here, the way mypy keeps semantic analysis, expression checking
and member lookup apart, so that each concern can be read alone. The mixins are never
instantiated on their own: they read the walker's state that ``Extractor.__init__``
declares and reach each other's methods through ``self``. :mod:`.base` holds the records
and helpers they share; it imports no part, and no part imports ``api_uses``.
"""
